// How a run's rows reach the results page: newest first, and for an answer cut at its limit the
// part of the range it covers and what fetching the rest will ask for. Pure.
import { formatTime } from '../params';
import { planRest, type RestPlan } from '../split';
import type { ResolvedWindow, TimeRangeSpec } from '../timerange';
import { timeField, type ResultKind } from './fields';
import { newestFirstOrder, timesOf } from './table';

export interface ArrangedRows {
  /** The rows, newest first (as given when the kind has no time). */
  rows: unknown[];
  /**
   * Where each arranged row was in the rows given (`rows[i]` is the given `rows[order[i]]`);
   * undefined when the order did not change. A page that holds the rows in the order given takes
   * the final order from it without being sent the rows again.
   */
  order?: Uint32Array;
  /** What "fetch the rest" will ask for, planned from the order the service returned the rows in. */
  rest?: RestPlan;
  /** The part of the window a cut answer covers. */
  covered?: { start: string; end: string };
  /** How many searches the plan holds. */
  restSearches?: number;
}

/** Rows of a cut answer default to the service's own limit when the run names none. */
const DEFAULT_LIMIT = 10_000;

/** Where each row goes and what a cut answer covers, without the rows themselves. */
export type ArrangedOrder = Omit<ArrangedRows, 'rows'>;

interface Cut {
  moreDataAvailable: boolean;
  window?: ResolvedWindow;
  limit?: number;
}

/** The rows newest first and, for an answer cut at its limit, the part it covers and the rest's plan. */
export function arrangeRows(kind: ResultKind, rows: unknown[], cut: Cut): ArrangedRows {
  const path = timeField(kind);
  if (!path) return { rows };
  // Each event's time is read once, for the plan and for the order.
  const arranged = arrangeTimes(timesOf(rows, path), cut);
  const order = arranged.order;
  return { ...arranged, rows: order ? Array.from(order, (i) => rows[i]) : rows.slice() };
}

/**
 * The arrangement of rows of a kind with a time, from each row's time as timesOf reads it (rows held
 * elsewhere, say as the text they came in, are then only reordered).
 */
export function arrangeTimes(times: ArrayLike<number>, cut: Cut): ArrangedOrder {
  const order = newestFirstOrder(times);
  const arranged: ArrangedOrder = {};
  if (order.some((p, i) => p !== i)) arranged.order = order;
  const window = cut.window;
  if (cut.moreDataAvailable && window) {
    const plan = planRest(window.startMs, window.endMs, times, cut.limit ?? DEFAULT_LIMIT);
    arranged.rest = plan;
    const { firstMs, lastMs, order } = plan.span;
    if (firstMs !== undefined && lastMs !== undefined) {
      const from = order === 'ascending' ? window.startMs : firstMs;
      const to = order === 'descending' ? window.endMs : Math.floor(lastMs / 1000) * 1000 + 1000;
      arranged.covered = { start: formatTime(from, 'start'), end: formatTime(Math.min(to, window.endMs), 'end') };
    }
    arranged.restSearches = plan.windows.length;
  }
  return arranged;
}

/** The key that makes a row fetched again by "fetch the rest" count once. */
export function rowKey(row: unknown): string {
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

/** The newest part of a cut run's window, as wide as the part its answer covered (a second at least). */
export function newestPartRange(window: ResolvedWindow, covered: { start: string; end: string }): TimeRangeSpec {
  const width = Math.max(1000, Date.parse(covered.end) - Date.parse(covered.start));
  const endMs = window.endMs;
  const startMs = Math.max(window.startMs, Math.floor((endMs - width) / 1000) * 1000);
  return { kind: 'custom', start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
}

/** A period picked on the timeline, widened to whole seconds (the service's resolution for ranges). */
export function periodRange(startTime: string, endTime: string): TimeRangeSpec {
  const startMs = Math.floor(Date.parse(startTime) / 1000) * 1000;
  const endMs = Math.ceil(Date.parse(endTime) / 1000) * 1000;
  return { kind: 'custom', start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
}

/** The window of a range the query bar sends with its Run. */
export function windowOf(range: { startTime: string; endTime: string }): ResolvedWindow {
  const startMs = Date.parse(range.startTime);
  const endMs = Date.parse(range.endTime);
  return { startMs, endMs, start: formatTime(startMs, 'start'), end: formatTime(endMs, 'end') };
}
