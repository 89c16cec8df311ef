// The quick filter's search texts of a large run's rows are made ahead, once the page has all the
// rows and asked for their field list (it does so when it is idle): a slice of work at a time with
// pauses between, so the extension host stays responsive, and the first filter of a large table
// (100,000 events) only matches instead of reading every event for seconds.
import type { ResultRows } from '../../core/secops/results/rowtable';
import { getLogger } from '../../platform/log';
import type { ResultsPanel } from './panel';
import { rowsOf, type RunRecord } from './run-store';

const log = getLogger('search');

/** Work per slice, and the pause after each (other work of the extension host runs in between). */
export const FILTER_PREP_SLICE_MS = 12;
/** Work per slice while a filter waits for the texts (the page says "Filtering…" meanwhile). */
export const FILTER_WAITING_SLICE_MS = 40;
export const FILTER_PREP_PAUSE_MS = 4;

const preparing = new WeakSet<ResultRows>();

/**
 * Makes the search texts of `rows` in slices while `wanted()` holds (the panel still shows the run
 * and it still reads these rows); `done` runs when all are made.
 */
export function prepareFilterAhead(rows: ResultRows, wanted: () => boolean, done?: () => void): void {
  if (preparing.has(rows)) return;
  preparing.add(rows);
  const started = Date.now();
  let work = 0;
  const step = (): void => {
    if (!wanted()) {
      preparing.delete(rows);
      return;
    }
    const t0 = performance.now();
    const complete = rows.prepareFilter(FILTER_PREP_SLICE_MS);
    work += performance.now() - t0;
    if (!complete) {
      setTimeout(step, FILTER_PREP_PAUSE_MS);
      return;
    }
    preparing.delete(rows);
    // npm run bench -- scale reads this line.
    log.info(
      `quick filter ready: search texts of ${rows.rows.length} rows made in ${Math.round(work)} ms of work, ${Date.now() - started} ms after the rows were in`,
    );
    done?.();
  };
  setTimeout(step, FILTER_PREP_PAUSE_MS);
}

/**
 * Tables of more rows than one answer holds (10,000 events: "fetch the rest", up to 200,000) have
 * their search texts made ahead; for one answer the first filter makes them (well under a second),
 * which spares the extension host making them for every run, most of which are never filtered.
 */
export const FILTER_AHEAD_MIN_ROWS = 10_001;

/**
 * Makes the search texts of the rows `run` holds while `panel` shows it and nothing replaces them,
 * when they are many (see FILTER_AHEAD_MIN_ROWS).
 */
export function prepareRunFilter(run: RunRecord, panel: ResultsPanel): void {
  if (run.rows.length < FILTER_AHEAD_MIN_ROWS) return;
  const rows = rowsOf(run);
  prepareFilterAhead(rows, () => panel.runId === run.info.runId && run.store === rows);
}

/**
 * A filter of a large table asked before its search texts are all made: the rest are made in
 * slices that let other work of the extension host run between them (other extensions, the page's
 * other questions), instead of at once. Answers false when the run is no longer wanted meanwhile.
 */
export async function filterWhenReady(rows: ResultRows, wanted: () => boolean): Promise<boolean> {
  if (rows.rows.length < FILTER_AHEAD_MIN_ROWS) return true;
  while (!rows.prepareFilter(FILTER_WAITING_SLICE_MS)) {
    await new Promise((resolve) => setImmediate(resolve));
    if (!wanted()) return false;
  }
  return true;
}
