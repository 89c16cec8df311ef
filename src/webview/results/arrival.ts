// The end of an answer the page showed while it arrived: the rows take their final order from the
// permutation the extension sends (not the rows again), and the page says whether the answer is
// whole or only part of it (cancelled, broken off).
import type { ToWebview } from '../../core/secops/messages';
import { updateBanner, updateSummary } from './banner';
import { renderHistogram } from './histogram';
import { filterInput } from './layout';
import { markAfterPaint } from './marks';
import { rememberRun } from './persist';
import { upgradeQueryBar } from './query-bar';
import { state } from './state';
import { ensureCells, grid, recompute, requestFieldsWhenIdle } from './table';

type Arrived = Extract<ToWebview, { type: 'arrived' }>;

export function onArrived(message: Arrived): void {
  if (!state.run || message.runId !== state.run.runId) return;
  // The extension answers by the final positions from now on: nothing asked before is of use, and
  // nothing is asked until the page holds the rows in that order too.
  state.reordering = true;
  state.orderGeneration++;
  state.pendingFilter = undefined;
  state.filtered = undefined;
  state.pendingCells.clear();
  state.pendingFields = undefined;
  state.pendingDetail = undefined;
  state.eventCache.clear();
  // After the appends before it, which wait for the first rows to be on screen.
  state.afterFirstPaint = state.afterFirstPaint.then(() => {
    if (!state.run || message.runId !== state.run.runId) return;
    state.reordering = false;
    if (message.count !== state.rowCount)
      console.warn(`the answer has ${message.count} rows but the page holds ${state.rowCount}`);
    else if (message.order) reorder(message.order);
    state.arriving = false;
    state.allRowsIn = true;
    state.moreDataAvailable = message.moreDataAvailable;
    state.partial = message.partial;
    const { covered, restSearches } = message;
    state.run = {
      ...state.run,
      ...(covered ? { covered } : {}),
      ...(restSearches !== undefined ? { restSearches } : {}),
    };
    state.allFields = undefined;
    state.fieldResolver = undefined;
    grid.select(-1);
    requestFieldsWhenIdle();
    grid.invalidate();
    ensureCells();
    recompute();
    updateSummary();
    updateBanner();
    renderHistogram();
    rememberRun(state.run, filterInput.value.trim(), grid.viewport.scrollTop);
    markAfterPaint('cloudbench:all-rows-painted', { runId: message.runId, rows: state.rowCount });
    // The rows are all here and in order: now the query bar's editor may load.
    requestAnimationFrame(() => setTimeout(upgradeQueryBar, 0));
  });
  state.afterFirstPaint.catch((err: unknown) => console.warn('could not order the rows', err));
}

/** Row `i` becomes the row that was at `order[i]` (times and every column's cells alike). */
export function reorder(order: Uint32Array): void {
  const n = order.length;
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) times[i] = state.rowTimes[order[i]];
  state.rowTimes = times;
  for (const [key, cells] of [...state.cellStore]) {
    if (cells.length !== n) {
      state.cellStore.delete(key);
      continue;
    }
    const next = new Array<string>(n);
    for (let i = 0; i < n; i++) next[i] = cells[order[i]];
    state.cellStore.set(key, next);
  }
}
