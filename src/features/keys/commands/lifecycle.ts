// Renaming, deleting and undeleting a key: each a key operation, refused with the reason when
// someone else changed the key meanwhile (etag) or when it can no longer be undeleted.
import * as vscode from 'vscode';
import { EtagConflictError, daysLeftToUndelete } from '../../../core/apikeys/client';
import { UNDELETE_WINDOW_DAYS } from '../../../core/apikeys/types';
import { safeText } from '../../../core/display';
import { CancelledError, GoogleApiError, describeError } from '../../../core/google/errors';
import { keyGoneBehind, offerUndelete } from '../deleted';
import { reportError } from '../../../platform/commands';
import { getLogger } from '../../../platform/log';
import { keyRef, resolveKey, revealKey, runKeyOperation, type KeysContext } from '../context';
import { keyIdOf } from '../tree';

const log = getLogger('keys');

function etagConflict(err: unknown): boolean {
  return err instanceof EtagConflictError || (err as { cause?: unknown }).cause instanceof EtagConflictError;
}

/**
 * Runs a key operation that sends the key's etag. When someone else changed the key since the list
 * was loaded, the list is refreshed and the error says what was not done and what to do now.
 */
async function runWithEtag(
  ctx: KeysContext,
  title: string,
  name: string,
  run: Parameters<typeof runKeyOperation>[4],
  refused: string,
): Promise<void> {
  try {
    await runKeyOperation(ctx.operations, () => ctx.client(), title, name, run);
  } catch (err) {
    if (etagConflict(err)) {
      ctx.provider.refresh();
      throw new Error(`The key was changed by someone else since the list was loaded, so it was ${refused}`, {
        cause: err,
      });
    }
    const gone = await keyGoneBehind(ctx.client(), name, err);
    if (!gone) throw err;
    // The tree no longer lists it as live; the user hears what happened instead of a refusal.
    ctx.provider.refresh();
    if (refused.startsWith('not deleted'))
      void vscode.window.showInformationMessage(
        `Key ${safeText(keyIdOf(name))} was already deleted (by someone else or in another window); the list was refreshed.`,
      );
    else await offerUndelete(gone, refused.replace(/\..*/s, ''));
    throw new CancelledError();
  }
}

export async function renameKey(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg);
  const displayName = await vscode.window.showInputBox({
    title: `Rename key ${safeText(keyIdOf(key.name))}`,
    prompt: 'Display name (at most 63 characters)',
    value: key.displayName ?? '',
    validateInput: (v) => (v.length > 63 ? `${v.length} characters; the limit is 63.` : undefined),
  });
  if (displayName === undefined || displayName === (key.displayName ?? '')) return;
  await runWithEtag(
    ctx,
    `Renaming key ${safeText(keyIdOf(key.name))}`,
    key.name,
    (signal, follow) => ctx.client().rename(key.name, displayName, key.etag, { signal, follow }),
    'not renamed. The list was refreshed; rename it again.',
  );
  ctx.provider.refresh();
  void vscode.window.showInformationMessage(
    `Renamed key ${safeText(keyIdOf(key.name))} to "${safeText(displayName)}".`,
  );
}

export async function deleteKey(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg);
  const label = keyRef(key);
  const choice = await vscode.window.showWarningMessage(
    `Delete API key ${label}?`,
    {
      modal: true,
      detail: `${safeText(key.name)}\n\nEvery app that uses this key stops working at once. You can undelete it within ${UNDELETE_WINDOW_DAYS} days; after that it is gone for good.`,
    },
    'Delete',
  );
  if (choice !== 'Delete') return;
  await runWithEtag(
    ctx,
    `Deleting key ${safeText(keyIdOf(key.name))}`,
    key.name,
    (signal, follow) => ctx.client().deleteKey(key.name, key.etag, { signal, follow }),
    'not deleted. The list was refreshed; check it and delete again.',
  );
  ctx.editors.close(key.name);
  const now = ctx.provider.current?.now() ?? Date.now();
  ctx.audit.keyChanged({ ...key, deleteTime: new Date(now).toISOString() }, now);
  ctx.provider.refresh();
  // Undo is an undelete (the API keeps a deleted key for 30 days); the notification is not awaited,
  // so the command ends while it shows.
  void vscode.window
    .showInformationMessage(
      `Deleted key ${label}. It can be undeleted from "Deleted keys" for ${UNDELETE_WINDOW_DAYS} days.`,
      'Undo',
    )
    .then(async (choice) => {
      if (choice === 'Undo')
        await undeleteKey(ctx, key.name).catch((err: unknown) => reportError('Undo delete of the key', err));
    });
}

export async function undeleteKey(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key } = await resolveKey(ctx, arg, 'deleted');
  const label = keyRef(key);
  const left = daysLeftToUndelete(key.deleteTime, ctx.provider.current?.now() ?? Date.now());
  if (left !== undefined && left <= 0) {
    void vscode.window.showErrorMessage(
      `Key ${label} was deleted on ${safeText(key.deleteTime)}, more than ${UNDELETE_WINDOW_DAYS} days ago, so it cannot be undeleted. Create a new key instead.`,
    );
    return;
  }
  try {
    await runKeyOperation(
      ctx.operations,
      () => ctx.client(),
      `Undeleting key ${safeText(keyIdOf(key.name))}`,
      key.name,
      (signal, follow) => ctx.client().undeleteKey(key.name, { signal, follow }),
    );
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause ?? err;
    if (
      cause instanceof GoogleApiError &&
      cause.status === 'FAILED_PRECONDITION' &&
      /30 days|undelete/i.test(cause.message)
    ) {
      // The key is purged or about to be: the list no longer shows it after a reload.
      ctx.provider.refresh();
      throw new Error(`${cause.message} Create a new key instead.`, { cause: err });
    }
    throw err;
  }
  ctx.provider.refresh();
  void revealKey(ctx, key.name, false).catch((err) => log.warn(`could not reveal ${key.name}: ${describeError(err)}`));
  void vscode.window.showInformationMessage(
    `Undeleted key ${label}. It can take a few minutes before the key string works again.`,
  );
}
