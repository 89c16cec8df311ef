// Runs UDM searches and pivots, keeps their results for export, "fetch the rest" and a window reload,
// and feeds the results panels. The hourly udmSearch budget is never spent twice for the same intent:
// a query that is already running is revealed, a panel restored after a reload shows its kept rows,
// and a 429 holds every caller for as long as the server asks, within the retries' bounds.
// The parts live beside this file: clients (client and budgets), run-store (runs, panels, keeping),
// runs (query runs), pivots, fetch-rest, export and routing (the pages' messages).
import * as vscode from 'vscode';
import { GoogleApiError } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT, type SecOpsClient } from '../../core/secops/client';
import type { FromWebview } from '../../core/secops/messages';
import { newestPartRange, periodRange, windowOf } from '../../core/secops/results/arrange';
import type { ExportFormat } from '../../core/secops/results/export';
import type { ColumnSpec, ResultKind } from '../../core/secops/results/fields';
import type { PivotAction } from '../../core/secops/results/pivots';
import type { ResolvedWindow, TimeRangeSpec } from '../../core/secops/timerange';
import { readKeptRun } from '../../platform/kept-run';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { SearchClients, type QuotaCall, type UdmSearchBudget } from './clients';
import type { RunOutcome, SearchContext } from './context';
import { SecOpsDocuments } from '../shared/documents';
import { exportRun, openLink } from './export';
import { fetchRest } from './fetch-rest';
import { isKeptResults, keptRunIdOf, type SearchKeeping } from '../shared/keeping';
import { QUERY_SLOT, type ResultsPanel, type PanelSlot } from './panel';
import { runPivot, showIocMatches, type PivotOrigin } from './pivots';
import { routeMessage } from './routing';
import { RunStore, postResults, type RunRecord, type ShownRows } from './run-store';
import { QueryRuns } from './runs';

export { endpointKey } from './clients';
export { queryTitle } from '../../core/secops/results/arrange';
export { FETCH_REST_MAX_EVENTS } from '../../core/secops/results/rest';
export { AFTER_PAINT_FALLBACK_MS, FIRST_PAINT_ROWS, type RunRecord } from './run-store';

const log = getLogger('search');

export function isQuotaError(err: unknown): err is GoogleApiError {
  return err instanceof GoogleApiError && err.status === 'RESOURCE_EXHAUSTED';
}

export class SearchController implements vscode.Disposable {
  private readonly clients: SearchClients;
  private readonly store: RunStore;
  private readonly queries: QueryRuns;
  readonly onDidChangeBudget: vscode.Event<void>;
  private readonly runEmitter = new vscode.EventEmitter<{ query: string; window: ResolvedWindow } & RunOutcome>();
  /** A UDM search finished with results (for the query history). */
  readonly onDidRunQuery = this.runEmitter.event;
  readonly documents = new SecOpsDocuments();
  /** What the parts of Search reach of this controller. */
  private readonly context: SearchContext;

  get referenceLists(): Services['referenceLists'] {
    return this.services.referenceLists;
  }

  constructor(
    private readonly services: Services,
    private readonly keeping: SearchKeeping = {},
  ) {
    this.clients = new SearchClients(services, keeping);
    this.onDidChangeBudget = this.clients.onDidChangeBudget;
    this.store = new RunStore(
      () => services.extensionUri,
      keeping,
      (message, panel) => void this.onMessage(message, panel),
    );
    this.context = {
      store: this.store,
      documents: this.documents,
      getClient: () => this.getClient(),
      budget: () => this.budget(),
      withQuota: (method, call, signal, report) => this.withQuota(method, call, signal, report),
      showRows: (kind, title, rows, extra) => this.showRows(kind, title, rows, extra),
      runQuery: (query, window, limit) => this.runQuery(query, window, limit),
      recordRun: (query, window, outcome) => this.recordRun(query, window, outcome),
      currentWindow: () => this.currentWindow(),
      setTimeRange: (spec) => this.setTimeRange(spec),
    };
    this.queries = new QueryRuns(this.context);
  }

  dispose(): void {
    this.queries.abort();
    this.store.stopFetches();
    this.runEmitter.dispose();
    this.documents.dispose();
    this.clients.dispose();
    this.store.panels.closeAll();
  }

  /** The client for the current settings (rebuilt when the endpoint, region or credentials change). */
  getClient(): SecOpsClient {
    return this.clients.get();
  }

  budget(): UdmSearchBudget | undefined {
    return this.clients.budget();
  }

  /** The results panel of a slot, opened (or revealed) for a run to show in. */
  panel(slot: PanelSlot): ResultsPanel {
    return this.store.panel(slot);
  }

  /** Hands a panel VS Code restored after a reload to this controller. */
  adoptPanel(slot: PanelSlot, webviewPanel: vscode.WebviewPanel): ResultsPanel {
    return this.store.adopt(slot, webviewPanel);
  }

  /**
   * Runs `call` (whose client retries a 429 within its bounds); `report` says while the server holds
   * calls of the method. The limiter holds every other caller of the method for the same time.
   */
  readonly withQuota: QuotaCall = (method, call, signal, report) =>
    this.clients.withQuota(method, call, signal, report);

  /** A search run elsewhere (a statistical search) goes into the query history like one run here. */
  recordRun(query: string, window: ResolvedWindow, outcome: RunOutcome): void {
    this.runEmitter.fire({ query, window, ...outcome });
  }

  /** The query run in progress, if any (for tests and the status bar). */
  get runningQuery(): string | undefined {
    return this.queries.runningQuery;
  }

