// The metrics panel (browser side): headline metrics as text, PR and ROC curves with a threshold
// slider, confusion matrices with counts (compared side by side with their difference), quantile calibration for forecasts, a side-by-side
// comparison, and every metric as a table. Charts are Chart.js (canvas, no inline script or eval, so
// the strict CSP holds) coloured from the VS Code theme's variables; every value reaches the page as
// text. Messages from the extension are checked before use.
import '../shared/theme.css';
import './style.css';
import { Chart, ScatterController, type ChartConfiguration } from 'chart.js';
import {
  compareMetrics,
  confusionAt,
  curves,
  formatMetric,
  metricsView,
  pointAt,
  type ConfusionMatrix,
  type MetricsView,
} from '../../core/models/metrics';
import {
  parseMetricsToWebview,
  type CompareCandidate,
  type MetricsFromWebview,
  type MetricsSet,
} from '../../core/models/metrics-messages';
import { cssVar, registerCharts } from '../shared/chart';
import { el } from '../shared/dom';
import { differenceTable, matrixTable, type MatrixColors } from './matrix';
import { pageApi } from '../shared/page-api';

registerCharts(ScatterController);

const vscode = pageApi<MetricsFromWebview>();

interface State {
  title: string;
  subject: MetricsSet;
  candidates: CompareCandidate[];
  compare: MetricsSet | undefined;
  threshold: number;
}
let state: State | undefined;
/** An error or "deleted" notice, kept across redraws. */
let banner: HTMLElement | undefined;
const charts: Chart[] = [];

// ---- DOM helpers: text only, never HTML ---------------------------------------------------------

function section(title: string, id: string): HTMLElement {
  const s = el('section', { id, 'aria-labelledby': `${id}-title` });
  s.append(el('h2', { id: `${id}-title` }, title));
  return s;
}

// ---- theme --------------------------------------------------------------------------------------

interface Theme {
  foreground: string;
  muted: string;
  grid: string;
  series: [string, string];
  heat: string;
  background: string;
}

function theme(): Theme {
  return {
    foreground: cssVar('--vscode-foreground', '#cccccc'),
    muted: cssVar('--vscode-descriptionForeground', '#999999'),
    grid: cssVar('--vscode-editorWidget-border', cssVar('--vscode-panel-border', '#444444')),
    series: [cssVar('--vscode-charts-blue', '#3794ff'), cssVar('--vscode-charts-orange', '#d18616')],
    heat: cssVar('--vscode-charts-blue', '#3794ff'),
    background: cssVar('--vscode-editor-background', '#1e1e1e'),
  };
}

function applyThemeDefaults(t: Theme): void {
  Chart.defaults.color = t.foreground;
  Chart.defaults.borderColor = t.grid;
  Chart.defaults.font.family = cssVar('--vscode-font-family', 'sans-serif');
  Chart.defaults.animation = false;
}

// ---- charts -------------------------------------------------------------------------------------
function destroyCharts(): void {
  while (charts.length) charts.pop()!.destroy();
}

function chartCanvas(label: string, id: string): { wrap: HTMLElement; canvas: HTMLCanvasElement } {
  const canvas = el('canvas', { id, role: 'img', 'aria-label': label });
  // The canvas content is described by the text beside it; the fallback names it for readers.
  canvas.append(document.createTextNode(label));
  return { wrap: el('div', { class: 'chart' }, canvas), canvas };
}

