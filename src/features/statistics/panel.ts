// The statistics webview panel: one, created on first use and revealed afterwards. Messages from the
// page are checked before anything acts on them.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { getLogger } from '../../platform/log';
import { onPageMessage, renderWebviewPage, webviewPanelOptions } from '../../platform/webview';
import {
  parseFromStatsView,
  StatsMessageError,
  type FromStatsView,
  type ToStatsView,
} from '../../core/secops/statistics/protocol';

const log = getLogger('statistics');
export const STATISTICS_VIEW_TYPE = 'cloudbench.search.statistics';

/** The one statistics panel of a window: created on first use, revealed afterwards. */
export class StatisticsPanelSlot {
  private current: StatisticsPanel | undefined;

  show(extensionUri: vscode.Uri, onMessage: (message: FromStatsView) => void): StatisticsPanel {
    let p = this.current;
    if (p) {
      p.panel.reveal(p.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
    } else {
      const panel = vscode.window.createWebviewPanel(
        STATISTICS_VIEW_TYPE,
        'UDM Statistics',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        webviewPanelOptions(extensionUri),
      );
      panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
      p = this.hold(new StatisticsPanel(panel, extensionUri));
    }
    p.onMessage(onMessage);
    return p;
  }

  /** Wraps the panel VS Code restored after a reload (it becomes the one statistics panel). */
  adopt(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: (message: FromStatsView) => void,
  ): StatisticsPanel {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
    // A second restored panel (from an older layout) is the one shown from now on.
    const p = this.hold(new StatisticsPanel(panel, extensionUri));
    p.onMessage(onMessage);
    return p;
  }

  get(): StatisticsPanel | undefined {
    return this.current;
  }

  disposeAll(): void {
    this.current?.panel.dispose();
  }

  private hold(p: StatisticsPanel): StatisticsPanel {
    this.current = p;
    p.onDidDispose(() => {
      if (this.current === p) this.current = undefined;
    });
    return p;
  }
}

export class StatisticsPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private queue: ToStatsView[] = [];
  private handler: (message: FromStatsView) => void = () => undefined;
  private disposed: () => void = () => undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
  ) {
    panel.webview.html = renderWebviewPage(panel.webview, extensionUri, { bundle: 'stats', title: 'UDM Statistics' });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      onPageMessage(panel.webview, 'the statistics page', parseFromStatsView, StatsMessageError, log, (message) => {
        if (message.type === 'ready') {
          this.ready = true;
          for (const queued of this.queue.splice(0)) void this.panel.webview.postMessage(queued);
          return;
        }
        this.handler(message);
      }),
    );
  }

  /** Where the page's messages go (the run that shows its table now). */
  onMessage(handler: (message: FromStatsView) => void): void {
    this.handler = handler;
  }

  onDidDispose(listener: () => void): void {
    this.disposed = listener;
  }

  setTitle(title: string): void {
    this.panel.title = safeText(title, 'plain', 58);
  }

  post(message: ToStatsView): void {
    if (!this.ready) {
      if (message.type === 'table' || message.type === 'running') this.queue = [];
      this.queue.push(message);
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    this.disposed();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
