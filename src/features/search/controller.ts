// Runs UDM searches and pivots, keeps their results for export and "fetch the rest", and feeds the
// results panels.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { CancelledError, describeError, isCancellation } from '../../core/google/errors';
import { RateLimiter, SECOPS_BUDGETS } from '../../core/ratelimit';
import { SecOpsClient, decodeLogBytes, UDM_SEARCH_MAX_LIMIT, type AssetIndicator } from '../../core/secops/client';
import type { FromWebview, RunInfo } from '../../core/secops/messages';
import { answerQueryBar } from '../../core/secops/querybar-service';
import { getReferenceLists } from '../language';
import { resolveSecOpsBaseUrl } from '../../core/secops/regions';
import { EXPORT_EXTENSIONS, exportResults, isOpenableLink, type ExportFormat } from '../../core/secops/results/export';
import { defaultColumns, type ColumnSpec, type ResultKind } from '../../core/secops/results/fields';
import { PIVOT_LABELS, type PivotAction } from '../../core/secops/results/pivots';
import { fetchAllInWindows } from '../../core/secops/split';
import type { ResolvedWindow } from '../../core/secops/timerange';
import { reportError } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { Services } from '../services';
import { ResultsPanel, type PanelSlot } from './panel';

const log = getLogger('search');
/**
 * The first message carries only what fills the screen, so rows paint before the page has decoded
 * thousands of events; the rest follows in a second message.
 */
export const FIRST_PAINT_ROWS = 200;

function postResults(
  panel: ResultsPanel,
  info: RunInfo,
  columns: ColumnSpec[],
  rows: unknown[],
  moreDataAvailable: boolean,
): void {
  panel.post({
    type: 'results',
    run: info,
    columns,
    rowsJson: JSON.stringify(rows.slice(0, FIRST_PAINT_ROWS)),
    moreDataAvailable,
  });
  if (rows.length > FIRST_PAINT_ROWS)
    panel.post({ type: 'append', runId: info.runId, rowsJson: JSON.stringify(rows.slice(FIRST_PAINT_ROWS)) });
}
/** Set by the statistics feature: runs a query with match:/outcome: sections itself (true when it did). */
export const searchHooks: {
  statistics?: (controller: SearchController, query: string, window: ResolvedWindow) => Promise<boolean>;
} = {};
/** Only the runs a panel still shows can be exported or completed; older ones are let go. */
const KEEP_RUNS = 4;
/** "Fetch the rest" stops here: beyond it the panel is no longer the right tool (export or narrow). */
export const FETCH_REST_MAX_EVENTS = 200_000;

interface RunRecord {
  info: RunInfo;
  slot: PanelSlot;
  rows: unknown[];
  moreDataAvailable: boolean;
  query?: string;
  limit?: number;
  window?: ResolvedWindow;
  /** The asset of an "events for asset" pivot, to ask again over smaller windows. */
  asset?: AssetIndicator;
  /** Set while "fetch the rest" runs. */
  fetch?: AbortController;
}

export class SearchController implements vscode.Disposable {
  private readonly runs = new Map<string, RunRecord>();
  private client: SecOpsClient | undefined;
  private clientKey = '';
  /** One limiter per base URL that outlives clients, so a settings change does not reset the budget. */
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly limiterListeners: Array<{ dispose(): void }> = [];
  private readonly budgetEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeBudget = this.budgetEmitter.event;
  private readonly runEmitter = new vscode.EventEmitter<{ query: string; window: ResolvedWindow; events: number }>();
  /** A UDM search finished with results (for the query history). */
  readonly onDidRunQuery = this.runEmitter.event;

  constructor(private readonly services: Services) {}

  dispose(): void {
    for (const run of this.runs.values()) run.fetch?.abort();
    for (const listener of this.limiterListeners.splice(0)) listener.dispose();
    this.budgetEmitter.dispose();
    this.runEmitter.dispose();
    ResultsPanel.disposeAll();
  }

