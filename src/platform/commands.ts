import * as vscode from 'vscode';
import { describeError, isCancellation } from '../core/google/errors';
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
  log.error(`${context} failed`, err);
  const choice = await vscode.window.showErrorMessage(`${context}: ${describeError(err)}`, 'Show Logs');
  if (choice === 'Show Logs') showLogs();
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

function commandTitle(context: vscode.ExtensionContext, id: string): string {
  const commands = (
    context.extension?.packageJSON as
      { contributes?: { commands?: Array<{ command: string; title: string }> } } | undefined
  )?.contributes?.commands;
  return commands?.find((c) => c.command === id)?.title.replace(/…$/, '') ?? id;
}
