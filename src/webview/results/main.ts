// Results panel: a virtualized table for up to tens of thousands of rows, quick filter, sort, column
// chooser, detail pane with the JSON tree and pivots, timeline histogram and the "more data" banner.
// Every value is inserted with textContent; nothing from an event is ever parsed as HTML.
import './style.css';
import {
  RESULT_KINDS,
  parseFromWebview,
  parseToWebview,
  type FromWebview,
  type RunInfo,
  type ToWebview,
} from '../../core/secops/messages';
import {
  defaultColumns,
  eventRoot,
  labelFor,
  scalarText,
  timeField,
  type ColumnSpec,
  type ResultKind,
} from '../../core/secops/results/fields';
import { columnKey, decodeCells, type RowTable, type SearchedFields } from '../../core/secops/results/rowtable';
import { displayText, isOpenableLink, type ExportFormat } from '../../core/secops/results/export';
import { PIVOT_LABELS, isPivotAction, pivotsFor } from '../../core/secops/results/pivots';
import {
  FieldResolver,
  histogram,
  newestFirstOrder,
  sortByKeys,
  type SortDirection,
} from '../../core/secops/results/table';
import { el } from '../shared/dom';
import { pageApi } from '../shared/page-api';

// Read while this script runs: where the query bar's Monaco bundle is and the nonce to load it with.
const ownScript = document.currentScript as HTMLScriptElement | null;
const queryBarScript = ownScript?.dataset.querybarScript;
const queryBarStyle = ownScript?.dataset.querybarStyle;
const pageNonce = ownScript?.nonce ?? '';

const vscode = pageApi<FromWebview>();

/** Columns the user chose, per kind of result, so the next run of that kind opens with them. */
function chosenColumns(kind: ResultKind): ColumnSpec[] | undefined {
  const state = vscode.getState?.() as { columns?: Record<string, unknown> } | undefined;
  const list = state?.columns?.[kind];
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const valid = (list as unknown[]).filter(
    (c): c is ColumnSpec =>
      typeof c === 'object' &&
      c !== null &&
      typeof (c as { id?: unknown }).id === 'string' &&
      typeof (c as { label?: unknown }).label === 'string',
  );
  return valid.length ? valid : undefined;
}

function rememberColumns(kind: ResultKind, chosen: ColumnSpec[] | undefined): void {
  const state = (vscode.getState?.() as { columns?: Record<string, unknown> } | undefined) ?? {};
  const all = { ...(state.columns ?? {}) };
  if (chosen) all[kind] = chosen;
  else delete all[kind];
  vscode.setState?.({ ...state, columns: all });
  // The extension sends the cells of these columns with the next results of this kind.
  post({ type: 'columns', kind, columns: chosen ?? [] });
}
/**
 * What a panel showed, kept by VS Code across a window reload: the run (whose rows the extension
 * keeps on disk) and how the user looked at it (filter, sort, scroll).
 */
