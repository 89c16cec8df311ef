// Where "Export Notebook as Markdown" puts its chart images: the folder beside the report, unless
// chart files of an earlier export are there. Then the user chooses between replacing them and a new
// folder; nothing is overwritten without that answer.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { exists } from '../../platform/files';
import { chartFolderName } from './report';

export const REPLACE_CHOICE = 'Replace';
export const NEW_FOLDER_CHOICE = 'Use a New Folder';
/** Folders tried after the first (`name-charts-2` … `name-charts-100`). */
const MAX_FOLDER_TRIES = 100;

/**
 * The chart folder name to use beside `report` for chart files named `files`, or undefined when the
 * user cancelled. `ask` is the question (a modal in the editor).
 */
export async function chooseChartFolder(
  report: vscode.Uri,
  reportName: string,
  files: readonly string[],
  ask: (message: string, detail: string) => Thenable<string | undefined> = askAboutCharts,
): Promise<string | undefined> {
  const first = chartFolderName(reportName);
  const taken = async (folder: string): Promise<string[]> => {
    const found: string[] = [];
    for (const file of files) if (await exists(vscode.Uri.joinPath(report, '..', folder, file))) found.push(file);
    return found;
  };
  const existing = await taken(first);
  if (existing.length === 0) return first;
  const choice = await ask(
    `"${safeText(first)}" already holds ${existing.length === 1 ? 'a chart image' : `${existing.length} chart images`} this export would replace.`,
    `${existing.map((f) => safeText(f)).join(', ')}\n\nReplace them, or put this export's charts in a new folder beside the report.`,
  );
  if (choice === REPLACE_CHOICE) return first;
  if (choice !== NEW_FOLDER_CHOICE) return undefined;
  for (let n = 2; n <= MAX_FOLDER_TRIES; n++) {
    const folder = `${first}-${n}`;
    if (!(await exists(vscode.Uri.joinPath(report, '..', folder)))) return folder;
  }
  throw new Error(`Folders ${first}-2 to ${first}-${MAX_FOLDER_TRIES} all exist; remove some and export again.`);
}

function askAboutCharts(message: string, detail: string): Thenable<string | undefined> {
  return vscode.window.showWarningMessage(message, { modal: true, detail }, REPLACE_CHOICE, NEW_FOLDER_CHOICE);
}
