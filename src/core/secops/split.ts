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
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const seen = new Map<string, T>();
  for (const item of options.initial ?? []) seen.set(options.keyOf(item), item);

  const pending: Array<[number, number]> = split(startMs, endMs, fanOut, minWindowMs);
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
      if (to - from >= 2 * minWindowMs) {
        // Earliest first keeps the merged list growing in time order.
        pending.unshift(...split(from, to, fanOut, minWindowMs));
      } else {
        incomplete++;
        stoppedBy = 'minWindow';
      }
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