function curveChart(
  canvas: HTMLCanvasElement,
  t: Theme,
  xTitle: string,
  yTitle: string,
  series: Array<{ label: string; points: Array<{ x: number; y: number; threshold: number }> }>,
  marker: Array<{ x: number; y: number } | undefined>,
): Chart {
  const config: ChartConfiguration<'line' | 'scatter'> = {
    type: 'line',
    data: {
      datasets: [
        ...series.map((s, i) => ({
          type: 'line' as const,
          label: s.label,
          data: s.points,
          borderColor: t.series[i % 2],
          backgroundColor: t.series[i % 2],
          pointRadius: 0,
          borderWidth: 2,
          tension: 0,
        })),
        ...marker.flatMap((m, i) =>
          m
            ? [
                {
                  type: 'scatter' as const,
                  label: `${series[i]?.label ?? ''} at threshold`,
                  data: [m],
                  borderColor: t.foreground,
                  backgroundColor: t.series[i % 2],
                  pointRadius: 5,
                  pointStyle: 'circle' as const,
                },
              ]
            : [],
        ),
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: true,
      aspectRatio: 1.2,
      parsing: false,
      plugins: {
        legend: { display: series.length > 1, labels: { filter: (item) => !item.text.endsWith('at threshold') } },
        tooltip: {
          callbacks: {
            label: (ctx) => {
              const raw = ctx.raw as { x: number; y: number; threshold?: number };
              const at = raw.threshold !== undefined ? ` (threshold ${formatMetric(raw.threshold)})` : '';
              return `${ctx.dataset.label ?? ''}: ${xTitle} ${formatMetric(raw.x)}, ${yTitle} ${formatMetric(raw.y)}${at}`;
            },
          },
        },
      },
      scales: {
        x: { type: 'linear', min: 0, max: 1, title: { display: true, text: xTitle } },
        y: { type: 'linear', min: 0, max: 1, title: { display: true, text: yTitle } },
      },
    },
  };
  return new Chart(canvas, config);
}

// ---- sections -----------------------------------------------------------------------------------
function headlineSection(subject: MetricsView, compare: MetricsView | undefined, s: State): HTMLElement {
  const sec = section('Headline metrics', 'headline');
  if (!subject.headline.length) {
    sec.append(el('p', { class: 'muted' }, `No headline metrics of the ${subject.schemaTitle} schema were found.`));
    return sec;
  }
  if (!compare) {
    const list = el('dl', { class: 'cards' });
    for (const h of subject.headline) {
      list.append(el('div', { class: 'card' }, el('dt', {}, h.label), el('dd', { 'data-metric': h.key }, h.text)));
    }
    sec.append(list);
    return sec;
  }
  const table = el('table', { class: 'compare' });
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'Metric'),
        el('th', { scope: 'col' }, s.subject.label),
        el('th', { scope: 'col' }, s.compare?.label ?? ''),
        el('th', { scope: 'col' }, `Difference (${s.compare?.label ?? ''} − ${s.subject.label})`),
      ),
    ),
  );
  const body = el('tbody');
  for (const row of compareMetrics(subject, compare)) {
    const winner =
      row.better === 'b'
        ? ` (${s.compare?.label ?? 'B'} better)`
        : row.better === 'a'
          ? ` (${s.subject.label} better)`
          : '';
    const delta = row.delta === undefined ? '—' : `${row.delta > 0 ? '+' : ''}${formatMetric(row.delta)}${winner}`;
    body.append(
      el(
        'tr',
        { 'data-metric': row.key },
        el('th', { scope: 'row' }, row.label),
        el('td', { class: row.better === 'a' ? 'better' : '' }, row.a === undefined ? '—' : formatMetric(row.a)),
        el('td', { class: row.better === 'b' ? 'better' : '' }, row.b === undefined ? '—' : formatMetric(row.b)),
        el('td', {}, delta),
      ),
    );
  }
  table.append(body);
  sec.append(table);
  return sec;
}

/** Row and column names of a threshold's 2×2 matrix: the two classes of a binary model or slice. */
function binaryLabels(view: MetricsView, set: MetricsSet): [string, string] {
  if (view.confusion?.labels.length === 2) return [view.confusion.labels[0], view.confusion.labels[1]];
  const positive = /annotationSpec = (.+)$/.exec(set.label)?.[1] ?? view.confusion?.labels[0] ?? 'positive';
  return [positive, `not ${positive}`];
}

