// "Fetch the rest": the service has no page token, so a truncated answer is completed by asking
// again over smaller time windows until every window comes back whole.
import { CancelledError } from '../google/errors';

export interface WindowResult<T> {
  items: T[];
  /** The service said (or the count implies) that the window holds more than it returned. */
  truncated: boolean;
}

export interface SplitProgress {
  items: number;
  windowsDone: number;
  windowsPending: number;
  /** Windows that were still truncated at the smallest allowed width. */
  windowsIncomplete: number;
}

export interface SplitOptions<T> {
  /** Unique key per item, so events seen in the first answer and again in a sub-window count once. */
  keyOf: (item: T) => string;
  /** Items already fetched for the whole window (the first, truncated answer). */
  initial?: T[];
  /** Windows are halved until this width; a window still truncated then is kept as is. */
  minWindowMs?: number;
  /** Stop once this many distinct items are held. */
  maxItems?: number;
  /** Number of pieces a truncated window is cut into. */
  fanOut?: number;
  signal?: AbortSignal;
  /** Called after each window with the items it added (already de-duplicated). */
  onProgress?: (progress: SplitProgress, added: T[]) => void;
}

export interface SplitResult<T> {
  items: T[];
  /** True when every window came back whole (nothing more to fetch). */
  complete: boolean;
  /** Why it ended before completing: the item cap or the smallest window width. */
  stoppedBy?: 'maxItems' | 'minWindow';
  windowsFetched: number;
}

/**
 * Completes a truncated result over [startMs, endMs) by splitting it into smaller windows, fetching
 * each (earliest first) and splitting again any that is still truncated. Aborting throws
 * CancelledError; the caller keeps whatever onProgress already delivered.
 */
export async function fetchAllInWindows<T>(
  startMs: number,
  endMs: number,
  fetchWindow: (startMs: number, endMs: number, signal?: AbortSignal) => Promise<WindowResult<T>>,
  options: SplitOptions<T>,
): Promise<SplitResult<T>> {
  if (!(endMs > startMs)) throw new RangeError('the window must end after it starts');
  const fanOut = Math.max(2, Math.floor(options.fanOut ?? 2));
  const minWindowMs = Math.max(1, options.minWindowMs ?? 1000);
  return fetchWindows(split(startMs, endMs, fanOut, minWindowMs), fetchWindow, options, (from, to) =>
    // Earliest first keeps the merged list growing in time order.
    to - from >= 2 * minWindowMs ? { next: split(from, to, fanOut, minWindowMs) } : { next: [], incomplete: true },
  );
}

/**
 * The loop both ways of completing an answer share: windows are fetched earliest first, items
 * de-duplicated by key, and a truncated window is replaced by the windows `continueAfter` returns
 * (or counted as incomplete). Stops at `maxItems`; aborting throws CancelledError.
 */
async function fetchWindows<T>(
  windows: Array<[number, number]>,
  fetchWindow: (startMs: number, endMs: number, signal?: AbortSignal) => Promise<WindowResult<T>>,
  options: Pick<SplitOptions<T>, 'keyOf' | 'initial' | 'maxItems' | 'signal' | 'onProgress'>,
  continueAfter: (
    from: number,
    to: number,
    result: WindowResult<T>,
  ) => { next: Array<[number, number]>; incomplete?: boolean },
): Promise<SplitResult<T>> {
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const seen = new Map<string, T>();
  for (const item of options.initial ?? []) seen.set(options.keyOf(item), item);
  const pending = windows.slice();
  let windowsDone = 0;
  let incomplete = 0;
  let stoppedBy: SplitResult<T>['stoppedBy'];
  while (pending.length > 0) {
    if (options.signal?.aborted) throw new CancelledError();
    if (seen.size >= maxItems) {
      stoppedBy = 'maxItems';
      break;
    }
    const [from, to] = pending.shift()!;
    const result = await fetchWindow(from, to, options.signal);
    if (options.signal?.aborted) throw new CancelledError();
    const added: T[] = [];
    for (const item of result.items) {
      const key = options.keyOf(item);
      if (!seen.has(key)) {
        seen.set(key, item);
        added.push(item);
      }
    }
    windowsDone++;
    if (result.truncated) {
      const after = continueAfter(from, to, result);
      if (after.incomplete) {
        incomplete++;
        stoppedBy = 'minWindow';
      }
      pending.unshift(...after.next);
    }
    options.onProgress?.(
      { items: seen.size, windowsDone, windowsPending: pending.length, windowsIncomplete: incomplete },
      added,
    );
  }
  const complete = pending.length === 0 && incomplete === 0;
  return {
    items: [...seen.values()],
    complete,
    ...(complete ? {} : { stoppedBy: stoppedBy ?? 'maxItems' }),
    windowsFetched: windowsDone,
  };
}

function split(from: number, to: number, parts: number, minWidth: number): Array<[number, number]> {
  const width = to - from;
  const count = Math.max(1, Math.min(parts, Math.floor(width / minWidth)));
  const out: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const a = from + Math.floor((width * i) / count);
    const b = i === count - 1 ? to : from + Math.floor((width * (i + 1)) / count);
    if (b > a) out.push([a, b]);
  }
  return out;
}

// ---- completing a truncated answer by its own shape -----------------------------------------------

