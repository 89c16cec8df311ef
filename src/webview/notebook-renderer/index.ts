// The notebook renderer for UDM cell results: the results table's sorting, quick filter and
// histogram (the same pure modules as the results panel), virtualized so 10,000 rows stay smooth,
// themed with VS Code's colours, and every value inserted as text.
import { cellText, defaultColumns, scalarText, timeField, type ColumnSpec } from '../../core/secops/results/fields';
import { PIVOT_LABELS, pivotsFor, type PivotAction } from '../../core/secops/results/pivots';
import {
  SearchIndex,
  filterIndices,
  sortIndices,
  compareCells,
  newestFirstOrder,
  timesOf,
  type SortDirection,
} from '../../core/secops/results/table';
import { displayText } from '../../core/secops/results/export';
import { cellText as statsText, columnLabel } from '../../core/secops/statistics/protocol';
import { resultsChart, statisticsChart } from '../../core/notebook/charts';
import type { StatsColumn } from '../../udm/stats/plan';
import { el } from '../shared/dom';
import { CHART_CSS, chartWithAxes } from './chart';
import { VirtualGrid, type GridColumn } from '../shared/grid';
import GRID_CSS from '../shared/grid.css';
import type {
  ActivationFunction,
  OutputItem,
  RendererContext as VsCodeRendererContext,
} from 'vscode-notebook-renderer';

/** What the renderer asks of VS Code: only postMessage (present when the extension listens). */
type RendererContext = Pick<VsCodeRendererContext<unknown>, 'postMessage'>;

interface KeptResults {
  kind: 'results';
  ranAt: string;
  durationMs: number;
  query: string;
  window: { start: string; end: string };
  totalEvents: number;
  moreDataAvailable: boolean;
  keptRows: number;
  events: unknown[];
}

interface KeptStatistics {
  kind: 'statistics';
  ranAt: string;
  durationMs: number;
  window: { start: string; end: string };
  eventsFetched: number;
  searches: number;
  partial?: string;
  timeZone: string;
  columns: StatsColumn[];
  rows: unknown[][];
  totalRows: number;
  keptRows: number;
  warnings: string[];
}

const ROW_HEIGHT = 22;
const VIEW_ROWS = 16;
const STYLE = `${GRID_CSS}${CHART_CSS}
.cb-out { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground);
  --vgrid-head-background: var(--vscode-notebook-outputContainerBackgroundColor, var(--vscode-editor-background)); }
.cb-note { margin: 2px 0 6px; color: var(--vscode-descriptionForeground); }
.cb-bar { display: flex; gap: 6px; align-items: center; margin-bottom: 4px; }
.cb-bar input { flex: 1; background: var(--vscode-input-background); color: var(--vscode-input-foreground);
  border: 1px solid var(--vscode-input-border, transparent); padding: 2px 4px; }
.cb-hist { display: flex; align-items: flex-end; height: 36px; gap: 1px; margin: 4px 0; }
.cb-hist div { flex: 1; background: var(--vscode-charts-blue, var(--vscode-focusBorder, #3b82f6)); min-height: 1px; }
.cb-head, .cb-row { gap: 0 8px; white-space: nowrap; }
.cb-head { font-weight: 600; border-bottom: 1px solid var(--vscode-editorWidget-border, #8884); }
.cb-head button { all: unset; cursor: pointer; overflow: hidden; text-overflow: ellipsis; }
.cb-head button:focus-visible, .cb-scroll:focus-visible { outline: 1px solid var(--vscode-focusBorder); }
.cb-scroll { position: relative; overflow-y: auto; max-height: ${ROW_HEIGHT * VIEW_ROWS}px; }
.cb-row { height: ${ROW_HEIGHT}px; line-height: ${ROW_HEIGHT}px; cursor: default; }
.cb-row:hover { background: var(--vscode-list-hoverBackground); }
.cb-row.sel { background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground); }
.cb-partial { margin: 2px 0 6px; padding: 2px 6px; border-left: 3px solid var(--vscode-editorWarning-foreground);
  background: var(--vscode-inputValidation-warningBackground, transparent); }
.cb-detail { margin-top: 6px; border-top: 1px solid var(--vscode-editorWidget-border, #8884); padding-top: 4px; }
.cb-detail pre { max-height: 240px; overflow: auto; margin: 4px 0; font-family: var(--vscode-editor-font-family); }
.cb-detail button, .cb-bar button { background: var(--vscode-button-secondaryBackground); color: var(--vscode-button-secondaryForeground);
  border: none; padding: 2px 8px; margin: 2px 4px 2px 0; cursor: pointer; }
`;

