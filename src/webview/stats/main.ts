// Statistics view: one row per group and one column per match key and outcome variable, sortable
// and filterable, with a chart chosen from the table's shape (switchable), copy and exports.
// Every value is inserted with textContent; nothing from an event is ever parsed as HTML.
import '../shared/table-page.css';
import './style.css';
import { BarController, BarElement, Chart, type ChartConfiguration } from 'chart.js';
import { displayText } from '../../core/secops/results/export';
import {
  CHART_LABELS,
  cellText,
  chartChoices,
  chartData,
  columnLabel,
  decodeStatsRows,
  parseToStatsView,
  tableToCsv,
  type ChartKind,
  type FromStatsView,
  type StatsRunInfo,
  type ToStatsView,
} from '../../core/secops/statistics/protocol';
import type { StatsColumn } from '../../udm/stats/plan';
import { cssVar, registerCharts } from '../shared/chart';
import { el } from '../shared/dom';
import { VirtualGrid, type GridColumn } from '../shared/grid';
import { onHostMessage, pageApi } from '../shared/page-api';

registerCharts(BarController, BarElement);

const vscode = pageApi<FromStatsView>();

/**
 * How the user looked at the table, kept by VS Code across a window reload; the table itself is kept
 * by the extension on disk, under the run's id.
 */
interface ViewState {
  runId: string;
  filter: string;
  sortColumn: number;
  sortDesc: boolean;
  chartKind: string;
  scrollTop: number;
}

function savedView(): ViewState | undefined {
  const v = (vscode.getState?.() as { restore?: Partial<ViewState> } | undefined)?.restore;
  if (!v || typeof v.runId !== 'string') return undefined;
  return {
    runId: v.runId,
    filter: typeof v.filter === 'string' ? v.filter : '',
    sortColumn: typeof v.sortColumn === 'number' ? v.sortColumn : -1,
    sortDesc: v.sortDesc === true,
    chartKind: typeof v.chartKind === 'string' ? v.chartKind : '',
    scrollTop: typeof v.scrollTop === 'number' ? v.scrollTop : 0,
  };
}

const ROW_HEIGHT = 22;

// ---- page skeleton --------------------------------------------------------------------------------

const title = el('div', { id: 'stats-title' });
const summary = el('div', { id: 'stats-summary' }, 'Run a UDM query with match: and outcome: sections.');
const warnings = el('ul', { id: 'stats-warnings' });
const filterInput = el('input', {
  id: 'stats-filter',
  type: 'search',
  placeholder: 'Filter groups',
  'aria-label': 'Filter groups',
});
const chartSelect = el('select', { id: 'stats-chart-kind', title: 'Chart', 'aria-label': 'Chart' });
const copyButton = el('button', { id: 'stats-copy', title: 'Copy the shown rows as CSV' }, 'Copy');
const exportButtons = (['csv', 'json', 'ndjson'] as const).map((format) =>
  el(
    'button',
    {
      class: 'stats-export',
      title: `Export the whole table as ${format.toUpperCase()}`,
      'data-format': format,
    },
    format.toUpperCase(),
  ),
);
const rerunButton = el(
  'button',
  { id: 'stats-rerun', title: 'Run the query again over the current time range (spends searches)' },
  'Run Again',
);
const stopButton = el('button', { id: 'stats-stop', title: 'Stop fetching; compute over what is fetched' }, 'Stop');
const rowCount = el('span', { id: 'stats-count' });
const toolbar = el(
  'div',
  { class: 'toolbar' },
  filterInput,
  el('label', {}, 'Chart ', chartSelect),
  copyButton,
  el('span', {}, 'Export:'),
  ...exportButtons,
  rerunButton,
  stopButton,
  rowCount,
);
const canvas = el('canvas', { id: 'stats-chart', role: 'img' });
const chartNote = el('div', { id: 'stats-chart-note' });
// Chart.js sizes the canvas to its parent: the plot has a box of its own, the note below takes the
// lines it needs.
const chartArea = el('section', { id: 'stats-chart-area' }, el('div', { id: 'stats-chart-plot' }, canvas), chartNote);
const partialBanner = el('div', { id: 'stats-partial', role: 'alert' });
const grid = new VirtualGrid({
  label: 'Groups',
  rowHeight: ROW_HEIGHT,
  overscan: 5,
  ids: { viewport: 'stats-body', head: 'stats-head', spacer: 'stats-sizer' },
  classes: {
    head: 'stats-grid-row',
    headCell: 'stats-head-cell',
    row: 'stats-row stats-grid-row',
    cell: 'stats-cell',
    selected: 'selected',
  },
  rowTitle: 'Open the events of this group',
  text: (pos, c) => displayText(texts[view[pos]]?.[c] ?? '', 200),
  decorate: (row, pos) => (row.dataset.row = String(view[pos])),
  onSort: (c) => sortBy(c),
  onSelect: (pos, how) => how === 'click' && openRow(pos),
  onActivate: (pos) => openRow(pos),
  onScroll: () => {
    clearTimeout(scrollKeepTimer);
    scrollKeepTimer = setTimeout(rememberView, 250);
  },
});
const table = el('div', { id: 'stats-table' }, partialBanner, grid.viewport);
const app = el('div', { id: 'app' }, el('header', {}, title, summary, warnings), toolbar, chartArea, table);
document.body.appendChild(app);

