// The statistics webview panel: one, created on first use and revealed afterwards, held by the
// statistics feature in an OpenPanels. Its life (rendering, "ready", the queue, restore) is the one
// PagePanel; this module keeps what is the statistics page's own: its protocol and its queue policy.
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { getLogger } from '../../platform/log';
import { OpenPanels } from '../../platform/open-panels';
import { PagePanel, type PageSpec } from '../../platform/page-panel';
import { webviewPanelOptions } from '../../platform/webview';
import {
  parseFromStatsView,
  StatsMessageError,
  type FromStatsView,
  type ToStatsView,
} from '../../core/secops/statistics/protocol';

const log = getLogger('statistics');
export const STATISTICS_VIEW_TYPE = 'cloudbench.search.statistics';
/** A context key, true once a statistics panel was shown in this window. */
export const STATISTICS_SHOWN_CONTEXT = 'cloudbench.statisticsShown';
const SLOT = 'statistics';

const STATS_PAGE: PageSpec<FromStatsView, ToStatsView> = {
  page: { bundle: 'stats', title: 'UDM Statistics' },
  what: 'the statistics page',
  parse: parseFromStatsView,
  malformed: StatsMessageError,
  log,
  // A new run or a new table is all a page that has not started yet needs to show.
  replacesQueued: (message) => message.type === 'table' || message.type === 'running',
};

/** The one statistics panel of a window: created on first use, revealed afterwards. */
export class StatisticsPanelSlot extends OpenPanels<StatisticsPanel> {
  show(extensionUri: vscode.Uri, onMessage: (message: FromStatsView) => void): StatisticsPanel {
    const p = this.showOrCreate(
      SLOT,
      (closed) => {
        const panel = vscode.window.createWebviewPanel(
          STATISTICS_VIEW_TYPE,
          'UDM Statistics',
          { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
          webviewPanelOptions(extensionUri),
        );
        return new StatisticsPanel(panel, extensionUri, closed);
      },
      (existing) => existing.reveal(),
    );
    p.onMessage(onMessage);
    // The Get Started walkthrough checks its statistics step by this key.
    void vscode.commands.executeCommand('setContext', STATISTICS_SHOWN_CONTEXT, true);
    return p;
  }

  /** Wraps the panel VS Code restored after a reload (it becomes the one statistics panel). */
  adopt(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: (message: FromStatsView) => void,
  ): StatisticsPanel {
    // A second restored panel (from an older layout) is the one shown from now on.
    const p = this.add(SLOT, (closed) => new StatisticsPanel(panel, extensionUri, closed));
    p.onMessage(onMessage);
    return p;
  }
}

export class StatisticsPanel implements vscode.Disposable {
  private readonly page: PagePanel<FromStatsView, ToStatsView>;
  private handler: (message: FromStatsView) => void = () => undefined;

  constructor(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, closed: () => void = () => undefined) {
    this.page = new PagePanel(
      panel,
      extensionUri,
      STATS_PAGE,
      {
        onMessage: (message) => {
          if (message.type !== 'ready') this.handler(message);
        },
      },
      closed,
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.page.panel;
  }

  /** Where the page's messages go (the run that shows its table now). */
  onMessage(handler: (message: FromStatsView) => void): void {
    this.handler = handler;
  }

  setTitle(title: string): void {
    this.page.setTitle(safeText(title, 'plain', 58));
  }

  reveal(): void {
    this.page.reveal();
  }

  post(message: ToStatsView): void {
    this.page.post(message);
  }

  dispose(): void {
    this.page.dispose();
  }
}
