// The quick filter's search texts of a run's rows are made ahead, once the page has all the rows and
// asked for their field list (it does so when it is idle): a slice of work at a time with pauses
// between, so the extension host stays responsive, and the first filter of a large table (100,000
// events) only matches instead of reading every event for seconds.
import type { ResultRows } from '../../core/secops/results/rowtable';
import { getLogger } from '../../platform/log';
import type { ResultsPanel } from './panel';
import { rowsOf, type RunRecord } from './run-store';

const log = getLogger('search');

/** Work per slice, and the pause after each (other work of the extension host runs in between). */
export const FILTER_PREP_SLICE_MS = 12;
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

/** Makes the search texts of the rows `run` holds while `panel` shows it and nothing replaces them. */
export function prepareRunFilter(run: RunRecord, panel: ResultsPanel): void {
  const rows = rowsOf(run);
  prepareFilterAhead(rows, () => panel.runId === run.info.runId && run.store === rows);
}