interface RestoreState {
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

function rememberRun(info: RunInfo | undefined, filter: string): void {
  const state = (vscode.getState?.() as Record<string, unknown> | undefined) ?? {};
  const restore: RestoreState | undefined = info && {
    kind: info.kind,
    title: info.title,
    runId: info.runId,
    ...(info.ranAt ? { ranAt: info.ranAt } : {}),
    ...(sort ? { sort: { columnId: sort.column.id, direction: sort.direction } } : {}),
    ...((pendingScroll ?? viewport.scrollTop) > 0
      ? { scrollTop: Math.round(pendingScroll ?? viewport.scrollTop) }
      : {}),
    ...(info.query !== undefined ? { query: info.query } : {}),
    ...(info.startTime && info.endTime ? { startTime: info.startTime, endTime: info.endTime } : {}),
    ...(info.source !== undefined ? { source: info.source } : {}),
    ...(info.pivot ? { pivot: info.pivot } : {}),
    ...(filter ? { filter } : {}),
  };
  vscode.setState?.({ ...state, restore });
}

function savedRun(): RestoreState | undefined {
  const r = (vscode.getState?.() as { restore?: unknown } | undefined)?.restore as Partial<RestoreState> | undefined;
  if (!r || typeof r !== 'object' || typeof r.title !== 'string' || typeof r.kind !== 'string') return undefined;
  return r as RestoreState;
}

/** "Restored from the run at <time>": the rows are the kept ones, not a search just now. */
function restoredNote(info: RunInfo): string {
  const at = info.ranAt ? new Date(info.ranAt) : undefined;
  const when = at && !Number.isNaN(at.getTime()) ? at.toLocaleString() : 'an earlier time';
  return `Restored from the run at ${when}`;
}

/** The scroll position to go back to once the restored run's rows are all in and shown. */
let pendingScroll: number | undefined;
/** Whether every row of the run shown has arrived (the first message may carry only the first ones). */
let allRowsIn = false;
const ROW_H = 22;
const OVERSCAN = 8;

// ---- layout -------------------------------------------------------------------------------------
const app = el('div', { id: 'app' });
const header = el('header');
const runTitle = el('div', { id: 'run-title', role: 'heading', 'aria-level': '1' }, 'No results yet');
const runSummary = el(
  'div',
  { id: 'run-summary', role: 'status' },
  'Run a UDM query (Ctrl+Enter in a .udm file) to see events here.',
);
const runSource = el('div', { id: 'run-source' });
header.append(runTitle, runSource, runSummary);

// The query bar paints as a plain textarea; querybar.js replaces it with Monaco after the table's
// first paint and keeps the textarea's value in step, so Run here always reads the current text.
const queryBar = el('div', { id: 'querybar' });
const queryHost = el('div', { id: 'query-host' });
const queryInput = el('textarea', {
  id: 'query-input',
  rows: '1',
  spellcheck: 'false',
  'aria-label': 'UDM query',
  placeholder: 'metadata.event_type = "NETWORK_DNS"',
});
const queryRun = el(
  'button',
  {
    id: 'query-run',
    type: 'button',
    class: 'primary',
    title: 'Run this query with the current time range (Ctrl+Enter)',
  },
  'Run',
);
queryHost.append(queryInput);
queryBar.append(queryHost, queryRun);
if (!queryBarScript) queryBar.style.display = 'none';

const toolbar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Results' });
const filterInput = el('input', {
  id: 'filter',
  type: 'search',
  placeholder: 'Filter rows (words, hostname:x, principal.ip:10.1, "Event type":dns, -exclude)',
  autocomplete: 'off',
  'aria-label': 'Filter rows',
});
const countLabel = el('span', { id: 'count', 'aria-live': 'polite' });
const columnsButton = el(
  'button',
  { id: 'columns-button', type: 'button', 'aria-haspopup': 'true', 'aria-expanded': 'false' },
  'Columns…',
);
const exportButtons: Record<ExportFormat, HTMLButtonElement> = {
  csv: el('button', { id: 'export-csv', type: 'button', title: 'Export every row to CSV' }, 'Export CSV'),
  json: el('button', { id: 'export-json', type: 'button', title: 'Export every row to JSON' }, 'JSON'),
  ndjson: el('button', { id: 'export-ndjson', type: 'button', title: 'Export every row to NDJSON' }, 'NDJSON'),
};
const consoleLink = el(
  'button',
  { id: 'open-console', type: 'button', class: 'link', title: 'Open this view in the SecOps console' },
  'Open in console',
);
const rerunButton = el('button', { id: 'rerun', type: 'button', title: 'Run again' }, 'Run again');
toolbar.append(
  filterInput,
  countLabel,
  columnsButton,
  exportButtons.csv,
  exportButtons.json,
  exportButtons.ndjson,
  rerunButton,
  consoleLink,
);

const banner = el('div', { id: 'banner', role: 'alert' });
const bannerText = el('span', { id: 'banner-text' });
const fetchRestButton = el('button', { id: 'fetch-rest', type: 'button', class: 'primary' }, 'Fetch the rest');
const narrowButton = el(
  'button',
  { id: 'narrow-newest', type: 'button', title: 'Run the query again over only the newest part of the range' },
  'Search only the newest part',
);
const stopFetchButton = el('button', { id: 'stop-fetch', type: 'button' }, 'Stop');
banner.append(bannerText, fetchRestButton, narrowButton, stopFetchButton);

const suggestBox = el('div', { id: 'filter-suggest', role: 'listbox', 'aria-label': 'Fields' });
const histogramWrap = el('div', { id: 'histogram-wrap' });
const histogramScale = el('div', { id: 'histogram-scale', 'aria-hidden': 'true' });
const histogramBox = el('div', {
  id: 'histogram',
  role: 'img',
  'aria-label': 'Events over time',
  title: 'Click a bar or drag across bars to show only that period',
});
const histogramAxis = el('div', { id: 'histogram-axis', 'aria-hidden': 'true' });
const periodBar = el('div', { id: 'period' });
const periodText = el('span', { id: 'period-text' });
const periodSearch = el(
  'button',
  { id: 'period-search', type: 'button', title: 'Run the query over only this period (one search)' },
  'Search only this period',
);
const periodClear = el('button', { id: 'period-clear', type: 'button', title: 'Show every period again' }, 'Clear');
periodBar.append(periodText, periodSearch, periodClear);
histogramWrap.append(histogramScale, histogramBox, histogramAxis, periodBar);

const main = el('div', { id: 'main' });
const grid = el('div', { id: 'grid', role: 'grid', 'aria-label': 'Results', 'aria-rowcount': '0', tabindex: '0' });
const gridHeader = el('div', { id: 'grid-header', role: 'row', 'aria-rowindex': '1' });
const viewport = el('div', { id: 'viewport' });
const spacer = el('div', { id: 'spacer', role: 'rowgroup' });
const empty = el('div', { id: 'empty' }, 'No rows.');
viewport.append(spacer);
grid.append(gridHeader, viewport, empty);
const detail = el('aside', { id: 'detail', 'aria-label': 'Event detail' });
main.append(grid, detail);

const chooser = el('div', { id: 'chooser', role: 'dialog', 'aria-label': 'Choose columns' });

app.append(header, queryBar, toolbar, suggestBox, banner, histogramWrap, main, chooser);
document.body.append(app);

// ---- state --------------------------------------------------------------------------------------
// The page holds the rows as a table (times and the text of the shown columns); the events stay in
// the extension, which answers the filter, the detail pane, the field list and new columns' cells.
let run: RunInfo | undefined;
/** Rows the page holds for the run. */
let rowCount = 0;
/** Each row's time (epoch ms, NaN when none) for results that open newest first. */
let rowTimes: Float64Array = new Float64Array(0);
/** The cell texts by column (columnKey): one per row, for every row the page holds. */
const cellStore = new Map<string, string[]>();
/** Every field path of the rows: the filter's suggestions and the column chooser's choices. */
let allFields: string[] | undefined;
/** The period picked on the histogram: rows outside it are hidden. */
let period: { start: number; end: number } | undefined;
/** Field names of the quick filter, built from the rows on first use and after new rows arrive. */
let fieldResolver: FieldResolver | undefined;
let columns: ColumnSpec[] = [];
let view: Uint32Array = new Uint32Array(0);
let sort: { column: ColumnSpec; direction: SortDirection } | undefined;
let selected = -1; // position in `view`
/** The extension's answer for a quick filter: matching rows among the first `count`. */
interface FilterAnswer {
  filter: string;
  count: number;
  columnsKey: string;
  indices: Uint32Array;
  searched: SearchedFields[];
  error?: string;
}
let filtered: FilterAnswer | undefined;
let requestSeq = 0;
let pendingFilter: { id: number; filter: string; count: number; columnsKey: string } | undefined;
/** Column keys whose cells are asked for, by request. */
const pendingCells = new Map<number, string[]>();
let pendingFields: number | undefined;
/** Whole events fetched for the detail pane, by row (a few, the latest last). */
const eventCache = new Map<number, unknown>();
let pendingDetail: { id: number; pos: number; index: number } | undefined;
/** Fills the open column chooser again (when the extension's list of fields arrives). */
let refillChooser: (() => void) | undefined;
let moreDataAvailable = false;
let fetching = false;
let rowPool: HTMLDivElement[] = [];
let renderQueued = false;
let histogramQueued = false;
/** Work that must wait until the latest results have painted their first rows. */
let afterFirstPaint: Promise<void> = Promise.resolve();

function post(message: FromWebview): void {
  vscode.postMessage(message);
}

function setColumns(next: ColumnSpec[]): void {
  columns = next;
  fieldResolver = undefined;
  // Timestamps get room for their full ISO form; other columns share what is left, and past their
  // minimum widths the table scrolls sideways instead of squeezing.
  const mins = columns.map((c) =>
    /(Timestamp|Time|timestamp)$/.test(c.id) ? 225 : c.id.endsWith('eventType') ? 130 : 120,
  );
  const template = columns
    .map((c, i) => `minmax(${mins[i]}px, ${/Time|timestamp/i.test(c.id) ? 1.2 : 1.5}fr)`)
    .join(' ');
  app.style.setProperty('--cols', template || '1fr');
  app.style.setProperty('--row-min', `${mins.reduce((a, b) => a + b, 0)}px`);
  gridHeader.replaceChildren(
    ...columns.map((c, i) => {
      const cell = el(
        'div',
        {
          class: 'cell',
          role: 'columnheader',
          'aria-colindex': String(i + 1),
          'data-column': c.id,
          title: c.id,
          tabindex: '-1',
        },
        c.label,
      );
      if (sort && sort.column.id === c.id)
        cell.setAttribute('aria-sort', sort.direction === 'asc' ? 'ascending' : 'descending');
      return cell;
    }),
  );
  for (const row of rowPool) row.remove();
  rowPool = [];
  ensureCells();
  scheduleRender();
}

/** Asks the extension for every field path of the rows, unless the page has them or asked already. */
function requestFields(): void {
  if (allFields || !run || pendingFields !== undefined || rowCount === 0) return;
  pendingFields = ++requestSeq;
  post({ type: 'rows.fields', runId: run.runId, id: pendingFields });
}

const cellsOf = (column: ColumnSpec): string[] | undefined => cellStore.get(columnKey(column));

function cell(rowIndex: number, column: ColumnSpec): string {
  return cellsOf(column)?.[rowIndex] ?? '';
}

/** Asks the extension for the cells of shown (or sorted) columns the page does not hold. */
function ensureCells(): void {
  if (!run || rowCount === 0) return;
  const asked = new Set([...pendingCells.values()].flat());
  const wanted = sort ? [...columns, sort.column] : columns;
  const missing = wanted.filter((c, i) => {
    const key = columnKey(c);
    return (
      cellStore.get(key)?.length !== rowCount && !asked.has(key) && wanted.findIndex((o) => columnKey(o) === key) === i
    );
  });
  if (missing.length === 0) return;
  const id = ++requestSeq;
  pendingCells.set(id, missing.map(columnKey));
  post({ type: 'rows.cells', runId: run.runId, id, columns: missing });
}

/** Adds a table's rows after the rows the page holds; cells of columns it lacks are asked for again. */
function addTable(table: RowTable, cells: string[][] = decodeCells(table)): void {
  const start = rowCount;
  const times = new Float64Array(start + table.count);
  times.set(rowTimes);
  times.set(table.times, start);
  const keys = table.columns.map(columnKey);
  for (const key of [...cellStore.keys()]) if (!keys.includes(key)) cellStore.delete(key);
  keys.forEach((key, i) => {
    const held = cellStore.get(key);
    if (start === 0) cellStore.set(key, cells[i]);
    else if (held?.length === start) cellStore.set(key, held.concat(cells[i]));
    else cellStore.delete(key);
  });
  rowTimes = times;
  rowCount = start + table.count;
}

const columnsKeyOf = (list: readonly ColumnSpec[]): string => list.map(columnKey).join('\n');

/** The extension's answer for the filter as it stands, or undefined (then it is asked for). */
function filterAnswer(filter: string): FilterAnswer | undefined {
  const key = columnsKeyOf(columns);
  if (filtered && filtered.filter === filter && filtered.count === rowCount && filtered.columnsKey === key)
    return filtered;
  if (
    run &&
    !(
      pendingFilter &&
      pendingFilter.filter === filter &&
      pendingFilter.count === rowCount &&
      pendingFilter.columnsKey === key
    )
  ) {
    pendingFilter = { id: ++requestSeq, filter, count: rowCount, columnsKey: key };
    post({ type: 'rows.filter', runId: run.runId, id: pendingFilter.id, filter, columns });
  }
  return undefined;
}

function recompute(): void {
  const filter = filterInput.value.trim();
  let indices: Uint32Array;
  if (filter === '') {
    indices = new Uint32Array(rowCount);
    for (let i = 0; i < rowCount; i++) indices[i] = i;
  } else {
    const answer = filterAnswer(filter);
    if (!answer) {
      // The table stays as it is until the extension answers (a few milliseconds).
      countLabel.textContent = 'Filtering…';
      spacer.style.height = `${view.length * ROW_H}px`;
      scheduleRender();
      return;
    }
    indices = answer.indices;
  }
  if (period) {
    const { start, end } = period;
    indices = indices.filter((i) => rowTimes[i] >= start && rowTimes[i] < end);
  }
  const sortCells = sort && cellsOf(sort.column);
  view =
    sort && sortCells?.length === rowCount
      ? sortByKeys((i) => sortCells[i], indices, sort.direction)
      : run && timeField(run.kind)
        ? newestFirstOrder(rowTimes, indices)
        : indices;
  if (selected >= view.length) selected = -1;
  grid.setAttribute('aria-rowcount', String(view.length + 1));
  spacer.style.height = `${view.length * ROW_H}px`;
  // A restored run goes back to where it was scrolled once its rows are all in and filtered.
  if (allRowsIn) applyPendingScroll();
  countLabel.textContent =
    filter || period
      ? `${view.length.toLocaleString('en-US')} of ${rowCount.toLocaleString('en-US')} rows`
      : `${rowCount.toLocaleString('en-US')} rows`;
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
  scheduleRender();
}

function fields(): FieldResolver | undefined {
  if (!run) return undefined;
  // A sample is enough to know the fields; a field only rare rows have is still found by its full path.
  fieldResolver ??= new FieldResolver(eventRoot(run.kind), columns, allFields ?? []);
  return fieldResolver;
}

function noMatchText(filter: string): string {
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
function updateSuggestions(): void {
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

function scheduleRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    render();
  });
}

