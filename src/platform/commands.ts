import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../core/display';
import { apiErrorFixes, describeError, isCancellation } from '../core/google/errors';
import { describeRetries, retryRecordOf } from '../core/google/retry';
import { getLogger, showLogs } from './log';

const log = getLogger('commands');

/** Whether a failure is the end of the retry policy (its retries used up, or a wait past its bound). */
export function retriesEnded(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if (retryRecordOf(e)) return true;
  return false;
}

/** The failure a retry record hangs on: the error itself or one of its causes (an explained error). */
function retriedCause(err: unknown): unknown {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++)
    if (retryRecordOf(e)) return e;
  return err;
}

const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString();

/**
 * The one message at the end of the retry policy, in every feature: what happened and how long
 * Cloudbench tried, with Retry (and Show Logs where asked). Resolves true when Retry was chosen.
 */
export async function offerRetry(what: string, err: unknown, options: { showLogs?: boolean } = {}): Promise<boolean> {
  // An explained error (API Keys) leads with its explanation; the retries are its cause's.
  const record = retryRecordOf(retriedCause(err));
  const text = record ? `${describeError(err)} ${describeRetries(record, timeOfDay)}` : describeError(err);
  const buttons = options.showLogs ? ['Retry', 'Show Logs'] : ['Retry'];
  const choice = await vscode.window.showWarningMessage(
    `${what}: ${safeText(text.trim(), 'plain', MESSAGE_LIMIT)}`,
    ...buttons,
  );
  if (choice === 'Show Logs') showLogs();
  return choice === 'Retry';
}

/**
 * Reports a failure the way every command does: logged with its stack, shown with "Show Logs",
 * and silent when the user cancelled. A failure that ended the retry policy is one message with
 * Retry too (when `retry` is given), saying how long Cloudbench tried.
 */
export async function reportError(context: string, err: unknown, retry?: () => unknown): Promise<void> {
  if (isCancellation(err)) {
    log.debug(`${context}: cancelled`);
    return;
  }
  log.failure(context, err);
  if (retry && retriesEnded(err)) {
    if (await offerRetry(context, err, { showLogs: true })) await retry();
    return;
  }
  // A credentials failure carries the fixes its message suggests: offer them as buttons.
  const fixes = fixesOf(err);
  const choice = await vscode.window.showErrorMessage(
    `${context}: ${safeText(describeError(err), 'plain', MESSAGE_LIMIT)}`,
    ...fixes.map((f) => f.label),
    'Show Logs',
  );
  if (choice === 'Show Logs') showLogs();
  const fix = fixes.find((f) => f.label === choice);
  if (fix) await runFix(fix);
}

/** A button that fixes a problem: a command to run, or a command line to copy. */
export interface Fix {
  label: string;
  command?: string;
  args?: unknown[];
  copy?: string;
}

/** The fixes an error offers (CredentialsError.fixes, else those of a known API failure), at most two. */
export function fixesOf(err: unknown): Fix[] {
  const fixes = (err as { fixes?: unknown } | null)?.fixes;
  if (!Array.isArray(fixes)) return apiErrorFixes(err).slice(0, 2);
  return (fixes as Fix[]).filter((f) => typeof f?.label === 'string').slice(0, 2);
}

/** The fix a failing tree row offers: the error's own, else Check Connection, which explains it. */
export function treeRowFix(err: unknown): Fix {
  return fixesOf(err)[0] ?? { label: 'Check Connection', command: 'cloudbench.checkConnection' };
}

export async function runFix(fix: Fix): Promise<void> {
  if (fix.copy) {
    await vscode.env.clipboard.writeText(fix.copy);
    void vscode.window.showInformationMessage(`Copied: ${safeText(fix.copy)}. Run it in a terminal, then refresh.`);
  } else if (fix.command) {
    await vscode.commands.executeCommand(fix.command, ...(fix.args ?? []));
  }
}

/** The command's title from package.json ("Copy Model…" → "Copy Model"), for messages. */
export function commandTitle(context: vscode.ExtensionContext, id: string): string {
  const commands = (
    context.extension?.packageJSON as
      { contributes?: { commands?: Array<{ command: string; title: string }> } } | undefined
  )?.contributes?.commands;
  return commands?.find((c) => c.command === id)?.title.replace(/…$/, '') ?? id;
}
