// "Show Metrics": a webview panel per evaluation or slice, with its headline metrics, curves and
// confusion matrix, a comparison with another evaluation or with the whole evaluation, and CSV
// export. One panel per resource; a deleted model or version marks its panels instead of leaving
// them showing something that no longer exists. Its life (rendering, "ready", the queue, checks on
// arrival, restore after a reload) is the one PagePanel; this module keeps the page's own work.
import { writeFileAtomic } from '../../platform/files';
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { metricsCsv } from '../../core/models/metrics';
import {
  parseMetricsFromWebview,
  type CompareCandidate,
  type MetricsFromWebview,
  type MetricsSet,
  type MetricsToWebview,
} from '../../core/models/metrics-messages';
import { describeError, isCancellation } from '../../core/google/errors';
import { OpenPanels } from '../../platform/open-panels';
import { getLogger } from '../../platform/log';
import { PageMessageError, PagePanel, refusing, type PageSpec } from '../../platform/page-panel';
import { webviewPanelOptions } from '../../platform/webview';

const log = getLogger('models');
export const METRICS_VIEW_TYPE = 'cloudbench.models.metrics';

function metricsPage(title: string): PageSpec<MetricsFromWebview, MetricsToWebview> {
  return {
    page: { bundle: 'metrics', title, placeholder: '<main id="app"><p>Loading metrics…</p></main>' },
    what: 'the metrics page',
    parse: refusing(parseMetricsFromWebview, 'the metrics page'),
    malformed: PageMessageError,
    log,
  };
}

export interface MetricsPanelSource {
  /** The evaluation or slice shown. */
  subject: MetricsSet;
  /** Model resource name (no version) and version ID the subject belongs to. */
  modelName: string;
  versionId: string;
  /** Tab title: names model, version and evaluation (and slice). */
  title: string;
  /** What the subject can be compared with; loaded when the panel opens. */
  candidates(): Promise<CompareCandidate[]>;
  /** Loads one candidate's metrics. */
  load(name: string): Promise<MetricsSet>;
  /** Compared from the start (a slice opens next to its whole evaluation). */
  initialCompare?: string;
}

function fileSafe(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'metrics'
  );
}

/**
 * The metrics panels open in a window, one per evaluation or slice; the models feature holds it
 * (and closes them all when the connection changes).
 */
export class MetricsPanels extends OpenPanels<MetricsPanel> {
  constructor(private readonly extensionUri: vscode.Uri) {
    super();
  }

  /** Opens (or reveals) the panel of `source.subject`; it lives until the user closes it. */
  show(source: MetricsPanelSource): void {
    // The registry holds the panel until it closes, and closes it with the connection.
    void this.showOrCreate(source.subject.name, (closed) => {
      const panel = vscode.window.createWebviewPanel(
        METRICS_VIEW_TYPE,
        safeText(source.title),
        vscode.ViewColumn.Active,
        webviewPanelOptions(this.extensionUri),
      );
      return new MetricsPanel(panel, this.extensionUri, source, closed);
    });
  }

  /** Wraps a panel VS Code restored after a reload, showing `source` (read from what its page kept). */
  adopt(panel: vscode.WebviewPanel, source: MetricsPanelSource): MetricsPanel {
    return this.add(source.subject.name, (closed) => new MetricsPanel(panel, this.extensionUri, source, closed));
  }

  /**
   * Marks every panel of a deleted model (versionId undefined) or model version: the panel keeps
   * its content, its title and a banner say it was deleted.
   */
  markDeleted(modelName: string, versionId?: string): number {
    let marked = 0;
    for (const p of this.values()) {
      if (p.source.modelName !== modelName) continue;
      if (versionId !== undefined && p.source.versionId !== versionId) continue;
      p.markStale(
        versionId === undefined
          ? 'This model was deleted; the metrics below are what it held.'
          : `Version ${versionId} was deleted; the metrics below are what it held.`,
      );
      marked++;
    }
    return marked;
  }
}

