// Statistical search in the editor: a query with match:/outcome:/condition:/dedup:/order:/limit:
// sections runs its filter through udmSearch (the search controller's client and budget), fetches
// the rest of the events only with the user's approval, computes the table locally and shows it in
// the statistics view, with exports and a drill-down into the events of a group.
import { writeFileAtomic } from '../../platform/files';
import { safeText } from '../../core/display';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { CancelledError, isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import { EXPORT_EXTENSIONS, type ExportFormat } from '../../core/secops/results/export';
import type { ResolvedWindow } from '../../core/secops/timerange';
import type { UdmSearchEvent } from '../../core/secops/types';
import { reportError } from '../../platform/commands';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { readKeptRun } from '../../platform/kept-run';
import { getLogger } from '../../platform/log';
import { compileStatistics, type CompiledStatistics, type StatsResult } from '../../udm/stats';
import { StatsWorkerFeed, computeInWorker } from './compute';
import {
  describeFailure,
  gaveUpWaiting,
  isKeptRunOf,
  keepLater,
  keptRunIdOf,
  keptRunsOf,
  offerRetry,
  timeOfDay,
} from '../shared/keeping';
import type { KeptRuns } from '../../core/storage/kept-runs';
import { queryTitle } from '../../core/secops/results/arrange';
import { FETCH_REST_MAX_EVENTS } from '../../core/secops/results/rest';
import type { SearchRunner, Services, StatisticsService, StatisticsTableRequest } from '../services';
import {
  fetchStatisticsEvents,
  type FetchedEvents,
  type FetchStatisticsOptions,
  type MoreSearchesQuestion,
} from '../shared/statistics-fetch';
import { STATISTICS_VIEW_TYPE, StatisticsPanelSlot } from './panel';
import {
  cellText,
  columnLabel,
  exportTable,
  type FromStatsView,
  type StatsRunInfo,
} from '../../core/secops/statistics/protocol';
import type { StatsColumn } from '../../udm/stats';

const log = getLogger('statistics');

interface StatsRun {
  info: StatsRunInfo;
  events: UdmSearchEvent[];
  result: StatsResult;
  window: ResolvedWindow;
  query?: string;
}

/** A statistics table as kept on disk for a reload: the table, not the events it was computed over. */
interface KeptStatistics {
  version: 1;
  panel: 'statistics';
  info: StatsRunInfo;
  columns: StatsColumn[];
  rows: unknown[][];
  query: string;
  window: ResolvedWindow;
}

function isKeptStatistics(value: unknown): value is KeptStatistics {
  if (!isKeptRunOf<KeptStatistics>(value, 'statistics')) return false;
  const v = value;
  return (
    Array.isArray(v.columns) &&
    Array.isArray(v.rows) &&
    v.rows.every((r) => Array.isArray(r)) &&
    typeof v.query === 'string' &&
    Number.isFinite(v.window?.startMs) &&
    Number.isFinite(v.window?.endMs)
  );
}

/** Written once the table is on screen, so a large table never holds it up. */
const KEEP_DELAY_MS = 1_000;

/**
 * The events a statistical query's table is computed over: its filter through udmSearch, the rest
 * of a cut answer only when the user approves the searches (within the hourly budget). The
 * statistics view and notebook cells fetch alike; what stops it early leaves `partial` set.
 */
export async function fetchForStatistics(
  client: FetchStatisticsOptions['client'],
  compiled: CompiledStatistics,
  window: ResolvedWindow,
  signal: AbortSignal,
  more: Pick<FetchStatisticsOptions, 'onProgress' | 'onArriving'> = {},
): Promise<FetchedEvents> {
  if (compiled.filter === '')
    throw new Error(
      'A statistical search needs filtering statements before match: (for example metadata.event_type = "USER_LOGIN"): udmSearch searches with them and Cloudbench computes the sections over the events it returns.',
    );
  return fetchStatisticsEvents({
    client,
    query: compiled.filter,
    startMs: window.startMs,
    endMs: window.endMs,
    limit: UDM_SEARCH_MAX_LIMIT,
    maxEvents: FETCH_REST_MAX_EVENTS,
    signal,
    confirmMore: (q) => askForMoreSearches(q),
    ...more,
  });
}

/**
 * The table over fetched events, with time buckets in the editor's time zone. It computes in a
 * worker thread (dist/stats-worker.js) so the editor keeps answering, and stops on `signal` or
 * after STATS_TIME_LIMIT_MS.
 */
export function computeTable(
  services: Pick<Services, 'extensionUri'>,
  query: string,
  referenceLists: Record<string, string[]>,
  fetched: FetchedEvents,
  signal: AbortSignal,
): Promise<StatsResult> {
  return computeInWorker(
    { query, referenceLists, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    fetched.events.map((e) => e.udm),
    { workerFile: statsWorkerFile(services), signal },
  );
}

const statsWorkerFile = (services: Pick<Services, 'extensionUri'>): string =>
  vscode.Uri.joinPath(services.extensionUri, 'dist', 'stats-worker.js').fsPath;

function activateStatistics(context: vscode.ExtensionContext, services: Services): FeatureStart<undefined> {
  const feature = new StatisticsFeature(services, keptRunsOf(context));
  context.subscriptions.push(feature);
  // The statistics panel comes back after a window reload with the table it showed (kept on disk).
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(STATISTICS_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => feature.restore(panel, state),
    }),
  );
  // The search runs a statistical query through this, whichever feature started first.
  context.subscriptions.push(services.statistics.provide(feature));
  return { ctx: undefined };
}

