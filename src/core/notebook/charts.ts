// The charts a notebook output shows, as data: the histogram of a result's events over its window
// and the bars of a statistics table. The notebook renderer draws these bars, and the Markdown
// report writes the same bars as SVG images, so both show the same chart. No vscode and no DOM here.
import { histogram, timesOf } from '../secops/results/table';
import { displayText } from '../secops/results/export';
import type { StatsColumn } from '../../udm/stats/plan';
import { chartChoices, chartData } from '../secops/statistics/protocol';

export interface ChartBar {
  /** What the bar stands for: a time bucket's start or a group's label. */
  readonly label: string;
  readonly value: number;
}

export interface BarChart {
  /** What the chart shows, e.g. "Events over time". */
  readonly title: string;
  readonly valueLabel: string;
  readonly bars: readonly ChartBar[];
  /** Groups left out to keep the chart readable. */
  readonly omitted: number;
}

/** Bins of the results histogram (the renderer's timeline and the report's image). */
export const HISTOGRAM_BINS = 60;

/** The timeline of a result's kept events over its window; undefined when there is nothing to draw. */
export function resultsChart(out: {
  readonly events: readonly unknown[];
  readonly window: { readonly start: string; readonly end: string };
}): BarChart | undefined {
  if (out.events.length === 0) return undefined;
  const bins = histogram(
    timesOf(out.events, 'udm.metadata.eventTimestamp'),
    Date.parse(out.window.start),
    Date.parse(out.window.end),
    HISTOGRAM_BINS,
  );
  if (bins.length === 0) return undefined;
  return {
    title: 'Events over time',
    valueLabel: 'events',
    bars: bins.map((b) => ({ label: new Date(b.start).toISOString(), value: b.count })),
    omitted: 0,
  };
}

/**
 * The bars of a statistics table: the chart its shape suggests first (as the statistics view
 * picks it), each category's total over the series; undefined for a table with no chart.
 */
export function statisticsChart(out: {
  readonly columns: readonly StatsColumn[];
  readonly rows: readonly (readonly unknown[])[];
  readonly timeZone: string;
}): BarChart | undefined {
  if (out.rows.length === 0) return undefined;
  const kind = chartChoices(out.columns)[0];
  const chart = kind ? chartData(kind, out.columns, out.rows as unknown[][], out.timeZone) : undefined;
  if (!chart || chart.labels.length === 0) return undefined;
  return {
    title: `${chart.valueLabel} by group`,
    valueLabel: chart.valueLabel,
    bars: chart.labels.map((label, i) => ({
      label,
      value: chart.datasets.reduce((sum, d) => sum + (d.data[i] ?? 0), 0),
    })),
    omitted: chart.omitted,
  };
}

// ---- SVG ------------------------------------------------------------------------------------------

/** Characters XML 1.0 does not allow at all (a raw value can hold any of them). */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for an SVG text node or attribute: markup characters escaped, characters XML forbids replaced by U+FFFD. */
export function xmlText(value: string): string {
  return value
    .replace(NOT_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const WIDTH = 720;
const HEIGHT = 240;
const PLOT = { left: 56, right: 12, top: 32, bottom: 44 };
const BAR_COLOUR = '#3b82f6';
const TEXT_COLOUR = '#6b7280';
const fmt = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/**
 * A standalone SVG bar chart: a title, the largest value on the y axis, the first and last labels
 * on the x axis, and each bar's label and value as its tooltip. Every piece of text is escaped
 * (values come from events and may hold anything) and the image has no scripts, links or styles.
 */
export function chartSvg(chart: BarChart): string {
  const innerW = WIDTH - PLOT.left - PLOT.right;
  const innerH = HEIGHT - PLOT.top - PLOT.bottom;
  const peak = Math.max(0, ...chart.bars.map((b) => (Number.isFinite(b.value) ? b.value : 0)));
  const scale = peak > 0 ? innerH / peak : 0;
  const step = chart.bars.length > 0 ? innerW / chart.bars.length : innerW;
  const gap = step > 4 ? 1 : 0;
  const label = (s: string): string => xmlText(displayText(s, 40));
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${xmlText(displayText(chart.title, 200))}">`,
    `<title>${xmlText(displayText(chart.title, 200))}</title>`,
    `<g font-family="sans-serif" font-size="12" fill="${TEXT_COLOUR}">`,
    `<text x="${PLOT.left}" y="18" font-size="14">${xmlText(displayText(chart.title, 80))}</text>`,
    `<text x="${PLOT.left - 6}" y="${PLOT.top + 4}" text-anchor="end">${xmlText(fmt(peak))}</text>`,
    `<text x="${PLOT.left - 6}" y="${PLOT.top + innerH}" text-anchor="end">0</text>`,
  ];
  if (chart.bars.length > 0) {
    const baseline = PLOT.top + innerH + 16;
    out.push(`<text x="${PLOT.left}" y="${baseline}">${label(chart.bars[0].label)}</text>`);
    if (chart.bars.length > 1)
      out.push(
        `<text x="${PLOT.left + innerW}" y="${baseline}" text-anchor="end">${label(chart.bars[chart.bars.length - 1].label)}</text>`,
      );
  }
  if (chart.omitted > 0)
    out.push(
      `<text x="${PLOT.left}" y="${HEIGHT - 6}">${xmlText(`${fmt(chart.omitted)} more groups not drawn`)}</text>`,
    );
  out.push(
    `<line x1="${PLOT.left}" y1="${PLOT.top + innerH}" x2="${PLOT.left + innerW}" y2="${PLOT.top + innerH}" stroke="${TEXT_COLOUR}" stroke-width="1"/>`,
    '</g>',
    `<g fill="${BAR_COLOUR}">`,
  );
  chart.bars.forEach((b, i) => {
    const value = Number.isFinite(b.value) ? Math.max(0, b.value) : 0;
    const h = Math.round(value * scale * 100) / 100;
    const x = Math.round((PLOT.left + i * step) * 100) / 100;
    const w = Math.max(0.5, Math.round((step - gap) * 100) / 100);
    const y = Math.round((PLOT.top + innerH - h) * 100) / 100;
    out.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}"><title>${xmlText(`${displayText(b.label, 200)}: ${fmt(b.value)} ${chart.valueLabel}`)}</title></rect>`,
    );
  });
  out.push('</g>', '</svg>');
  return out.join('\n') + '\n';
}