/** Where a truncated answer's rows sit in its window, and which parts of the window they leave out. */
export interface CoveredSpan {
  /** Earliest and latest row time (epoch ms); undefined when no row has a readable time. */
  firstMs: number | undefined;
  lastMs: number | undefined;
  /** The order the service returned the rows in. */
  order: 'ascending' | 'descending' | 'mixed';
}

export function coveredSpan(times: ArrayLike<number>): CoveredSpan {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let up = true;
  let down = true;
  let prev = Number.NaN;
  let seen = 0;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (!Number.isFinite(t)) continue;
    seen++;
    if (t < first) first = t;
    if (t > last) last = t;
    if (!Number.isNaN(prev)) {
      if (t < prev) up = false;
      if (t > prev) down = false;
    }
    prev = t;
  }
  if (seen === 0) return { firstMs: undefined, lastMs: undefined, order: 'mixed' };
  return { firstMs: first, lastMs: last, order: up ? 'ascending' : down ? 'descending' : 'mixed' };
}

const SECOND = 1000;

/**
 * The parts of [startMs, endMs) a truncated answer did not cover. A service that returns the oldest
 * matches first and stops at its limit has covered everything before its last row's second; one that
 * returns the newest first has covered everything after its first row's second. Rows in no order
 * say nothing, so the whole window is left to fetch (rows already held are not counted twice).
 */
export function uncoveredRanges(startMs: number, endMs: number, span: CoveredSpan): Array<[number, number]> {
  if (span.firstMs === undefined || span.lastMs === undefined || span.order === 'mixed') return [[startMs, endMs]];
  if (span.order === 'ascending') {
    // From the start of the last row's second: rows sharing it may have been cut.
    const from = Math.max(startMs, Math.floor(span.lastMs / SECOND) * SECOND);
    return from < endMs ? [[from, endMs]] : [];
  }
  const to = Math.min(endMs, Math.floor(span.firstMs / SECOND) * SECOND + SECOND);
  return to > startMs ? [[startMs, to]] : [];
}

/** Events per millisecond the rows show over the span they cover (at least one second wide). */
export function densityOf(count: number, span: CoveredSpan): number {
  if (span.firstMs === undefined || span.lastMs === undefined) return 0;
  return count / Math.max(SECOND, span.lastMs - span.firstMs);
}

/**
 * Cuts [from, to) into windows expected to hold `fill` of the limit each at the given density, on
 * whole seconds (the service's time resolution for ranges).
 */
export function windowsByDensity(
  from: number,
  to: number,
  density: number,
  limit: number,
  fill = 0.8,
): Array<[number, number]> {
  if (!(to > from)) return [];
  const target = Math.max(1, limit * fill);
  const width = density > 0 ? Math.max(SECOND, Math.floor(target / density / SECOND) * SECOND) : to - from;
  const out: Array<[number, number]> = [];
  for (let a = from; a < to; a += width) out.push([a, Math.min(to, a + width)]);
  return out;
}

export interface RestPlan {
  /** Windows to ask for, earliest first. */
  windows: Array<[number, number]>;
  span: CoveredSpan;
}

/** What "fetch the rest" will ask for, from the truncated answer's row times (in the order returned). */
export function planRest(startMs: number, endMs: number, times: ArrayLike<number>, limit: number): RestPlan {
  const span = coveredSpan(times);
  const density = densityOf(times.length, span);
  const windows = uncoveredRanges(startMs, endMs, span).flatMap(([a, b]) => windowsByDensity(a, b, density, limit));
  return { windows, span };
}

export interface RestOptions<T> {
  keyOf: (item: T) => string;
  /** The row's time in epoch ms (NaN when it has none). */
  timeOf: (item: T) => number;
  initial?: T[];
  limit: number;
  /** A window this narrow that is still truncated is left incomplete. */
  minWindowMs?: number;
  maxItems?: number;
  signal?: AbortSignal;
  onProgress?: (progress: SplitProgress, added: T[]) => void;
}

/**
 * Fetches the planned windows one by one; a window that comes back truncated is continued from
 * where its own rows stop, sized by their density, so every search brings new rows. Progress counts
 * the windows actually asked for and the ones planned (which grows only when a window overflows).
 */
export async function fetchRest<T>(
  plan: RestPlan,
  fetchWindow: (startMs: number, endMs: number, signal?: AbortSignal) => Promise<WindowResult<T>>,
  options: RestOptions<T>,
): Promise<SplitResult<T>> {
  const minWindowMs = Math.max(1, options.minWindowMs ?? SECOND);
  return fetchWindows(plan.windows, fetchWindow, options, (from, to, result) => {
    const span = coveredSpan(result.items.map(options.timeOf));
    let rest = uncoveredRanges(from, to, span);
    let incomplete = false;
    // A window whose rows all share its first second cannot be continued by time: that second
    // holds more than the limit and is skipped (reported as incomplete).
    if (rest.length === 1 && rest[0][0] <= from && rest[0][1] >= to) {
      if (span.order === 'mixed' && to - from >= 2 * minWindowMs) {
        const mid = from + Math.max(minWindowMs, Math.floor((to - from) / 2));
        rest = [
          [from, mid],
          [mid, to],
        ];
      } else {
        incomplete = true;
        rest = from + minWindowMs < to ? [[from + minWindowMs, to]] : [];
      }
    }
    const density = densityOf(result.items.length, span);
    const next = rest.flatMap(([a, b]) =>
      span.order === 'mixed' ? [[a, b] as [number, number]] : windowsByDensity(a, b, density, options.limit),
    );
    return { next, incomplete };
  });
}