/** The statistics view: statistical searches, their exports and drill-downs; it has no commands of its own. */
export const statisticsFeature: Feature<undefined, Services> = {
  name: 'Statistical search',
  commands: {},
  activate: activateStatistics,
};

const count = (n: number): string => n.toLocaleString('en-US');

export class StatisticsFeature implements vscode.Disposable, StatisticsService {
  private last: StatsRun | undefined;
  private controller: SearchRunner | undefined;
  private fetching: AbortController | undefined;
  private readonly panels = new StatisticsPanelSlot();

  constructor(
    private readonly services: Services,
    private readonly kept?: KeptRuns,
  ) {}

  dispose(): void {
    this.fetching?.abort();
    this.panels.closeAll();
  }

  async table(request: StatisticsTableRequest): Promise<{ fetched: FetchedEvents; result: StatsResult }> {
    const { client, query, compiled, window, referenceLists, signal } = request;
    const fetched = await fetchForStatistics(client, compiled, window, signal);
    return { fetched, result: await computeTable(this.services, query, referenceLists, fetched, signal) };
  }

  /** Runs `query` as a statistical search; false when it has no statistical section (a plain search). */
  async run(controller: SearchRunner, query: string, window: ResolvedWindow): Promise<boolean> {
    const referenceLists = this.services.referenceLists.entries() ?? {};
    const compiled = compileStatistics(query, { referenceLists });
    if (!compiled) return false;
    this.controller = controller;
    const client = controller.getClient();
    const title = queryTitle(query);
    const panel = this.panels.show(this.services.extensionUri, (m) => void this.onMessage(m));
    panel.setTitle(`Statistics: ${title}`);
    this.fetching?.abort();
    const abort = new AbortController();
    this.fetching = abort;
    panel.post({
      type: 'running',
      title,
      message: `Searching ${window.start} – ${window.end} for the events to compute over…`,
    });
    // Counts the first answer's events into their groups while the rest is still on the wire.
    const feed = new StatsWorkerFeed(statsWorkerFile(this.services), {
      query,
      referenceLists,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    let fetched: Awaited<ReturnType<typeof fetchStatisticsEvents>>;
    let result: StatsResult;
    let started = 0;
    try {
      // One notification and one Stop for the search and the computing after it.
      [fetched, result] = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Statistical search', cancellable: true },
        async (progress, token) => {
          const sub = token.onCancellationRequested(() => abort.abort());
          try {
            progress.report({ message: 'searching for the events…' });
            const events = await fetchForStatistics(client, compiled, window, abort.signal, {
              // The worker takes the first answer's events while the rest is still on the wire.
              onArriving: (batch) => feed.add(batch.map((e) => e.udm)),
              onProgress: (p) => {
                panel.post({ type: 'progress', ...p });
                progress.report({
                  message: `${count(p.events)} events, ${p.searches} searches${p.windowsPending ? `, ${p.windowsPending} windows to go` : ''}`,
                });
              },
            });
            progress.report({ message: `computing the table over ${count(events.events.length)} events…` });
            started = performance.now();
            // The worker holds exactly these events when they are the first answer's: compute there.
            const table =
              events.searches === 1 && feed.count === events.events.length
                ? feed.compute({ signal: abort.signal })
                : computeTable(this.services, query, referenceLists, events, abort.signal);
            return [events, await table] as const;
          } finally {
            sub.dispose();
            feed.dispose();
          }
        },
      );
    } catch (err) {
      const cancelled = isCancellation(err) || abort.signal.aborted;
      panel.post({ type: 'failed', title, cancelled, message: cancelled ? 'Cancelled.' : describeFailure(err) });
      if (cancelled) return true;
      if (!gaveUpWaiting(err)) throw err;
      // The retries ended: one message, the panel's words, with Retry.
      log.warn(`statistical search: ${describeFailure(err)}`);
      if (await offerRetry('Statistical search', err)) return this.run(controller, query, window);
      return true;
    } finally {
      if (this.fetching === abort) this.fetching = undefined;
    }

    log.info(
      `computed ${result.rows.length} rows over ${fetched.events.length} events (${fetched.searches} searches) in ${(performance.now() - started).toFixed(0)} ms${fetched.partial ? `; partial: ${fetched.partial}` : ''}`,
    );
    const info: StatsRunInfo = {
      runId: randomUUID(),
      ranAt: new Date().toISOString(),
      title,
      startTime: window.start,
      endTime: window.end,
      eventsFetched: fetched.events.length,
      searches: fetched.searches,
      groupsTotal: result.groupsTotal,
      ...(fetched.partial ? { partial: fetched.partial } : {}),
      timeZone: result.timeZone,
      warnings: [
        ...(compiled.hasErrors ? ['The query has errors; the table may not be what you meant.'] : []),
        ...result.warnings,
      ],
    };
    this.last = { info, events: fetched.events, result, window, query };
    // In the query history, so it runs again (into this view) from there.
    controller.recordRun(query, window, { events: fetched.events.length, searches: fetched.searches });
    panel.post({ type: 'table', run: info, columns: result.columns, rowsJson: JSON.stringify(result.rows) });
    keepLater(
      this.kept,
      info.runId,
      (): KeptStatistics => ({
        version: 1,
        panel: 'statistics',
        info,
        columns: result.columns,
        rows: result.rows,
        query,
        window,
      }),
      KEEP_DELAY_MS,
    );
    return true;
  }

  /**
   * The statistics panel VS Code brings back after a reload: the table of the run it showed, read
   * from disk, with no search spent; without a kept table it says so and offers nothing to run.
   */
  async restore(webviewPanel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const panel = this.panels.adopt(webviewPanel, this.services.extensionUri, (m) => void this.onMessage(m));
    const runId = keptRunIdOf(state);
    const kept = await readKeptRun(this.kept, runId, 'statistics panel', log);
    if (!isKeptStatistics(kept) || kept.info.runId !== runId) {
      panel.post({
        type: 'failed',
        title: 'UDM Statistics',
        cancelled: true,
        message: 'Restored after a reload; the table was not kept. Run the query again to compute it.',
      });
      return;
    }
    const info: StatsRunInfo = { ...kept.info, restored: true };
    panel.setTitle(`Statistics: ${info.title}`);
    this.last = {
      info,
      events: [],
      result: {
        columns: kept.columns,
        rows: kept.rows,
        members: [],
        eventsIn: info.eventsFetched,
        eventsUsed: info.eventsFetched,
        groupsTotal: info.groupsTotal,
        timeZone: info.timeZone,
        warnings: info.warnings,
      },
      window: kept.window,
      query: kept.query,
    };
    panel.post({ type: 'table', run: info, columns: kept.columns, rowsJson: JSON.stringify(kept.rows) });
    log.info(
      `restored the statistics panel with the ${kept.rows.length} rows of the run at ${info.ranAt ?? 'an unknown time'}`,
    );
  }

  private async onMessage(message: FromStatsView): Promise<void> {
    try {
      switch (message.type) {
        case 'stop':
          this.fetching?.abort();
          return;
        case 'copy':
          await vscode.env.clipboard.writeText(message.text);
          void vscode.window.setStatusBarMessage('Statistics copied', 3000);
          return;
        case 'export':
          await this.exportRun(message.runId, message.format);
          return;
        case 'openGroup':
          await this.openGroup(message.runId, message.row);
          return;
        case 'rerun':
          await this.rerun(message.runId);
          return;
        case 'ready':
          return;
      }
    } catch (err) {
      if (err instanceof CancelledError || isCancellation(err)) return;
      await reportError(message.type === 'export' ? 'Export statistics' : 'Statistics', err);
    }
  }

  private runOf(runId: string): StatsRun {
    const run = this.last;
    if (!run || run.info.runId !== runId)
      throw new Error('This table is no longer held; run the query again to export it or open its events.');
    return run;
  }

  async exportRun(runId: string, format: ExportFormat): Promise<vscode.Uri | undefined> {
    const run = this.runOf(runId);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const fileName = `udm-statistics-${stamp}.${EXPORT_EXTENSIONS[format]}`;
    const target = await vscode.window.showSaveDialog({
      title: `Export ${count(run.result.rows.length)} rows as ${format.toUpperCase()}`,
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
      filters: { [format.toUpperCase()]: [EXPORT_EXTENSIONS[format]] },
      saveLabel: 'Export',
    });
    if (!target) return undefined;
    const text = exportTable(format, run.result.columns, run.result.rows, run.info.timeZone);
    await writeFileAtomic(target, Buffer.from(text, 'utf8'));
    log.info(`exported ${run.result.rows.length} statistics rows as ${format} to ${target.fsPath}`);
    void vscode.window.showInformationMessage(
      `Exported ${count(run.result.rows.length)} rows to ${safeText(vscode.workspace.asRelativePath(target))}.`,
    );
    return target;
  }

  /** Run Again on a restored table: the same query over the current time range. */
  private async rerun(runId: string): Promise<void> {
    const run = this.runOf(runId);
    const search = this.services.search.get();
    if (!run.query || !search) throw new Error('Run the query again from its .udm file.');
    await search.controller.runQuery(run.query, search.controller.currentWindow(), UDM_SEARCH_MAX_LIMIT);
  }

  /** The events behind one row, in the pivot panel (the events table with its detail pane). */
  async openGroup(runId: string, row: number): Promise<void> {
    const run = this.runOf(runId);
    if (run.info.restored)
      throw new Error(
        `This table was restored after a reload without the events behind its groups (kept at ${run.info.ranAt ? timeOfDay(Date.parse(run.info.ranAt)) : 'an earlier time'}); Run Again to open them.`,
      );
    const members = run.result.members[row];
    const values = run.result.rows[row];
    if (!members || !values) throw new Error(`The table has no row ${row + 1}.`);
    const label =
      run.result.columns
        .filter((c) => c.role !== 'outcome')
        .map((c) => `${columnLabel(c)} = ${cellText(values[run.result.columns.indexOf(c)], c, run.info.timeZone)}`)
        .join(', ') || 'all events';
    const events = members.map((i) => run.events[i]);
    if (!this.controller) throw new Error('Run the query again to open its events.');
    await Promise.resolve(this.controller.showRows('udm', `Events of ${label}`, events, { window: run.window }));
  }
}

/** Asks before spending more than the first search; Esc or closing keeps the partial table. */
export async function askForMoreSearches(q: MoreSearchesQuestion): Promise<boolean> {
  const spend =
    q.likely !== undefined
      ? `at least ${q.atLeast.toLocaleString('en-US')} more searches, likely about ${q.likely.toLocaleString('en-US')}`
      : `at least ${q.atLeast.toLocaleString('en-US')} more searches (how many depends on how the events spread over the time range)`;
  const choice = await vscode.window.showWarningMessage(
    `udmSearch returned ${count(q.fetched)} events and says more match: statistics over them would be wrong.`,
    {
      modal: true,
      detail: `Fetching the rest splits the time range into smaller windows: ${spend}. ${q.remaining} of ${q.limit} udmSearch calls are left this hour; Cloudbench stops when they run out and marks the table partial. Without the rest, the table is computed over these ${count(q.fetched)} events and marked partial.`,
    },
    'Fetch the Rest',
    'Show Partial Table',
  );
  return choice === 'Fetch the Rest';
}