// ---- state ---------------------------------------------------------------------------------------

let run: StatsRunInfo | undefined;
let columns: StatsColumn[] = [];
let rows: unknown[][] = [];
/** Texts of every cell, computed once per table, for filtering and drawing. */
let texts: string[][] = [];
/** Row indices (into rows) shown, after filter and sort. */
let view: number[] = [];
let sortColumn = -1;
let sortDesc = false;
let chartKind: ChartKind = 'table';
let chart: Chart | undefined;

function setRunning(running: boolean): void {
  stopButton.hidden = !running;
  for (const b of [copyButton, ...exportButtons]) b.disabled = running || !run;
}
setRunning(false);

function post(message: FromStatsView): void {
  vscode.postMessage(message);
}

function rememberView(): void {
  if (!run) return;
  const restore: ViewState = {
    runId: run.runId,
    filter: filterInput.value,
    sortColumn,
    sortDesc,
    chartKind,
    scrollTop: Math.round(grid.viewport.scrollTop),
  };
  vscode.setState?.({ restore });
}

// ---- table ---------------------------------------------------------------------------------------

function applyView(): void {
  const needle = filterInput.value.trim().toLowerCase();
  let idx = rows.map((_, i) => i);
  if (needle) idx = idx.filter((i) => texts[i].some((t) => t.toLowerCase().includes(needle)));
  if (sortColumn >= 0) {
    const c = sortColumn;
    idx.sort((a, b) => {
      const cmp = compareCells(rows[a][c], rows[b][c]);
      return (sortDesc ? -cmp : cmp) || a - b;
    });
  }
  view = idx;
  rowCount.textContent = `${view.length.toLocaleString('en-US')} of ${rows.length.toLocaleString('en-US')} groups`;
  grid.setColumns(
    columns.map(gridColumn),
    sortColumn >= 0 ? { column: sortColumn, direction: sortDesc ? 'desc' : 'asc' } : undefined,
  );
  grid.setLength(view.length);
  grid.invalidate();
  grid.render();
  renderChart();
  rememberView();
}

function compareCells(a: unknown, b: unknown): number {
  const an = a === null || a === undefined;
  const bn = b === null || b === undefined;
  if (an || bn) return an === bn ? 0 : an ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = typeof a === 'string' ? a : JSON.stringify(a);
  const sb = typeof b === 'string' ? b : JSON.stringify(b);
  const na = Number(sa);
  const nb = Number(sb);
  if (sa !== '' && sb !== '' && !Number.isNaN(na) && !Number.isNaN(nb)) return na - nb;
  return sa.localeCompare(sb);
}

