// What the results and pivot pages ask of the extension, one small route per message type: the rows
// the page asks about are answered from the run's rows, everything else is an action whose failure
// is reported under the name of what the user did.
import type * as vscode from 'vscode';
import { CancelledError, describeError, isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import type { FromWebview } from '../../core/secops/messages';
import type { ExportOptions } from '../../core/secops/results/export-run';
import type { ExportFormat } from '../../core/secops/results/export';
import type { ColumnSpec } from '../../core/secops/results/fields';
import { PIVOT_LABELS, type PivotAction } from '../../core/secops/results/pivots';
import { answerRowsRequest, isRowsRequest, type RowsRequest } from '../../core/secops/results/rowtable';
import type { ResolvedWindow } from '../../core/secops/timerange';
import { reportError } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import type { ReferenceListStore } from '../shared/reference-list-store';
import { QUERY_SLOT, type ResultsPanel } from './panel';
import { rowsOf, type RunRecord } from './run-store';
import { filterWhenReady, prepareRunFilter } from './filter-prep';
import { watchQueryBarLists } from './querybar-lists';
import type { PivotOrigin } from './pivots';

const log = getLogger('search');

/** What the pages' messages ask the search controller to do. */
export interface ResultsActions {
  runInfo(runId: string): RunRecord | undefined;
  fetchRest(runId: string): Promise<void>;
  exportRun(
    runId: string,
    format: ExportFormat,
    columns: ColumnSpec[],
    options?: ExportOptions,
  ): Promise<vscode.Uri | undefined>;
  openLink(url: string): Promise<void>;
  pivot(action: PivotAction, value: string, window: ResolvedWindow, from?: PivotOrigin): Promise<void>;
  pivotWindow(runId: string, fallback: () => ResolvedWindow): ResolvedWindow;
  currentWindow: () => ResolvedWindow;
  narrowToNewest(runId: string): Promise<void>;
  searchPeriod(runId: string, startTime: string, endTime: string): Promise<void>;
  runQuery(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined>;
  runEditedQuery(query: string, range?: { startTime: string; endTime: string }): Promise<void>;
  /** What the query bar knows of the reference lists. */
  readonly referenceLists: ReferenceListStore;
}

type Action = Exclude<FromWebview, RowsRequest>;

interface Route<M extends Action> {
  /** The name a failure is reported under. */
  label: string | ((message: M) => string);
  run(actions: ResultsActions, message: M, panel: ResultsPanel): Promise<unknown> | void;
}

type Routes = { [T in Action['type']]: Route<Extract<Action, { type: T }>> };

const RUN_QUERY = 'Run UDM Query';
const QUERY_BAR = 'Query bar';
const NOTHING: Route<Action> = { label: 'Results', run: () => undefined };

const ROUTES: Routes = {
  fetchRest: { label: 'Fetch the rest', run: (a, m) => a.fetchRest(m.runId) },
  stopFetch: { label: 'Results', run: (a, m) => a.runInfo(m.runId)?.fetch?.abort() },
  export: {
    label: (m) => `Export ${m.format.toUpperCase()}`,
    run: (a, m) =>
      a.exportRun(m.runId, m.format, m.columns, {
        ...(m.sort ? { sort: m.sort } : {}),
        ...(m.allColumns ? { allColumns: true } : {}),
      }),
  },
  openLink: { label: 'Open link', run: (a, m) => a.openLink(m.url) },
  pivot: {
    label: (m) => PIVOT_LABELS[m.action],
    run: (a, m, panel) =>
      a.pivot(m.action, m.value, a.pivotWindow(m.runId, a.currentWindow), {
        runId: m.runId,
        ...(m.row !== undefined ? { row: m.row } : {}),
        // A pivot panel restored after a reload runs its pivot again in itself.
        ...(!a.runInfo(m.runId) && panel.slot !== QUERY_SLOT ? { slot: panel.slot } : {}),
      }),
  },
  narrowToNewest: { label: RUN_QUERY, run: (a, m) => a.narrowToNewest(m.runId) },
  searchPeriod: { label: RUN_QUERY, run: (a, m) => a.searchPeriod(m.runId, m.startTime, m.endTime) },
  rerun: {
    label: RUN_QUERY,
    run: async (a, m) => {
      const run = a.runInfo(m.runId);
      if (run?.query) await a.runQuery(run.query, a.currentWindow(), run.limit ?? UDM_SEARCH_MAX_LIMIT);
    },
  },
  runQuery: {
    label: RUN_QUERY,
    run: (a, m) =>
      a.runEditedQuery(m.query, m.startTime && m.endTime ? { startTime: m.startTime, endTime: m.endTime } : undefined),
  },
  'querybar.watchLists': { label: QUERY_BAR, run: (a, _m, panel) => watchQueryBarLists(a.referenceLists, panel) },
  ready: NOTHING,
  painted: NOTHING,
  columns: NOTHING,
};

/** The name a failure of `message` is reported under. */
export function describeMessage(message: FromWebview): string {
  if (isRowsRequest(message)) return 'Results';
  const label = (ROUTES[message.type] as Route<Action>).label;
  return typeof label === 'string' ? label : label(message);
}

/** Answers a page's message; a failure is reported, a cancellation is not. */
export async function routeMessage(actions: ResultsActions, message: FromWebview, panel: ResultsPanel): Promise<void> {
  if (isRowsRequest(message)) {
    const run = actions.runInfo(message.runId);
    try {
      const rows = run && rowsOf(run);
      // The first filter of a large table may come before its search texts are all made.
      if (
        rows &&
        message.type === 'rows.filter' &&
        !(await filterWhenReady(rows, () => panel.runId === run.info.runId))
      )
        return;
      panel.post(answerRowsRequest(rows, message));
      // The page asks for the field list once it holds all the rows and is idle: the filter's
      // search texts are made from then on, between other work ("fetch the rest" does it at its end).
      if (run && message.type === 'rows.fields' && !run.arriving && !run.fetch) prepareRunFilter(run, panel);
    } catch (err) {
      log.failure(`answering the results page (${message.type})`, err);
      panel.post({ type: 'rows.unavailable', runId: message.runId, id: message.id, message: describeError(err) });
    }
    return;
  }
  const route = ROUTES[message.type] as Route<Action> | undefined;
  if (!route) return;
  try {
    await route.run(actions, message, panel);
  } catch (err) {
    if (err instanceof CancelledError || isCancellation(err)) return;
    await reportError(describeMessage(message), err);
  }
}
