// Runs UDM searches and pivots, keeps their results for export, "fetch the rest" and a window reload,
// and feeds the results panels. The hourly udmSearch budget is never spent twice for the same intent:
// a query that is already running is revealed, a panel restored after a reload shows its kept rows,
// and a 429 holds every caller for as long as the server asks, within the retries' bounds.
import { writeFileAtomic } from '../../platform/files';
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { CancelledError, GoogleApiError, describeError, isCancellation } from '../../core/google/errors';
import { RateLimiter, SECOPS_BUDGETS } from '../../core/ratelimit';
import {
  SecOpsClient,
  decodeLogBytes,
  UDM_SEARCH_MAX_LIMIT,
  type AssetIndicator,
  type SecOpsMethod,
  type UserIndicator,
} from '../../core/secops/client';
import type { FromWebview, RunInfo, ToWebview } from '../../core/secops/messages';
import { answerQueryBar } from '../../core/secops/querybar-service';
import { EXPORT_EXTENSIONS, exportResults, isOpenableLink, type ExportFormat } from '../../core/secops/results/export';
import { defaultColumns, timeField, type ColumnSpec, type ResultKind } from '../../core/secops/results/fields';
import { PIVOT_LABELS, type PivotAction } from '../../core/secops/results/pivots';
import {
  ResultRows,
  answerRowsRequest,
  columnKey,
  isRowsRequest,
  type RowTable,
} from '../../core/secops/results/rowtable';
import { newestFirstOrder, sortNewestFirst, timesOf } from '../../core/secops/results/table';
import { fetchRest, planRest, type RestPlan } from '../../core/secops/split';
import { formatTime } from '../../core/secops/params';
import type { ResolvedWindow, TimeRangeSpec } from '../../core/secops/timerange';
import { reportError } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { SecOpsDocuments, eventTitle } from './documents';
import {
  describeFailure,
  gaveUpWaiting,
  isKeptResults,
  keepBudget,
  keepLater,
  keptInfo,
  keptRunIdOf,
  offerRetry,
  reportingThrottle,
  type KeptResults,
  type SearchKeeping,
} from './keeping';
import { QUERY_SLOT, ResultsPanel, type PanelSlot } from './panel';

const log = getLogger('search');
/**
 * The first message carries only what fills the screen, so rows paint before the page has decoded
 * the rest; the rest follows in one message once the page says those rows are painted (or after
 * AFTER_PAINT_FALLBACK_MS), so that its size holds up nothing before the first paint. Both carry a
 * RowTable (times and the shown columns' text); the events stay here and the page asks for them.
 */
export const FIRST_PAINT_ROWS = 200;
export const AFTER_PAINT_FALLBACK_MS = 1_500;

/** The rows of a run as the page's questions are answered from them. */
function rowsOf(run: RunRecord): ResultRows {
  if (!run.store) run.store = new ResultRows(run.info.kind, run.rows);
  else if (run.store.rows !== run.rows) run.store.setRows(run.rows);
  return run.store;
}

function postResults(panel: ResultsPanel, run: RunRecord): void {
  const rows = rowsOf(run);
  const { runId, kind } = run.info;
  const total = rows.rows.length;
  const first = Math.min(total, FIRST_PAINT_ROWS);
  const columns = panel.columnsFor(kind);
  const message: ToWebview = {
    type: 'results',
    run: run.info,
    columns,
    table: rows.table(columns, 0, first),
    fields: first === total ? rows.fields() : [],
    moreDataAvailable: run.moreDataAvailable,
  };
  if (first === total) {
    panel.post(message);
    return;
  }
  // The table of the rest is built while the page paints the first rows (once VS Code has handed
  // them over, so that the work delays nothing on their way), and posted when the page says so.
  const build = (): { key: string; table: RowTable; ms: number } => {
    const started = Date.now();
    const shown = panel.columnsFor(kind);
    return { key: columnsKey(shown), table: rows.table(shown, first, total), ms: Date.now() - started };
  };
  let built: ReturnType<typeof build> | undefined;
  let sent = false;
  panel.post(message, () => {
    if (!sent && panel.runId === runId) built = build();
  });
  panel.whenPainted(
    runId,
    () => {
      const painted = Date.now();
      const early = built?.key === columnsKey(panel.columnsFor(kind)) ? built : undefined;
      const rest = early ?? build();
      built = undefined;
      sent = true;
      panel.post({ type: 'append', runId, table: rest.table });
      // npm run bench -- editor reads this line.
      log.info(
        `rest of the rows: ${rest.table.count} rows, ${rest.table.cells.byteLength} bytes of cells, built in ${rest.ms} ms ${early ? 'while the first rows painted' : 'after they painted'}; posted ${Date.now() - painted} ms after the page painted them`,
      );
    },
    AFTER_PAINT_FALLBACK_MS,
  );
}

const columnsKey = (columns: readonly ColumnSpec[]): string => columns.map(columnKey).join('\n');

/** "Fetch the rest" stops here: beyond it the panel is no longer the right tool (export or narrow). */
export const FETCH_REST_MAX_EVENTS = 200_000;
/** A run is written to disk once its rest has reached the page (see keepLater). */
const KEEP_DELAY_MS = AFTER_PAINT_FALLBACK_MS + 500;

