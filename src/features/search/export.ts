// Export of a whole result set (not only the rows the page filters to) to a file the user picks, and
// opening a console link after the user confirmed it.
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../core/display';
import { EXPORT_EXTENSIONS, isOpenableLink, type ExportFormat } from '../../core/secops/results/export';
import { exportFileName, exportRunText } from '../../core/secops/results/export-run';
import type { ColumnSpec } from '../../core/secops/results/fields';
import { writeFileAtomic } from '../../platform/files';
import { getLogger } from '../../platform/log';
import type { RunStore } from './run-store';

const log = getLogger('search');

/** Writes the whole result set where the user chooses; undefined when they chose nowhere. */
export async function exportRun(
  store: RunStore,
  runId: string,
  format: ExportFormat,
  columns: ColumnSpec[],
  options: Parameters<typeof exportRunText>[4] = {},
): Promise<vscode.Uri | undefined> {
  const run = store.get(runId);
  if (!run) throw new Error('These results are no longer held; run the query again to export them.');
  if (run.arriving) throw new Error('The answer is still arriving; export once all of its events are in.');
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const fileName = exportFileName(run.info.kind, format, new Date());
  const target = await vscode.window.showSaveDialog({
    title: `Export ${run.rows.length.toLocaleString('en-US')} rows as ${format.toUpperCase()}${run.partial !== undefined ? ' (part of the answer: the search stopped before it was complete)' : ''}`,
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, fileName) } : {}),
    filters: { [format.toUpperCase()]: [EXPORT_EXTENSIONS[format]] },
    saveLabel: 'Export',
  });
  if (!target) return undefined;
  const text = exportRunText(run.info.kind, run.rows, format, columns, options);
  await writeFileAtomic(target, Buffer.from(text, 'utf8'));
  log.info(`exported ${run.rows.length} rows as ${format} to ${target.fsPath}`);
  void vscode.window
    .showInformationMessage(
      `Exported ${run.rows.length.toLocaleString('en-US')} rows to ${safeText(vscode.workspace.asRelativePath(target))}.`,
      'Open',
    )
    .then((choice) => {
      if (choice === 'Open') void vscode.window.showTextDocument(target);
    });
  return target;
}

/** Opens a console link after the user confirmed it; only http(s) ever leaves the editor. */
export async function openLink(url: string): Promise<void> {
  if (!isOpenableLink(url)) {
    void vscode.window.showWarningMessage('Only http and https links open from results; this one was not opened.');
    return;
  }
  const choice = await vscode.window.showInformationMessage(
    `Open this link in your browser?\n\n${safeText(url, 'plain', MESSAGE_LIMIT)}`,
    { modal: true },
    'Open',
  );
  if (choice === 'Open') await vscode.env.openExternal(vscode.Uri.parse(url, true));
}
