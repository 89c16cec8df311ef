// Between the `.udmnb` file and VS Code's notebook data: cells, their time range and limit (cell
// metadata), the notebook's time range (notebook metadata) and the kept outputs.
import * as vscode from 'vscode';
import { isTimeRangeSpec, type TimeRangeSpec } from '../../core/secops/timerange';
import { UDM_NOTEBOOK_TYPE } from '../../server/protocol';
import {
  MAX_CELL_LIMIT,
  keptNote,
  statisticsNote,
  sourceLines,
  sourceText,
  type KeptOutput,
  type KeptResults,
  type KeptStatistics,
  type NotebookCellFile,
  type NotebookFile,
  NOTEBOOK_FORMAT,
  NOTEBOOK_VERSION,
} from '../../core/notebook/format';

/** The notebook type (package.json `notebooks`), shared with the language server's notebook sync. */
export const NOTEBOOK_TYPE = UDM_NOTEBOOK_TYPE;
export const RESULTS_MIME = 'application/vnd.cloudbench.udm-results+json';
export const ERROR_MIME = 'application/vnd.code.notebook.error';
export const UDM_LANGUAGE = 'udm';

export interface CellSettings {
  timeRange?: TimeRangeSpec;
  limit?: number;
}

/** A cell's own time range and limit, read defensively (metadata can come from anywhere). */
export function cellSettings(metadata: { readonly [key: string]: unknown } | undefined): CellSettings {
  const out: CellSettings = {};
  if (isTimeRangeSpec(metadata?.timeRange)) out.timeRange = metadata.timeRange;
  const limit = metadata?.limit;
  if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= MAX_CELL_LIMIT) out.limit = limit;
  return out;
}

export function notebookTimeRange(
  metadata: { readonly [key: string]: unknown } | undefined,
): TimeRangeSpec | undefined {
  return isTimeRangeSpec(metadata?.timeRange) ? metadata.timeRange : undefined;
}

/** The outputs that show a kept result: the renderer's data and a plain-text line for other views. */
export function outputFor(kept: KeptOutput): vscode.NotebookCellOutput {
  if (kept.kind === 'error') {
    return new vscode.NotebookCellOutput([
      vscode.NotebookCellOutputItem.error({ name: 'UDM search failed', message: kept.message }),
    ]);
  }
  return new vscode.NotebookCellOutput(
    [
      vscode.NotebookCellOutputItem.json(kept, RESULTS_MIME),
      vscode.NotebookCellOutputItem.text(kept.kind === 'results' ? keptNote(kept) : statisticsNote(kept)),
    ],
    { ranAt: kept.ranAt },
  );
}

const decoder = new TextDecoder();

/** The kept result an output holds, if it is one of ours. */
export function keptFromOutput(output: vscode.NotebookCellOutput): KeptOutput | undefined {
  for (const item of output.items) {
    if (item.mime === RESULTS_MIME) {
      try {
        const value = JSON.parse(decoder.decode(item.data)) as KeptResults | KeptStatistics;
        if (value?.kind === 'results' && Array.isArray(value.events)) return value;
        if (value?.kind === 'statistics' && Array.isArray(value.rows) && Array.isArray(value.columns)) return value;
      } catch {
        return undefined;
      }
    }
    if (item.mime === ERROR_MIME) {
      try {
        const err = JSON.parse(decoder.decode(item.data)) as { message?: unknown };
        return {
          kind: 'error',
          ranAt: typeof output.metadata?.ranAt === 'string' ? output.metadata.ranAt : '',
          message: typeof err.message === 'string' ? err.message : 'The search failed.',
        };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function toNotebookData(file: NotebookFile): vscode.NotebookData {
  const cells = file.cells.map((c) => {
    if (c.kind === 'markdown')
      return new vscode.NotebookCellData(vscode.NotebookCellKind.Markup, sourceText(c.source), 'markdown');
    const cell = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, sourceText(c.source), UDM_LANGUAGE);
    const metadata: Record<string, unknown> = {};
    if (c.timeRange) metadata.timeRange = c.timeRange;
    if (c.limit !== undefined) metadata.limit = c.limit;
    cell.metadata = metadata;
    if (c.output) {
      cell.outputs = [outputFor(c.output)];
      const ran = Date.parse(c.output.ranAt);
      cell.executionSummary = {
        ...(c.executionOrder !== undefined ? { executionOrder: c.executionOrder } : {}),
        success: c.output.kind !== 'error',
        ...(Number.isFinite(ran) && c.output.kind !== 'error'
          ? { timing: { startTime: ran, endTime: ran + c.output.durationMs } }
          : {}),
      };
    }
    return cell;
  });
  const data = new vscode.NotebookData(cells);
  data.metadata = file.timeRange ? { timeRange: file.timeRange } : {};
  return data;
}

export function fromNotebookData(data: vscode.NotebookData): NotebookFile {
  const timeRange = notebookTimeRange(data.metadata);
  const cells = data.cells.map((cell): NotebookCellFile => {
    if (cell.kind === vscode.NotebookCellKind.Markup) return { kind: 'markdown', source: sourceLines(cell.value) };
    const settings = cellSettings(cell.metadata);
    let output: KeptOutput | undefined;
    for (const o of cell.outputs ?? []) {
      output = keptFromOutput(o);
      if (output) break;
    }
    const order = cell.executionSummary?.executionOrder;
    return {
      kind: 'udm',
      source: sourceLines(cell.value),
      ...settings,
      ...(output && order !== undefined ? { executionOrder: order } : {}),
      ...(output ? { output } : {}),
    };
  });
  return { format: NOTEBOOK_FORMAT, version: NOTEBOOK_VERSION, ...(timeRange ? { timeRange } : {}), cells };
}

/** From a live notebook document (for export), using the same rules as saving. */
export function fromNotebookDocument(doc: vscode.NotebookDocument): NotebookFile {
  const data = new vscode.NotebookData(
    doc.getCells().map((c) => {
      const d = new vscode.NotebookCellData(c.kind, c.document.getText(), c.document.languageId);
      d.metadata = c.metadata;
      d.outputs = [...c.outputs];
      if (c.executionSummary) d.executionSummary = c.executionSummary;
      return d;
    }),
  );
  data.metadata = doc.metadata;
  return fromNotebookData(data);
}
