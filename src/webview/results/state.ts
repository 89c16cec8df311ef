// What the results page knows, in one object every module of the page reads and changes: the run
// shown, the rows it holds as a table (times and the text of the shown columns), the order shown,
// and the requests to the extension still unanswered. The events stay in the extension, which
// answers the filter, the detail pane, the field list and new columns' cells.
import type { FromWebview, RunInfo } from '../../core/secops/messages';
import type { ColumnSpec, ResultKind } from '../../core/secops/results/fields';
import type { SearchedFields } from '../../core/secops/results/rowtable';
import type { FieldResolver, SortDirection } from '../../core/secops/results/table';
import { pageApi } from '../shared/page-api';

export const ROW_H = 22;
export const OVERSCAN = 8;

export const vscode = pageApi<FromWebview>();

export function post(message: FromWebview): void {
  vscode.postMessage(message);
}

/** A quick filter the extension was asked for and has not answered yet. */
export interface PendingFilter {
  id: number;
  filter: string;
  count: number;
  columnsKey: string;
  /** When it was asked (Date.now()). */
  sentAt: number;
  /** Set while a later filter waits for this answer. */
  waiting?: boolean;
}

/** The extension's answer for a quick filter: matching rows among the first `count`. */
export interface FilterAnswer {
  filter: string;
  count: number;
  columnsKey: string;
  indices: Uint32Array;
  searched: SearchedFields[];
  error?: string;
}

/**
 * What a panel showed, kept by VS Code across a window reload: the run (whose rows the extension
 * keeps on disk) and how the user looked at it (filter, sort, scroll).
 */
export interface RestoreState {
  kind: ResultKind;
  title: string;
  runId?: string;
  ranAt?: string;
  sort?: { columnId: string; direction: SortDirection };
  scrollTop?: number;
  query?: string;
  startTime?: string;
  endTime?: string;
  source?: string;
  pivot?: { action: string; value: string };
  filter?: string;
}

export const state = {
  run: undefined as RunInfo | undefined,
  /** Rows the page holds for the run. */
  rowCount: 0,
  /** Rows the run holds: more than rowCount while the rest of them is on its way (see total). */
  runTotal: 0,
  /** Each row's time (epoch ms, NaN when none) for results that open newest first. */
  rowTimes: new Float64Array(0) as Float64Array,
  /** The cell texts by column (columnKey): one per row, for every row the page holds. */
  cellStore: new Map<string, string[]>(),
  /** Every field path of the rows: the filter's suggestions and the column chooser's choices. */
  allFields: undefined as string[] | undefined,
  /** The period picked on the histogram: rows outside it are hidden. */
  period: undefined as { start: number; end: number } | undefined,
  /** Field names of the quick filter, built from the rows on first use and after new rows arrive. */
  fieldResolver: undefined as FieldResolver | undefined,
  columns: [] as ColumnSpec[],
  /** Row indices shown, in the order shown. */
  view: new Uint32Array(0) as Uint32Array,
  sort: undefined as { column: ColumnSpec; direction: SortDirection } | undefined,
  filtered: undefined as FilterAnswer | undefined,
  requestSeq: 0,
  /** The filter the extension was asked for and has not answered yet (one at a time, see filterAnswer). */
  pendingFilter: undefined as PendingFilter | undefined,
  /** Column keys whose cells are asked for, by request. */
  pendingCells: new Map<number, string[]>(),
  pendingFields: undefined as number | undefined,
  /** Whole events fetched for the detail pane, by row (a few, the latest last). */
  eventCache: new Map<number, unknown>(),
  pendingDetail: undefined as { id: number; pos: number; index: number } | undefined,
  /** Fills the open column chooser again (when the extension's list of fields arrives). */
  refillChooser: undefined as (() => void) | undefined,
  moreDataAvailable: false,
  fetching: false,
  histogramQueued: false,
  /** Work that must wait until the latest results have painted their first rows. */
  afterFirstPaint: Promise.resolve<void>(undefined),
  /** The scroll position to go back to once the restored run's rows are all in and shown. */
  pendingScroll: undefined as number | undefined,
  /** Whether every row of the run shown has arrived (the first message may carry only the first ones). */
  allRowsIn: false,
  /** The answer is still arriving: the rows are in the order they came, more are on the way. */
  arriving: false,
  /**
   * The final order is on its way into the page: the extension already answers by the new row
   * positions, so no question about rows is asked until the page holds them in that order too.
   */
  reordering: false,
  /** Counts the final orders taken, so a row number given before one is not sent after it. */
  orderGeneration: 0,
  /** The answer stopped before it was complete (cancelled, broken off). */
  partial: undefined as { cancelled: boolean; message: string } | undefined,
  /** A panel VS Code brought back after a reload: what it showed, ready to run again on request. */
  restored: undefined as RestoreState | undefined,
};

/** A new id for a request to the extension. */
export const nextRequest = (): number => ++state.requestSeq;
