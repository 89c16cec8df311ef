// The extension's messages to the results page: a run starting, failing or its results and the rest
// of its rows, the banner's status, and the answers to the page's rows.* requests.
import { parseToWebview, type ToWebview } from '../../core/secops/messages';
import { defaultColumns } from '../../core/secops/results/fields';
import { columnKey, decodeCells } from '../../core/secops/results/rowtable';
import { isOpenableLink } from '../../core/secops/results/export';
import {
  consoleLink,
  countLabel,
  detail,
  earlierRun,
  filterInput,
  histogramBox,
  histogramWrap,
  periodBar,
  queryHost,
  rerunButton,
  runSource,
  runSummary,
  runTitle,
  suggestBox,
} from './layout';
import { post, state } from './state';
import { addTable, ensureCells, grid, recompute, requestFieldsWhenIdle, setColumns, updateSuggestions } from './table';
import { renderHistogram } from './histogram';
import { detailMessage, renderDetail } from './detail';
import { closeChooser } from './chooser';
import { updateBanner, updateSummary } from './banner';
import { REST_WAIT_MS, setQueryBarLists, setQueryText, upgradeQueryBar } from './query-bar';
import { chosenColumns, rememberRun } from './persist';
import { onArrived } from './arrival';
import { clearMarks, mark, markAfterPaint } from './marks';

/** The run the performance marks are of. */
let markedRunId: string | undefined;

export const NOT_KEPT = 'Restored after a reload; its rows were not kept. Run again to fetch them (one search).';
export function restoredSummary(note: string): void {
  if (!state.restored) return;
  runSummary.textContent = [
    state.restored.startTime && state.restored.endTime ? `${state.restored.startTime} – ${state.restored.endTime}` : '',
    note,
  ]
    .filter(Boolean)
    .join(' · ');
}
/** A panel VS Code brought back after a reload: what it showed, ready to run again on request. */

export function resetRows(): void {
  state.rowCount = 0;
  state.runTotal = 0;
  state.rowTimes = new Float64Array(0);
  state.cellStore.clear();
  state.allFields = undefined;
  state.fieldResolver = undefined;
  state.filtered = undefined;
  state.pendingFilter = undefined;
  state.pendingCells.clear();
  state.pendingFields = undefined;
  state.eventCache.clear();
  state.pendingDetail = undefined;
  state.view = new Uint32Array(0);
}

/**
 * Keeps the rows on screen for a search that has none (yet, or ever: it failed), saying whose they
 * are: an empty table would take away what the user was looking at.
 */
function markEarlier(why: string): void {
  const run = state.run;
  if (!run) return;
  const at = run.ranAt ? ` at ${new Date(run.ranAt).toLocaleTimeString()}` : '';
  earlierRun.textContent = `The rows below are from the earlier run "${run.title}"${at}: ${why}`;
}

export function clearResults(): void {
  earlierRun.textContent = '';
  state.run = undefined;
  resetRows();
  state.period = undefined;
  periodBar.classList.remove('visible');
  suggestBox.replaceChildren();
  state.sort = undefined;
  grid.select(-1);
  state.moreDataAvailable = false;
  state.fetching = false;
  state.arriving = false;
  state.reordering = false;
  state.partial = undefined;
  state.afterFirstPaint = Promise.resolve();
  detail.classList.remove('visible');
  closeChooser();
  histogramBox.replaceChildren();
  histogramWrap.classList.remove('visible');
  consoleLink.style.display = 'none';
  rerunButton.style.display = 'none';
  recompute();
  countLabel.textContent = '';
  updateBanner();
}

