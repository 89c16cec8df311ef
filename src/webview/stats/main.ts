// Statistics view: one row per group and one column per match key and outcome variable, sortable
// and filterable, with a chart chosen from the table's shape (switchable), copy and exports.
// Every value is inserted with textContent; nothing from an event is ever parsed as HTML.
import './style.css';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
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
import { pageApi } from '../shared/page-api';

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Legend,
  Tooltip,
);

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

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: { id?: string; className?: string; text?: string; title?: string } = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (attrs.id) node.id = attrs.id;
  if (attrs.className) node.className = attrs.className;
  if (attrs.text !== undefined) node.textContent = attrs.text;
  if (attrs.title !== undefined) node.title = attrs.title;
  for (const c of children) node.appendChild(c);
  return node;
}

// ---- page skeleton --------------------------------------------------------------------------------

const title = el('div', { id: 'stats-title' });
const summary = el('div', { id: 'stats-summary', text: 'Run a UDM query with match: and outcome: sections.' });
const warnings = el('ul', { id: 'stats-warnings' });
const filterInput = el('input', { id: 'stats-filter' });
filterInput.type = 'search';
filterInput.placeholder = 'Filter groups';
filterInput.setAttribute('aria-label', 'Filter groups');
const chartSelect = el('select', { id: 'stats-chart-kind', title: 'Chart' });
chartSelect.setAttribute('aria-label', 'Chart');
const copyButton = el('button', { id: 'stats-copy', text: 'Copy', title: 'Copy the shown rows as CSV' });
const exportButtons = (['csv', 'json', 'ndjson'] as const).map((format) => {
  const b = el('button', {
    className: 'stats-export',
    text: format.toUpperCase(),
    title: `Export the whole table as ${format.toUpperCase()}`,
  });
  b.dataset.format = format;
  return b;
});
const rerunButton = el('button', {
  id: 'stats-rerun',
  text: 'Run Again',
  title: 'Run the query again over the current time range (spends searches)',
});
const stopButton = el('button', {
  id: 'stats-stop',
  text: 'Stop',
  title: 'Stop fetching; compute over what is fetched',
});
const rowCount = el('span', { id: 'stats-count' });
const toolbar = el(
  'div',
  { className: 'toolbar' },
  filterInput,
  el('label', { text: 'Chart ' }, chartSelect),
  copyButton,
  el('span', { text: 'Export:' }),
  ...exportButtons,
  rerunButton,
  stopButton,
  rowCount,
);
const canvas = el('canvas', { id: 'stats-chart' });
canvas.setAttribute('role', 'img');
const chartNote = el('div', { id: 'stats-chart-note' });
const chartArea = el('section', { id: 'stats-chart-area' }, canvas, chartNote);
const partialBanner = el('div', { id: 'stats-partial' });
partialBanner.setAttribute('role', 'alert');
const headRow = el('div', { id: 'stats-head', className: 'stats-grid-row' });
headRow.setAttribute('role', 'row');
const sizer = el('div', { id: 'stats-sizer' });
const body = el('div', { id: 'stats-body' }, sizer);
body.setAttribute('role', 'rowgroup');
const grid = el('div', { id: 'stats-table' }, partialBanner, headRow, body);
grid.setAttribute('role', 'grid');
const app = el('div', { id: 'app' }, el('header', {}, title, summary, warnings), toolbar, chartArea, grid);
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
    scrollTop: Math.round(body.scrollTop),
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
  sizer.style.height = `${view.length * ROW_HEIGHT}px`;
  body.scrollTop = Math.min(body.scrollTop, Math.max(0, view.length * ROW_HEIGHT - body.clientHeight));
  renderRows();
  renderHead();
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

function templateColumns(): string {
  return columns.map((c) => (c.type === 'number' ? 'minmax(90px, 0.6fr)' : 'minmax(140px, 1fr)')).join(' ');
}

function renderHead(): void {
  headRow.replaceChildren(
    ...columns.map((c, i) => {
      const arrow = sortColumn === i ? (sortDesc ? ' ▼' : ' ▲') : '';
      const b = el('button', {
        className: `stats-head-cell ${c.type === 'number' ? 'num' : ''}`,
        text: `${columnLabel(c)}${arrow}`,
        title: `Sort by ${columnLabel(c)}`,
      });
      b.setAttribute('role', 'columnheader');
      b.setAttribute('aria-sort', sortColumn === i ? (sortDesc ? 'descending' : 'ascending') : 'none');
      b.dataset.column = String(i);
      return b;
    }),
  );
  headRow.style.gridTemplateColumns = templateColumns();
}

