// The results webview panels: one for query runs (reused, revealed) and one per pivot, each titled by
// what it shows. Panels come back after a window reload through a serializer; messages from the page
// are validated before anything acts on them.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { MessageError, parseFromWebview, type FromWebview, type ToWebview } from '../../core/secops/messages';
import { defaultColumns, type ColumnSpec, type ResultKind } from '../../core/secops/results/fields';
import { getLogger } from '../../platform/log';
import { OpenPanels } from '../../platform/open-panels';
import { onPageMessage, renderWebviewPage, webviewAsset, webviewPanelOptions } from '../../platform/webview';

const log = getLogger('search');

/** "query" is the one panel of query runs; every pivot has its own key. */
export type PanelSlot = string;
export const QUERY_SLOT = 'query';
export const RESULTS_VIEW_TYPE = 'cloudbench.search.results';
export const PIVOT_VIEW_TYPE = 'cloudbench.search.pivot';

export type PanelMessageHandler = (message: FromWebview, panel: ResultsPanel) => void;

/** The results and pivot panels of a window, by slot; the search holds it. */
export class ResultsPanels extends OpenPanels<ResultsPanel> {
  private pivotCounter = 0;

  /** The panel of a slot, created and revealed (beside the editor) when needed. */
  show(slot: PanelSlot, extensionUri: vscode.Uri, onMessage: PanelMessageHandler): ResultsPanel {
    const existing = this.get(slot);
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
      return existing;
    }
    const isQuery = slot === QUERY_SLOT;
    const panel = vscode.window.createWebviewPanel(
      isQuery ? RESULTS_VIEW_TYPE : PIVOT_VIEW_TYPE,
      isQuery ? 'UDM Search Results' : 'SecOps Pivot',
      // Pivots open as tabs beside the results they came from, not in yet another column.
      {
        viewColumn: (isQuery ? undefined : this.get(QUERY_SLOT)?.panel.viewColumn) ?? vscode.ViewColumn.Beside,
        preserveFocus: true,
      },
      webviewPanelOptions(extensionUri),
    );
    return this.adopt(slot, panel, extensionUri, onMessage);
  }

  /** Wraps a panel VS Code created (a new one, or one it restored after a reload). */
  adopt(
    slot: PanelSlot,
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: PanelMessageHandler,
  ): ResultsPanel {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
    return this.add(slot, (closed) => new ResultsPanel(slot, panel, extensionUri, onMessage, closed));
  }

  /** A key for a new pivot panel. */
  nextPivotSlot(): PanelSlot {
    return `pivot-${++this.pivotCounter}`;
  }
}

export class ResultsPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  private ready = false;
  /** Messages posted before the page said it was ready: sent at once, and again once it is. */
  private queue: Array<{ seq: number; message: ToWebview }> = [];
  private seq = 0;
  private disposed = false;
  private shownRunId: string | undefined;
  private afterPaint: { runId: string; send: () => void; timer: ReturnType<typeof setTimeout> } | undefined;
  /** The columns the page shows per kind of result, as it last said (the defaults until then). */
  private readonly shownColumns = new Map<ResultKind, ColumnSpec[]>();

  constructor(
    readonly slot: PanelSlot,
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: PanelMessageHandler,
    private readonly closed: () => void,
  ) {
    panel.webview.html = renderHtml(panel.webview, extensionUri, slot === QUERY_SLOT ? 'query' : 'pivot');
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      onPageMessage(panel.webview, 'the results page', parseFromWebview, MessageError, log, (message) => {
        if (message.type === 'ready') {
          // npm run bench -- editor reads this line (the run that opens the panel waits for it).
          if (!this.ready) log.info(`the results page is ready; ${this.queue.length} messages waited for it`);
          this.ready = true;
          // Those the page took as they came it recognises by their number and leaves alone.
          for (const { seq, message: queued } of this.queue.splice(0)) this.send({ ...queued, seq });
          return;
        }
        if (message.type === 'painted') {
          if (this.afterPaint?.runId === message.runId) this.flushAfterPaint();
          return;
        }
        if (message.type === 'columns') {
          if (message.columns.length) this.shownColumns.set(message.kind, message.columns);
          else this.shownColumns.delete(message.kind);
          return;
        }
        onMessage(message, this);
      }),
    );
  }

  setTitle(title: string): void {
    this.panel.title = safeText(title, 'plain', 58);
  }

  /** The columns whose cells the page's tables carry for a kind of result. */
  columnsFor(kind: ResultKind): ColumnSpec[] {
    return this.shownColumns.get(kind) ?? defaultColumns(kind);
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
  }

  /**
   * Runs `send` once the page says the first rows of `runId` are on screen, so that a large message
   * does not hold up the small first one anywhere on the way (extension host, editor window,
   * webview); after `fallbackMs` it runs anyway (a hidden panel paints nothing until it is shown).
   */
  whenPainted(runId: string, send: () => void, fallbackMs: number): void {
    if (this.afterPaint) clearTimeout(this.afterPaint.timer);
    this.afterPaint = { runId, send, timer: setTimeout(() => this.flushAfterPaint(), fallbackMs) };
  }

  private flushAfterPaint(): void {
    const pending = this.afterPaint;
    this.afterPaint = undefined;
    if (!pending) return;
    clearTimeout(pending.timer);
    if (this.runId === pending.runId) pending.send();
  }

  /** Whether the page has loaded and takes messages (until then they wait in a queue). */
  get isReady(): boolean {
    return this.ready && !this.disposed;
  }

  /** The run whose rows the panel shows now (undefined once the panel is closed). */
  get runId(): string | undefined {
    return this.disposed ? undefined : this.shownRunId;
  }

  /**
   * Posts a message to the page; `delivered` runs once VS Code has handed it over (for a message
   * posted before the page was ready, the first time it was sent).
   */
  post(message: ToWebview, delivered?: () => void): void {
    if (message.type === 'results') this.shownRunId = message.run.runId;
    if (!this.ready) {
      // Sent at once, numbered: the page keeps what arrives while it loads and takes it in order,
      // which saves the first rows a round trip. Kept too, to send again once the page says it is
      // ready: VS Code may have handed some over before the page could keep them. A new "results"
      // replaces anything before it: only the latest state matters.
      const seq = ++this.seq;
      if (message.type === 'results') this.queue = [];
      this.queue.push({ seq, message });
      this.send({ ...message, seq }, delivered);
      return;
    }
    this.send(message, delivered);
  }

  private send(message: ToWebview & { seq?: number }, delivered?: () => void): void {
    const posted = Promise.resolve(this.panel.webview.postMessage(message));
    if (delivered) posted.then(delivered, () => undefined);
    else void posted.catch(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    if (this.afterPaint) clearTimeout(this.afterPaint.timer);
    this.afterPaint = undefined;
    this.closed();
    for (const d of this.disposables.splice(0)) d.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }
}

export function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri, kind: 'query' | 'pivot'): string {
  // The query panel's bar upgrades to Monaco after the table's first paint: results.js adds the
  // Monaco bundle with this page's nonce, so no script is ever allowed by anything but the nonce.
  const queryBar = kind === 'query';
  const asset = (name: string): string => webviewAsset(webview, extensionUri, name);
  return renderWebviewPage(webview, extensionUri, {
    bundle: 'results',
    title: 'UDM Search Results',
    earlyMessages: true,
    inlineBundle: true,
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
