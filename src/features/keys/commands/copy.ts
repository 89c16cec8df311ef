// Copying a key's key string or resource name to the clipboard.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import { getLogger } from '../../../platform/log';
import { explained, resolveKey, type KeysContext } from '../context';
import { keyIdOf } from '../tree';

const log = getLogger('keys');

export async function copyKeyString(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg);
  const keyString = await explained(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading key string' }, () =>
      ctx.client().getKeyString(key.name),
    ),
  );
  await vscode.env.clipboard.writeText(keyString);
  log.info(`copied the key string of ${key.name} to the clipboard`);
  void vscode.window.showInformationMessage(
    `The key string of "${safeText(key.displayName || keyIdOf(key.name))}" is on the clipboard.`,
  );
}

export async function copyKeyResourceName(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg);
  await vscode.env.clipboard.writeText(key.name);
  void vscode.window.showInformationMessage(`Copied ${safeText(key.name)}`);
}