function render(): void {
  const top = viewport.scrollTop;
  const height = viewport.clientHeight || 600;
  const first = Math.max(0, Math.floor(top / ROW_H) - OVERSCAN);
  const last = Math.min(view.length, Math.ceil((top + height) / ROW_H) + OVERSCAN);
  const needed = last - first;
  while (rowPool.length < needed) {
    const row = el('div', { class: 'row', role: 'row' });
    for (let c = 0; c < columns.length; c++) row.append(el('div', { class: 'cell', role: 'gridcell' }));
    spacer.append(row);
    rowPool.push(row);
  }
  for (let i = 0; i < rowPool.length; i++) {
    const node = rowPool[i];
    const pos = first + i;
    if (pos >= last) {
      if (node.style.display !== 'none') node.style.display = 'none';
      continue;
    }
    node.style.display = '';
    const rowIndex = view[pos];
    if (node.dataset.pos !== String(pos) || node.dataset.index !== String(rowIndex)) {
      node.dataset.pos = String(pos);
      node.dataset.index = String(rowIndex);
      node.setAttribute('aria-rowindex', String(pos + 2));
      node.style.transform = `translateY(${pos * ROW_H}px)`;
      const cells = node.children;
      for (let c = 0; c < columns.length; c++) {
        (cells[c] as HTMLElement).textContent = displayText(cell(rowIndex, columns[c]), 200);
      }
    }
    node.classList.toggle('selected', pos === selected);
    node.setAttribute('aria-selected', pos === selected ? 'true' : 'false');
  }
}