function classificationSection(
  subject: MetricsView,
  compare: MetricsView | undefined,
  s: State,
  t: Theme,
): HTMLElement {
  const sec = section('Precision and recall', 'curves');
  const points = subject.thresholds;
  if (!points.length) {
    sec.append(el('p', { class: 'muted' }, 'The metrics hold no confidence thresholds, so no curves can be drawn.'));
    return sec;
  }
  const at = pointAt(points, s.threshold)!;
  const atCompare = compare ? pointAt(compare.thresholds, s.threshold) : undefined;

  const slider = el('input', {
    type: 'range',
    id: 'threshold',
    min: '0',
    max: String(points.length - 1),
    step: '1',
    value: String(points.indexOf(at)),
    'aria-describedby': 'threshold-values',
  });
  const readout = el('p', { id: 'threshold-values', 'aria-live': 'polite' });
  const describe = (p: typeof at, q: typeof atCompare): string => {
    const one = (x: typeof at | undefined): string =>
      x
        ? `precision ${x.precision === undefined ? '—' : formatMetric(x.precision)}, recall ${x.recall === undefined ? '—' : formatMetric(x.recall)}, F1 ${x.f1 === undefined ? '—' : formatMetric(x.f1)}`
        : '—';
    return q
      ? `Threshold ${formatMetric(p.threshold)}: ${s.subject.label}: ${one(p)}; ${s.compare?.label ?? ''}: ${one(q)}`
      : `Threshold ${formatMetric(p.threshold)}: ${one(p)}`;
  };
  readout.textContent = describe(at, atCompare);
  slider.addEventListener('input', () => {
    const p = points[Number(slider.value)];
    if (!p || !state) return;
    state.threshold = p.threshold;
    vscode.setState(state);
    vscode.postMessage({ type: 'threshold', value: p.threshold });
    render();
    document.getElementById('threshold')?.focus();
  });
  sec.append(el('label', { for: 'threshold', class: 'slider-label' }, 'Confidence threshold'), slider, readout);

  const a = curves(points);
  const b = compare ? curves(compare.thresholds) : undefined;
  const grid = el('div', { class: 'charts' });
  const pr = chartCanvas(
    `Precision-recall curve of ${s.subject.label}${compare ? ` and ${s.compare?.label ?? ''}` : ''}`,
    'pr-chart',
  );
  const roc = chartCanvas(
    `ROC curve of ${s.subject.label}${compare ? ` and ${s.compare?.label ?? ''}` : ''}`,
    'roc-chart',
  );
  grid.append(
    el('figure', {}, pr.wrap, el('figcaption', {}, 'Precision-recall curve')),
    el('figure', {}, roc.wrap, el('figcaption', {}, 'ROC curve (true positive rate against false positive rate)')),
  );
  sec.append(grid);
  queueMicrotask(() => {
    const series = [{ label: s.subject.label, points: a.pr }];
    if (b) series.push({ label: s.compare?.label ?? '', points: b.pr });
    const mark = (p: typeof at | undefined, x: 'pr' | 'roc') =>
      p && p.recall !== undefined
        ? x === 'pr'
          ? p.precision !== undefined
            ? { x: p.recall, y: p.precision }
            : undefined
          : p.falsePositiveRate !== undefined
            ? { x: p.falsePositiveRate, y: p.recall }
            : undefined
        : undefined;
    charts.push(curveChart(pr.canvas, t, 'recall', 'precision', series, [mark(at, 'pr'), mark(atCompare, 'pr')]));
    const rocSeries = [{ label: s.subject.label, points: a.roc }];
    if (b) rocSeries.push({ label: s.compare?.label ?? '', points: b.roc });
    charts.push(
      curveChart(roc.canvas, t, 'false positive rate', 'true positive rate', rocSeries, [
        mark(at, 'roc'),
        mark(atCompare, 'roc'),
      ]),
    );
  });
  return sec;
}