  /**
   * Runs a UDM search with progress and cancel, and shows its results. The same query while it runs
   * reveals it instead of spending another search; a different one asks before cancelling it.
   */
  async runQuery(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined> {
    if (await this.services.statistics.get()?.run(this, query, window)) return undefined;
    return this.queries.run(query, window, limit);
  }

  /** Shows rows from a pivot (or an IoC listing) in a panel of its own. */
  showRows(kind: ResultKind, title: string, rows: unknown[], extra: ShownRows = {}): RunRecord {
    return this.store.show(kind, title, rows, extra);
  }

  /** Runs a pivot with progress and cancel; `window` bounds the calls that take a time range. */
  pivot(action: PivotAction, value: string, window: ResolvedWindow, from?: PivotOrigin): Promise<void> {
    return runPivot(this.context, action, value, window, from);
  }

  /** IoC matches discovered since the window's start. */
  showIocMatches(window: ResolvedWindow): Promise<void> {
    return showIocMatches(this.context, window);
  }

  /**
   * Completes a cut answer: says how many searches it will spend and how many remain this hour, and
   * only starts when the user agrees; then asks window by window, counting the windows truly.
   */
  fetchRest(runId: string): Promise<void> {
    return fetchRest(this.context, runId);
  }

  /** Runs a cut query again over only the newest part of its range, as wide as the part it covered. */
  async narrowToNewest(runId: string): Promise<void> {
    const run = this.store.get(runId);
    if (!run?.query || !run.window || !run.info.covered) return;
    await this.setTimeRange(newestPartRange(run.window, run.info.covered));
    await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
  }

  /** The timeline's "search only this period": the run's query over the picked period (one search). */
  async searchPeriod(runId: string, startTime: string, endTime: string): Promise<void> {
    const run = this.store.get(runId);
    if (!run?.query) return;
    await this.setTimeRange(periodRange(startTime, endTime));
    await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
  }

  /** Set by the feature: changes the search time range (status bar, CodeLens). */
  setTimeRange: (spec: TimeRangeSpec) => Promise<void> = () => Promise.resolve();

  /** Writes the whole result set (not only the filtered rows) where the user chooses. */
  exportRun(
    runId: string,
    format: ExportFormat,
    columns: ColumnSpec[],
    options: Parameters<typeof exportRun>[4] = {},
  ): Promise<vscode.Uri | undefined> {
    return exportRun(this.store, runId, format, columns, options);
  }

  /** The run of the results panel in front (undefined when none is, or its run is no longer held). */
  activeRun(): RunRecord | undefined {
    const panel = this.store.panels.values().find((p) => p.panel.active);
    return panel?.runId === undefined ? undefined : this.store.get(panel.runId);
  }

  /** Opens a console link after the user confirmed it; only http(s) ever leaves the editor. */
  openLink(url: string): Promise<void> {
    return openLink(url);
  }

  runInfo(runId: string): RunRecord | undefined {
    return this.store.get(runId);
  }

  /** The window pivots from a run use: the run's own, or the current time range. */
  pivotWindow(runId: string, fallback: () => ResolvedWindow): ResolvedWindow {
    return this.store.get(runId)?.window ?? fallback();
  }

  /** Set by the feature: resolves the current time range for pivots without a window of their own. */
  currentWindow: () => ResolvedWindow = () => {
    throw new Error('no time range');
  };

  /** Set by the feature: the question "Run Query" asks before spending a search on a query with errors. */
  confirmQuery: (query: string) => Promise<boolean> = () => Promise.resolve(true);

  /** The query bar's Run: the same time range, limit and confirmation as the Run Query command. */
  async runEditedQuery(query: string, range?: { startTime: string; endTime: string }): Promise<void> {
    const text = query.trim();
    if (!(await this.confirmQuery(text))) return;
    const window = range ? windowOf(range) : this.currentWindow();
    await this.runQuery(text, window, this.services.connection().settings.search.defaultLimit);
  }

  /**
   * A results or pivot panel VS Code brings back after a window reload: it shows the rows of the run
   * it held, read from disk, and spends no search; when they were not kept (too large, dropped for
   * newer runs) the page shows what it held from its own state and runs nothing until asked.
   */
  async restorePanel(
    webviewPanel: vscode.WebviewPanel,
    kind: 'query' | 'pivot',
    state?: unknown,
  ): Promise<ResultsPanel> {
    const slot =
      kind === 'query' && !this.store.panels.get(QUERY_SLOT) ? QUERY_SLOT : this.store.panels.nextPivotSlot();
    const panel = this.adoptPanel(slot, webviewPanel);
    const runId = keptRunIdOf(state);
    const kept = await readKeptRun(this.keeping.runs, runId, `${kind === 'query' ? 'results' : 'pivot'} panel`, log);
    if (!isKeptResults(kept) || kept.info.runId !== runId) {
      if (runId) log.info(`a restored ${kind} panel's run ${runId} was not kept; it shows what it held`);
      panel.post({ type: 'notKept' });
      return panel;
    }
    const run: RunRecord = {
      info: { ...kept.info, restored: true },
      slot,
      rows: kept.rows,
      moreDataAvailable: kept.moreDataAvailable,
      ...(kept.query !== undefined ? { query: kept.query } : {}),
      ...(kept.limit !== undefined ? { limit: kept.limit } : {}),
      ...(kept.window ? { window: kept.window } : {}),
    };
    this.store.remember(run);
    postResults(panel, run);
    log.info(
      `restored a ${kind} panel with the ${run.rows.length} rows of the run at ${kept.info.ranAt ?? 'an unknown time'}`,
    );
    return panel;
  }

  private onMessage(message: FromWebview, panel: ResultsPanel): Promise<void> {
    return routeMessage(this, message, panel);
  }
}
