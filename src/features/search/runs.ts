// Running a UDM query from the query panel: one run at a time, the same query while it runs is
// revealed instead of spending another search, and a run the retries gave up on offers to try again.
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { CancelledError, isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import { queryTitle } from '../../core/secops/results/arrange';
import type { ResolvedWindow } from '../../core/secops/timerange';
import { UdmSearchStreamBrokenError } from '../../core/secops/udm-search-stream';
import { getLogger } from '../../platform/log';
import type { SearchContext } from './context';
import { describeFailure, gaveUpWaiting, offerRetry } from '../shared/keeping';
import { QUERY_SLOT } from './panel';
import type { RunRecord } from './run-store';
import { RowsArrival } from './arrival';

const log = getLogger('search');

/** The query run in progress in the query panel. */
interface ActiveRun {
  query: string;
  limit: number;
  spanMs: number;
  title: string;
  controller: AbortController;
  done: Promise<RunRecord | undefined>;
}

export class QueryRuns {
  private active: ActiveRun | undefined;

  constructor(private readonly context: SearchContext) {}

  /** The query run in progress, if any. */
  get runningQuery(): string | undefined {
    return this.active?.query;
  }

  abort(): void {
    this.active?.controller.abort();
  }

  /**
   * Runs a UDM search with progress and cancel, and shows its results. The same query while it runs
   * reveals it instead of spending another search; a different one asks before cancelling it.
   * Asking again goes through `context.runQuery`, as a new run from the user would.
   */
  async run(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined> {
    const cappedLimit = Math.min(UDM_SEARCH_MAX_LIMIT, Math.max(1, Math.floor(limit)));
    const spanMs = window.endMs - window.startMs;
    const active = this.active;
    if (active) {
      if (active.query === query && active.limit === cappedLimit && active.spanMs === spanMs) {
        log.info('the same UDM search is already running: revealed it instead of running it again');
        this.context.store.panels.get(QUERY_SLOT)?.reveal();
        return active.done;
      }
      const answer = await vscode.window.showWarningMessage(
        `A UDM search is still running: "${safeText(active.title)}". Cancel it and run the new query? (Each search spends one of the hourly budget.)`,
        { modal: true },
        'Cancel It and Run',
      );
      if (answer !== 'Cancel It and Run') {
        this.context.store.panels.get(QUERY_SLOT)?.reveal();
        return undefined;
      }
      active.controller.abort();
      await active.done.catch(() => undefined);
      // Someone else may have started a run while this one waited for the answer.
      if (this.active) return this.context.runQuery(query, window, limit);
    }
    const controller = new AbortController();
    const title = queryTitle(query);
    const done = this.start(query, window, cappedLimit, title, controller);
    const entry: ActiveRun = { query, limit: cappedLimit, spanMs, title, controller, done };
    this.active = entry;
    try {
      return await done;
    } catch (err) {
      if (err instanceof UdmSearchStreamBrokenError) {
        // Never run again without being asked: each search spends the hourly budget.
        if (this.active === entry) this.active = undefined;
        const choice = await vscode.window.showErrorMessage(`UDM search: ${err.message}`, 'Run Again');
        if (choice === 'Run Again') return this.context.runQuery(query, window, limit);
        return undefined;
      }
      if (!gaveUpWaiting(err)) throw err;
      // The retries ended: one message says so (the panel says the same) and offers to try again.
      log.warn(`udmSearch: ${describeFailure(err)}`);
      if (this.active === entry) this.active = undefined;
      if (await offerRetry('UDM search', err)) return this.context.runQuery(query, window, limit);
      return undefined;
    } finally {
      if (this.active === entry) this.active = undefined;
    }
  }

  private async start(
    query: string,
    window: ResolvedWindow,
    limit: number,
    title: string,
    controller: AbortController,
  ): Promise<RunRecord | undefined> {
    const { store } = this.context;
    const client = this.context.getClient();
    const panel = store.panel(QUERY_SLOT);
    panel.setTitle(`UDM: ${title}`);
    // The panel shows the new search, so the old run's fetch has nobody left to show rows to.
    store.stopFetches(QUERY_SLOT);
    panel.post({ type: 'running', title, query });
    const started = Date.now();
    const range = `${window.start} – ${window.end}, up to ${limit.toLocaleString('en-US')} events`;
    const run: RunRecord = {
      info: {
        runId: randomUUID(),
        kind: 'udm',
        title,
        startTime: window.start,
        endTime: window.end,
        query,
        ranAt: new Date().toISOString(),
      },
      slot: QUERY_SLOT,
      rows: [],
      moreDataAvailable: false,
      query,
      limit,
      window,
    };
    const arrival = new RowsArrival(store, panel, run);
    // What this run cost of the hourly budget: the attempts the service answered, retries included.
    let spent = 0;
    const onEvents = (events: readonly unknown[], texts: readonly string[]): void => {
      // npm run bench -- editor reads this line.
      if (!arrival.isShown)
        log.info(`udmSearch: first ${events.length} events arrived after ${Date.now() - started} ms`);
      arrival.add(events, texts);
    };
    const answer = await vscode.window
      .withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Running UDM search', cancellable: true },
        async (progress, token) => {
          progress.report({ message: range });
          const sub = token.onCancellationRequested(() => controller.abort());
          try {
            return await this.context.withQuota(
              'udmSearch',
              () =>
                client.udmSearchStreaming(
                  { query, startTime: window.startMs, endTime: window.endMs, limit, onCharged: () => spent++ },
                  onEvents,
                  controller.signal,
                  arrival.picks,
                ),
              controller.signal,
              (message) => {
                progress.report({ message });
                panel.post({ type: 'running', title, message, query });
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
          if (!cancelled) this.context.recordRun(query, window, { searches: spent, failed: true });
          if (arrival.isShown) {
            // The rows that arrived stay shown, marked as part of the answer: someone who stops a
            // long download has usually seen what they were after among them, and clearing would
            // take it away. They are not kept for a reload and offer no "fetch the rest".
            const count = arrival.count.toLocaleString('en-US');
            log.warn(
              `udmSearch stopped after ${arrival.count} events: ${cancelled ? 'cancelled' : describeFailure(err)}`,
            );
            void arrival.finish(
              false,
              cancelled
                ? {
                    cancelled: true,
                    message: `Cancelled after ${count} events had arrived: the rows shown are only part of the answer. Run again for all of it.`,
                  }
                : {
                    cancelled: false,
                    message:
                      err instanceof UdmSearchStreamBrokenError
                        ? `${err.message} ${spentNote(spent)}`
                        : `The answer stopped after ${count} events: ${describeFailure(err)} Run the search again. ${spentNote(spent)}`,
                  },
            );
          } else {
            panel.post({
              type: 'failed',
              title,
              cancelled,
              message: cancelled ? 'Cancelled.' : `${describeFailure(err)} ${spentNote(spent)}`,
            });
          }
          throw cancelled && !(err instanceof CancelledError) ? new CancelledError() : err;
        },
      );
    log.info(
      `udmSearch returned ${arrival.count} events in ${Date.now() - started} ms (moreDataAvailable=${answer.moreDataAvailable})`,
    );
    // The run is over once its answer is: the final order reaches the page once it painted the first
    // rows, and a new run meanwhile does not have to ask to cancel this one.
    const count = arrival.count;
    void arrival.finish(answer.moreDataAvailable);
    this.context.recordRun(query, window, { events: count, searches: spent });
    return run;
  }
}

/** What a failed run cost of the hourly budget, in words. */
export function spentNote(searches: number): string {
  return searches === 0
    ? 'It never reached the service, so it cost none of the hourly search budget.'
    : `It cost ${searches} of the hourly search budget${searches > 1 ? ' (each answered retry counts)' : ''}.`;
}