/** The matrix of one evaluation at the slider's threshold (binary), else its top-prediction matrix. */
function matrixOf(view: MetricsView, set: MetricsSet, threshold: number): { matrix?: ConfusionMatrix; at?: number } {
  const at = pointAt(view.thresholds, threshold);
  const atMatrix = confusionAt(at, binaryLabels(view, set));
  if (atMatrix) return { matrix: atMatrix, at: at!.threshold };
  return view.confusion ? { matrix: view.confusion } : {};
}

function confusionSection(
  subject: MetricsView,
  compare: MetricsView | undefined,
  s: State,
  t: Theme,
): HTMLElement | undefined {
  const colors: MatrixColors = { heat: t.heat, background: t.background, foreground: t.foreground };
  const a = matrixOf(subject, s.subject, s.threshold);
  if (!a.matrix) return undefined;
  const b = compare && s.compare ? matrixOf(compare, s.compare, s.threshold) : {};
  const sec = section('Confusion matrix', 'confusion');
  const caption =
    a.at !== undefined
      ? `At threshold ${formatMetric(a.at)}. Each cell gives the count and its share of the true class (the row).`
      : 'Top prediction of each item. Each cell gives the count and its share of the true class (the row).';
  sec.append(el('p', { class: 'muted' }, caption));
  if (!b.matrix) {
    sec.append(matrixTable(a.matrix, `Confusion matrix of ${s.subject.label}`, colors, 'matrix-subject'));
  } else {
    const side = el('div', { class: 'matrices' });
    side.append(
      matrixTable(a.matrix, `Confusion matrix of ${s.subject.label}`, colors, 'matrix-subject'),
      matrixTable(b.matrix, `Confusion matrix of ${s.compare?.label ?? ''}`, colors, 'matrix-compare'),
    );
    sec.append(side);
    const diff = differenceTable(
      a.matrix,
      b.matrix,
      `Difference (${s.compare?.label ?? ''} − ${s.subject.label}): counts, and the change of each row share in percentage points`,
      'matrix-difference',
    );
    sec.append(
      diff ??
        el(
          'p',
          { class: 'muted' },
          'The two evaluations have different classes, so no cell-by-cell difference is shown.',
        ),
    );
  }
  if (a.at !== undefined && subject.confusion && subject.confusion.labels.length > 2) {
    sec.append(matrixTable(subject.confusion, 'All classes (top prediction of each item)', colors, 'matrix-all'));
  }
  return sec;
}

function quantileSection(subject: MetricsView, s: State, t: Theme): HTMLElement | undefined {
  if (!subject.quantiles.length) return undefined;
  const sec = section('Quantile calibration', 'quantiles');
  const c = chartCanvas(`Observed against expected quantiles of ${s.subject.label}`, 'quantile-chart');
  sec.append(c.wrap);
  const table = el('table', {});
  table.append(
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { scope: 'col' }, 'Quantile'),
        el('th', { scope: 'col' }, 'Observed quantile'),
        el('th', { scope: 'col' }, 'Scaled pinball loss'),
      ),
    ),
  );
  const body = el('tbody');
  for (const q of subject.quantiles)
    body.append(
      el(
        'tr',
        {},
        el('td', {}, formatMetric(q.quantile)),
        el('td', {}, q.observedQuantile === undefined ? '—' : formatMetric(q.observedQuantile)),
        el('td', {}, q.scaledPinballLoss === undefined ? '—' : formatMetric(q.scaledPinballLoss)),
      ),
    );
  table.append(body);
  sec.append(table);
  queueMicrotask(() =>
    charts.push(
      curveChart(
        c.canvas,
        t,
        'expected quantile',
        'observed quantile',
        [
          {
            label: s.subject.label,
            points: subject.quantiles
              .filter((q) => q.observedQuantile !== undefined)
              .map((q) => ({ x: q.quantile, y: q.observedQuantile!, threshold: q.quantile })),
          },
        ],
        [],
      ),
    ),
  );
  return sec;
}