// ---- histogram ----------------------------------------------------------------------------------
let histogramBins: Array<{ start: number; end: number; count: number }> = [];

function renderHistogram(): void {
  // The bars follow the quick filter (not the period, which they are for picking); with a filter the
  // extension has not answered yet, they are drawn when its answer arrives.
  const filter = filterInput.value.trim();
  const shown = run && filter !== '' ? filterAnswer(filter)?.indices : undefined;
  if (run && filter !== '' && !shown) return;
  histogramBox.replaceChildren();
  histogramAxis.replaceChildren();
  histogramScale.replaceChildren();
  histogramBins = [];
  histogramWrap.classList.toggle('visible', false);
  if (!run) return;
  const path = timeField(run.kind);
  if (!path || rowCount === 0) return;
  let start = run.startTime ? Date.parse(run.startTime) : Number.POSITIVE_INFINITY;
  let end = run.endTime ? Date.parse(run.endTime) : Number.NEGATIVE_INFINITY;
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    start = Number.POSITIVE_INFINITY;
    end = Number.NEGATIVE_INFINITY;
    for (const t of rowTimes) {
      if (Number.isNaN(t)) continue;
      if (t < start) start = t;
      if (t + 1 > end) end = t + 1;
    }
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) return;
  let times: Float64Array = rowTimes;
  if (shown) {
    times = new Float64Array(shown.length);
    for (let i = 0; i < shown.length; i++) times[i] = rowTimes[shown[i]]!;
  }
  const bins = histogram(times, start, end, 80);
  histogramBins = bins;
  const max = bins.reduce((m, b) => Math.max(m, b.count), 0);
  const frag = document.createDocumentFragment();
  bins.forEach((bin, i) => {
    const picked = period && bin.start < period.end && bin.end > period.start;
    const bar = el('div', {
      class: `bar${bin.count ? '' : ' empty'}${picked ? ' picked' : ''}`,
      'data-bin': String(i),
    });
    const fill = el('div', { class: 'fill' });
    fill.style.height = `${max ? Math.max(bin.count ? 2 : 0, Math.round((bin.count / max) * 100)) : 0}%`;
    bar.append(fill);
    bar.title = `${formatTick(bin.start, end - start, true)} – ${formatTick(bin.end, end - start, true)}: ${bin.count.toLocaleString('en-US')} ${bin.count === 1 ? 'event' : 'events'}`;
    frag.append(bar);
  });
  histogramBox.append(frag);
  histogramScale.append(el('span', { class: 'max' }, max.toLocaleString('en-US')), el('span', { class: 'zero' }, '0'));
  // Five labelled ticks along the time axis.
  for (let k = 0; k <= 4; k++) {
    const t = start + ((end - start) * k) / 4;
    const tick = el('span', { class: 'tick' }, formatTick(t, end - start, false));
    tick.style.left = `${k * 25}%`;
    histogramAxis.append(tick);
  }
  histogramWrap.classList.toggle('visible', true);
  histogramBox.setAttribute(
    'aria-label',
    `Events over time from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}, ${bins.length} bars, the busiest ${max}`,
  );
}

/** A tick label: the time of day for short spans, the date (and hour) for long ones, in UTC. */
function formatTick(ms: number, span: number, full: boolean): string {
  const iso = new Date(ms).toISOString();
  if (full) return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
  if (span <= 36 * 3_600_000) return iso.slice(11, 16);
  if (span <= 10 * 86_400_000) return `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`;
  return iso.slice(0, 10);
}

function setPeriod(next: { start: number; end: number } | undefined): void {
  period = next;
  periodBar.classList.toggle('visible', period !== undefined);
  periodSearch.style.display = period && run?.kind === 'udm' ? '' : 'none';
  if (period) {
    const span = period.end - period.start;
    periodText.textContent = `Showing ${formatTick(period.start, span, true)} – ${formatTick(period.end, span, true)}`;
  }
  selected = -1;
  for (const node of rowPool) node.dataset.pos = '';
  recompute();
  for (const bar of Array.from(histogramBox.children) as HTMLElement[]) {
    const bin = histogramBins[Number(bar.dataset.bin)];
    bar.classList.toggle('picked', !!(period && bin && bin.start < period.end && bin.end > period.start));
  }
}

let dragFrom: number | undefined;
histogramBox.addEventListener('mousedown', (event) => {
  const bar = (event.target as HTMLElement).closest<HTMLElement>('.bar');
  if (!bar) return;
  dragFrom = Number(bar.dataset.bin);
  event.preventDefault();
});
window.addEventListener('mouseup', (event) => {
  if (dragFrom === undefined) return;
  const bar = (event.target as HTMLElement | null)?.closest?.<HTMLElement>('#histogram .bar');
  const to = bar ? Number(bar.dataset.bin) : dragFrom;
  const a = histogramBins[Math.min(dragFrom, to)];
  const b = histogramBins[Math.max(dragFrom, to)];
  dragFrom = undefined;
  if (a && b) setPeriod({ start: a.start, end: b.end });
});
periodClear.addEventListener('click', () => setPeriod(undefined));
periodSearch.addEventListener('click', () => {
  if (run && period)
    post({
      type: 'searchPeriod',
      runId: run.runId,
      startTime: new Date(period.start).toISOString(),
      endTime: new Date(period.end).toISOString(),
    });
});

// ---- detail pane --------------------------------------------------------------------------------
const MAX_TREE_NODES = 5000;

function showDetail(pos: number): void {
  const rowIndex = view[pos];
  if (rowIndex === undefined || !run) {
    detail.classList.remove('visible');
    return;
  }
  if (eventCache.has(rowIndex)) {
    pendingDetail = undefined;
    renderDetail(rowIndex, eventCache.get(rowIndex));
    return;
  }
  // The event comes from the extension; the pane says so until it is here.
  pendingDetail = { id: ++requestSeq, pos, index: rowIndex };
  post({ type: 'rows.event', runId: run.runId, id: pendingDetail.id, index: rowIndex });
  detailMessage('Loading the event…');
}