export interface RunRecord {
  info: RunInfo;
  slot: PanelSlot;
  rows: unknown[];
  moreDataAvailable: boolean;
  query?: string;
  limit?: number;
  window?: ResolvedWindow;
  /** The asset of an "events for asset" pivot, to ask again over smaller windows. */
  asset?: AssetIndicator;
  /** What "fetch the rest" will ask for, planned from the cut answer. */
  rest?: RestPlan;
  /** Set while "fetch the rest" runs. */
  fetch?: AbortController;
  /** The rows as the results page's questions are answered from them (in the order the page holds them). */
  store?: ResultRows;
}

/** The query run in progress in the query panel. */
interface ActiveRun {
  query: string;
  limit: number;
  spanMs: number;
  title: string;
  controller: AbortController;
  done: Promise<RunRecord | undefined>;
}

export function isQuotaError(err: unknown): err is GoogleApiError {
  return err instanceof GoogleApiError && err.status === 'RESOURCE_EXHAUSTED';
}

export class SearchController implements vscode.Disposable {
  /** The runs open panels show (see letGoOfHiddenRuns), by run ID. */
  private readonly runs = new Map<string, RunRecord>();
  private readonly watchedPanels = new WeakSet<ResultsPanel>();
  /** Writes to disk not yet made, by run ID: a run let go drops its write (and its rows) at once. */
  private readonly pendingKeeps = new Map<string, { cancel(): void }>();
  private client: SecOpsClient | undefined;
  private clientKey = '';
  /** One limiter per endpoint that outlives clients, so a settings change does not reset the budget. */
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly budgetEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeBudget = this.budgetEmitter.event;
  private readonly runEmitter = new vscode.EventEmitter<{ query: string; window: ResolvedWindow; events: number }>();
  /** A UDM search finished with results (for the query history). */
  readonly onDidRunQuery = this.runEmitter.event;
  private active: ActiveRun | undefined;
  private readonly limiterListeners: Array<{ dispose(): void }> = [];
  readonly documents = new SecOpsDocuments();

  constructor(
    private readonly services: Services,
    private readonly keeping: SearchKeeping = {},
  ) {}

  dispose(): void {
    this.active?.controller.abort();
    for (const run of this.runs.values()) run.fetch?.abort();
    this.budgetEmitter.dispose();
    this.runEmitter.dispose();
    this.documents.dispose();
    for (const l of this.limiterListeners.splice(0)) l.dispose();
    ResultsPanel.disposeAll();
  }

  /** The client for the current settings (rebuilt when the endpoint, region or credentials change). */
  getClient(): SecOpsClient {
    const connection = this.services.connection();
    const { settings } = connection;
    // endpoint() refuses a malformed override: falling back to the region's production host would
    // send the user's searches somewhere they did not mean.
    // The region's host in the configured universe domain (or its mTLS host), or the override.
    const target = connection.restEndpoint('secops');
    const baseUrl = target.baseUrl;
    const tokens = connection.secopsTokens(baseUrl);
    const key = JSON.stringify([
      baseUrl,
      target.mtls,
      settings.universeDomain,
      settings.quotaProject,
      settings.secops.credentialsFile,
      settings.credentialsFile,
      settings.timeoutMs,
      settings.retry,
    ]);
    if (!this.client || key !== this.clientKey) {
      const endpoint = endpointKey(baseUrl);
      let limiter = this.limiters.get(endpoint);
      if (!limiter) {
        limiter = new RateLimiter(SECOPS_BUDGETS);
        // The limiter lives as long as this controller; its listener goes with it.
        this.limiterListeners.push(
          limiter.onDidChange((method) => method === 'udmSearch' && this.budgetEmitter.fire()),
          keepBudget(this.keeping.state, endpoint, limiter),
        );
        this.limiters.set(endpoint, limiter);
      }
      this.client = new SecOpsClient({
        baseUrl,
        tokens,
        ...(target.certSource ? { clientCert: target.certSource } : {}),
        limiter,
        retry: settings.retry,
        timeoutMs: settings.timeoutMs,
        onRetry: (method, err, attempt, delayMs) =>
          log.info(`${method}: retry ${attempt} in ${delayMs} ms after ${(err as Error).message}`),
      });
      this.clientKey = key;
      this.budgetEmitter.fire();
    }
    return this.client;
  }

  budget():
    | { remaining: number; limit: number; nextRefillAt: number | undefined; blockedUntil: number | undefined }
    | undefined {
    try {
      const snap = this.getClient().limiter.snapshot('udmSearch');
      return {
        remaining: snap.remaining,
        limit: snap.limit,
        nextRefillAt: snap.nextRefillAt,
        blockedUntil: snap.blockedUntil,
      };
    } catch {
      return undefined;
    }
  }

  private remember(run: RunRecord): void {
    // A panel shows one run at a time: a "fetch the rest" still filling the old one would only
    // spend the search budget on rows nobody sees.
    for (const other of this.runs.values()) if (other.slot === run.slot) other.fetch?.abort();
    this.runs.set(run.info.runId, run);
    this.letGoOfHiddenRuns(run);
  }

