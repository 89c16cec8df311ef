import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../core/display';
import { apiErrorFixes, describeError, isCancellation } from '../core/google/errors';
import { getLogger, showLogs } from './log';

const log = getLogger('commands');

/**
 * Reports a failure the way every command does: logged with its stack, shown with "Show Logs",
 * and silent when the user cancelled.
 */
export async function reportError(context: string, err: unknown): Promise<void> {
  if (isCancellation(err)) {
    log.debug(`${context}: cancelled`);
    return;
  }
  log.failure(context, err);
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

/** Registers a command whose handler errors are reported, never thrown into VS Code's generic toast. */
export function registerCommand<Args extends unknown[]>(
  context: vscode.ExtensionContext,
  id: string,
  handler: (...args: Args) => unknown,
): vscode.Disposable {
  const title = commandTitle(context, id);
  const disposable = vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      // VS Code passes what the caller gave (a tree node, a URI, nothing); handlers check their arguments.
      return await handler(...(args as Args));
    } catch (err) {
      await reportError(title, err);
      return undefined;
    }
  });
  context.subscriptions.push(disposable);
  return disposable;
}

/** The command's title from package.json ("Copy Model…" → "Copy Model"), for messages. */
export function commandTitle(context: vscode.ExtensionContext, id: string): string {
  const commands = (
    context.extension?.packageJSON as
      { contributes?: { commands?: Array<{ command: string; title: string }> } } | undefined
  )?.contributes?.commands;
  return commands?.find((c) => c.command === id)?.title.replace(/…$/, '') ?? id;
}
