// The results table: the shared virtual grid over the rows the page holds, the cells of the shown
// columns (asked of the extension when missing), the order shown (quick filter answered by the
// extension, the histogram's period, sort or newest first) and the filter's field suggestions.
import { eventRoot, timeField, type ColumnSpec } from '../../core/secops/results/fields';
import { columnKey, decodeCells, type RowTable } from '../../core/secops/results/rowtable';
import { displayText } from '../../core/secops/results/export';
import { FieldResolver, newestFirstOrder, pickInOrder, sortByKeys } from '../../core/secops/results/table';
import { el } from '../shared/dom';
import { VirtualGrid, type GridColumn } from '../shared/grid';
import { countLabel, detail, empty, filterInput, gridBox, suggestBox } from './layout';
import { nextRequest, OVERSCAN, post, ROW_H, state, type FilterAnswer } from './state';
import { showDetail } from './detail';
import { rememberRun } from './persist';

export const grid = new VirtualGrid({
  label: 'Results',
  rowHeight: ROW_H,
  overscan: OVERSCAN,
  ids: { viewport: 'viewport', head: 'grid-header', spacer: 'spacer' },
  classes: { head: '', headCell: 'cell', row: 'row', cell: 'cell', selected: 'selected' },
  text: (pos, c) => displayText(cell(state.view[pos], state.columns[c]), 200),
  title: (pos, c) => cell(state.view[pos], state.columns[c]),
  decorate: (row, pos) => (row.dataset.index = String(state.view[pos])),
  onSort: (c) => sortBy(state.columns[c]),
  onSelect: (pos, how) => {
    if (how === 'click' || detail.classList.contains('visible')) showDetail(pos);
  },
  onActivate: (pos) => showDetail(pos),
  onEscape: () => detail.classList.remove('visible'),
  onScroll: () => keepScroll(),
});
gridBox.prepend(grid.viewport);

/** The grid's width of a column: timestamps get room for their full ISO form. */
function gridColumn(c: ColumnSpec): GridColumn {
  const min = /(Timestamp|Time|timestamp)$/.test(c.id) ? 225 : c.id.endsWith('eventType') ? 130 : 120;
  return { key: c.id, label: c.label, title: c.id, min, grow: /Time|timestamp/i.test(c.id) ? 1.2 : 1.5 };
}

export function setColumns(next: ColumnSpec[]): void {
  state.columns = next;
  state.fieldResolver = undefined;
  const { sort } = state;
  const sorted = sort ? next.findIndex((c) => c.id === sort.column.id) : -1;
  grid.setColumns(next.map(gridColumn), sorted >= 0 ? { column: sorted, direction: sort!.direction } : undefined);
  ensureCells();
}

function sortBy(column: ColumnSpec | undefined): void {
  if (!column) return;
  const { sort } = state;
  if (sort?.column.id === column.id) state.sort = sort.direction === 'asc' ? { column, direction: 'desc' } : undefined;
  else state.sort = { column, direction: 'asc' };
  setColumns(state.columns);
  recompute();
  if (state.run) rememberRun(state.run, filterInput.value.trim(), grid.viewport.scrollTop);
}

let scrollKeepTimer: ReturnType<typeof setTimeout> | undefined;
/** Where the user is in the table, for a reload (not on every frame of a scroll). */
function keepScroll(): void {
  clearTimeout(scrollKeepTimer);
  scrollKeepTimer = setTimeout(
    () =>
      state.run &&
      state.pendingScroll === undefined &&
      rememberRun(state.run, filterInput.value.trim(), grid.viewport.scrollTop),
    250,
  );
}

/** Asks the extension for every field path of the rows, unless the page has them or asked already. */
export function requestFields(): void {
  const { run } = state;
  if (state.allFields || !run || state.pendingFields !== undefined || state.rowCount === 0 || state.reordering) return;
  state.pendingFields = nextRequest();
  post({ type: 'rows.fields', runId: run.runId, id: state.pendingFields });
}

/**
 * Asks for the field paths once the page is idle after its rows are on screen: walking 10,000 large
 * events in the extension takes a core for a while, and nobody needs the list before they open the
 * filter or the column chooser (which ask at once).
 */
export function requestFieldsWhenIdle(): void {
  const runId = state.run?.runId;
  requestIdleCallback(
    () => {
      if (state.run?.runId === runId) requestFields();
    },
    { timeout: 1_000 },
  );
}

const cellsOf = (column: ColumnSpec): string[] | undefined => state.cellStore.get(columnKey(column));

