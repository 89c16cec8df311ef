// The results webview panel: one for query runs and one for pivots, each created on first use and
// reused (revealed) afterwards. Messages from the page are validated before anything acts on them.
import * as vscode from 'vscode';
import { MessageError, parseFromWebview, type FromWebview, type ToWebview } from '../../core/secops/messages';
import { getLogger } from '../../platform/log';
import { renderWebviewPage, webviewAsset, webviewPanelOptions } from '../../platform/webview';

const log = getLogger('search');

export type PanelSlot = 'query' | 'pivot';

export class ResultsPanel implements vscode.Disposable {
  private static readonly panels = new Map<PanelSlot, ResultsPanel>();
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private queue: ToWebview[] = [];

  /** The panel of a slot, created and revealed (beside the editor) when needed. */
  static show(
    slot: PanelSlot,
    extensionUri: vscode.Uri,
    onMessage: (message: FromWebview, panel: ResultsPanel) => void,
  ): ResultsPanel {
    const existing = ResultsPanel.panels.get(slot);
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      slot === 'query' ? 'cloudbench.search.results' : 'cloudbench.search.pivot',
      slot === 'query' ? 'UDM Search Results' : 'SecOps Pivot',
      // Pivots open as a tab beside the results they came from, not in yet another column.
      {
        viewColumn:
          (slot === 'pivot' ? ResultsPanel.panels.get('query')?.panel.viewColumn : undefined) ??
          vscode.ViewColumn.Beside,
        preserveFocus: true,
      },
      webviewPanelOptions(extensionUri),
    );
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
    const created = new ResultsPanel(slot, panel, extensionUri, onMessage);
    ResultsPanel.panels.set(slot, created);
    return created;
  }

  static get(slot: PanelSlot): ResultsPanel | undefined {
    return ResultsPanel.panels.get(slot);
  }

  static disposeAll(): void {
    for (const p of [...ResultsPanel.panels.values()]) p.panel.dispose();
  }

  private constructor(
    readonly slot: PanelSlot,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: (message: FromWebview, panel: ResultsPanel) => void,
  ) {
    panel.webview.html = renderHtml(panel.webview, extensionUri, slot);
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((raw: unknown) => {
        let message: FromWebview;
        try {
          message = parseFromWebview(raw);
        } catch (err) {
          log.warn(
            `ignored a malformed message from the results page: ${err instanceof MessageError ? err.message : String(err)}`,
          );
          return;
        }
        if (message.type === 'ready') {
          this.ready = true;
          for (const queued of this.queue.splice(0)) void this.panel.webview.postMessage(queued);
          return;
        }
        onMessage(message, this);
      }),
    );
  }

  setTitle(title: string): void {
    this.panel.title = title.length > 60 ? `${title.slice(0, 57)}…` : title;
  }

  post(message: ToWebview): void {
    if (!this.ready) {
      // A new "results" replaces anything queued before it: only the latest state matters.
      if (message.type === 'results') this.queue = [];
      this.queue.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (ResultsPanel.panels.get(this.slot) === this) ResultsPanel.panels.delete(this.slot);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri, slot: PanelSlot): string {
  // The query panel's bar upgrades to Monaco after the table's first paint: results.js adds the
  // Monaco bundle with this page's nonce, so no script is ever allowed by anything but the nonce.
  const queryBar = slot === 'query';
  const asset = (name: string): string => webviewAsset(webview, extensionUri, name);
  return renderWebviewPage(webview, extensionUri, {
    bundle: 'results',
    title: 'UDM Search Results',
    // Monaco writes its layout and theme rules into <style> elements it creates at run time, which
    // a nonce cannot cover: inline styles (never scripts) are allowed on the page hosting it only.
    inlineStyles: queryBar,
    ...(queryBar
      ? {
          scriptAttributes: ` data-querybar-script="${asset('querybar.js')}" data-querybar-style="${asset('querybar.css')}"`,
        }
      : {}),
  });
}