export function onMessage(message: ToWebview): void {
  switch (message.type) {
    case 'running':
      // A new search replaces the table once its rows come; until then the earlier rows stay, marked
      // as the earlier run's so they are not taken for the new search's.
      if (state.run !== undefined) {
        if (message.message === undefined) markEarlier("this search's rows replace them when they arrive.");
      } else if (message.message === undefined) clearResults();
      runTitle.textContent = message.title;
      runTitle.title = message.title;
      runSource.textContent = '';
      // The bar shows the query that runs (one started from the editor too), unless the user is typing in it.
      if (message.query !== undefined && !queryHost.contains(document.activeElement)) setQueryText(message.query);
      runSummary.textContent = message.message ? `Running… ${message.message}` : 'Running…';
      runSummary.classList.remove('error');
      return;
    case 'notKept':
      restoredSummary(NOT_KEPT);
      return;
    case 'failed':
      // The earlier rows (a whole answer or the part of a broken-off one) stay, marked as earlier.
      if (state.run !== undefined)
        markEarlier(message.cancelled ? 'this search was cancelled.' : 'this search failed.');
      else clearResults();
      runTitle.textContent = message.title;
      runTitle.title = message.title;
      runSummary.textContent = message.cancelled ? message.message : `Failed: ${message.message}`;
      runSummary.classList.toggle('error', !message.cancelled);
      // No table is coming: the editor can load now.
      upgradeQueryBar();
      return;
    case 'results':
      // A run's rows sent again (the whole answer replacing its first rows) keep the run's marks.
      if (message.run.runId !== markedRunId) clearMarks();
      markedRunId = message.run.runId;
      mark('cloudbench:message', {
        type: 'results',
        runId: message.run.runId,
        arriving: message.arriving === true,
        bytes: message.table.cells.byteLength,
      });
      showResults(message);
      return;
    case 'append':
      mark('cloudbench:message', { type: 'append', runId: message.runId, bytes: message.table.cells.byteLength });
      appendRows(message);
      return;
    case 'arrived':
      mark('cloudbench:message', { type: 'arrived', runId: message.runId });
      onArrived(message);
      return;
    case 'querybar.lists':
      setQueryBarLists(message);
      return;
    case 'rows.filtered':
    case 'rows.cells':
    case 'rows.event':
    case 'rows.fields':
    case 'rows.unavailable':
      if (state.run && message.runId === state.run.runId) onRowsAnswer(message);
      return;
    case 'status': {
      if (!state.run || message.runId !== state.run.runId) return;
      if (message.moreDataAvailable !== undefined) state.moreDataAvailable = message.moreDataAvailable;
      state.fetching = message.state === 'running';
      const progress = message.fetching
        ? `Fetching the rest… ${message.fetching.items.toLocaleString('en-US')} events, ${message.fetching.windowsDone} windows done, ${message.fetching.windowsPending} to go.`
        : undefined;
      updateBanner(progress);
      if (message.message) {
        runSummary.textContent = message.message;
        runSummary.classList.toggle('error', message.state === 'error');
      }
      return;
    }
  }
}