export function cell(rowIndex: number, column: ColumnSpec): string {
  return cellsOf(column)?.[rowIndex] ?? '';
}

/** Asks the extension for the cells of shown (or sorted) columns the page does not hold. */
export function ensureCells(): void {
  const { run, rowCount, sort, columns, pendingCells, cellStore } = state;
  if (!run || rowCount === 0 || state.reordering) return;
  const asked = new Set([...pendingCells.values()].flat());
  const wanted = sort ? [...columns, sort.column] : columns;
  const missing = wanted.filter((c, i) => {
    const key = columnKey(c);
    return (
      cellStore.get(key)?.length !== rowCount && !asked.has(key) && wanted.findIndex((o) => columnKey(o) === key) === i
    );
  });
  if (missing.length === 0) return;
  const id = nextRequest();
  pendingCells.set(id, missing.map(columnKey));
  post({ type: 'rows.cells', runId: run.runId, id, columns: missing });
}

/** Adds a table's rows after the rows the page holds; cells of columns it lacks are asked for again. */
export function addTable(table: RowTable, cells: string[][] = decodeCells(table)): void {
  const { cellStore } = state;
  const start = state.rowCount;
  const times = new Float64Array(start + table.count);
  times.set(state.rowTimes);
  times.set(table.times, start);
  const keys = table.columns.map(columnKey);
  for (const key of [...cellStore.keys()]) if (!keys.includes(key)) cellStore.delete(key);
  keys.forEach((key, i) => {
    const held = cellStore.get(key);
    if (start === 0) cellStore.set(key, cells[i]);
    else if (held?.length === start) cellStore.set(key, held.concat(cells[i]));
    else cellStore.delete(key);
  });
  state.rowTimes = times;
  state.rowCount = start + table.count;
}

const columnsKeyOf = (list: readonly ColumnSpec[]): string => list.map(columnKey).join('\n');

/** The extension's answer for the filter as it stands, or undefined (then it is asked for). */
export function filterAnswer(filter: string): FilterAnswer | undefined {
  const { filtered, pendingFilter, rowCount, run, columns } = state;
  const key = columnsKeyOf(columns);
  if (filtered && filtered.filter === filter && filtered.count === rowCount && filtered.columnsKey === key)
    return filtered;
  const asked =
    pendingFilter &&
    pendingFilter.filter === filter &&
    pendingFilter.count === rowCount &&
    pendingFilter.columnsKey === key;
  if (run && !asked && !state.reordering) {
    const earlier = pendingFilter;
    const waited = earlier ? Date.now() - earlier.sentAt : 0;
    if (earlier && waited < FILTER_ANSWER_WAIT_MS) {
      // One filter at a time: while the extension answers the one before, the latest waits for
      // that answer (onRowsAnswer computes again then), so that a burst of keys over a large table
      // costs one more pass over its rows, not one per key. An answer lost on the way holds the
      // latest filter up no longer than the wait.
      if (!earlier.waiting) {
        earlier.waiting = true;
        setTimeout(() => {
          if (state.pendingFilter !== earlier) return;
          state.pendingFilter = undefined;
          recompute();
        }, FILTER_ANSWER_WAIT_MS - waited);
      }
      return undefined;
    }
    state.pendingFilter = { id: nextRequest(), filter, count: rowCount, columnsKey: key, sentAt: Date.now() };
    post({ type: 'rows.filter', runId: run.runId, id: state.pendingFilter.id, filter, columns });
  }
  return undefined;
}

/** How long the latest filter waits for the extension's answer to the one before (see filterAnswer). */
export const FILTER_ANSWER_WAIT_MS = 3000;

/**
 * The rows shown, in order: the filter's answer, within the period, sorted or newest first (in the
 * order they came while the answer arrives: rows would jump about under the reader's eyes).
 */
function shownRows(filter: string): Uint32Array | undefined {
  const { rowCount, period, sort, run, rowTimes } = state;
  let indices: Uint32Array;
  if (filter === '') {
    indices = new Uint32Array(rowCount);
    for (let i = 0; i < rowCount; i++) indices[i] = i;
  } else {
    const answer = filterAnswer(filter);
    if (!answer) return undefined;
    indices = answer.indices;
  }
  if (period) {
    const { start, end } = period;
    indices = indices.filter((i) => rowTimes[i] >= start && rowTimes[i] < end);
  }
  const sortCells = sort && cellsOf(sort.column);
  if (sort && sortCells?.length === rowCount) {
    const order = orderOfAll(['sort', sortCells, sort.direction, rowCount], (all) =>
      sortByKeys((i) => sortCells[i], all, sort.direction),
    );
    return pickInOrder(order, indices) ?? sortByKeys((i) => sortCells[i], indices, sort.direction);
  }
  if (run && timeField(run.kind) && !state.arriving) {
    const order = orderOfAll(['time', rowTimes, rowCount], () => newestFirstOrder(rowTimes));
    return pickInOrder(order, indices) ?? newestFirstOrder(rowTimes, indices);
  }
  return indices;
}