function detailMessage(text: string): void {
  const close = el('button', { type: 'button', id: 'detail-close', title: 'Close the detail pane' }, 'Close');
  close.addEventListener('click', () => detail.classList.remove('visible'));
  detail.replaceChildren(el('div', { id: 'detail-actions' }, close), el('div', { class: 'leaf' }, text));
  detail.classList.add('visible');
}

function renderDetail(rowIndex: number, row: unknown): void {
  if (!run) return;
  const runId = run.runId;
  detail.replaceChildren();
  const actions = el('div', { id: 'detail-actions' });
  const root = run.kind === 'udm' ? (row as { udm?: unknown })?.udm : row;
  const eventId = scalarText((root as { metadata?: { id?: unknown } } | undefined)?.metadata?.id);
  if (eventId && (run.kind === 'udm' || run.kind === 'assetEvents')) {
    for (const action of ['fullEvent', 'rawLog'] as const) {
      const b = el('button', { type: 'button', 'data-pivot': action, id: `detail-${action}` }, PIVOT_LABELS[action]);
      b.addEventListener('click', () => post({ type: 'pivot', runId, action, value: eventId, row: rowIndex }));
      actions.append(b);
    }
  }
  const close = el('button', { type: 'button', id: 'detail-close', title: 'Close the detail pane' }, 'Close');
  close.addEventListener('click', () => detail.classList.remove('visible'));
  actions.append(close);
  const tree = el('div', { class: 'tree', role: 'tree', id: 'detail-tree' });
  let budget = MAX_TREE_NODES;
  const build = (value: unknown, key: string, path: string, parent: HTMLElement, depth: number): void => {
    if (--budget < 0) {
      if (budget === -1)
        parent.append(
          el('div', { class: 'leaf' }, '… (more fields not shown; export the row as JSON to see everything)'),
        );
      return;
    }
    if (value !== null && typeof value === 'object' && depth < 64) {
      const box = el('details', { role: 'treeitem' });
      if (depth < 3) box.open = true;
      const summary = el('summary');
      summary.append(
        el('span', { class: 'key' }, key),
        document.createTextNode(Array.isArray(value) ? ` [${value.length}]` : ''),
      );
      box.append(summary);
      if (Array.isArray(value)) value.forEach((v, i) => build(v, String(i), path, box, depth + 1));
      else for (const [k, v] of Object.entries(value)) build(v, k, path ? `${path}.${k}` : k, box, depth + 1);
      parent.append(box);
      return;
    }
    const leaf = el('div', { class: 'leaf', role: 'treeitem', 'data-path': path });
    const text = typeof value === 'object' ? '…' : scalarText(value);
    leaf.append(
      el('span', { class: 'key' }, `${key}: `),
      el('span', { class: typeof value === 'string' ? 'str' : 'num' }, displayText(text, 4000)),
    );
    if (typeof value === 'string') {
      const fieldPath = run!.kind === 'udm' && path.startsWith('udm.') ? path.slice(4) : path;
      for (const action of pivotsFor(fieldPath, value)) {
        if (action === 'rawLog' || action === 'fullEvent') continue;
        const b = el(
          'button',
          { type: 'button', class: 'pivot', 'data-pivot': action, title: PIVOT_LABELS[action] },
          PIVOT_LABELS[action],
        );
        b.addEventListener('click', () => post({ type: 'pivot', runId, action, value, row: rowIndex }));
        leaf.append(b);
      }
      if (
        (key === 'uri' || (/^\d+$/.test(key) && path.endsWith('uri')) || key === 'url' || key === 'sourceUrl') &&
        isOpenableLink(value)
      ) {
        const b = el(
          'button',
          { type: 'button', class: 'pivot', 'data-action': 'open-link', title: 'Open in the browser' },
          'Open link',
        );
        b.addEventListener('click', () => post({ type: 'openLink', url: value }));
        leaf.append(b);
      }
    }
    parent.append(leaf);
  };
  if (root !== null && typeof root === 'object')
    for (const [k, v] of Object.entries(row as object)) build(v, k, k, tree, 1);
  else build(row, 'value', '', tree, 1);
  detail.append(actions, tree);
  detail.classList.add('visible');
}

function select(pos: number, open: boolean): void {
  if (view.length === 0) return;
  selected = Math.max(0, Math.min(view.length - 1, pos));
  const top = selected * ROW_H;
  if (top < viewport.scrollTop) viewport.scrollTop = top;
  else if (top + ROW_H > viewport.scrollTop + viewport.clientHeight)
    viewport.scrollTop = top + ROW_H - viewport.clientHeight;
  for (const node of rowPool) node.dataset.pos = '';
  scheduleRender();
  if (open) showDetail(selected);
}

// ---- column chooser -----------------------------------------------------------------------------
function openChooser(): void {
  chooser.replaceChildren();
  const search = el('input', {
    type: 'search',
    placeholder: 'Find a field',
    'aria-label': 'Find a field',
    id: 'chooser-filter',
  });
  const list = el('div', { id: 'chooser-list' });
  const chosen = new Set(columns.map((c) => c.id));
  requestFields();
  let paths: string[] = [];
  const fill = (): void => {
    paths = [...new Set([...columns.map((c) => c.id), ...(allFields ?? [])])];
    const q = search.value.toLowerCase();
    list.replaceChildren(
      ...paths
        .filter((p) => p.toLowerCase().includes(q))
        .slice(0, 500)
        .map((p) => {
          const label = el('label', { title: p });
          const box = el('input', { type: 'checkbox', 'data-column': p });
          box.checked = chosen.has(p);
          box.addEventListener('change', () => {
            if (box.checked) {
              chosen.add(p);
              setColumns([...columns, { id: p, label: labelFor(p) }]);
              if (run) rememberColumns(run.kind, columns);
            } else {
              chosen.delete(p);
              setColumns(columns.filter((c) => c.id !== p));
              if (run) rememberColumns(run.kind, columns);
            }
          });
          label.append(box, document.createTextNode(` ${p}`));
          return label;
        }),
    );
  };
  search.addEventListener('input', fill);
  refillChooser = fill;
  const reset = el('button', { type: 'button', id: 'chooser-reset' }, 'Default columns');
  reset.addEventListener('click', () => {
    if (run) {
      setColumns(defaultColumns(run.kind));
      rememberColumns(run.kind, undefined);
    }
    closeChooser();
  });
  chooser.append(search, reset, list);
  fill();
  chooser.classList.add('visible');
  columnsButton.setAttribute('aria-expanded', 'true');
  search.focus();
}