/** What the two tables of an output share: row size, class names (the renderer's styles), nothing else. */
const GRID_OPTIONS = {
  rowHeight: ROW_HEIGHT,
  overscan: 4,
  classes: { viewport: 'cb-scroll', head: 'cb-head', headCell: '', row: 'cb-row', cell: '', selected: 'sel' },
};

function gridColumn(key: string, label: string): GridColumn {
  return { key, label, title: `Sort by ${label}`, min: 80, grow: 1 };
}

function isStats(v: unknown): v is KeptStatistics {
  const r = v as Partial<KeptStatistics> | null;
  return (
    !!r &&
    r.kind === 'statistics' &&
    Array.isArray(r.columns) &&
    Array.isArray(r.rows) &&
    r.rows.every((row) => Array.isArray(row) && row.length === r.columns!.length) &&
    !!r.window
  );
}

/** A statistics table with a bar chart of its first numeric outcome, sortable, partial marked in it. */
function renderStats(data: KeptStatistics, root: HTMLElement): void {
  const box = el('div', { class: 'cb-out' });
  const kept = data.keptRows < data.totalRows ? `, the first ${fmt(data.keptRows)} kept in the notebook` : '';
  box.append(
    el(
      'div',
      { class: 'cb-note', 'data-testid': 'kept-note' },
      `${fmt(data.totalRows)} rows from ${fmt(data.eventsFetched)} events (${data.searches} search${data.searches === 1 ? '' : 'es'})${kept} · ${data.window.start} – ${data.window.end} · time zone ${data.timeZone}`,
    ),
  );
  if (data.partial) box.append(el('div', { class: 'cb-partial', role: 'status' }, `Partial table: ${data.partial}.`));
  for (const w of data.warnings) box.append(el('div', { class: 'cb-note' }, w));
  root.replaceChildren(box);
  if (data.rows.length === 0) return;
  const text = (row: unknown[], i: number): string => statsText(row[i], data.columns[i], data.timeZone);

  // The same bars as the chart image of the Markdown report.
  const chart = statisticsChart(data);
  if (chart) {
    const groups = data.columns.filter((c) => c.role !== 'outcome').map(columnLabel);
    const xTitle = groups.length ? groups.join(', ') : 'Group';
    box.append(chartWithAxes(chart, { tick: (i) => chart.bars[i].label, xTitle }, 'cb-hist cb-chart'));
    if (chart.omitted > 0) box.append(el('div', { class: 'cb-note' }, `${fmt(chart.omitted)} more groups not drawn.`));
  }

  let order = data.rows.map((_, i) => i);
  let sort: { col: number; desc: boolean } | undefined;
  const columns = data.columns.map((c, i) => gridColumn(String(i), columnLabel(c)));
  const grid = new VirtualGrid({
    ...GRID_OPTIONS,
    label: 'Statistics',
    classes: { ...GRID_OPTIONS.classes, row: 'cb-row cb-static-row' },
    text: (pos, i) => displayText(text(data.rows[order[pos]], i), 300),
    title: (pos, i) => displayText(text(data.rows[order[pos]], i), 1000),
    onSort: (col) => {
      // An outcome (a count, a sum) sorts largest first.
      const desc = sort?.col === col ? !sort.desc : data.columns[col].role === 'outcome';
      sort = { col, desc };
      order = data.rows
        .map((_, k) => k)
        .sort((a, z) => {
          const cmp = compareCells(text(data.rows[a], col), text(data.rows[z], col));
          return (desc ? -cmp : cmp) || a - z;
        });
      grid.setColumns(columns, { column: col, direction: desc ? 'desc' : 'asc' });
      // Drawn at once, as a click's answer (not on the next frame).
      grid.render();
    },
  });
  box.append(grid.viewport);
  grid.setColumns(columns);
  grid.setLength(order.length);
  grid.render();
}

