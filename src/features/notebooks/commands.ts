// The UDM notebook commands: a new notebook, time ranges and limits of a notebook and its cells,
// and the Markdown export.
import { writeFileAtomic } from '../../platform/files';
import { safeText } from '../../core/display';
import * as vscode from 'vscode';
import { MAX_CELL_LIMIT } from '../../core/notebook/format';
import { describeTimeRange } from '../../core/secops/timerange';
import type { CommandTable } from '../../platform/command-table';
import type { Services } from '../services';
import { pickTimeRange } from '../shared/time-range';
import { NOTEBOOK_TYPE, UDM_LANGUAGE, cellSettings, fromNotebookDocument, notebookTimeRange } from './convert';
import { chooseChartFolder } from './export-files';
import { effectiveTimeRange } from './kernel';
import { chartFolderName, notebookReport } from './report';

export interface NotebooksContext {
  readonly services: Services;
}

/** Opens a new notebook with a Markdown cell and a UDM cell to start a hunt. */
export async function newNotebook(): Promise<void> {
  const data = new vscode.NotebookData([
    new vscode.NotebookCellData(
      vscode.NotebookCellKind.Markup,
      '# Hunt\n\nWhat are we looking for, and why?',
      'markdown',
    ),
    new vscode.NotebookCellData(
      vscode.NotebookCellKind.Code,
      'metadata.event_type = "USER_LOGIN" AND security_result.action = "BLOCK"',
      UDM_LANGUAGE,
    ),
  ]);
  const doc = await vscode.workspace.openNotebookDocument(NOTEBOOK_TYPE, data);
  await vscode.window.showNotebookDocument(doc);
}

/** The time range of the notebook's cells that have none of their own. */
export async function setNotebookTimeRange(ctx: NotebooksContext, uri?: unknown): Promise<void> {
  const nb = activeNotebook(uri);
  const current = notebookTimeRange(nb.metadata) ?? ctx.services.search.require().timeRange();
  const picked = await pickTimeRange(current);
  if (!picked) return;
  const edit = new vscode.WorkspaceEdit();
  edit.set(nb.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...nb.metadata, timeRange: picked })]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The notebook could not be changed.');
}

/** Gives a cell its own time range, or gives it back the notebook's. */
export async function setCellTimeRange(ctx: NotebooksContext, uri?: unknown, index?: unknown): Promise<void> {
  const cell = cellFrom(uri, index);
  if (!cell || cell.kind !== vscode.NotebookCellKind.Code) throw new Error('Select a UDM cell first.');
  const own = cellSettings(cell.metadata).timeRange;
  if (own) {
    const choice = await vscode.window.showQuickPick(
      [
        { label: 'Change this cell’s time range…', id: 'change' },
        { label: 'Use the notebook’s time range', id: 'clear' },
      ],
      { title: 'Cell Time Range', placeHolder: safeText(describeTimeRange(own)) },
    );
    if (!choice) return;
    if (choice.id === 'clear') {
      await updateCell(cell, { timeRange: undefined });
      return;
    }
  }
  const picked = await pickTimeRange(effectiveTimeRange(ctx.services, cell).spec);
  if (picked) await updateCell(cell, { timeRange: picked });
}

/** Gives a cell its own event limit (empty: the default). */
export async function setCellLimit(_ctx: NotebooksContext, uri?: unknown, index?: unknown): Promise<void> {
  const cell = cellFrom(uri, index);
  if (!cell || cell.kind !== vscode.NotebookCellKind.Code) throw new Error('Select a UDM cell first.');
  const current = cellSettings(cell.metadata).limit;
  const value = await vscode.window.showInputBox({
    title: 'Cell Event Limit',
    prompt: `Most events this cell asks for (1–${MAX_CELL_LIMIT.toLocaleString('en-US')}); empty uses the default`,
    value: current !== undefined ? String(current) : '',
    validateInput: (v) => {
      const t = v.trim().replace(/[,_]/g, '');
      if (t === '') return undefined;
      const n = Number(t);
      return Number.isInteger(n) && n >= 1 && n <= MAX_CELL_LIMIT
        ? undefined
        : `Enter a whole number from 1 to ${MAX_CELL_LIMIT.toLocaleString('en-US')}.`;
    },
  });
  if (value === undefined) return;
  const t = value.trim().replace(/[,_]/g, '');
  await updateCell(cell, { limit: t === '' ? undefined : Number(t) });
}