function closeChooser(): void {
  refillChooser = undefined;
  chooser.classList.remove('visible');
  columnsButton.setAttribute('aria-expanded', 'false');
}

// ---- banner -------------------------------------------------------------------------------------
function updateBanner(progressText?: string): void {
  const show = moreDataAvailable || fetching;
  banner.classList.toggle('visible', show);
  fetchRestButton.style.display = moreDataAvailable && !fetching ? '' : 'none';
  const covered = run?.covered;
  narrowButton.style.display = moreDataAvailable && !fetching && covered && run?.kind === 'udm' ? '' : 'none';
  stopFetchButton.style.display = fetching ? '' : 'none';
  const searches = run?.restSearches;
  fetchRestButton.textContent =
    searches !== undefined
      ? `Fetch the rest (about ${searches} ${searches === 1 ? 'search' : 'searches'})`
      : 'Fetch the rest';
  if (covered && run?.startTime && run.endTime) {
    const width = Date.parse(covered.end) - Date.parse(covered.start);
    narrowButton.textContent = `Search only the newest ${describeDuration(width)}`;
  }
  if (fetching)
    bannerText.textContent = progressText ?? `Fetching the rest… ${rowCount.toLocaleString('en-US')} events so far.`;
  else if (moreDataAvailable)
    bannerText.textContent = covered
      ? `The search stopped at its limit: these ${rowCount.toLocaleString('en-US')} rows cover only ${covered.start} – ${covered.end} of the range ${run?.startTime ?? '?'} – ${run?.endTime ?? '?'} (${coveredShare(covered)} of it). Fetch the rest, or search only the newest part.`
      : 'More events match than the search returned (it stopped at its limit). Narrow the time range, or fetch the rest in smaller windows.';
}