function isKept(v: unknown): v is KeptResults {
  const r = v as Partial<KeptResults> | null;
  return !!r && r.kind === 'results' && Array.isArray(r.events) && !!r.window && typeof r.window.start === 'string';
}

const fmt = (n: number): string => n.toLocaleString('en-US');

function eventIdOf(row: unknown): string {
  return scalarText((row as { udm?: { metadata?: { id?: unknown } } } | null)?.udm?.metadata?.id);
}

function render(ctx: RendererContext, data: KeptResults, root: HTMLElement): void {
  const rows = data.events;
  const columns: ColumnSpec[] = defaultColumns('udm');
  const box = el('div', { class: 'cb-out' });
  const note =
    data.totalEvents === 0
      ? 'No events matched.'
      : `${fmt(data.totalEvents)} event${data.totalEvents === 1 ? '' : 's'}${data.moreDataAvailable ? ' (cut at the limit)' : ''}` +
        (data.keptRows < data.totalEvents ? `, the newest ${fmt(data.keptRows)} kept in the notebook` : '') +
        ` · ${data.window.start} – ${data.window.end} · ran ${data.ranAt} in ${fmt(data.durationMs)} ms`;
  box.append(el('div', { class: 'cb-note', 'data-testid': 'kept-note' }, note));
  root.replaceChildren(box);
  if (rows.length === 0) return;

  // Histogram over the window (the same bars as the chart image of the Markdown report).
  const timeline = resultsChart(data);
  const span = Date.parse(data.window.end) - Date.parse(data.window.start);
  const hist = timeline
    ? chartWithAxes(timeline, { tick: (i) => timeTick(timeline.bars[i].label, span), xTitle: 'Time (UTC)' }, 'cb-hist')
    : el('div');

  const bar = el('div', { class: 'cb-bar' });
  const filter = el('input', {
    type: 'text',
    placeholder: 'Filter rows (words, field:value, -exclude)',
    'aria-label': 'Filter rows',
  });
  const count = el('span', { class: 'cb-note' });
  bar.append(filter, count);

  const detail = el('div', { class: 'cb-detail' });
  detail.hidden = true;

  const index = new SearchIndex(rows);
  const times = timesOf(rows, timeField('udm') ?? 'udm.metadata.eventTimestamp');
  let visible: Uint32Array = Uint32Array.from(rows.keys());
  let sort: { col: number; dir: SortDirection } | undefined;
  let selected = -1;

  const showDetail = (rowIndex: number): void => {
    selected = rowIndex;
    const [actions, json] = detailOf(ctx, data, rows[rowIndex], columns);
    actions.append(closeButton());
    detail.replaceChildren(actions, json);
    detail.hidden = false;
  };
  const closeButton = (): HTMLElement => {
    const close = el('button', { type: 'button' }, 'Close');
    close.addEventListener('click', () => {
      detail.hidden = true;
      selected = -1;
      grid.select(-1);
    });
    return close;
  };
  const text = (pos: number, c: number): string => cellText(rows[visible[pos]], columns[c]);
  const grid = new VirtualGrid({
    ...GRID_OPTIONS,
    label: 'Events',
    text: (pos, c) => displayText(text(pos, c), 300),
    title: (pos, c) => displayText(text(pos, c), 1000),
    decorate: (row, pos) => (row.dataset.row = String(visible[pos])),
    onSelect: (pos) => showDetail(visible[pos]),
    onActivate: (pos) => showDetail(visible[pos]),
    onSort: (i) => {
      sort = sort?.col === i ? { col: i, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { col: i, dir: 'asc' };
      grid.setColumns(gridColumns, { column: i, direction: sort.dir });
      recompute();
    },
  });
  const gridColumns = columns.map((c) => gridColumn(c.id, c.label));
  grid.setColumns(gridColumns);
  box.append(hist, bar, grid.viewport, detail);

  const recompute = (): void => {
    let idx: Uint32Array = filter.value.trim()
      ? filterIndices(rows, filter.value, index)
      : Uint32Array.from(rows.keys());
    // Newest first, as the results panel opens, unless the user sorts.
    idx = sort ? sortIndices(rows, idx, columns[sort.col], sort.dir) : newestFirstOrder(times, idx);
    visible = idx;
    grid.viewport.scrollTop = 0;
    grid.setLength(visible.length);
    grid.select(visible.indexOf(selected), false);
    grid.invalidate();
    grid.render();
    count.textContent =
      visible.length === rows.length
        ? `${fmt(rows.length)} rows`
        : `${fmt(visible.length)} of ${fmt(rows.length)} rows`;
  };

  let pending = 0;
  filter.addEventListener('input', () => {
    window.clearTimeout(pending);
    pending = window.setTimeout(recompute, 120);
  });
  recompute();
}

/** A time axis label: the time of day for short spans, the date (and hour) for long ones, in UTC. */
function timeTick(iso: string, span: number): string {
  if (!(span > 36 * 3_600_000)) return iso.slice(11, 16);
  if (span <= 10 * 86_400_000) return `${iso.slice(5, 10)} ${iso.slice(11, 13)}h`;
  return iso.slice(0, 10);
}

/** The row actions of an event (its full event, its raw log, pivots on its values) and its JSON. */
function detailOf(ctx: RendererContext, data: KeptResults, row: unknown, columns: ColumnSpec[]): HTMLElement[] {
  const post = (action: PivotAction, value: string): void =>
    ctx.postMessage?.({ type: 'pivot', action, value, start: data.window.start, end: data.window.end });
  const actions = el('div');
  const id = eventIdOf(row);
  if (id && ctx.postMessage) {
    for (const action of ['fullEvent', 'rawLog'] as const) {
      const b = el('button', { type: 'button' }, PIVOT_LABELS[action]);
      b.addEventListener('click', () => post(action, id));
      actions.append(b);
    }
  }
  if (ctx.postMessage) {
    for (const c of columns) {
      const value = cellText(row, c);
      if (!value || value.includes(', ')) continue;
      const path = c.id.startsWith('udm.') ? c.id.slice(4) : c.id;
      for (const action of pivotsFor(path, value)) {
        if (action === 'rawLog' || action === 'fullEvent') continue;
        const b = el(
          'button',
          { type: 'button', title: `${PIVOT_LABELS[action]}: ${value}` },
          `${PIVOT_LABELS[action]}: ${displayText(value, 40)}`,
        );
        b.addEventListener('click', () => post(action, value));
        actions.append(b);
      }
    }
  }
  let json: string;
  try {
    json = JSON.stringify(row, null, 2);
  } catch {
    json = String(row);
  }
  return [actions, el('pre', {}, displayText(json, 200_000))];
}

/** The renderer's styles, adopted once: a constructed sheet needs no inline style in the page's CSP. */
let sheet: CSSStyleSheet | undefined;

export const activate: ActivationFunction = (ctx) => {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  return {
    renderOutputItem(item: OutputItem, element: HTMLElement): void {
      let data: unknown;
      try {
        data = item.json();
      } catch {
        data = undefined;
      }
      if (isStats(data)) {
        renderStats(data, element);
        return;
      }
      if (!isKept(data)) {
        element.replaceChildren(
          el('div', { class: 'cb-note' }, 'This output is not a UDM result this version can show.'),
        );
        return;
      }
      render(ctx, data, element);
    },
  };
};
