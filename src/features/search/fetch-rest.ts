// "Fetch the rest" of a cut answer: says how many searches it will spend and how many remain this
// hour, and only starts when the user agrees; then asks window by window, appending the new rows to
// the page as they come and counting the windows truly.
import * as vscode from 'vscode';
import { isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT, type SecOpsClient } from '../../core/secops/client';
import { rowKey } from '../../core/secops/results/arrange';
import { timeField } from '../../core/secops/results/fields';
import {
  CANNOT_SPLIT,
  FETCH_REST_MAX_EVENTS,
  restOutcome,
  restProgressText,
  restQuestion,
  restStopped,
} from '../../core/secops/results/rest';
import { timesOf } from '../../core/secops/results/table';
import {
  fetchRest as fetchWindowsOfRest,
  planRest,
  type RestPlan,
  type SplitResult,
  type WindowResult,
} from '../../core/secops/split';
import type { SearchContext } from './context';
import { type ResultsPanel } from './panel';
import { rowsOf, type RunRecord } from './run-store';
import { prepareRunFilter } from './filter-prep';

/** A run that can be completed: its window, its time field, and what to ask again. */
interface Completable {
  run: RunRecord;
  panel: ResultsPanel;
  path: string;
  isUdm: boolean;
  limit: number;
  plan: RestPlan;
  client: SecOpsClient;
}

export async function fetchRest(context: SearchContext, runId: string): Promise<void> {
  const run = context.store.get(runId);
  const panel = run && context.store.panels.get(run.slot);
  // An answer still arriving has no plan yet; a partial one has none to complete.
  if (!run || !panel || run.fetch || run.arriving || run.partial !== undefined) return;
  const path = timeField(run.info.kind);
  const window = run.window;
  if (!window || !path || !(run.info.kind === 'udm' ? run.query : run.info.kind === 'assetEvents' && run.asset)) {
    panel.post({
      type: 'status',
      runId,
      state: 'done',
      moreDataAvailable: run.moreDataAvailable,
      message: CANNOT_SPLIT,
    });
    return;
  }
  const isUdm = run.info.kind === 'udm';
  const limit = isUdm ? (run.limit ?? UDM_SEARCH_MAX_LIMIT) : 10_000;
  const plan = run.rest ?? planRest(window.startMs, window.endMs, timesOf(run.rows, path), limit);
  if (isUdm && !(await agreed(context, plan))) {
    panel.post({ type: 'status', runId, state: 'done', moreDataAvailable: true });
    return;
  }
  await complete(context, { run, panel, path, isUdm, limit, plan, client: context.getClient() });
}

/** A UDM search spends the hourly budget: the user agrees first, knowing how much is left. */
async function agreed(context: SearchContext, plan: RestPlan): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    restQuestion(plan.windows.length, context.budget()),
    { modal: true },
    'Fetch the Rest',
  );
  return answer === 'Fetch the Rest';
}

async function complete(context: SearchContext, target: Completable): Promise<void> {
  const { run, panel, plan } = target;
  const runId = run.info.runId;
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
      { location: vscode.ProgressLocation.Notification, title: 'Fetching the rest of the results', cancellable: true },
      async (progress, token) => {
        const sub = token.onCancellationRequested(() => controller.abort());
        try {
          return await fetchWindows(context, target, controller.signal, (message) => progress.report({ message }));
        } finally {
          sub.dispose();
        }
      },
    );
    // The rows keep the order the page holds them in (it shows them newest first itself), so that
    // a row's position means the same row on both sides.
    run.moreDataAvailable = !result.complete;
    if (result.complete) delete run.info.covered;
    const message = restOutcome(result, run.rows.length);
    panel.post({ type: 'status', runId, state: 'done', moreDataAvailable: run.moreDataAvailable, message });
    context.store.keep(run);
    prepareRunFilter(run, panel);
  } catch (err) {
    const cancelled = isCancellation(err) || controller.signal.aborted;
    panel.post({
      type: 'status',
      runId,
      state: cancelled ? 'cancelled' : 'error',
      moreDataAvailable: true,
      message: restStopped(cancelled, run.rows.length, (err as Error).message),
    });
    if (!cancelled) throw err;
  } finally {
    run.fetch = undefined;
  }
}

/** Asks for the planned windows one by one, and sends the page each window's new rows. */
function fetchWindows(
  context: SearchContext,
  { run, panel, path, isUdm, limit, plan, client }: Completable,
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<SplitResult<unknown>> {
  const runId = run.info.runId;
  const fetchWindow = async (from: number, to: number, windowSignal?: AbortSignal): Promise<WindowResult<unknown>> => {
    if (isUdm) {
      const r = await context.withQuota(
        'udmSearch',
        () => client.udmSearch({ query: run.query!, startTime: from, endTime: to, limit }, windowSignal),
        signal,
        report,
      );
      return { items: r.events, truncated: r.moreDataAvailable };
    }
    const r = await context.withQuota(
      'ListEvents',
      () => client.listEvents({ asset: run.asset!, startTime: from, endTime: to }, windowSignal),
      signal,
      report,
    );
    return { items: r.events, truncated: r.moreDataAvailable || r.events.length >= 10_000 };
  };
  return fetchWindowsOfRest<unknown>(plan, fetchWindow, {
    keyOf: (row) => rowKey(row),
    timeOf: (row) => timesOf([row], path)[0],
    initial: run.rows,
    limit,
    maxItems: FETCH_REST_MAX_EVENTS,
    signal,
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
      report(restProgressText(p));
    },
  });
}