function gridColumn(c: StatsColumn, i: number): GridColumn {
  const label = columnLabel(c);
  const number = c.type === 'number';
  return {
    key: String(i),
    label,
    title: `Sort by ${label}`,
    min: number ? 90 : 140,
    grow: number ? 0.6 : 1,
    className: number ? 'num' : undefined,
  };
}

let scrollKeepTimer: ReturnType<typeof setTimeout> | undefined;
/** A click on a header: numbers sort largest first, text A to Z; the same header again reverses. */
function sortBy(c: number): void {
  if (sortColumn === c) sortDesc = !sortDesc;
  else {
    sortColumn = c;
    sortDesc = columns[c]?.type === 'number';
  }
  applyView();
}
window.addEventListener('resize', () => grid.schedule());
filterInput.addEventListener('input', () => applyView());
function openRow(pos: number): void {
  const row = view[pos];
  if (row !== undefined && run) post({ type: 'openGroup', runId: run.runId, row });
}

copyButton.addEventListener('click', () => {
  if (!run) return;
  post({
    type: 'copy',
    text: tableToCsv(
      columns,
      view.map((i) => rows[i]),
      run.timeZone,
    ),
  });
});
for (const b of exportButtons) {
  b.addEventListener('click', () => {
    const format = b.dataset.format;
    if (run && (format === 'csv' || format === 'json' || format === 'ndjson'))
      post({ type: 'export', runId: run.runId, format });
  });
}
stopButton.addEventListener('click', () => post({ type: 'stop' }));
chartSelect.addEventListener('change', () => {
  chartKind = chartSelect.value as ChartKind;
  renderChart();
  rememberView();
});
rerunButton.addEventListener('click', () => run && post({ type: 'rerun', runId: run.runId }));

// ---- chart ---------------------------------------------------------------------------------------

function palette(): string[] {
  return [
    cssVar('--vscode-charts-blue', '#3794ff'),
    cssVar('--vscode-charts-orange', '#d18616'),
    cssVar('--vscode-charts-green', '#89d185'),
    cssVar('--vscode-charts-purple', '#b180d7'),
    cssVar('--vscode-charts-red', '#f14c4c'),
    cssVar('--vscode-charts-yellow', '#cca700'),
    cssVar('--vscode-terminal-ansiCyan', '#11a8cd'),
    cssVar('--vscode-terminal-ansiMagenta', '#bc3fbc'),
    cssVar('--vscode-terminal-ansiBrightBlue', '#3b8eea'),
    cssVar('--vscode-terminal-ansiBrightGreen', '#23d18b'),
  ];
}