export class MetricsPanel implements vscode.Disposable {
  private readonly page: PagePanel<MetricsFromWebview, MetricsToWebview>;
  private compare: MetricsSet | undefined;
  private candidates: CompareCandidate[] = [];
  private threshold = 0.5;
  private stale: string | undefined;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    readonly source: MetricsPanelSource,
    closed: () => void,
  ) {
    this.page = new PagePanel(
      panel,
      extensionUri,
      metricsPage(source.title),
      { onMessage: (message) => void this.onMessage(message) },
      closed,
    );
  }

  get panel(): vscode.WebviewPanel {
    return this.page.panel;
  }

  get isStale(): boolean {
    return this.stale !== undefined;
  }

  get comparedWith(): string | undefined {
    return this.compare?.name;
  }

  private post(message: MetricsToWebview): void {
    this.page.post(message);
  }

  markStale(message: string): void {
    this.stale = message;
    if (!this.panel.title.endsWith('(deleted)')) this.page.setTitle(`${safeText(this.source.title)} (deleted)`);
    // A page not ready yet is told when it says it is (init).
    if (this.page.isReady) this.post({ type: 'stale', message });
  }

  private async onMessage(message: MetricsFromWebview): Promise<void> {
    try {
      switch (message.type) {
        case 'ready':
          await this.init();
          return;
        case 'compare':
          await this.setCompare(message.name || undefined);
          return;
        case 'threshold':
          this.threshold = message.value;
          return;
        case 'exportCsv':
          await this.exportCsv();
          return;
      }
    } catch (err) {
      if (isCancellation(err)) return;
      log.warn(`metrics panel: ${describeError(err)}`);
      this.post({ type: 'error', message: describeError(err) });
    }
  }

  private async init(): Promise<void> {
    if (this.source.initialCompare && !this.compare) {
      try {
        this.compare = await this.source.load(this.source.initialCompare);
      } catch (err) {
        this.post({ type: 'error', message: `Could not load the comparison: ${describeError(err)}` });
      }
    }
    try {
      this.candidates = await this.source.candidates();
    } catch (err) {
      this.candidates = this.compare ? [{ name: this.compare.name, label: this.compare.label }] : [];
      this.post({ type: 'error', message: `Could not list what to compare with: ${describeError(err)}` });
    }
    this.post({
      type: 'init',
      title: this.source.title,
      subject: this.source.subject,
      candidates: this.candidates,
      compare: this.compare,
    });
    if (this.stale) this.post({ type: 'stale', message: this.stale });
  }

  /** Compares with `name` (one of the candidates), or with nothing. */
  async setCompare(name: string | undefined): Promise<void> {
    if (name !== undefined && !this.candidates.some((c) => c.name === name) && name !== this.source.initialCompare)
      throw new Error('Pick something to compare with from the list.');
    this.compare = name ? await this.source.load(name) : undefined;
    this.post({ type: 'comparison', compare: this.compare });
  }

  /** The CSV the export writes: one column for the subject, one for the comparison if any. */
  csv(): string {
    const sets = [this.source.subject, ...(this.compare ? [this.compare] : [])];
    return metricsCsv(
      sets.map((s) => ({ label: s.label, metrics: s.metrics, schemaUri: s.schemaUri })),
      this.threshold,
    );
  }

  private async exportCsv(): Promise<void> {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri;
    const fileName = `${fileSafe(this.source.title)}.csv`;
    const target = await vscode.window.showSaveDialog({
      title: `Export metrics of ${safeText(this.source.subject.label)}`,
      filters: { CSV: ['csv'] },
      ...(base ? { defaultUri: vscode.Uri.joinPath(base, fileName) } : {}),
    });
    if (!target) return;
    await writeFileAtomic(target, new TextEncoder().encode(this.csv()));
    void vscode.window.showInformationMessage(
      `Exported the metrics of ${safeText(this.source.subject.label)} to ${safeText(target.fsPath)}.`,
    );
  }

  dispose(): void {
    this.page.dispose();
  }
}
