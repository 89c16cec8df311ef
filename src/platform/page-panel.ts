// One webview panel's life, the same for every Cloudbench page: the page is rendered one way (its
// script and styles inline, run by a fresh nonce, so nothing is fetched that could race a restore);
// the page says "ready"; what the extension posts before that waits in one queue (per-page policy:
// numbered and sent at once too, or only after "ready"; which message makes the queued ones
// pointless); every message from the page is checked before anything acts on it; a panel VS Code
// restores after a reload is adopted through this same class; a page that never says it is ready
// is rendered again once; closing the panel tells the `OpenPanels` that holds it.
import * as vscode from 'vscode';
import { onPageMessage, renderWebviewPage, type WebviewPage } from './webview';

/** How long a shown page has to say it is ready before it is rendered again (once). */
export const READY_WITHIN_MS = 10_000;

/** A message a page sent that its parser refused (for pages whose parser returns undefined). */
export class PageMessageError extends Error {}

/** A page parser that returns undefined for a message it refuses, as one that throws PageMessageError. */
export function refusing<M>(parse: (raw: unknown) => M | undefined, what: string): (raw: unknown) => M {
  return (raw) => {
    const message = parse(raw);
    if (message === undefined) throw new PageMessageError(`not a message of ${what}`);
    return message;
  };
}

export interface PageLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What differs between pages: the bundle, the protocol and the queue's policy. */
export interface PageSpec<In extends { type: string }, Out extends { type: string }> {
  /** The page to render (always rendered with its bundle inline). */
  page: WebviewPage;
  /** The page as named in the log ("the statistics page"). */
  what: string;
  /** Checks a message from the page; throws an error of `malformed` when it is not one. */
  parse(raw: unknown): In;
  malformed: abstract new (...args: never[]) => Error;
  log: PageLog;
  /**
   * Posts messages at once while the page loads, numbered (`seq`), and again once it is ready; the
   * page keeps what arrives early and takes each number once. Without it, messages wait for "ready".
   */
  early?: boolean;
  /** A message that makes those still waiting for the page pointless (a new table, a new run). */
  replacesQueued?(message: Out): boolean;
  /** Overrides READY_WITHIN_MS (tests). */
  readyWithinMs?: number;
}

export interface PageHandlers<In> {
  /** Every checked message from the page ("ready" included, after the queue has gone out). */
  onMessage?(message: In): void;
  /** The page said it is ready (each time it says so: a page rendered again starts over). */
  onReady?(): void;
}

export class PagePanel<In extends { type: string }, Out extends { type: string }> implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly disposeEmitter = new vscode.EventEmitter<void>();
  readonly onDidDispose = this.disposeEmitter.event;
  private ready = false;
  private disposed = false;
  private queue: Array<{ seq: number; message: Out; delivered?: () => void }> = [];
  private seq = 0;
  private rendered = 0;
  private readyTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    private readonly spec: PageSpec<In, Out>,
    private readonly handlers: PageHandlers<In> = {},
    private readonly closed: () => void = () => undefined,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
    this.subscriptions.push(
      panel.onDidDispose(() => this.dispose()),
      onPageMessage(
        panel.webview,
        spec.what,
        (raw) => spec.parse(raw),
        spec.malformed,
        spec.log,
        (message) => this.receive(message),
      ),
    );
    // A hidden page loads nothing until it is shown: its time to say "ready" starts then, and a page
    // hidden before it said so (a restored tab the user left at once) starts over when shown again.
    if (typeof (panel as Partial<vscode.WebviewPanel>).onDidChangeViewState === 'function')
      this.subscriptions.push(
        panel.onDidChangeViewState(() => {
          if (this.ready || this.disposed) return;
          if (!panel.visible) this.clearReadyTimer();
          else if (this.readyTimer === undefined) this.watchReady();
        }),
      );
    this.render();
  }

  /** Whether the page has loaded and takes messages (until then they wait in the queue). */
  get isReady(): boolean {
    return this.ready && !this.disposed;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** How many times the page was rendered (1, or 2 after a page that did not say it was ready). */
  get renders(): number {
    return this.rendered;
  }

  /**
   * Posts a message to the page; `delivered` runs once VS Code has handed it over (for a message
   * posted before the page was ready: the first time it was sent).
   */
  post(message: Out, delivered?: () => void): void {
    if (this.disposed) return;
    if (this.ready) {
      this.send(message, delivered);
      return;
    }
    if (this.spec.replacesQueued?.(message)) this.queue = [];
    const seq = ++this.seq;
    if (this.spec.early) {
      this.queue.push({ seq, message });
      this.send({ ...message, seq }, delivered);
    } else {
      this.queue.push({ seq, message, ...(delivered ? { delivered } : {}) });
    }
  }

  setTitle(title: string): void {
    this.panel.title = title;
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clearReadyTimer();
    this.queue = [];
    this.closed();
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.disposeEmitter.fire();
    this.disposeEmitter.dispose();
  }

  private render(): void {
    this.rendered++;
    this.ready = false;
    this.panel.webview.html = renderWebviewPage(this.panel.webview, this.extensionUri, {
      ...this.spec.page,
      inlineBundle: true,
      earlyMessages: this.spec.early === true,
    });
    this.watchReady();
  }

  /** Renders the page again once if it does not say it is ready while shown (its script failed). */
  private watchReady(): void {
    this.clearReadyTimer();
    if (this.rendered > 1) return;
    const ms = this.spec.readyWithinMs ?? READY_WITHIN_MS;
    this.readyTimer = setTimeout(() => {
      this.readyTimer = undefined;
      if (this.ready || this.disposed) return;
      // A hidden page loads nothing until it is shown: its time starts then (onDidChangeViewState).
      if (this.panel.visible === false) return;
      this.spec.log.warn(`${this.spec.what} did not say it was ready within ${ms / 1000} s; rendering it again once`);
      this.render();
    }, ms);
  }

  private clearReadyTimer(): void {
    if (this.readyTimer !== undefined) clearTimeout(this.readyTimer);
    this.readyTimer = undefined;
  }

  private receive(message: In): void {
    if (this.disposed) return;
    if (message.type === 'ready') {
      this.clearReadyTimer();
      const waited = this.queue.splice(0);
      if (!this.ready) this.spec.log.info(`${this.spec.what} is ready; ${waited.length} messages waited for it`);
      this.ready = true;
      // A page that keeps early messages knows those it took by their number and leaves them alone.
      for (const { seq, message: queued, delivered } of waited)
        this.send(this.spec.early ? { ...queued, seq } : queued, this.spec.early ? undefined : delivered);
      this.handlers.onReady?.();
    }
    this.handlers.onMessage?.(message);
  }

  private send(message: Out & { seq?: number }, delivered?: () => void): void {
    const posted = Promise.resolve(this.panel.webview.postMessage(message));
    if (delivered) posted.then(delivered, () => undefined);
    else void posted.catch(() => undefined);
  }
}