function tableSection(subject: MetricsView): HTMLElement {
  const details = el('details', { id: 'all-metrics' });
  details.append(el('summary', {}, `All metrics (${subject.table.length})`));
  const table = el('table', {});
  table.append(
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Metric'), el('th', { scope: 'col' }, 'Value'))),
  );
  const body = el('tbody');
  for (const row of subject.table) body.append(el('tr', {}, el('td', {}, row.path), el('td', {}, row.value)));
  table.append(body);
  details.append(table);
  return details;
}

// ---- page ---------------------------------------------------------------------------------------
function toolbar(s: State): HTMLElement {
  const bar = el('div', { class: 'toolbar', role: 'toolbar', 'aria-label': 'Metrics actions' });
  const select = el('select', { id: 'compare' });
  select.append(el('option', { value: '' }, 'Compare with…'));
  for (const c of s.candidates) {
    const option = el('option', { value: c.name }, c.label);
    if (s.compare?.name === c.name) option.selected = true;
    select.append(option);
  }
  select.addEventListener('change', () => vscode.postMessage({ type: 'compare', name: select.value }));
  const csv = el('button', { id: 'export-csv', type: 'button' }, 'Export CSV…');
  csv.addEventListener('click', () => vscode.postMessage({ type: 'exportCsv' }));
  bar.append(el('label', { for: 'compare', class: 'visually-hidden' }, 'Compare with'), select, csv);
  return bar;
}

function render(): void {
  destroyCharts();
  const root = document.getElementById('app')!;
  root.replaceChildren();
  if (!state) {
    root.append(el('p', { class: 'muted' }, 'Loading metrics…'));
    return;
  }
  const s = state;
  const t = theme();
  applyThemeDefaults(t);
  const subject = metricsView(s.subject.metrics, s.subject.schemaUri);
  const compare = s.compare ? metricsView(s.compare.metrics, s.compare.schemaUri) : undefined;
  root.append(
    el('h1', {}, s.title),
    el('p', { class: 'muted', id: 'subtitle' }, `${subject.schemaTitle} metrics · ${s.subject.name}`),
  );
  if (banner) root.append(banner);
  root.append(toolbar(s));
  if (s.compare) root.append(el('p', { class: 'comparing' }, `Comparing ${s.subject.label} with ${s.compare.label}.`));
  root.append(headlineSection(subject, compare, s));
  if (subject.thresholds.length) root.append(classificationSection(subject, compare, s, t));
  const confusion = confusionSection(subject, compare, s, t);
  if (confusion) root.append(confusion);
  const quantiles = quantileSection(subject, s, t);
  if (quantiles) root.append(quantiles);
  root.append(tableSection(subject));
}

function showBanner(kind: 'error' | 'stale', message: string): void {
  // A deletion notice stays; a later error does not hide it.
  if (banner?.classList.contains('stale') && kind === 'error') return;
  banner = el('div', { id: 'banner', role: 'alert', class: kind }, message);
  render();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseMetricsToWebview(event.data);
  if (!message) return;
  switch (message.type) {
    case 'init':
      state = {
        title: message.title,
        subject: message.subject,
        candidates: message.candidates,
        compare: message.compare,
        threshold: state?.threshold ?? 0.5,
      };
      vscode.setState(state);
      render();
      return;
    case 'comparison':
      if (!state) return;
      state.compare = message.compare;
      vscode.setState(state);
      render();
      return;
    case 'error':
      showBanner('error', message.message);
      return;
    case 'stale':
      showBanner('stale', message.message);
      return;
  }
});

// A theme change swaps the body's class; the charts are redrawn in the new colours.
new MutationObserver(() => {
  if (state) render();
}).observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-id'] });

const saved = vscode.getState() as State | undefined;
if (saved && typeof saved === 'object' && 'subject' in saved) state = saved;
render();
vscode.postMessage({ type: 'ready' });