/** "3 h", "2 d 4 h", "45 min": a duration as a person says it. */
function describeDuration(ms: number): string {
  const min = Math.max(1, Math.round(ms / 60_000));
  if (min < 120) return `${min} min`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

function coveredShare(covered: { start: string; end: string }): string {
  const total = run?.startTime && run.endTime ? Date.parse(run.endTime) - Date.parse(run.startTime) : 0;
  const part = Date.parse(covered.end) - Date.parse(covered.start);
  if (!(total > 0) || !(part >= 0)) return 'part';
  const pct = (part / total) * 100;
  return `${pct < 1 ? pct.toFixed(1) : Math.round(pct)}%`;
}

function resetRows(): void {
  rowCount = 0;
  rowTimes = new Float64Array(0);
  cellStore.clear();
  allFields = undefined;
  fieldResolver = undefined;
  filtered = undefined;
  pendingFilter = undefined;
  pendingCells.clear();
  pendingFields = undefined;
  eventCache.clear();
  pendingDetail = undefined;
  view = new Uint32Array(0);
}

function clearResults(): void {
  run = undefined;
  resetRows();
  period = undefined;
  periodBar.classList.remove('visible');
  suggestBox.replaceChildren();
  sort = undefined;
  selected = -1;
  moreDataAvailable = false;
  fetching = false;
  afterFirstPaint = Promise.resolve();
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

function updateSummary(): void {
  if (!run) return;
  runSummary.classList.remove('error');
  runSummary.textContent = [
    `${rowCount.toLocaleString('en-US')} ${rowCount === 1 ? 'row' : 'rows'}`,
    run.startTime && run.endTime ? `${run.startTime} – ${run.endTime}` : '',
    run.restored ? restoredNote(run) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

// ---- query bar ----------------------------------------------------------------------------------
function setQueryText(text: string): void {
  queryInput.value = text;
  queryInput.rows = Math.min(6, Math.max(1, text.split('\n').length));
  document.dispatchEvent(new CustomEvent('cloudbench:query-text', { detail: text }));
}

function runQueryBar(): void {
  const query = queryInput.value;
  if (query.trim() === '') {
    queryInput.focus();
    return;
  }
  post({ type: 'runQuery', query });
}

let queryBarLoading = false;
/** How long the editor waits for the rest of a run's rows before it loads anyway. */
const REST_WAIT_MS = 3000;
/** Adds the Monaco bundle once; called only when the first rows are on screen (or nothing is coming). */
function upgradeQueryBar(): void {
  if (queryBarLoading || !queryBarScript) return;
  queryBarLoading = true;
  if (queryBarStyle) head(el('link', { rel: 'stylesheet', href: queryBarStyle }));
  const script = el('script', { src: queryBarScript });
  script.nonce = pageNonce;
  head(script);
}

function head(node: HTMLElement): void {
  document.head.append(node);
}

// querybar.js asks for completions and diagnostics through here: this page owns the one VS Code API
// object, and checks the request like the extension will.
document.addEventListener('cloudbench:querybar-post', (event) => {
  try {
    const message = parseFromWebview((event as CustomEvent<unknown>).detail);
    if (message.type === 'querybar.complete' || message.type === 'querybar.validate' || message.type === 'runQuery')
      post(message);
  } catch (err) {
    console.warn('ignored a malformed query bar request', err);
  }
});
document.addEventListener('cloudbench:querybar-run', () => runQueryBar());

// ---- messages -----------------------------------------------------------------------------------
function onMessage(message: ToWebview): void {
  switch (message.type) {
    case 'running':
      // A new search replaces the table: rows of the previous one under the new title would mislead.
      if (message.message === undefined || run !== undefined) clearResults();
      runTitle.textContent = message.title;
      runTitle.title = message.title;
      runSource.textContent = '';
      runSummary.textContent = message.message ? `Running… ${message.message}` : 'Running…';
      runSummary.classList.remove('error');
      return;
    case 'notKept':
      restoredSummary(NOT_KEPT);
      return;
    case 'failed':
      clearResults();
      runTitle.textContent = message.title;
      runTitle.title = message.title;
      runSummary.textContent = message.cancelled ? message.message : `Failed: ${message.message}`;
      runSummary.classList.toggle('error', !message.cancelled);
      // No table is coming: the editor can load now.
      upgradeQueryBar();
      return;
    case 'results': {
      const cells = decodeCells(message.table);
      const restComing = message.fields.length === 0 && message.table.count > 0;
      run = message.run;
      resetRows();
      addTable(message.table, cells);
      // A message with every row of the run also lists their fields.
      if (message.fields.length) allFields = message.fields;
      period = undefined;
      periodBar.classList.remove('visible');
      sort = undefined;
      selected = -1;
      moreDataAvailable = message.moreDataAvailable;
      fetching = false;
      detail.classList.remove('visible');
      closeChooser();
      runTitle.textContent = run.title;
      runTitle.title = run.title;
      runSource.textContent = run.source ?? '';
      // The bar shows the query behind the table, unless the user is typing in it right now.
      if (run.kind === 'udm' && !queryHost.contains(document.activeElement)) setQueryText(run.query ?? run.title);
      updateSummary();
      // The kept rows of the run this panel showed before a reload: looked at as they were.
      const back = run.restored && restored?.runId === run.runId ? restored : undefined;
      restored = undefined;
      consoleLink.style.display = run.uri?.some(isOpenableLink) ? '' : 'none';
      rerunButton.style.display = run.kind === 'udm' || (run.restored && run.pivot) ? '' : 'none';
      rerunButton.textContent = run.restored ? 'Run Again' : 'Run again';
      document.body.dataset.restored = run.restored ? 'rows' : '';
      viewport.scrollTop = 0;
      setColumns(chosenColumns(run.kind) ?? (message.columns.length ? message.columns : defaultColumns(run.kind)));
      if (back?.sort) {
        const column = columns.find((c) => c.id === back.sort?.columnId);
        if (column) {
          sort = { column, direction: back.sort.direction === 'desc' ? 'desc' : 'asc' };
          setColumns(columns);
        }
      }
      pendingScroll = back?.scrollTop;
      allRowsIn = !restComing;
      rememberRun(run, filterInput.value.trim());
      recompute();
      updateBanner();
      afterFirstPaint = new Promise<void>((resolve) => {
        const runId = message.run.runId;
        requestAnimationFrame(() => {
          document.dispatchEvent(new CustomEvent('cloudbench:painted', { detail: { rows: rowCount } }));
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
              else void afterFirstPaint.then(settled, settled);
            }, 0),
          );
        });
      });
      return;
    }
    case 'append': {
      const { runId, table } = message;
      // Decoding thousands of rows waits until the first rows are on screen.
      afterFirstPaint = afterFirstPaint.then(() => {
        if (!run || runId !== run.runId) return;
        addTable(table);
        allRowsIn = true;
        fieldResolver = undefined;
        allFields = undefined;
        // The field list (filter suggestions, column chooser) is asked for once the table is usable.
        requestFields();
        for (const node of rowPool) node.dataset.pos = '';
        ensureCells();
        recompute();
        if (!fetching) updateSummary();
        updateBanner();
        if (!histogramQueued) {
          histogramQueued = true;
          setTimeout(() => {
            histogramQueued = false;
            renderHistogram();
          }, 0);
        }
        // The rest of the rows is on screen after the next frame: now the editor may load.
        requestAnimationFrame(() => setTimeout(upgradeQueryBar, 0));
      });
      afterFirstPaint.catch((err: unknown) => console.warn('could not add rows', err));
      return;
    }
    case 'querybar.completions':
    case 'querybar.diagnostics':
      // Answers for querybar.js, which listens for them itself.
      return;
    case 'rows.filtered':
    case 'rows.cells':
    case 'rows.event':
    case 'rows.fields':
    case 'rows.unavailable':
      if (run && message.runId === run.runId) onRowsAnswer(message);
      return;
    case 'status': {
      if (!run || message.runId !== run.runId) return;
      if (message.moreDataAvailable !== undefined) moreDataAvailable = message.moreDataAvailable;
      fetching = message.state === 'running';
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

/** An answer of the extension about the rows of the run shown. */
function onRowsAnswer(
  message: Extract<
    ToWebview,
    { type: 'rows.filtered' | 'rows.cells' | 'rows.event' | 'rows.fields' | 'rows.unavailable' }
  >,
): void {
  switch (message.type) {
    case 'rows.filtered': {
      if (message.id !== pendingFilter?.id || message.count < rowCount) return;
      // The extension may hold rows still on their way here: positions past the rows held wait for them.
      const indices = message.count === rowCount ? message.indices : message.indices.filter((i) => i < rowCount);
      filtered = { ...pendingFilter, count: rowCount, indices, searched: message.searched };
      pendingFilter = undefined;
      for (const node of rowPool) node.dataset.pos = '';
      recompute();
      renderHistogram();
      return;
    }
    case 'rows.cells': {
      const keys = pendingCells.get(message.id);
      if (!keys) return;
      pendingCells.delete(message.id);
      const table = message.table;
      // The extension may hold rows that are still on their way here: only the rows held are kept.
      if (table.count < rowCount) return;
      const cells = decodeCells(table);
      table.columns.forEach((c, i) => {
        const key = columnKey(c);
        if (keys.includes(key)) cellStore.set(key, cells[i].slice(0, rowCount));
      });
      for (const node of rowPool) node.dataset.pos = '';
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
      eventCache.set(message.index, event);
      if (eventCache.size > 50) eventCache.delete(eventCache.keys().next().value!);
      if (message.id !== pendingDetail?.id) return;
      const { pos } = pendingDetail;
      pendingDetail = undefined;
      if (view[pos] === message.index && detail.classList.contains('visible')) renderDetail(message.index, event);
      return;
    }
    case 'rows.fields':
      if (message.id !== pendingFields) return;
      pendingFields = undefined;
      allFields = message.paths;
      fieldResolver = undefined;
      refillChooser?.();
      if (document.activeElement === filterInput) updateSuggestions();
      return;
    case 'rows.unavailable':
      if (message.id === pendingDetail?.id) {
        pendingDetail = undefined;
        detailMessage(message.message);
      } else if (message.id === pendingFilter?.id) {
        filtered = { ...pendingFilter, indices: new Uint32Array(0), searched: [], error: message.message };
        pendingFilter = undefined;
        recompute();
      } else if (message.id === pendingFields) {
        pendingFields = undefined;
      } else {
        pendingCells.delete(message.id);
      }
      return;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  // Monaco (the query bar) schedules its own work through postMessage to this window.
  if ((event.data as { vscodeScheduleAsyncWork?: unknown } | null)?.vscodeScheduleAsyncWork !== undefined) return;
  try {
    onMessage(parseToWebview(event.data));
  } catch (err) {
    console.warn('ignored a malformed message', err);
  }
});

function applyPendingScroll(): void {
  if (pendingScroll === undefined) return;
  viewport.scrollTop = pendingScroll;
  pendingScroll = undefined;
  scheduleRender();
}

// ---- events -------------------------------------------------------------------------------------
let scrollKeepTimer: ReturnType<typeof setTimeout> | undefined;
viewport.addEventListener(
  'scroll',
  () => {
    if (gridHeader.scrollLeft !== viewport.scrollLeft) gridHeader.scrollLeft = viewport.scrollLeft;
    scheduleRender();
    // Where the user is in the table, for a reload (not on every frame of a scroll).
    clearTimeout(scrollKeepTimer);
    scrollKeepTimer = setTimeout(
      () => run && pendingScroll === undefined && rememberRun(run, filterInput.value.trim()),
      250,
    );
  },
  { passive: true },
);
window.addEventListener('resize', () => scheduleRender());

// Tooltips are filled on hover, not on every render: scrolling touches only the visible text.
spacer.addEventListener('mouseover', (event) => {
  const target = (event.target as HTMLElement).closest<HTMLElement>('.cell');
  const node = target?.parentElement;
  if (!target || !node?.dataset.index) return;
  const column = columns[Array.prototype.indexOf.call(node.children, target)];
  if (!column) return;
  const text = cell(Number(node.dataset.index), column);
  target.title = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
});

spacer.addEventListener('click', (event) => {
  const node = (event.target as HTMLElement).closest<HTMLElement>('.row');
  if (!node || node.dataset.pos === undefined || node.dataset.pos === '') return;
  select(Number(node.dataset.pos), true);
  grid.focus({ preventScroll: true });
});

grid.addEventListener('keydown', (event) => {
  const page = Math.max(1, Math.floor(viewport.clientHeight / ROW_H) - 1);
  const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
  if (event.key in moves) {
    select((selected < 0 ? -1 : selected) + moves[event.key], detail.classList.contains('visible'));
    event.preventDefault();
  } else if (event.key === 'Home' || event.key === 'End') {
    select(event.key === 'Home' ? 0 : view.length - 1, detail.classList.contains('visible'));
    event.preventDefault();
  } else if (event.key === 'Enter' && selected >= 0) {
    showDetail(selected);
    event.preventDefault();
  } else if (event.key === 'Escape') {
    detail.classList.remove('visible');
  }
});

gridHeader.addEventListener('click', (event) => {
  const cell = (event.target as HTMLElement).closest<HTMLElement>('[data-column]');
  const column = columns.find((c) => c.id === cell?.dataset.column);
  if (!column) return;
  if (sort?.column.id === column.id) sort = sort.direction === 'asc' ? { column, direction: 'desc' } : undefined;
  else sort = { column, direction: 'asc' };
  setColumns(columns);
  for (const node of rowPool) node.dataset.pos = '';
  recompute();
  if (run) rememberRun(run, filterInput.value.trim());
});

let filterTimer: ReturnType<typeof setTimeout> | undefined;
filterInput.addEventListener('input', () => {
  updateSuggestions();
  clearTimeout(filterTimer);
  filterTimer = setTimeout(() => {
    selected = -1;
    for (const node of rowPool) node.dataset.pos = '';
    recompute();
    renderHistogram();
    if (run) rememberRun(run, filterInput.value.trim());
  }, 120);
});
filterInput.addEventListener('blur', () => suggestBox.replaceChildren());
filterInput.addEventListener('focus', requestFields);

columnsButton.addEventListener('click', () => (chooser.classList.contains('visible') ? closeChooser() : openChooser()));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && chooser.classList.contains('visible')) closeChooser();
});

for (const format of ['csv', 'json', 'ndjson'] as const) {
  exportButtons[format].addEventListener('click', () => {
    if (run) post({ type: 'export', runId: run.runId, format, columns });
  });
}
fetchRestButton.addEventListener('click', () => {
  if (!run) return;
  fetching = true;
  updateBanner();
  post({ type: 'fetchRest', runId: run.runId });
});
narrowButton.addEventListener('click', () => run && post({ type: 'narrowToNewest', runId: run.runId }));
stopFetchButton.addEventListener('click', () => run && post({ type: 'stopFetch', runId: run.runId }));
rerunButton.addEventListener('click', () => {
  if (run?.restored && run.kind !== 'udm' && run.pivot)
    post({ type: 'pivot', runId: 'restored', action: run.pivot.action, value: run.pivot.value });
  else if (run) post({ type: 'rerun', runId: run.runId });
  else if (restored?.query && restored.startTime && restored.endTime)
    post({ type: 'runQuery', query: restored.query, startTime: restored.startTime, endTime: restored.endTime });
  else if (restored?.query) post({ type: 'runQuery', query: restored.query });
  else if (restored?.pivot && isPivotAction(restored.pivot.action))
    post({ type: 'pivot', runId: 'restored', action: restored.pivot.action, value: restored.pivot.value });
});
consoleLink.addEventListener('click', () => {
  const url = run?.uri?.find(isOpenableLink);
  if (url) post({ type: 'openLink', url });
});

queryRun.addEventListener('click', runQueryBar);
queryInput.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    runQueryBar();
  }
});
// Someone who starts typing before any results arrive gets the full editor right away.
queryInput.addEventListener('focus', upgradeQueryBar, { once: true });

