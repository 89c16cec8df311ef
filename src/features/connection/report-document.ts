// Check Connection's report as a read-only virtual document (cloudbench-report:), never an untitled
// editor: no dirty dot, no Explorer badge, nothing to save and no question when it is closed.
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'cloudbench-report';

/** The reports of this window by path; each check replaces the one before it. */
export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly reports = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.reports.get(uri.path) ?? 'This report is no longer available; run Cloudbench: Check Connection again.';
  }

  /** Keeps `text` as the report at `path` and returns its read-only URI. */
  publish(path: string, text: string): vscode.Uri {
    this.reports.set(path, text);
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path });
    this.changed.fire(uri);
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Opens a report in a read-only preview tab; its path ends in .md, so VS Code reads it as Markdown. */
export async function showReport(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}
