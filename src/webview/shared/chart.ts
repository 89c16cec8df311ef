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
} from 'chart.js';

/** Registers the line charts, axes, legend and tooltip, and what else a page draws (bars, scatter). */
export function registerCharts(...extra: ChartComponentLike[]): void {
  Chart.register(LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip, ...extra);
}

/** A theme colour (a `--vscode-*` variable of the page's body), or the fallback outside VS Code. */
export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}
