// A notebook output's bar chart with axes, as the panels draw theirs: the value scale (the largest
// bar and 0) on the left, labelled ticks under the bars thinned to those that fit the width (again
// on every resize), and a caption that names both axes. Every label is inserted as text.
import type { BarChart } from '../../core/notebook/charts';
import { displayText } from '../../core/secops/results/export';
import { el } from '../shared/dom';

/** The chart's styles, part of the renderer's one sheet. */
export const CHART_CSS = `
.cb-chart-box { display: grid; grid-template-columns: auto minmax(0, 1fr); column-gap: 6px; margin: 4px 0 8px; }
.cb-chart-box .cb-hist { height: 72px; margin: 0; border-bottom: 1px solid var(--vscode-descriptionForeground, #8888); }
.cb-scale { display: flex; flex-direction: column; justify-content: space-between; height: 72px; text-align: right;
  font-size: 0.85em; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
.cb-axis { position: relative; height: 1.5em; font-size: 0.85em; color: var(--vscode-descriptionForeground); }
.cb-axis .tick { position: absolute; top: 2px; white-space: nowrap; }
.cb-axis-title { grid-column: 2; font-size: 0.85em; color: var(--vscode-descriptionForeground); }
`;

/** Room kept between two tick labels. */
const TICK_GAP_PX = 10;

export interface ChartAxes {
  /** The tick label of bar `i` (a time of day, a date, a group's name). */
  tick: (i: number) => string;
  /** What the x axis is, e.g. "Time (UTC)". */
  xTitle: string;
}

/** A tick label of at most 16 characters (the bar's tooltip has it whole). */
function shortLabel(label: string): string {
  const text = displayText(label, 1000);
  return text.length > 16 ? `${text.slice(0, 15)}…` : text;
}

const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** The chart with its axes; `barsClass` is the bars' own class (the tests and styles find them by it). */
export function chartWithAxes(chart: BarChart, axes: ChartAxes, barsClass: string): HTMLElement {
  const peak = Math.max(0, ...chart.bars.map((b) => (Number.isFinite(b.value) ? b.value : 0)));
  const bars = el('div', { class: barsClass, role: 'img', 'aria-label': `${chart.title}, the largest ${fmt(peak)}` });
  for (const b of chart.bars) {
    const bar = el('div', { title: `${displayText(b.label, 200)}: ${fmt(b.value)}` });
    bar.style.height = `${peak > 0 ? Math.round((Math.max(0, b.value) / peak) * 100) : 0}%`;
    bars.append(bar);
  }
  const scale = el(
    'div',
    { class: 'cb-scale', 'aria-hidden': 'true' },
    el('span', { class: 'cb-max' }, fmt(peak)),
    el('span', {}, '0'),
  );
  const axis = el('div', { class: 'cb-axis', 'aria-hidden': 'true' });
  const n = chart.bars.length;
  for (let i = 0; i < n; i++) {
    const tick = el('span', { class: 'tick' }, shortLabel(axes.tick(i)));
    // At the bar's middle, shifted so the first label starts at the left edge and the last ends at the right.
    const at = n === 1 ? 0.5 : (i + 0.5) / n;
    tick.style.left = `${at * 100}%`;
    tick.style.transform = `translateX(-${at * 100}%)`;
    axis.append(tick);
  }
  const plot = el('div', {}, bars, axis);
  const title = el('div', { class: 'cb-axis-title' }, `${axes.xTitle} · bar height: ${chart.valueLabel}`);
  const box = el('div', { class: 'cb-chart-box' }, scale, plot, el('div'), title);
  new ResizeObserver(() => thinTicks(axis)).observe(axis);
  return box;
}

/**
 * Shows every tick, every second, third … or only the first: the densest that leaves TICK_GAP_PX
 * between labels and keeps each inside the axis.
 */
export function thinTicks(axis: HTMLElement): void {
  const ticks = Array.from(axis.children) as HTMLElement[];
  if (ticks.length === 0 || axis.clientWidth === 0) return;
  const edge = axis.getBoundingClientRect();
  for (let step = 1; step <= ticks.length; step++) {
    ticks.forEach((tick, k) => (tick.hidden = k % step !== 0));
    if (fits(ticks, edge)) return;
  }
  ticks.forEach((tick, k) => (tick.hidden = k !== 0));
}

function fits(ticks: HTMLElement[], edge: DOMRect): boolean {
  let previousRight = Number.NEGATIVE_INFINITY;
  for (const tick of ticks) {
    if (tick.hidden) continue;
    const box = tick.getBoundingClientRect();
    if (box.left < previousRight + TICK_GAP_PX || box.left < edge.left - 1 || box.right > edge.right + 1) return false;
    previousRight = box.right;
  }
  return true;
}