/** The first rows of a new run (or of the kept run of a restored panel). */
function showResults(message: Extract<ToWebview, { type: 'results' }>): void {
  const cells = decodeCells(message.table);
  const restComing = message.fields.length === 0 && message.table.count > 0;
  earlierRun.textContent = '';
  state.run = message.run;
  resetRows();
  state.arriving = message.arriving === true;
  state.reordering = false;
  state.partial = undefined;
  addTable(message.table, cells);
  state.runTotal = message.total ?? message.table.count;
  // A message with every row of the run also lists their fields.
  if (message.fields.length) state.allFields = message.fields;
  state.period = undefined;
  periodBar.classList.remove('visible');
  state.sort = undefined;
  grid.select(-1);
  state.moreDataAvailable = message.moreDataAvailable;
  state.fetching = false;
  detail.classList.remove('visible');
  closeChooser();
  runTitle.textContent = state.run.title;
  runTitle.title = state.run.title;
  runSource.textContent = state.run.source ?? '';
  // The bar shows the query behind the table, unless the user is typing in it right now.
  if (state.run.kind === 'udm' && !queryHost.contains(document.activeElement))
    setQueryText(state.run.query ?? state.run.title);
  updateSummary();
  // The kept rows of the run this panel showed before a reload: looked at as they were.
  const back = state.run.restored && state.restored?.runId === state.run.runId ? state.restored : undefined;
  state.restored = undefined;
  consoleLink.style.display = state.run.uri?.some(isOpenableLink) ? '' : 'none';
  rerunButton.style.display = state.run.kind === 'udm' || (state.run.restored && state.run.pivot) ? '' : 'none';
  rerunButton.textContent = state.run.restored ? 'Run Again' : 'Run again';
  document.body.dataset.restored = state.run.restored ? 'rows' : '';
  grid.viewport.scrollTop = 0;
  setColumns(
    chosenColumns(state.run.kind) ?? (message.columns.length ? message.columns : defaultColumns(state.run.kind)),
  );
  if (back?.sort) {
    const column = state.columns.find((c) => c.id === back.sort?.columnId);
    if (column) {
      state.sort = { column, direction: back.sort.direction === 'desc' ? 'desc' : 'asc' };
      setColumns(state.columns);
    }
  }
  state.pendingScroll = back?.scrollTop;
  state.allRowsIn = !restComing;
  rememberRun(state.run, filterInput.value.trim(), grid.viewport.scrollTop);
  recompute();
  updateBanner();
  state.afterFirstPaint = new Promise<void>((resolve) => {
    const runId = message.run.runId;
    requestAnimationFrame(() => {
      document.dispatchEvent(new CustomEvent('cloudbench:painted', { detail: { rows: state.rowCount } }));
      // This frame paints the first rows: the task after it runs once they are on screen.
      const rows = state.rowCount;
      setTimeout(() => {
        mark('cloudbench:first-rows-painted', { runId, rows });
        if (!restComing) mark('cloudbench:all-rows-painted', { runId, rows });
      }, 0);
      // The extension sends the rest of the rows only now, so they never delay these.
      post({ type: 'painted', runId });
      // Once the next frame starts, the first rows have been presented; only then more work.
      requestAnimationFrame(() =>
        setTimeout(() => {
          renderHistogram();
          resolve();
          // Monaco waits for the rest of the rows too, so the editor never delays a usable
          // table: a first message without the field list says the rest is on its way. (If it
          // never comes, for a run replaced meanwhile, the editor loads a little later anyway.)
          const settled = (): void => upgradeQueryBar();
          if (restComing) setTimeout(settled, REST_WAIT_MS);
          else void state.afterFirstPaint.then(settled, settled);
        }, 0),
      );
    });
  });
}

/** The rest of a run's rows, added once the first rows are on screen. */
function appendRows(message: Extract<ToWebview, { type: 'append' }>): void {
  const { runId, table } = message;
  // Decoding thousands of rows waits until the first rows are on screen.
  state.afterFirstPaint = state.afterFirstPaint.then(() => {
    if (!state.run || runId !== state.run.runId) return;
    addTable(table);
    state.allRowsIn = !state.arriving;
    state.fieldResolver = undefined;
    state.allFields = undefined;
    // The field list (filter suggestions, column chooser) is asked for once the table is usable
    // (of an answer still arriving, once it is complete).
    if (!state.arriving) requestFieldsWhenIdle();
    grid.invalidate();
    ensureCells();
    recompute();
    if (!state.fetching) updateSummary();
    updateBanner();
    if (!state.histogramQueued) {
      state.histogramQueued = true;
      setTimeout(() => {
        state.histogramQueued = false;
        renderHistogram();
      }, 0);
    }
    // The rest of the rows is on screen after the next frame: now the editor may load.
    if (!state.arriving) {
      markAfterPaint('cloudbench:all-rows-painted', { runId, rows: state.rowCount });
      requestAnimationFrame(() => setTimeout(upgradeQueryBar, 0));
    }
  });
  state.afterFirstPaint.catch((err: unknown) => console.warn('could not add rows', err));
}