  /** The client for the current settings (rebuilt when the endpoint, region or credentials change). */
  getClient(): SecOpsClient {
    const connection = this.services.connection();
    const { settings } = connection;
    // endpoint() refuses a malformed override: falling back to the region's production host would
    // send the user's searches somewhere they did not mean.
    const override = connection.endpoint('secops');
    const baseUrl = resolveSecOpsBaseUrl({
      region: settings.secops.region,
      ...(override ? { endpointOverride: override } : {}),
    });
    const tokens = connection.secopsTokens(baseUrl);
    const key = JSON.stringify([
      baseUrl,
      settings.secops.credentialsFile,
      settings.credentialsFile,
      settings.timeoutMs,
      settings.retry,
    ]);
    if (!this.client || key !== this.clientKey) {
      let limiter = this.limiters.get(baseUrl);
      if (!limiter) {
        limiter = new RateLimiter(SECOPS_BUDGETS);
        this.limiterListeners.push(
          limiter.onDidChange((method) => method === 'udmSearch' && this.budgetEmitter.fire()),
        );
        this.limiters.set(baseUrl, limiter);
      }
      this.client = new SecOpsClient({
        baseUrl,
        tokens,
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

  budget(): { remaining: number; limit: number; nextRefillAt: number | undefined } | undefined {
    try {
      const snap = this.getClient().limiter.snapshot('udmSearch');
      return { remaining: snap.remaining, limit: snap.limit, nextRefillAt: snap.nextRefillAt };
    } catch {
      return undefined;
    }
  }

  private remember(run: RunRecord): void {
    // A panel shows one run at a time: a "fetch the rest" still filling the old one would only
    // spend the search budget on rows nobody sees.
    for (const other of this.runs.values()) if (other.slot === run.slot) other.fetch?.abort();
    this.runs.set(run.info.runId, run);
    while (this.runs.size > KEEP_RUNS) {
      const oldest = this.runs.keys().next().value as string;
      this.runs.get(oldest)?.fetch?.abort();
      this.runs.delete(oldest);
    }
  }

  private panel(slot: PanelSlot): ResultsPanel {
    return ResultsPanel.show(slot, this.services.extensionUri, (message, panel) => void this.onMessage(message, panel));
  }

  /** Runs a UDM search with progress and cancel, and shows its results. */
  async runQuery(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined> {
    if (await searchHooks.statistics?.(this, query, window)) return undefined;
    const client = this.getClient();
    const cappedLimit = Math.min(UDM_SEARCH_MAX_LIMIT, Math.max(1, Math.floor(limit)));
    const title = queryTitle(query);
    const panel = this.panel('query');
    panel.setTitle(`UDM: ${title}`);
    // The panel clears for the new search, so the old run's fetch has nobody left to show rows to.
    for (const other of this.runs.values()) if (other.slot === 'query') other.fetch?.abort();
    panel.post({ type: 'running', title });
    const started = Date.now();
    const response = await vscode.window
      .withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Running UDM search', cancellable: true },
        async (progress, token) => {
          progress.report({
            message: `${window.start} – ${window.end}, up to ${cappedLimit.toLocaleString('en-US')} events`,
          });
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await client.udmSearch(
              { query, startTime: window.startMs, endTime: window.endMs, limit: cappedLimit },
              controller.signal,
            );
          } finally {
            sub.dispose();
          }
        },
      )
      .then(
        (r) => r,
        (err: unknown) => {
          const cancelled = isCancellation(err);
          panel.post({ type: 'failed', title, cancelled, message: cancelled ? 'Cancelled.' : describeError(err) });
          throw err;
        },
      );
    log.info(
      `udmSearch returned ${response.events.length} events in ${Date.now() - started} ms (moreDataAvailable=${response.moreDataAvailable})`,
    );
    const run: RunRecord = {
      info: { runId: randomUUID(), kind: 'udm', title, startTime: window.start, endTime: window.end, query },
      slot: 'query',
      rows: response.events,
      moreDataAvailable: response.moreDataAvailable,
      query,
      limit: cappedLimit,
      window,
    };
    this.remember(run);
    postResults(panel, run.info, defaultColumns('udm'), run.rows, run.moreDataAvailable);
    this.runEmitter.fire({ query, window, events: run.rows.length });
    return run;
  }

  /** Shows rows from a pivot (or an IoC listing) in the pivot panel. */
  showRows(
    kind: ResultKind,
    title: string,
    rows: unknown[],
    extra: { uri?: string[]; window?: ResolvedWindow; moreDataAvailable?: boolean; asset?: AssetIndicator } = {},
  ): RunRecord {
    const run: RunRecord = {
      info: {
        runId: randomUUID(),
        kind,
        title,
        ...(extra.window ? { startTime: extra.window.start, endTime: extra.window.end } : {}),
        ...(extra.uri?.length ? { uri: extra.uri } : {}),
      },
      slot: 'pivot',
      rows,
      moreDataAvailable: extra.moreDataAvailable ?? false,
      ...(extra.window ? { window: extra.window } : {}),
      ...(extra.asset ? { asset: extra.asset } : {}),
    };
    this.remember(run);
    const panel = this.panel('pivot');
    panel.setTitle(title);
    postResults(panel, run.info, defaultColumns(kind), rows, run.moreDataAvailable);
    return run;
  }

  /** Runs a pivot with progress and cancel; `window` bounds the calls that take a time range. */
  async pivot(action: PivotAction, value: string, window: ResolvedWindow): Promise<void> {
    const client = this.getClient();
    const label = `${PIVOT_LABELS[action]}: ${value}`;
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: label, cancellable: true },
      async (_progress, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        const signal = controller.signal;
        const span = { startTime: window.startMs, endTime: window.endMs };
        try {
          switch (action) {
            case 'assetEvents.hostname':
            case 'assetEvents.ip':
            case 'assetEvents.mac': {
              const asset =
                action === 'assetEvents.hostname'
                  ? { hostname: value }
                  : action === 'assetEvents.ip'
                    ? { assetIpAddress: value }
                    : { mac: value };
              const res = await client.listEvents({ asset, ...span }, signal);
              this.showRows('assetEvents', `Events for ${value}`, res.events, {
                uri: res.uri,
                window,
                asset,
                moreDataAvailable: res.moreDataAvailable || res.events.length >= 10_000,
              });
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
              const res = await client.listAssets({ artifact: { [key]: value }, ...span }, signal);
              this.showRows('assets', `Assets for ${value}`, res.assets, { uri: res.uri, window });
              return;
            }
            case 'iocDetails.domain':
            case 'iocDetails.ip': {
              const res = await client.listIocDetails(
                { artifact: action === 'iocDetails.domain' ? { domainName: value } : { destinationIpAddress: value } },
                signal,
              );
              this.showRows('iocDetails', `IoC details for ${value}`, res.sources, { uri: res.uri });
              if (res.sources.length === 0) void vscode.window.showInformationMessage(`No IoC source lists ${value}.`);
              return;
            }
            case 'assetAliases.hostname':
            case 'assetAliases.ip':
            case 'assetAliases.mac': {
              const asset =
                action === 'assetAliases.hostname'
                  ? { hostname: value }
                  : action === 'assetAliases.ip'
                    ? { assetIpAddress: value }
                    : { mac: value };
              const res = await client.listAssetAliases({ asset, ...span }, signal);
              this.showRows('assetAliases', `Aliases of ${value}`, res.aliases, { window });
              return;
            }
            case 'userAliases.email':
            case 'userAliases.username':
            case 'userAliases.windowsSid': {
              const user =
                action === 'userAliases.email'
                  ? { email: value }
                  : action === 'userAliases.username'
                    ? { username: value }
                    : { windowsSid: value };
              const res = await client.listUserAliases({ user, ...span }, signal);
              this.showRows('userAliases', `Aliases of user ${value}`, res.userAliases, { window });
              return;
            }
            case 'rawLog': {
              const res = await client.getLog(value, signal);
              const text = decodeLogBytes(res.log.logBytes);
              const header = `# Raw log of event ${value}\n# source product: ${res.log.sourceProduct ?? 'unknown'}, type: ${res.log.type ?? 'unknown'}\n\n`;
              const doc = await vscode.workspace.openTextDocument({ content: header + text, language: 'log' });
              await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active });
              return;
            }
            case 'fullEvent': {
              const res = await client.getEvent(value, signal);
              const doc = await vscode.workspace.openTextDocument({
                content: JSON.stringify(res.udm, null, 2),
                language: 'json',
              });
              await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Active });
              return;
            }
          }
        } finally {
          sub.dispose();
        }
      },
    );
  }

  /** IoC matches discovered since the window's start. */
  async showIocMatches(window: ResolvedWindow): Promise<void> {
    const client = this.getClient();
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Listing IoC matches', cancellable: true },
      async (_p, token) => {
        const controller = new AbortController();
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          const res = await client.listIocs({ startTime: window.startMs }, controller.signal);
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

  /** Splits the run's window into smaller ones until every event is fetched or the user stops. */
  async fetchRest(runId: string): Promise<void> {
    const run = this.runs.get(runId);
    const panel = run && ResultsPanel.get(run.slot);
    if (!run || !panel || run.fetch) return;
    if (!run.window || !(run.info.kind === 'udm' ? run.query : run.info.kind === 'assetEvents' && run.asset)) {
      panel.post({
        type: 'status',
        runId,
        state: 'done',
        moreDataAvailable: run.moreDataAvailable,
        message: 'This result cannot be split; narrow its time range instead.',
      });
      return;
    }
    const client = this.getClient();
    const controller = new AbortController();
    run.fetch = controller;
    const window = run.window;
    const limit = run.info.kind === 'udm' ? (run.limit ?? UDM_SEARCH_MAX_LIMIT) : 10_000;
    panel.post({
      type: 'status',
      runId,
      state: 'running',
      fetching: { items: run.rows.length, windowsDone: 0, windowsPending: 2 },
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
          try {
            return await fetchAllInWindows<unknown>(
              window.startMs,
              window.endMs,
              async (from, to, signal) => {
                if (run.info.kind === 'udm') {
                  const r = await client.udmSearch({ query: run.query!, startTime: from, endTime: to, limit }, signal);
                  return { items: r.events, truncated: r.moreDataAvailable };
                }
                const r = await client.listEvents({ asset: run.asset!, startTime: from, endTime: to }, signal);
                return { items: r.events, truncated: r.moreDataAvailable || r.events.length >= 10_000 };
              },
              {
                keyOf: (row) => rowKey(row),
                initial: run.rows,
                maxItems: FETCH_REST_MAX_EVENTS,
                signal: controller.signal,
                onProgress: (p, added) => {
                  if (added.length > 0) {
                    run.rows = run.rows.concat(added);
                    panel.post({ type: 'append', runId, rowsJson: JSON.stringify(added) });
                  }
                  panel.post({
                    type: 'status',
                    runId,
                    state: 'running',
                    fetching: { items: p.items, windowsDone: p.windowsDone, windowsPending: p.windowsPending },
                  });
                  progress.report({
                    message: `${p.items.toLocaleString('en-US')} events, ${p.windowsPending} windows to go`,
                  });
                },
              },
            );
          } finally {
            sub.dispose();
          }
        },
      );
      run.moreDataAvailable = !result.complete;
      const message = result.complete
        ? `All ${run.rows.length.toLocaleString('en-US')} events fetched in ${result.windowsFetched} windows.`
        : result.stoppedBy === 'maxItems'
          ? `Stopped at ${run.rows.length.toLocaleString('en-US')} events (the panel's cap); narrow the time range for the rest.`
          : `Some one-second windows still hold more events than the limit; ${run.rows.length.toLocaleString('en-US')} events fetched.`;
      panel.post({ type: 'status', runId, state: 'done', moreDataAvailable: run.moreDataAvailable, message });
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
    const text = exportResults(format, run.rows, columns.length ? columns : defaultColumns(run.info.kind));
    await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
    log.info(`exported ${run.rows.length} rows as ${format} to ${target.fsPath}`);
    void vscode.window
      .showInformationMessage(
        `Exported ${run.rows.length.toLocaleString('en-US')} rows to ${vscode.workspace.asRelativePath(target)}.`,
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
      `Open this link in your browser?\n\n${url}`,
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
  async runEditedQuery(query: string): Promise<void> {
    const text = query.trim();
    if (!(await this.confirmQuery(text))) return;
    await this.runQuery(text, this.currentWindow(), this.services.connection().settings.search.defaultLimit);
  }

  private async onMessage(message: FromWebview, panel: ResultsPanel): Promise<void> {
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
          await this.pivot(message.action, message.value, this.pivotWindow(message.runId, this.currentWindow));
          return;
        case 'rerun': {
          const run = this.runs.get(message.runId);
          if (run?.query) await this.runQuery(run.query, this.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
          return;
        }
        case 'runQuery':
          await this.runEditedQuery(message.query);
          return;
        case 'querybar.complete':
        case 'querybar.validate':
          panel.post(answerQueryBar(message, getReferenceLists()));
          return;
        case 'ready':
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
