// The Markdown report of a notebook with its chart images: the SVG of each output's chart (the bars
// the renderer draws) goes into a folder beside the report, and the report links to it. No vscode.
import { notebookToMarkdown, type NotebookFile } from '../../core/notebook/format';
import { chartSvg, resultsChart, statisticsChart } from '../../core/notebook/charts';

export interface NotebookReport {
  readonly markdown: string;
  /** SVG files to write into the chart folder, by file name. */
  readonly charts: ReadonlyArray<{ readonly file: string; readonly svg: string }>;
}

/** The folder beside `<name>.md` that holds its chart images. */
export function chartFolderName(reportBaseName: string): string {
  return `${reportBaseName}-charts`;
}

/** The report, with an image link per chart into `chartFolder` (a folder name beside the report). */
export function notebookReport(notebook: NotebookFile, title: string, chartFolder: string): NotebookReport {
  const charts: Array<{ file: string; svg: string }> = [];
  const markdown = notebookToMarkdown(notebook, title, {
    imageFor: (step, output) => {
      const chart = output.kind === 'results' ? resultsChart(output) : statisticsChart(output);
      if (!chart) return undefined;
      const file = `query-${step}.svg`;
      charts.push({ file, svg: chartSvg(chart) });
      return {
        alt: `Query ${step}: ${chart.title}`,
        src: `${encodeURIComponent(chartFolder)}/${file}`,
      };
    },
  });
  return { markdown, charts };
}
