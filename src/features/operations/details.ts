// Show Operation Details: a read-only document per operation that follows the operation while it is
// open (its state, progress, the last Check Again), so it never stays at "State: running" after the
// operation ended.
import * as vscode from 'vscode';
import type { OperationsRegistry } from './registry';
import { operationDetails, serverOperationDetails } from './view';

export const DETAILS_SCHEME = 'cloudbench-operation';

export class OperationDetailsDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The documents asked for, by operation id: each is told when its operation changes. */
  private readonly shown = new Map<number, vscode.Uri>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly registry: OperationsRegistry) {
    this.subscription = registry.onDidChange(() => {
      for (const uri of this.shown.values()) this.changed.fire(uri);
    });
  }

  /** The document of operation `id` ("Operation 3: Copy model …"). */
  uriOf(id: number, title: string): vscode.Uri {
    // The title is the tab's name only; the id in the path decides the content.
    const name = title.replace(/[/\\?#%]/g, ' ').slice(0, 80);
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${id}/${name}` });
  }

  /** The document of an operation the server listed (started elsewhere), by its name. */
  uriOfServer(name: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: DETAILS_SCHEME,
      path: `/server/${name.split('/').pop() ?? 'operation'}`,
      query: name,
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.path.startsWith('/server/')) {
      const op = this.registry.server.get(uri.query);
      return op
        ? serverOperationDetails(op)
        : 'This operation is no longer listed by the server (finished over an hour ago, or forgotten); refresh the Operations view.';
    }
    const id = Number(uri.path.split('/')[1]);
    const op = Number.isInteger(id) ? this.registry.get(id) : undefined;
    if (!op) return 'This operation is no longer listed in the Operations view (cleared, or from before a reload).';
    this.shown.set(id, uri);
    return operationDetails(op);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
