// The results webview panels: one for query runs (reused, revealed) and one per pivot, each titled by
// what it shows. Panels come back after a window reload through a serializer; messages from the page
// are validated before anything acts on them.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { MessageError, parseFromWebview, type FromWebview, type ToWebview } from '../../core/secops/messages';
import { defaultColumns, type ColumnSpec, type ResultKind } from '../../core/secops/results/fields';
import { getLogger } from '../../platform/log';
import { OpenPanels } from '../../platform/open-panels';
import { PagePanel } from '../../platform/page-panel';
import { renderWebviewPage, webviewAsset, webviewPanelOptions, type WebviewPage } from '../../platform/webview';

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
  private readonly page: PagePanel<FromWebview, ToWebview>;
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  private shownRunId: string | undefined;
  private afterPaint: { runId: string; send: () => void; timer: ReturnType<typeof setTimeout> } | undefined;
  /** The columns the page shows per kind of result, as it last said (the defaults until then). */
  private readonly shownColumns = new Map<ResultKind, ColumnSpec[]>();

  constructor(
    readonly slot: PanelSlot,
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: PanelMessageHandler,
    closed: () => void,
  ) {
    this.page = new PagePanel(
      panel,
      extensionUri,
      {
        page: pageOf(panel.webview, extensionUri, slot === QUERY_SLOT ? 'query' : 'pivot'),
        what: 'the results page',
        parse: parseFromWebview,
        malformed: MessageError,
        log,
        // Sent at once, numbered, and again after "ready": the page keeps what arrives while it
        // loads, which saves the first rows a round trip. A new "results" replaces what came before.
        early: true,
        replacesQueued: (message) => message.type === 'results',
      },
      { onMessage: (message) => this.receive(message, onMessage) },
      () => {
        this.stop();
        closed();
      },
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.page.panel;
  }

  private receive(message: FromWebview, onMessage: PanelMessageHandler): void {
    if (message.type === 'ready') return;
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
  }

  setTitle(title: string): void {
    this.page.setTitle(safeText(title, 'plain', 58));
  }

  /** The columns whose cells the page's tables carry for a kind of result. */
  columnsFor(kind: ResultKind): ColumnSpec[] {
    return this.shownColumns.get(kind) ?? defaultColumns(kind);
  }

  reveal(): void {
    this.page.reveal();
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
    return this.page.isReady;
  }

  /** The run whose rows the panel shows now (undefined once the panel is closed). */
  get runId(): string | undefined {
    return this.page.isDisposed ? undefined : this.shownRunId;
  }

  /**
   * Posts a message to the page; `delivered` runs once VS Code has handed it over (for a message
   * posted before the page was ready, the first time it was sent).
   */
  post(message: ToWebview, delivered?: () => void): void {
    if (message.type === 'results') this.shownRunId = message.run.runId;
    this.page.post(message, delivered);
  }

  private stop(): void {
    if (this.afterPaint) clearTimeout(this.afterPaint.timer);
    this.afterPaint = undefined;
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }

  dispose(): void {
    this.page.dispose();
  }
}

export function renderHtml(webview: vscode.Webview, extensionUri: vscode.Uri, kind: 'query' | 'pivot'): string {
  return renderWebviewPage(webview, extensionUri, {
    ...pageOf(webview, extensionUri, kind),
    inlineBundle: true,
    earlyMessages: true,
  });
}

function pageOf(webview: vscode.Webview, extensionUri: vscode.Uri, kind: 'query' | 'pivot'): WebviewPage {
  // The query panel's bar upgrades to Monaco after the table's first paint: results.js adds the
  // Monaco bundle with this page's nonce, so no script is ever allowed by anything but the nonce.
  const queryBar = kind === 'query';
  const asset = (name: string): string => webviewAsset(webview, extensionUri, name);
  return {
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
  };
}
