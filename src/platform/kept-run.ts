// Reading a kept run back after a reload: what the store refused or dropped (a file over the size
// bound, rows that are not rows, a run time that is not a time) is said in the log and to the user
// once, instead of a panel that silently shows less.
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../core/display';
import type { KeptRuns } from '../core/storage/kept-runs';
import type { Logger } from './log';

/** The kept value of `id` (undefined when none), its notes logged and shown as one warning. */
export async function readKeptRun(
  runs: KeptRuns | undefined,
  id: string | undefined,
  panel: string,
  log: Logger,
): Promise<unknown> {
  if (!runs || !id) return undefined;
  const read = await runs.read(id);
  if (read.notes.length) {
    for (const note of read.notes) log.warn(`restoring the ${panel}: ${note}`);
    void vscode.window.showWarningMessage(
      safeText(`The ${panel} after the reload: ${read.notes.join(' ')}`, 'plain', MESSAGE_LIMIT),
    );
  }
  return read.value;
}