/** An answer of the extension about the rows of the run shown. */
export function onRowsAnswer(
  message: Extract<
    ToWebview,
    { type: 'rows.filtered' | 'rows.cells' | 'rows.event' | 'rows.fields' | 'rows.unavailable' }
  >,
): void {
  switch (message.type) {
    case 'rows.filtered': {
      if (message.id !== state.pendingFilter?.id) return;
      if (message.count < state.rowCount) {
        // Rows came after it was asked: the filter is asked again for them all.
        state.pendingFilter = undefined;
        recompute();
        return;
      }
      // The extension may hold rows still on their way here: positions past the rows held wait for them.
      const indices =
        message.count === state.rowCount ? message.indices : message.indices.filter((i) => i < state.rowCount);
      state.filtered = { ...state.pendingFilter, count: state.rowCount, indices, searched: message.searched };
      state.pendingFilter = undefined;
      grid.invalidate();
      recompute();
      renderHistogram();
      return;
    }
    case 'rows.cells': {
      const keys = state.pendingCells.get(message.id);
      if (!keys) return;
      state.pendingCells.delete(message.id);
      const table = message.table;
      // The extension may hold rows that are still on their way here: only the rows held are kept.
      if (table.count < state.rowCount) return;
      const cells = decodeCells(table);
      table.columns.forEach((c, i) => {
        const key = columnKey(c);
        if (keys.includes(key)) state.cellStore.set(key, cells[i].slice(0, state.rowCount));
      });
      grid.invalidate();
      recompute();
      return;
    }
    case 'rows.event': {
      let event: unknown;
      try {
        event = JSON.parse(message.eventJson);
      } catch {
        return;
      }
      state.eventCache.set(message.index, event);
      if (state.eventCache.size > 50) state.eventCache.delete(state.eventCache.keys().next().value!);
      if (message.id !== state.pendingDetail?.id) return;
      const { pos } = state.pendingDetail;
      state.pendingDetail = undefined;
      if (state.view[pos] === message.index && detail.classList.contains('visible')) renderDetail(message.index, event);
      return;
    }
    case 'rows.fields':
      if (message.id !== state.pendingFields) return;
      state.pendingFields = undefined;
      state.allFields = message.paths;
      state.fieldResolver = undefined;
      state.refillChooser?.();
      if (document.activeElement === filterInput) updateSuggestions();
      return;
    case 'rows.unavailable':
      if (message.id === state.pendingDetail?.id) {
        state.pendingDetail = undefined;
        detailMessage(message.message);
      } else if (message.id === state.pendingFilter?.id) {
        state.filtered = { ...state.pendingFilter, indices: new Uint32Array(0), searched: [], error: message.message };
        state.pendingFilter = undefined;
        recompute();
      } else if (message.id === state.pendingFields) {
        state.pendingFields = undefined;
      } else {
        state.pendingCells.delete(message.id);
      }
      return;
  }
}

/** The number of the last message taken of those the extension posted before this page was ready. */
let lastEarly = 0;

function receive(data: unknown): void {
  // Monaco (the query bar) schedules its own work through postMessage to this window.
  if ((data as { vscodeScheduleAsyncWork?: unknown } | null)?.vscodeScheduleAsyncWork !== undefined) return;
  const seq = (data as { seq?: unknown } | null)?.seq;
  if (typeof seq === 'number') {
    // Posted while this page loaded, and posted again once it said it was ready: each is taken once
    // and in order (a "results" starts afresh); one that came before an earlier one comes again.
    if (seq <= lastEarly) return;
    if (seq !== lastEarly + 1 && (data as { type?: unknown }).type !== 'results') return;
    lastEarly = seq;
  }
  try {
    onMessage(parseToWebview(data));
  } catch (err) {
    console.warn('ignored a malformed message', err);
  }
}

window.addEventListener('message', (event: MessageEvent) => receive(event.data));

/** Takes the messages that came before this script ran (kept by the page's first script). */
export function takeEarlyMessages(): void {
  const take = (window as { takeEarlyMessages?: () => unknown[] }).takeEarlyMessages;
  if (typeof take !== 'function') return;
  for (const data of take()) receive(data);
}