/**
 * Every row's order for a sort (or newest first), made once for the rows held and reused by each
 * filter, clear and period until the rows, their cells or the sort change (`key` says which; the
 * cell and time arrays are replaced, never changed in place, when rows come or are reordered).
 */
const allOrder: { key: unknown[]; order: Uint32Array } = { key: [], order: new Uint32Array(0) };
function orderOfAll(key: unknown[], make: (all: Uint32Array) => Uint32Array): Uint32Array {
  if (key.length === allOrder.key.length && key.every((k, i) => k === allOrder.key[i])) return allOrder.order;
  const all = new Uint32Array(state.rowCount);
  for (let i = 0; i < all.length; i++) all[i] = i;
  allOrder.order = make(all);
  allOrder.key = key;
  return allOrder.order;
}

export function recompute(): void {
  const filter = filterInput.value.trim();
  const view = shownRows(filter);
  if (!view) {
    // The table stays as it is until the extension answers (a few milliseconds).
    countLabel.textContent = 'Filtering…';
    grid.invalidate();
    return;
  }
  state.view = view;
  grid.setLength(view.length);
  grid.invalidate();
  // A restored run goes back to where it was scrolled once its rows are all in and filtered.
  if (state.allRowsIn) applyPendingScroll();
  const { rowCount, period, run } = state;
  countLabel.textContent =
    filter || period
      ? `${view.length.toLocaleString('en-US')} of ${rowCount.toLocaleString('en-US')} rows`
      : `${Math.max(rowCount, state.runTotal).toLocaleString('en-US')} rows`;
  empty.classList.toggle('visible', view.length === 0 && run !== undefined);
  if (view.length === 0) {
    empty.textContent = filter
      ? noMatchText(filter)
      : period
        ? 'No rows in the period picked on the timeline.'
        : run?.kind === 'udm' || run?.kind === 'assetEvents'
          ? 'No events in this time range. Widen the time range (status bar) or change the query.'
          : 'Nothing found.';
  }
}

function applyPendingScroll(): void {
  if (state.pendingScroll === undefined) return;
  grid.viewport.scrollTop = state.pendingScroll;
  state.pendingScroll = undefined;
  grid.schedule();
}

function fields(): FieldResolver | undefined {
  const { run } = state;
  if (!run) return undefined;
  // A sample is enough to know the fields; a field only rare rows have is still found by its full path.
  state.fieldResolver ??= new FieldResolver(eventRoot(run.kind), state.columns, state.allFields ?? []);
  return state.fieldResolver;
}

function noMatchText(filter: string): string {
  const { filtered } = state;
  if (filtered?.error) return `The filter could not run: ${filtered.error}`;
  const searched = filtered?.filter === filter ? filtered.searched : (fields()?.describe(filter) ?? []);
  if (searched.length === 0) return 'No rows match the filter.';
  return `No rows match the filter. ${searched
    .map(
      ({ field, paths }) =>
        `"${field}" searched ${paths.slice(0, 6).join(', ')}${paths.length > 6 ? ` and ${paths.length - 6} more` : ''}`,
    )
    .join('; ')}.`;
}

/** Field suggestions for the word being typed in the filter (before its ":"). */
export function updateSuggestions(): void {
  const value = filterInput.value;
  const caret = filterInput.selectionStart ?? value.length;
  const word = /(?:^|\s)-?([A-Za-z_][\w.]*)$/.exec(value.slice(0, caret));
  const typed = word?.[1] ?? '';
  const list = typed.length >= 2 ? (fields()?.suggest(typed) ?? []) : [];
  suggestBox.replaceChildren(
    ...list.map((path) => {
      const b = el('button', { type: 'button', role: 'option', class: 'suggestion', 'data-field': path }, `${path}:`);
      b.addEventListener('mousedown', (event) => {
        event.preventDefault();
        const before = value.slice(0, caret - typed.length);
        filterInput.value = `${before}${path}:${value.slice(caret)}`;
        const at = before.length + path.length + 1;
        filterInput.setSelectionRange(at, at);
        suggestBox.replaceChildren();
      });
      return b;
    }),
  );
}