  /**
   * Only the runs that open panels show can be exported, completed or asked about: every other run's
   * events (10,000 of them are tens of MB) are let go, the run a panel showed before `current`
   * replaced it in the same slot included. A closed panel calls this with no current run.
   */
  private letGoOfHiddenRuns(current?: RunRecord): void {
    const shown = new Map(ResultsPanel.all().map((p) => [p.runId, p.slot]));
    for (const [runId, old] of this.runs) {
      if (runId === current?.info.runId) continue;
      if (shown.has(runId) && old.slot !== current?.slot) continue;
      old.fetch?.abort();
      this.pendingKeeps.get(runId)?.cancel();
      this.pendingKeeps.delete(runId);
      this.runs.delete(runId);
    }
  }

  private panel(slot: PanelSlot): ResultsPanel {
    return this.watched(
      ResultsPanel.show(slot, this.services.extensionUri, (message, panel) => void this.onMessage(message, panel)),
    );
  }

  /** A panel's run is let go when the panel closes. */
  private watched(panel: ResultsPanel): ResultsPanel {
    if (!this.watchedPanels.has(panel)) {
      this.watchedPanels.add(panel);
      const closed = panel.onDidDispose(() => {
        closed.dispose();
        this.watchedPanels.delete(panel);
        this.letGoOfHiddenRuns();
      });
    }
    return panel;
  }

  /** Hands a panel VS Code restored after a reload to this controller. */
  adoptPanel(slot: PanelSlot, webviewPanel: vscode.WebviewPanel): ResultsPanel {
    return this.watched(
      ResultsPanel.adopt(
        slot,
        webviewPanel,
        this.services.extensionUri,
        (message, panel) => void this.onMessage(message, panel),
      ),
    );
  }

  /**
   * Runs `call` (whose client retries a 429 within its bounds); `report` says while the server holds
   * calls of the method. The limiter holds every other caller of the method for the same time.
   */
  withQuota<T>(
    method: SecOpsMethod,
    call: () => Promise<T>,
    signal: AbortSignal,
    report: (message: string) => void,
  ): Promise<T> {
    return reportingThrottle(this.getClient().limiter, method, call, signal, report);
  }

  /** A search run elsewhere (a statistical search) goes into the query history like one run here. */
  recordRun(query: string, window: ResolvedWindow, events: number): void {
    this.runEmitter.fire({ query, window, events });
  }

  /** The query run in progress, if any (for tests and the status bar). */
  get runningQuery(): string | undefined {
    return this.active?.query;
  }

