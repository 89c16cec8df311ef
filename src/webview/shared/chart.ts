// Chart.js as the pages use it (canvas only, no inline script or eval, so the strict CSP holds):
// the line charts and axes every chart page draws, registered once, and colours read from the VS Code
// theme's variables.
import {
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartComponentLike,
  type Plugin,
  type Scale,
} from 'chart.js';

/** A drawn tick label's box in canvas pixels (what the narrow-panel test checks for overlaps). */
export interface AxisLabelBox {
  axis: string;
  label: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function labelBoxes(scale: Scale): AxisLabelBox[] {
  const ctx = scale.ctx;
  const boxes: AxisLabelBox[] = [];
  for (const item of scale.getLabelItems()) {
    const [x, y] = item.options.translation ?? [0, 0];
    const lines = Array.isArray(item.label) ? item.label.map(String) : [String(item.label)];
    ctx.save();
    ctx.font = item.font.string;
    const width = Math.max(...lines.map((l) => ctx.measureText(l).width));
    ctx.restore();
    const height = Number(item.font.lineHeight) * lines.length;
    const align = item.options.textAlign;
    const left = align === 'center' ? x - width / 2 : align === 'right' || align === 'end' ? x - width : x;
    const baseline = item.options.textBaseline;
    const top = y + item.textOffset - (baseline === 'middle' ? height / 2 : baseline === 'bottom' ? height : 0);
    boxes.push({ axis: scale.id, label: lines.join(' '), left, right: left + width, top, bottom: top + height });
  }
  return boxes;
}

/**
 * Writes the boxes of the tick labels just drawn to the canvas's `data-axis-labels`, so a test (and
 * a reader of the DOM) can tell that no two labels overlap, whatever the width.
 */
const axisLabelReport: Plugin = {
  id: 'cloudbenchAxisLabels',
  afterDraw(chart) {
    const boxes = Object.values(chart.scales).flatMap((s) => (s.options.display === false ? [] : labelBoxes(s)));
    chart.canvas.dataset.axisLabels = JSON.stringify(boxes);
  },
};

/** Registers the line charts, axes, legend and tooltip, and what else a page draws (bars, scatter). */
export function registerCharts(...extra: ChartComponentLike[]): void {
  Chart.register(
    LineController,
    LineElement,
    PointElement,
    CategoryScale,
    LinearScale,
    Legend,
    Tooltip,
    axisLabelReport,
    ...extra,
  );
  // Labels are thinned to fit, never turned on their side (rotated labels ate the plot of a narrow
  // panel): Chart.js skips ticks until the rest fit with this much room between them.
  Object.assign(Chart.defaults.scale.ticks, { maxRotation: 0, autoSkip: true, autoSkipPadding: 12 });
}

/** A theme colour (a `--vscode-*` variable of the page's body), or the fallback outside VS Code. */
export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}
