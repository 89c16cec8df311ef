// Work a feature needs soon but not before activate() returns: activation only registers, so the
// editor can show Cloudbench's views and answer its commands at once.
import type * as vscode from 'vscode';
import { getLogger } from './log';

const log = getLogger('activate');

/** Runs `work` once activate() has returned, unless the extension is disposed first. */
export function afterActivation(context: vscode.ExtensionContext, what: string, work: () => void): void {
  const timer = setTimeout(() => {
    try {
      work();
    } catch (err) {
      log.error(`${what} failed`, err);
    }
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(timer) });
}