  /**
   * Runs a UDM search with progress and cancel, and shows its results. The same query while it runs
   * reveals it instead of spending another search; a different one asks before cancelling it.
   */
  async runQuery(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined> {
    if (await this.services.statistics.get()?.run(this, query, window)) return undefined;
    const cappedLimit = Math.min(UDM_SEARCH_MAX_LIMIT, Math.max(1, Math.floor(limit)));
    const spanMs = window.endMs - window.startMs;
    const active = this.active;
    if (active) {
      if (active.query === query && active.limit === cappedLimit && active.spanMs === spanMs) {
        log.info('the same UDM search is already running: revealed it instead of running it again');
        ResultsPanel.get(QUERY_SLOT)?.reveal();
        return active.done;
      }
      const answer = await vscode.window.showWarningMessage(
        `A UDM search is still running: "${safeText(active.title)}". Cancel it and run the new query? (Each search spends one of the hourly budget.)`,
        { modal: true },
        'Cancel It and Run',
      );
      if (answer !== 'Cancel It and Run') {
        ResultsPanel.get(QUERY_SLOT)?.reveal();
        return undefined;
      }
      active.controller.abort();
      await active.done.catch(() => undefined);
      // Someone else may have started a run while this one waited for the answer.
      if (this.active) return this.runQuery(query, window, limit);
    }
    const controller = new AbortController();
    const title = queryTitle(query);
    const done = this.startQuery(query, window, cappedLimit, title, controller);
    const entry: ActiveRun = { query, limit: cappedLimit, spanMs, title, controller, done };
    this.active = entry;
    try {
      return await done;
    } catch (err) {
      if (!gaveUpWaiting(err)) throw err;
      // The retries ended: one message says so (the panel says the same) and offers to try again.
      log.warn(`udmSearch: ${describeFailure(err)}`);
      if (this.active === entry) this.active = undefined;
      if (await offerRetry('UDM search', err)) return this.runQuery(query, window, limit);
      return undefined;
    } finally {
      if (this.active === entry) this.active = undefined;
    }
  }

  /** Writes a run to disk for a window reload (after its rows reached the page). */
  private keep(run: RunRecord): void {
    const pending = keepLater(
      this.keeping.runs,
      run.info.runId,
      (): KeptResults | undefined =>
        !this.runs.has(run.info.runId)
          ? undefined
          : {
              version: 1,
              panel: 'results',
              info: keptInfo(run.info),
              rows: run.rows,
              moreDataAvailable: run.moreDataAvailable,
              ...(run.query !== undefined ? { query: run.query } : {}),
              ...(run.limit !== undefined ? { limit: run.limit } : {}),
              ...(run.window ? { window: run.window } : {}),
            },
      KEEP_DELAY_MS,
    );
    this.pendingKeeps.set(run.info.runId, pending);
    setTimeout(() => this.pendingKeeps.delete(run.info.runId), KEEP_DELAY_MS + 1);
  }

  private async startQuery(
    query: string,
    window: ResolvedWindow,
    limit: number,
    title: string,
    controller: AbortController,
  ): Promise<RunRecord | undefined> {
    const client = this.getClient();
    const panel = this.panel(QUERY_SLOT);
    panel.setTitle(`UDM: ${title}`);
    // The panel shows the new search, so the old run's fetch has nobody left to show rows to.
    for (const other of this.runs.values()) if (other.slot === QUERY_SLOT) other.fetch?.abort();
    panel.post({ type: 'running', title });
    const started = Date.now();
    const range = `${window.start} – ${window.end}, up to ${limit.toLocaleString('en-US')} events`;
    const response = await vscode.window
      .withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Running UDM search', cancellable: true },
        async (progress, token) => {
          progress.report({ message: range });
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await this.withQuota(
              'udmSearch',
              () =>
                client.udmSearch({ query, startTime: window.startMs, endTime: window.endMs, limit }, controller.signal),
              controller.signal,
              (message) => {
                progress.report({ message });
                panel.post({ type: 'running', title, message });
              },
            );
          } finally {
            sub.dispose();
          }
        },
      )
      .then(
        (r) => r,
        (err: unknown) => {
          const cancelled = isCancellation(err) || controller.signal.aborted;
          panel.post({ type: 'failed', title, cancelled, message: cancelled ? 'Cancelled.' : describeFailure(err) });
          throw cancelled && !(err instanceof CancelledError) ? new CancelledError() : err;
        },
      );
    log.info(
      `udmSearch returned ${response.events.length} events in ${Date.now() - started} ms (moreDataAvailable=${response.moreDataAvailable})`,
    );
    const info: RunInfo = {
      runId: randomUUID(),
      kind: 'udm',
      title,
      startTime: window.start,
      endTime: window.end,
      query,
      ranAt: new Date().toISOString(),
    };
    const run: RunRecord = {
      info,
      slot: QUERY_SLOT,
      rows: response.events,
      moreDataAvailable: response.moreDataAvailable,
      query,
      limit,
      window,
    };
    const answered = Date.now();
    this.arrange(run);
    this.remember(run);
    const arranged = Date.now();
    postResults(panel, run);
    this.keep(run);
    // Where the time between the answer and the panel goes (npm run bench -- editor reads this line).
    log.info(
      `udmSearch: ${run.rows.length} events shown; arranged in ${arranged - answered} ms, posted in ${Date.now() - arranged} ms`,
    );
    this.runEmitter.fire({ query, window, events: run.rows.length });
    return run;
  }

  /**
   * Newest rows first; for an answer cut at its limit, the part of the range it covers and what
   * fetching the rest will ask for (planned from the order the service returned the rows in).
   */
  private arrange(run: RunRecord): void {
    const path = timeField(run.info.kind);
    if (!path) return;
    // Each event's time is read once, for the plan and for the order.
    const times = timesOf(run.rows, path);
    if (run.moreDataAvailable && run.window) {
      const plan = planRest(run.window.startMs, run.window.endMs, times, run.limit ?? 10_000);
      run.rest = plan;
      const { firstMs, lastMs, order } = plan.span;
      if (firstMs !== undefined && lastMs !== undefined) {
        const from = order === 'ascending' ? run.window.startMs : firstMs;
        const to = order === 'descending' ? run.window.endMs : Math.floor(lastMs / 1000) * 1000 + 1000;
        run.info.covered = { start: formatTime(from, 'start'), end: formatTime(Math.min(to, run.window.endMs), 'end') };
      }
      run.info.restSearches = plan.windows.length;
    }
    const rows = run.rows;
    run.rows = Array.from(newestFirstOrder(times), (i) => rows[i]);
  }

  /** Shows rows from a pivot (or an IoC listing) in a panel of its own. */
  showRows(
    kind: ResultKind,
    title: string,
    rows: unknown[],
    extra: {
      uri?: string[];
      window?: ResolvedWindow;
      moreDataAvailable?: boolean;
      asset?: AssetIndicator;
      source?: string;
      slot?: PanelSlot;
      pivot?: { action: PivotAction; value: string };
    } = {},
  ): RunRecord {
    const run: RunRecord = {
      info: {
        runId: randomUUID(),
        kind,
        title,
        ...(extra.window ? { startTime: extra.window.start, endTime: extra.window.end } : {}),
        ...(extra.uri?.length ? { uri: extra.uri } : {}),
        ...(extra.source ? { source: extra.source } : {}),
        ...(extra.pivot ? { pivot: extra.pivot } : {}),
        ranAt: new Date().toISOString(),
      },
      slot: extra.slot ?? ResultsPanel.nextPivotSlot(),
      rows,
      moreDataAvailable: extra.moreDataAvailable ?? false,
      limit: 10_000,
      ...(extra.window ? { window: extra.window } : {}),
      ...(extra.asset ? { asset: extra.asset } : {}),
    };
    this.arrange(run);
    this.remember(run);
    const panel = this.panel(run.slot);
    panel.setTitle(extra.source ? `${title} · ${extra.source}` : title);
    postResults(panel, run);
    this.keep(run);
    return run;
  }

  /** Where a pivot from a run came from, as its panel says it ("from: <query>"). */
  private sourceOf(runId: string | undefined): string | undefined {
    const run = runId ? this.runs.get(runId) : undefined;
    if (!run) return undefined;
    return `from ${run.info.kind === 'udm' ? `"${run.info.title}"` : run.info.title}`;
  }

  /** Runs a pivot with progress and cancel; `window` bounds the calls that take a time range. */
  async pivot(
    action: PivotAction,
    value: string,
    window: ResolvedWindow,
    from?: { runId?: string; row?: number; slot?: PanelSlot },
  ): Promise<void> {
    const client = this.getClient();
    const label = `${PIVOT_LABELS[action]}: ${safeText(value)}`;
    const source = this.sourceOf(from?.runId);
    const pivot = { action, value };
    const shown = (
      extra: Parameters<SearchController['showRows']>[3],
    ): Parameters<SearchController['showRows']>[3] => ({
      ...extra,
      ...(source ? { source } : {}),
      ...(from?.slot ? { slot: from.slot } : {}),
      pivot,
    });
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: label, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        const signal = controller.signal;
        const span = { startTime: window.startMs, endTime: window.endMs };
        const quota = <T>(method: SecOpsMethod, call: () => Promise<T>): Promise<T> =>
          this.withQuota(method, call, signal, (message) => progress.report({ message }));
        try {
          switch (action) {
            case 'assetEvents.hostname':
            case 'assetEvents.ip':
            case 'assetEvents.mac':
            case 'assetEvents.productId': {
              const asset = assetIndicator(action, value);
              const res = await quota('ListEvents', () => client.listEvents({ asset, ...span }, signal));
              this.showRows(
                'assetEvents',
                `Events for ${value}`,
                res.events,
                shown({
                  uri: res.uri,
                  window,
                  asset,
                  moreDataAvailable: res.moreDataAvailable || res.events.length >= 10_000,
                }),
              );
              return;
            }
            case 'assets.domain':
            case 'assets.ip':
            case 'assets.md5':
            case 'assets.sha1':
            case 'assets.sha256': {
              const key = {
                'assets.domain': 'domainName',
                'assets.ip': 'destinationIpAddress',
                'assets.md5': 'hashMd5',
                'assets.sha1': 'hashSha1',
                'assets.sha256': 'hashSha256',
              }[action];
              const res = await quota('ListAssets', () =>
                client.listAssets({ artifact: { [key]: value }, ...span }, signal),
              );
              this.showRows('assets', `Assets for ${value}`, res.assets, shown({ uri: res.uri, window }));
              return;
            }
            case 'iocDetails.domain':
            case 'iocDetails.ip': {
              const res = await quota('ListIoCDetails', () =>
                client.listIocDetails(
                  {
                    artifact: action === 'iocDetails.domain' ? { domainName: value } : { destinationIpAddress: value },
                  },
                  signal,
                ),
              );
              this.showRows('iocDetails', `IoC details for ${value}`, res.sources, shown({ uri: res.uri }));
              if (res.sources.length === 0)
                void vscode.window.showInformationMessage(`No IoC source lists ${safeText(value)}.`);
              return;
            }
            case 'assetAliases.hostname':
            case 'assetAliases.ip':
            case 'assetAliases.mac':
            case 'assetAliases.productId': {
              const asset = assetIndicator(action, value);
              const res = await quota('ListAssetAliases', () => client.listAssetAliases({ asset, ...span }, signal));
              this.showRows('assetAliases', `Aliases of ${value}`, res.aliases, shown({ window }));
              return;
            }
            case 'userAliases.email':
            case 'userAliases.username':
            case 'userAliases.windowsSid':
            case 'userAliases.employeeId':
            case 'userAliases.productObjectId': {
              const user = userIndicator(action, value);
              const res = await quota('ListUserAliases', () => client.listUserAliases({ user, ...span }, signal));
              this.showRows('userAliases', `Aliases of user ${value}`, res.userAliases, shown({ window }));
              return;
            }
            case 'rawLog': {
              const res = await quota('GetLog', () => client.getLog(value, signal));
              const text = decodeLogBytes(res.log.logBytes);
              const row = this.rowOf(from);
              const header = `# Raw log of event ${value}\n# source product: ${res.log.sourceProduct ?? 'unknown'}, type: ${res.log.type ?? 'unknown'}\n\n`;
              await this.documents.open(`Raw log ${eventTitle(row, value)}`, 'log', header + text);
              return;
            }
            case 'fullEvent': {
              const res = await quota('GetEvent', () => client.getEvent(value, signal));
              await this.documents.open(
                `Event ${eventTitle(res.udm, value)}`,
                'json',
                JSON.stringify(res.udm, null, 2),
              );
              return;
            }
          }
        } finally {
          sub.dispose();
        }
      },
    );
  }

  /** The UDM event of a run's row, for titles. */
  private rowOf(from: { runId?: string; row?: number } | undefined): unknown {
    const run = from?.runId ? this.runs.get(from.runId) : undefined;
    if (!run || from?.row === undefined) return undefined;
    const row = run.rows[from.row] as { udm?: unknown } | undefined;
    return run.info.kind === 'udm' ? row?.udm : row;
  }

  /** IoC matches discovered since the window's start. */
  async showIocMatches(window: ResolvedWindow): Promise<void> {
    const client = this.getClient();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Listing IoC matches', cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          const res = await this.withQuota(
            'ListIoCs',
            () => client.listIocs({ startTime: window.startMs }, controller.signal),
            controller.signal,
            (message) => progress.report({ message }),
          );
          this.showRows('iocMatches', `IoC matches since ${window.start}`, res.matches, {
            window,
            moreDataAvailable: res.moreDataAvailable,
          });
        } finally {
          sub.dispose();
        }
      },
    );
  }

  /**
   * Completes a cut answer: says how many searches it will spend and how many remain this hour, and
   * only starts when the user agrees; then asks window by window, counting the windows truly.
   */
  async fetchRest(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    const panel = run && ResultsPanel.get(run.slot);
    if (!run || !panel || run.fetch) return;
    const path = timeField(run.info.kind);
    if (!run.window || !path || !(run.info.kind === 'udm' ? run.query : run.info.kind === 'assetEvents' && run.asset)) {
      panel.post({
        type: 'status',
        runId,
        state: 'done',
        moreDataAvailable: run.moreDataAvailable,
        message: 'This result cannot be split; narrow its time range instead.',
      });
      return;
    }
    const isUdm = run.info.kind === 'udm';
    const limit = isUdm ? (run.limit ?? UDM_SEARCH_MAX_LIMIT) : 10_000;
    const plan = run.rest ?? planRest(run.window.startMs, run.window.endMs, timesOf(run.rows, path), limit);
    if (isUdm) {
      const budget = this.budget();
      const planned = plan.windows.length;
      const left = budget
        ? ` ${budget.remaining} of ${budget.limit} remain this hour${budget.remaining < planned ? ', so it stops when they run out (the events fetched by then stay)' : ''}.`
        : '';
      const answer = await vscode.window.showWarningMessage(
        `Fetching the rest will spend about ${planned} UDM ${planned === 1 ? 'search' : 'searches'} (more if parts of the range are busier than the part already fetched).${left}`,
        { modal: true },
        'Fetch the Rest',
      );
      if (answer !== 'Fetch the Rest') {
        panel.post({ type: 'status', runId, state: 'done', moreDataAvailable: true });
        return;
      }
    }
    const client = this.getClient();
    const controller = new AbortController();
    run.fetch = controller;
    panel.post({
      type: 'status',
      runId,
      state: 'running',
      fetching: { items: run.rows.length, windowsDone: 0, windowsPending: plan.windows.length },
    });
    try {
      const result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: 'Fetching the rest of the results',
          cancellable: true,
        },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => controller.abort());
          const report = (message: string): void => progress.report({ message });
          try {
            return await fetchRest<unknown>(
              plan,
              async (from, to, signal) => {
                if (isUdm) {
                  const r = await this.withQuota(
                    'udmSearch',
                    () => client.udmSearch({ query: run.query!, startTime: from, endTime: to, limit }, signal),
                    controller.signal,
                    report,
                  );
                  return { items: r.events, truncated: r.moreDataAvailable };
                }
                const r = await this.withQuota(
                  'ListEvents',
                  () => client.listEvents({ asset: run.asset!, startTime: from, endTime: to }, signal),
                  controller.signal,
                  report,
                );
                return { items: r.events, truncated: r.moreDataAvailable || r.events.length >= 10_000 };
              },
              {
                keyOf: (row) => rowKey(row),
                timeOf: (row) => timesOf([row], path)[0],
                initial: run.rows,
                limit,
                maxItems: FETCH_REST_MAX_EVENTS,
                signal: controller.signal,
                onProgress: (p, added) => {
                  if (added.length > 0) {
                    const from = run.rows.length;
                    run.rows = run.rows.concat(added);
                    const rows = rowsOf(run);
                    panel.post({ type: 'append', runId, table: rows.table(panel.columnsFor(run.info.kind), from) });
                  }
                  panel.post({
                    type: 'status',
                    runId,
                    state: 'running',
                    fetching: { items: p.items, windowsDone: p.windowsDone, windowsPending: p.windowsPending },
                  });
                  const total = p.windowsDone + p.windowsPending;
                  report(
                    `${p.items.toLocaleString('en-US')} events · ${p.windowsDone} of ${total} ${total === 1 ? 'search' : 'searches'} done`,
                  );
                },
              },
            );
          } finally {
            sub.dispose();
          }
        },
      );
      // The rows keep the order the page holds them in (it shows them newest first itself), so that
      // a row's position means the same row on both sides.
      run.moreDataAvailable = !result.complete;
      if (result.complete) delete run.info.covered;
      const message = result.complete
        ? `All ${run.rows.length.toLocaleString('en-US')} events fetched with ${result.windowsFetched} more ${result.windowsFetched === 1 ? 'search' : 'searches'}.`
        : result.stoppedBy === 'maxItems'
          ? `Stopped at ${run.rows.length.toLocaleString('en-US')} events (the panel's cap); narrow the time range for the rest.`
          : `Some one-second windows still hold more events than the limit; ${run.rows.length.toLocaleString('en-US')} events fetched.`;
      panel.post({ type: 'status', runId, state: 'done', moreDataAvailable: run.moreDataAvailable, message });
      this.keep(run);
    } catch (err) {
      const cancelled = isCancellation(err) || controller.signal.aborted;
      panel.post({
        type: 'status',
        runId,
        state: cancelled ? 'cancelled' : 'error',
        moreDataAvailable: true,
        message: cancelled
          ? `Stopped; ${run.rows.length.toLocaleString('en-US')} events kept.`
          : `Fetching the rest failed: ${(err as Error).message}`,
      });
      if (!cancelled) throw err;
    } finally {
      run.fetch = undefined;
    }
  }

  /** Runs a cut query again over only the newest part of its range, as wide as the part it covered. */
  async narrowToNewest(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    if (!run?.query || !run.window || !run.info.covered) return;
    const width = Math.max(1000, Date.parse(run.info.covered.end) - Date.parse(run.info.covered.start));
    const endMs = run.window.endMs;
    const startMs = Math.max(run.window.startMs, Math.floor((endMs - width) / 1000) * 1000);
    const spec: TimeRangeSpec = { kind: 'custom', start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
    await this.setTimeRange(spec);
    await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
  }

  /** The timeline's "search only this period": the run's query over the picked period (one search). */
  async searchPeriod(runId: string, startTime: string, endTime: string): Promise<void> {
    const run = this.runs.get(runId);
    if (!run?.query) return;
    const startMs = Math.floor(Date.parse(startTime) / 1000) * 1000;
    const endMs = Math.ceil(Date.parse(endTime) / 1000) * 1000;
    await this.setTimeRange({ kind: 'custom', start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') });
    await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
  }

  /** Set by the feature: changes the search time range (status bar, CodeLens). */
  setTimeRange: (spec: TimeRangeSpec) => Promise<void> = () => Promise.resolve();

  /** Writes the whole result set (not only the filtered rows) where the user chooses. */
  async exportRun(runId: string, format: ExportFormat, columns: ColumnSpec[]): Promise<vscode.Uri | undefined> {
    const run = this.runs.get(runId);
    if (!run) throw new Error('These results are no longer held; run the query again to export them.');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const fileName = `${run.info.kind === 'udm' ? 'udm-results' : run.info.kind}-${stamp}.${EXPORT_EXTENSIONS[format]}`;
    const target = await vscode.window.showSaveDialog({
      title: `Export ${run.rows.length.toLocaleString('en-US')} rows as ${format.toUpperCase()}`,
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
      filters: { [format.toUpperCase()]: [EXPORT_EXTENSIONS[format]] },
      saveLabel: 'Export',
    });
    if (!target) return undefined;
    const path = timeField(run.info.kind);
    const text = exportResults(
      format,
      path ? sortNewestFirst(run.rows, path) : run.rows,
      columns.length ? columns : defaultColumns(run.info.kind),
    );
    await writeFileAtomic(target, Buffer.from(text, 'utf8'));
    log.info(`exported ${run.rows.length} rows as ${format} to ${target.fsPath}`);
    void vscode.window
      .showInformationMessage(
        `Exported ${run.rows.length.toLocaleString('en-US')} rows to ${safeText(vscode.workspace.asRelativePath(target))}.`,
        'Open',
      )
      .then((choice) => {
        if (choice === 'Open') void vscode.window.showTextDocument(target);
      });
    return target;
  }

  /** Opens a console link after the user confirmed it; only http(s) ever leaves the editor. */
  async openLink(url: string): Promise<void> {
    if (!isOpenableLink(url)) {
      void vscode.window.showWarningMessage('Only http and https links open from results; this one was not opened.');
      return;
    }
    const choice = await vscode.window.showInformationMessage(
      `Open this link in your browser?\n\n${safeText(url, 'plain', MESSAGE_LIMIT)}`,
      { modal: true },
      'Open',
    );
    if (choice === 'Open') await vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  runInfo(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  /** The window pivots from a run use: the run's own, or the current time range. */
  pivotWindow(runId: string, fallback: () => ResolvedWindow): ResolvedWindow {
    return this.runs.get(runId)?.window ?? fallback();
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
    let window = this.currentWindow();
    if (range) {
      const startMs = Date.parse(range.startTime);
      const endMs = Date.parse(range.endTime);
      window = { startMs, endMs, start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
    }
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
    const slot = kind === 'query' && !ResultsPanel.get(QUERY_SLOT) ? QUERY_SLOT : ResultsPanel.nextPivotSlot();
    const panel = this.adoptPanel(slot, webviewPanel);
    const runId = keptRunIdOf(state);
    const kept = runId ? await this.keeping.runs?.load(runId) : undefined;
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
    this.remember(run);
    postResults(panel, run);
    log.info(
      `restored a ${kind} panel with the ${run.rows.length} rows of the run at ${kept.info.ranAt ?? 'an unknown time'}`,
    );
    return panel;
  }

  private async onMessage(message: FromWebview, panel: ResultsPanel): Promise<void> {
    if (isRowsRequest(message)) {
      const run = this.runs.get(message.runId);
      try {
        panel.post(answerRowsRequest(run && rowsOf(run), message));
      } catch (err) {
        log.failure(`answering the results page (${message.type})`, err);
        panel.post({ type: 'rows.unavailable', runId: message.runId, id: message.id, message: describeError(err) });
      }
      return;
    }
    try {
      switch (message.type) {
        case 'fetchRest':
          await this.fetchRest(message.runId);
          return;
        case 'stopFetch':
          this.runs.get(message.runId)?.fetch?.abort();
          return;
        case 'export':
          await this.exportRun(message.runId, message.format, message.columns);
          return;
        case 'openLink':
          await this.openLink(message.url);
          return;
        case 'pivot':
          await this.pivot(message.action, message.value, this.pivotWindow(message.runId, this.currentWindow), {
            runId: message.runId,
            ...(message.row !== undefined ? { row: message.row } : {}),
            // A pivot panel restored after a reload runs its pivot again in itself.
            ...(!this.runs.has(message.runId) && panel.slot !== QUERY_SLOT ? { slot: panel.slot } : {}),
          });
          return;
        case 'narrowToNewest':
          await this.narrowToNewest(message.runId);
          return;
        case 'searchPeriod':
          await this.searchPeriod(message.runId, message.startTime, message.endTime);
          return;
        case 'rerun': {
          const run = this.runs.get(message.runId);
          if (run?.query) await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
          return;
        }
        case 'runQuery':
          await this.runEditedQuery(
            message.query,
            message.startTime && message.endTime
              ? { startTime: message.startTime, endTime: message.endTime }
              : undefined,
          );
          return;
        case 'querybar.complete':
        case 'querybar.validate':
          panel.post(
            answerQueryBar(
              message,
              this.services.referenceLists.entries(),
              this.services.referenceLists.known(),
              this.services.referenceLists.knownError(),
            ),
          );
          return;
        case 'ready':
        case 'painted':
        case 'columns':
          return;
      }
    } catch (err) {
      if (err instanceof CancelledError || isCancellation(err)) return;
      await reportError(describeMessage(message), err);
    }
  }
}

function describeMessage(message: FromWebview): string {
  switch (message.type) {
    case 'export':
      return `Export ${message.format.toUpperCase()}`;
    case 'pivot':
      return PIVOT_LABELS[message.action];
    case 'fetchRest':
      return 'Fetch the rest';
    case 'openLink':
      return 'Open link';
    case 'rerun':
    case 'runQuery':
    case 'narrowToNewest':
    case 'searchPeriod':
      return 'Run UDM Query';
    case 'querybar.complete':
    case 'querybar.validate':
      return 'Query bar';
    default:
      return 'Results';
  }
}

function rowKey(row: unknown): string {
  const r = row as { name?: unknown; metadata?: { id?: unknown } } | null;
  if (typeof r?.name === 'string') return r.name;
  if (typeof r?.metadata?.id === 'string') return r.metadata.id;
  return JSON.stringify(row);
}

/** A tab title for a query: its text without comments, on one line. */
export function queryTitle(query: string): string {
  const text = query
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
    .split('\n')
    .map((line) => line.replace(/^\s*\/\/.*$/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text || 'query';
}

/** Limiters belong to an endpoint: the same address however the setting spells it. */
export function endpointKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return baseUrl.trim().replace(/\/+$/, '').toLowerCase();
  }
}

function assetIndicator(action: PivotAction, value: string): AssetIndicator {
  switch (action) {
    case 'assetEvents.hostname':
    case 'assetAliases.hostname':
      return { hostname: value };
    case 'assetEvents.ip':
    case 'assetAliases.ip':
      return { assetIpAddress: value };
    case 'assetEvents.mac':
    case 'assetAliases.mac':
      return { mac: value };
    case 'assetAliases.productId': {
      // The alias call takes the number alone; an events-style "CS:1234" gives its number.
      const m = /^[A-Za-z]{2}:(\d+)$/.exec(value);
      return { productId: m ? m[1] : value };
    }
    default:
      return { productId: value };
  }
}

function userIndicator(action: PivotAction, value: string): UserIndicator {
  switch (action) {
    case 'userAliases.email':
      return { email: value };
    case 'userAliases.windowsSid':
      return { windowsSid: value };
    case 'userAliases.employeeId':
      return { employeeId: value };
    case 'userAliases.productObjectId':
      return { productObjectId: value };
    default:
      return { username: value };
  }
}