function renderChart(): void {
  chart?.destroy();
  chart = undefined;
  const data = run
    ? chartData(
        chartKind,
        columns,
        view.map((i) => rows[i]),
        run.timeZone,
      )
    : undefined;
  chartArea.hidden = !data;
  if (!data) return;
  const colors = palette();
  const fg = cssVar('--vscode-foreground', '#cccccc');
  const gridColor = cssVar('--vscode-panel-border', 'rgba(128,128,128,0.35)');
  const line = chartKind === 'timeseries';
  const stacked = chartKind === 'stacked';
  const config: ChartConfiguration<'bar' | 'line', Array<number | null>, string> = {
    type: line ? 'line' : 'bar',
    data: {
      labels: data.labels,
      datasets: data.datasets.map((d, i) => ({
        label: d.label,
        data: d.data,
        backgroundColor: colors[i % colors.length],
        borderColor: colors[i % colors.length],
        borderWidth: line ? 2 : 0,
        pointRadius: line && data.labels.length < 60 ? 2 : 0,
        spanGaps: false,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      color: fg,
      plugins: {
        // At most about three lines of legend: in a narrow panel a legend of ten series took the plot.
        legend: { display: data.datasets.length > 1, maxHeight: 66, labels: { color: fg } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { stacked, ticks: { color: fg }, grid: { color: gridColor } },
        y: {
          stacked,
          beginAtZero: true,
          ticks: { color: fg },
          grid: { color: gridColor },
          title: { display: true, text: data.valueLabel, color: fg },
        },
      },
    },
  };
  chart = new Chart(canvas, config);
  canvas.setAttribute('aria-label', `${CHART_LABELS[chartKind]} of ${data.valueLabel}`);
  chartNote.textContent = data.omitted
    ? `The chart leaves out ${data.omitted.toLocaleString('en-US')} categories or series; the table has them all.`
    : '';
}

// Theme changes (light/dark/high contrast) redraw the chart with the new colours.
new MutationObserver(() => renderChart()).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// ---- messages ------------------------------------------------------------------------------------

function showTable(message: Extract<ToStatsView, { type: 'table' }>): void {
  run = message.run;
  columns = message.columns;
  rows = decodeStatsRows(message.rowsJson, columns.length);
  texts = rows.map((row) => columns.map((c, i) => cellText(row[i], c, message.run.timeZone)));
  sortColumn = -1;
  title.textContent = run.title;
  const n = run.eventsFetched.toLocaleString('en-US');
  summary.className = '';
  const ranAt = run.ranAt ? new Date(run.ranAt) : undefined;
  summary.textContent =
    (run.restored
      ? `Restored from the run at ${ranAt && !Number.isNaN(ranAt.getTime()) ? ranAt.toLocaleString() : 'an earlier time'}. `
      : '') +
    `Computed by Cloudbench over ${n} events fetched from the API (${run.searches.toLocaleString('en-US')} ${run.searches === 1 ? 'search' : 'searches'}), ` +
    `${run.startTime} – ${run.endTime}, times in ${run.timeZone}` +
    (run.groupsTotal !== rows.length
      ? `; ${rows.length.toLocaleString('en-US')} of ${run.groupsTotal.toLocaleString('en-US')} groups kept by condition:/limit:`
      : '');
  rerunButton.hidden = !run.restored;
  document.body.dataset.restored = run.restored ? 'rows' : '';
  warnings.replaceChildren(...run.warnings.map((w) => el('li', {}, w)));
  partialBanner.hidden = !run.partial;
  partialBanner.textContent = run.partial ? `Partial table: ${run.partial}.` : '';
  table.classList.toggle('partial', !!run.partial);
  const choices = chartChoices(columns);
  chartSelect.replaceChildren(...choices.map((k) => el('option', { value: k }, CHART_LABELS[k])));
  chartKind = choices[0];
  // The table this panel showed before a reload: looked at as it was.
  const back = run.restored ? savedView() : undefined;
  if (back && back.runId === run.runId) {
    filterInput.value = back.filter;
    if (back.sortColumn < columns.length) {
      sortColumn = back.sortColumn;
      sortDesc = back.sortDesc;
    }
    if ((choices as string[]).includes(back.chartKind)) chartKind = back.chartKind as ChartKind;
  }
  chartSelect.value = chartKind;
  setRunning(false);
  applyView();
  if (back && back.runId === run.runId && back.scrollTop > 0) {
    grid.viewport.scrollTop = back.scrollTop;
    grid.render();
  }
}

function onMessage(message: ToStatsView): void {
  switch (message.type) {
    case 'running':
      title.textContent = message.title;
      summary.className = '';
      summary.textContent = message.message;
      setRunning(true);
      return;
    case 'progress':
      summary.textContent = `Fetching events: ${message.events.toLocaleString('en-US')} so far, ${message.searches} ${message.searches === 1 ? 'search' : 'searches'}${message.windowsPending ? `, ${message.windowsPending} windows to go` : ''}…`;
      return;
    case 'failed':
      title.textContent = message.title;
      summary.className = message.cancelled ? '' : 'error';
      summary.textContent = message.message;
      setRunning(false);
      return;
    case 'table':
      try {
        showTable(message);
      } catch (err) {
        summary.className = 'error';
        summary.textContent = `The table could not be shown: ${(err as Error).message}`;
      }
      return;
  }
}

onHostMessage(parseToStatsView, onMessage);
partialBanner.hidden = true;
chartArea.hidden = true;
rerunButton.hidden = true;
post({ type: 'ready' });