/** Writes the notebook as a Markdown report, its charts as SVG files beside it. */
export async function exportMarkdown(_ctx: NotebooksContext, uri?: unknown): Promise<void> {
  const nb = activeNotebook(uri);
  const base =
    nb.uri.path
      .split('/')
      .pop()
      ?.replace(/\.udmnb$/i, '') || 'hunt';
  const target = await vscode.window.showSaveDialog({
    title: 'Export Notebook as Markdown',
    filters: { Markdown: ['md'] },
    defaultUri: nb.isUntitled ? undefined : vscode.Uri.joinPath(nb.uri, '..', `${base}.md`),
  });
  if (!target) return;
  const reportName = target.path.split('/').pop()?.replace(/\.md$/i, '') || base;
  const file = fromNotebookDocument(nb);
  const planned = notebookReport(file, base, chartFolderName(reportName));
  // Chart files of an earlier export are replaced only when the user says so.
  const folder = await chooseChartFolder(
    target,
    reportName,
    planned.charts.map((c) => c.file),
  );
  if (folder === undefined) return;
  const report = folder === chartFolderName(reportName) ? planned : notebookReport(file, base, folder);
  const encoder = new TextEncoder();
  // The images first: a report never links to a chart that is not there.
  const folderUri = vscode.Uri.joinPath(target, '..', folder);
  if (report.charts.length > 0) await vscode.workspace.fs.createDirectory(folderUri);
  for (const chart of report.charts)
    await writeFileAtomic(vscode.Uri.joinPath(folderUri, chart.file), encoder.encode(chart.svg));
  await writeFileAtomic(target, encoder.encode(report.markdown));
  const images =
    report.charts.length === 0
      ? ''
      : ` with ${report.charts.length} chart image${report.charts.length === 1 ? '' : 's'} in ${safeText(folder)}`;
  const choice = await vscode.window.showInformationMessage(
    `Exported the notebook to ${safeText(vscode.workspace.asRelativePath(target))}${images}.`,
    'Open',
  );
  if (choice === 'Open') await vscode.window.showTextDocument(target);
}

function cellFrom(uri: unknown, index: unknown): vscode.NotebookCell | undefined {
  if (uri instanceof vscode.Uri && typeof index === 'number') {
    const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
    if (nb && index >= 0 && index < nb.cellCount) return nb.cellAt(index);
  }
  const editor = vscode.window.activeNotebookEditor;
  if (!editor || editor.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  const sel = editor.selections[0];
  return sel && !sel.isEmpty ? editor.notebook.cellAt(sel.start) : undefined;
}
function activeNotebook(uri: unknown): vscode.NotebookDocument {
  if (uri instanceof vscode.Uri) {
    const nb = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
    if (nb) return nb;
  }
  const nb = vscode.window.activeNotebookEditor?.notebook;
  if (!nb || nb.notebookType !== NOTEBOOK_TYPE) throw new Error('Open a UDM notebook (.udmnb) first.');
  return nb;
}
async function updateCell(cell: vscode.NotebookCell, patch: Record<string, unknown>): Promise<void> {
  const metadata: Record<string, unknown> = { ...cell.metadata, ...patch };
  for (const key of Object.keys(patch)) if (patch[key] === undefined) delete metadata[key];
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, metadata)]);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error('The notebook could not be changed.');
}

export const NOTEBOOK_COMMANDS: CommandTable<NotebooksContext> = {
  'cloudbench.notebook.new': newNotebook,
  'cloudbench.notebook.setTimeRange': setNotebookTimeRange,
  'cloudbench.notebook.setCellTimeRange': setCellTimeRange,
  'cloudbench.notebook.setCellLimit': setCellLimit,
  'cloudbench.notebook.exportMarkdown': exportMarkdown,
};
