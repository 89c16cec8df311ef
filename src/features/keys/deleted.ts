// A change refused because the key was deleted meanwhile (by someone else, or in another window):
// the key is read again to be sure, the tree is reloaded so it no longer lists the key as live, and
// Undelete is offered while the key is still inside its undelete window.
import * as vscode from 'vscode';
import type { ApiKeysClient } from '../../core/apikeys/client';
import { UNDELETE_WINDOW_DAYS, type ApiKey } from '../../core/apikeys/types';
import { safeText } from '../../core/display';
import { GoogleApiError } from '../../core/google/errors';
import { keyIdOf } from './tree';

/** What a refused change found: the key deleted (still undeletable) or purged; undefined when it is live. */
export type KeyGone = { kind: 'deleted'; key: ApiKey } | { kind: 'purged'; name: string };

function apiErrorOf(err: unknown): GoogleApiError | undefined {
  for (let e: unknown = err, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++)
    if (e instanceof GoogleApiError) return e;
  return undefined;
}

/**
 * Whether `err` (a refused update of `name`) means the key is gone. Only a refusal that can mean
 * that (FAILED_PRECONDITION, NOT_FOUND) costs a GetKey; the answer, not the message's wording, decides.
 */
export async function keyGoneBehind(client: ApiKeysClient, name: string, err: unknown): Promise<KeyGone | undefined> {
  const status = apiErrorOf(err)?.status;
  if (status !== 'FAILED_PRECONDITION' && status !== 'NOT_FOUND') return undefined;
  try {
    const key = await client.getKey(name);
    return key.deleteTime ? { kind: 'deleted', key } : undefined;
  } catch (readErr) {
    if (apiErrorOf(readErr)?.status === 'NOT_FOUND') return { kind: 'purged', name };
    return undefined;
  }
}

/** The sentence the editor and the notification use. */
export function goneSentence(gone: KeyGone, what: string): string {
  const id = safeText(keyIdOf(gone.kind === 'deleted' ? gone.key.name : gone.name));
  return gone.kind === 'deleted'
    ? `Key ${id} was deleted meanwhile (by someone else or in another window), so it was ${what}. Undelete it to change it again; it can be undeleted for ${UNDELETE_WINDOW_DAYS} days after its deletion.`
    : `Key ${id} no longer exists (it was deleted and purged), so it was ${what}.`;
}

/** Tells the user, offering Undelete when it is possible; the caller has reloaded the tree. */
export async function offerUndelete(gone: KeyGone, what: string): Promise<void> {
  if (gone.kind === 'purged') {
    void vscode.window.showWarningMessage(goneSentence(gone, what));
    return;
  }
  const choice = await vscode.window.showWarningMessage(goneSentence(gone, what), 'Undelete');
  if (choice === 'Undelete') await vscode.commands.executeCommand('cloudbench.keys.undelete', gone.key.name);
}