function renderRows(): void {
  const top = body.scrollTop;
  const height = body.clientHeight || 400;
  const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 5);
  const last = Math.min(view.length, Math.ceil((top + height) / ROW_HEIGHT) + 5);
  const template = templateColumns();
  const out: HTMLElement[] = [];
  for (let v = first; v < last; v++) {
    const r = view[v];
    const row = el('div', { className: 'stats-row stats-grid-row', title: 'Open the events of this group' });
    row.setAttribute('role', 'row');
    row.tabIndex = 0;
    row.dataset.row = String(r);
    row.style.top = `${v * ROW_HEIGHT}px`;
    row.style.gridTemplateColumns = template;
    columns.forEach((c, i) => {
      const cell = el('span', {
        className: `stats-cell ${c.type === 'number' ? 'num' : ''}`,
        text: displayText(texts[r][i], 200),
      });
      cell.setAttribute('role', 'gridcell');
      row.appendChild(cell);
    });
    out.push(row);
  }
  sizer.replaceChildren(...out);
}

let scrollKeepTimer: ReturnType<typeof setTimeout> | undefined;
body.addEventListener(
  'scroll',
  () => {
    renderRows();
    clearTimeout(scrollKeepTimer);
    scrollKeepTimer = setTimeout(rememberView, 250);
  },
  { passive: true },
);
window.addEventListener('resize', () => renderRows());
filterInput.addEventListener('input', () => applyView());
headRow.addEventListener('click', (e) => {
  const target = (e.target as HTMLElement).closest<HTMLElement>('[data-column]');
  if (!target) return;
  const c = Number(target.dataset.column);
  if (sortColumn === c) sortDesc = !sortDesc;
  else {
    sortColumn = c;
    sortDesc = columns[c]?.type === 'number';
  }
  applyView();
});
const openRow = (target: EventTarget | null): void => {
  const row = (target as HTMLElement | null)?.closest<HTMLElement>('[data-row]');
  if (!row || !run) return;
  post({ type: 'openGroup', runId: run.runId, row: Number(row.dataset.row) });
};
sizer.addEventListener('click', (e) => openRow(e.target));
sizer.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') openRow(e.target);
});

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

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

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
        legend: { display: data.datasets.length > 1, labels: { color: fg } },
        tooltip: { enabled: true },
      },
      scales: {
        x: { stacked, ticks: { color: fg, autoSkip: true, maxRotation: 60 }, grid: { color: gridColor } },
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
    `Computed by Cloudbench over ${n} events fetched from the API (${run.searches} ${run.searches === 1 ? 'search' : 'searches'}), ` +
    `${run.startTime} – ${run.endTime}, times in ${run.timeZone}` +
    (run.groupsTotal !== rows.length
      ? `; ${rows.length.toLocaleString('en-US')} of ${run.groupsTotal.toLocaleString('en-US')} groups kept by condition:/limit:`
      : '');
  rerunButton.hidden = !run.restored;
  document.body.dataset.restored = run.restored ? 'rows' : '';
  warnings.replaceChildren(...run.warnings.map((w) => el('li', { text: w })));
  partialBanner.hidden = !run.partial;
  partialBanner.textContent = run.partial ? `Partial table: ${run.partial}.` : '';
  grid.classList.toggle('partial', !!run.partial);
  const choices = chartChoices(columns);
  chartSelect.replaceChildren(
    ...choices.map((k) => {
      const o = el('option', { text: CHART_LABELS[k] });
      o.value = k;
      return o;
    }),
  );
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
    body.scrollTop = back.scrollTop;
    renderRows();
  }
}

function onMessage(data: unknown): void {
  let message: ToStatsView;
  try {
    message = parseToStatsView(data);
  } catch {
    return;
  }
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

window.addEventListener('message', (e: MessageEvent) => onMessage(e.data));
partialBanner.hidden = true;
chartArea.hidden = true;
rerunButton.hidden = true;
post({ type: 'ready' });