consoleLink.style.display = 'none';
rerunButton.style.display = 'none';
updateBanner();
const NOT_KEPT = 'Restored after a reload; its rows were not kept. Run again to fetch them (one search).';
function restoredSummary(note: string): void {
  if (!restored) return;
  runSummary.textContent = [
    restored.startTime && restored.endTime ? `${restored.startTime} – ${restored.endTime}` : '',
    note,
  ]
    .filter(Boolean)
    .join(' · ');
}
/** A panel VS Code brought back after a reload: what it showed, ready to run again on request. */
let restored: RestoreState | undefined = savedRun();
if (restored) {
  runTitle.textContent = restored.title;
  runTitle.title = restored.title;
  runSource.textContent = restored.source ?? '';
  restoredSummary(restored.runId ? 'Restored after a reload; loading its kept rows…' : NOT_KEPT);
  if (restored.filter) filterInput.value = restored.filter;
  if (restored.kind === 'udm' && restored.query) setQueryText(restored.query);
  if (restored.query || restored.pivot) {
    rerunButton.style.display = '';
    rerunButton.textContent = 'Run again';
  }
  document.body.dataset.restored = 'true';
}
post({ type: 'ready' });
// The columns chosen here before (kept across reloads), so the extension sends their cells.
for (const kind of RESULT_KINDS) {
  const chosen = chosenColumns(kind);
  if (chosen) post({ type: 'columns', kind, columns: chosen });
}
