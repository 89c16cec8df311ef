// Browsing the API Keys view: refresh, further pages, and finding the key a key string belongs to.
import * as vscode from 'vscode';
import type { LookupKeyResponse } from '../../../core/apikeys/types';
import { safeText } from '../../../core/display';
import { GoogleApiError } from '../../../core/google/errors';
import { formatKeyName, parseKeyName } from '../../../core/names';
import { toAbortSignal } from '../../../platform/disposables';
import { getLogger } from '../../../platform/log';
import { explain, explained, revealKey, type KeysContext } from '../context';
import { LoadMoreNode, describeKeysFailure, keyIdOf } from '../tree';

const log = getLogger('keys');

export function refreshKeys(ctx: KeysContext): void {
  ctx.provider.refresh();
}

export async function loadMoreKeys(ctx: KeysContext, node?: unknown): Promise<void> {
  const model = ctx.provider.current;
  if (!model) return;
  const parent = node instanceof LoadMoreNode ? node.parent : undefined;
  try {
    await vscode.window.withProgress({ location: { viewId: 'cloudbench.keys' } }, async () => model.loadMore());
  } catch (err) {
    model.activeError = describeKeysFailure(err);
    throw explain(err);
  } finally {
    ctx.provider.redraw();
    if (parent) log.debug(`loaded more keys of ${parent.project}`);
  }
}

/** Asks the service which key a key string belongs to (LookupKey). */
async function lookUpKeyString(ctx: KeysContext, keyString: string): Promise<LookupKeyResponse> {
  return explained(
    vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Looking up key', cancellable: true },
      async (_p, token) => {
        try {
          return await ctx.client().lookupKey(keyString, { signal: toAbortSignal(token)! });
        } catch (err) {
          if (err instanceof GoogleApiError && err.status === 'NOT_FOUND')
            throw new Error('No key with this key string exists (or it was purged more than 30 days after deletion).', {
              cause: err,
            });
          throw err;
        }
      },
    ),
  );
}

/**
 * LookupKey may name the project by number while settings hold its ID: the same key id in the
 * selected project with the same key string is the same key.
 */
async function inSelectedProject(
  ctx: KeysContext,
  current: string | undefined,
  keyName: string,
  keyString: string,
): Promise<{ keyName: string; owner: string }> {
  const owner = parseKeyName(keyName).project;
  if (!current || owner === current) return { keyName, owner };
  const candidate = formatKeyName({ project: current, key: parseKeyName(keyName).key });
  const same = await ctx
    .client()
    .getKeyString(candidate)
    .then(
      (s) => s === keyString.trim(),
      () => false,
    );
  return same ? { keyName: candidate, owner: current } : { keyName, owner };
}

/** Finds the key a pasted key string belongs to and shows it in the tree. */
export async function lookUpKey(ctx: KeysContext): Promise<void> {
  const keyString = await vscode.window.showInputBox({
    title: 'Look Up Key',
    prompt:
      'Paste a key string to find the key it belongs to. It is sent only to the API Keys service and is not stored.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) =>
      v.trim() === '' ? 'Paste a key string.' : /\s/.test(v.trim()) ? 'A key string contains no spaces.' : undefined,
  });
  if (!keyString) return;
  const found = await lookUpKeyString(ctx, keyString);
  if (!found.name) {
    void vscode.window.showWarningMessage(
      `This key string belonged to a key of ${safeText(found.parent ?? 'a project')} that has been purged; it cannot be recovered.`,
    );
    return;
  }
  const current = ctx.services.connection().project;
  const { keyName, owner } = await inSelectedProject(ctx, current, found.name, keyString);
  if (owner !== current) {
    const choice = await vscode.window.showInformationMessage(
      `The key is ${safeText(keyName)}, in project ${safeText(owner)}, not in the selected project${current ? ` ${safeText(current)}` : ''}.`,
      'Switch to Project',
      'Copy Resource Name',
    );
    if (choice === 'Copy Resource Name') await vscode.env.clipboard.writeText(keyName);
    if (choice !== 'Switch to Project') return;
    await vscode.workspace.getConfiguration('cloudbench').update('project', owner, vscode.ConfigurationTarget.Global);
    ctx.provider.refresh();
  }
  const key = await ctx.client().getKey(keyName);
  if (!(await revealKey(ctx, keyName, !!key.deleteTime, true))) {
    void vscode.window.showInformationMessage(`The key is ${safeText(keyName)} ("${safeText(key.displayName)}").`);
    return;
  }
  void vscode.window.showInformationMessage(
    `Found key "${safeText(key.displayName || keyIdOf(key.name))}" (${safeText(keyIdOf(key.name))})${key.deleteTime ? ', which is deleted' : ''}.`,
  );
}
