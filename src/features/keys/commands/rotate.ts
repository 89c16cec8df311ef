// Rotate Key: API Keys v2 has no rotate call, so a rotation is a successor key with the same
// restrictions (and service account binding), the old key marked with the successor's id, and the
// user told the order that keeps apps working: put the new key string where the old one is used,
// then delete the old key (offered now and, from the audit and the tree, later).
import * as vscode from 'vscode';
import { ROTATED_FROM_ANNOTATION, ROTATED_TO_ANNOTATION, successorKeyIds } from '../../../core/apikeys/audit';
import type { ApiKey } from '../../../core/apikeys/types';
import { safeText } from '../../../core/display';
import { GoogleApiError, describeError } from '../../../core/google/errors';
import { parseKeyName } from '../../../core/names';
import { getLogger } from '../../../platform/log';
import { explained, keyRef, resolveKey, revealKey, runKeyOperation, type KeysContext } from '../context';
import { keyIdOf } from '../tree';
import { deleteKey } from './lifecycle';

const log = getLogger('keys');

async function freeKeyId(ctx: KeysContext, project: string, candidates: string[]): Promise<string | undefined> {
  for (const id of candidates) {
    try {
      await ctx.client().getKey(`projects/${project}/locations/global/keys/${id}`);
    } catch (err) {
      if (err instanceof GoogleApiError && err.status === 'NOT_FOUND') return id;
      throw err;
    }
  }
  // Every readable id is taken: the service assigns one.
  return undefined;
}

function successorAnnotations(old: ApiKey): Record<string, string> {
  const annotations = { ...(old.annotations ?? {}) };
  delete annotations[ROTATED_TO_ANNOTATION];
  annotations[ROTATED_FROM_ANNOTATION] = keyIdOf(old.name);
  return annotations;
}

/** Records the successor on the old key; a failure only loses the note, never the rotation. */
async function markRotated(ctx: KeysContext, old: ApiKey, successorId: string): Promise<ApiKey | undefined> {
  try {
    return await runKeyOperation(
      ctx.operations,
      () => ctx.client(),
      `Marking key ${safeText(keyIdOf(old.name))} as rotated`,
      old.name,
      (signal, follow) =>
        ctx
          .client()
          .updateKey(
            old.name,
            { annotations: { ...(old.annotations ?? {}), [ROTATED_TO_ANNOTATION]: successorId } },
            ['annotations'],
            old.etag,
            { signal, follow },
          ),
    );
  } catch (err) {
    log.warn(`could not note the successor on ${old.name}: ${describeError(err)}`);
    return undefined;
  }
}

export async function rotateKey(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key, deleted } = await resolveKey(ctx, arg);
  if (deleted) {
    void vscode.window.showWarningMessage(`Key ${keyRef(key)} is deleted; there is nothing to rotate.`);
    return;
  }
  const old = await explained(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading key' }, () =>
      ctx.client().getKey(key.name),
    ),
  );
  const label = keyRef(old);
  const confirm = await vscode.window.showInformationMessage(
    `Rotate API key ${label}?`,
    {
      modal: true,
      detail: `A new key is created with the same restrictions${old.serviceAccountEmail ? ' and service account' : ''}. The old key keeps working until you delete it: replace it where it is used first.`,
    },
    'Create Successor',
  );
  if (confirm !== 'Create Successor') return;
  const { project } = parseKeyName(old.name);
  const keyId = await freeKeyId(ctx, project, successorKeyIds(keyIdOf(old.name), ctx.client().serverNow()));
  const created = await runKeyOperation(
    ctx.operations,
    () => ctx.client(),
    `Rotating key ${safeText(keyIdOf(old.name))}`,
    `projects/${project}/locations/global/keys`,
    (signal, follow) =>
      ctx.client().createKey(
        project,
        {
          ...(keyId ? { keyId } : {}),
          displayName: (old.displayName ?? '').slice(0, 63),
          ...(old.restrictions ? { restrictions: old.restrictions } : {}),
          ...(old.serviceAccountEmail ? { serviceAccountEmail: old.serviceAccountEmail } : {}),
          annotations: successorAnnotations(old),
        },
        { signal, follow },
      ),
  );
  const newId = keyIdOf(created.name);
  log.info(`rotated ${old.name}: successor ${created.name}`);
  const marked = await markRotated(ctx, old, newId);
  const now = ctx.client().serverNow();
  // The report never holds a key string; it keeps fields by name, and this copy has none to keep.
  const successor: ApiKey = { ...created };
  delete successor.keyString;
  ctx.audit.keyChanged(successor, now);
  if (marked) ctx.audit.keyChanged(marked, now);
  ctx.provider.refresh();
  void revealKey(ctx, created.name, false).catch((err) =>
    log.warn(`could not reveal ${created.name}: ${describeError(err)}`),
  );
  await afterRotation(ctx, old, created);
}

/** Tells what to do with the old key, with the key string and the deletion a click away. */
async function afterRotation(ctx: KeysContext, old: ApiKey, created: ApiKey): Promise<void> {
  const oldId = safeText(keyIdOf(old.name));
  const newId = safeText(keyIdOf(created.name));
  let keyString = created.keyString;
  const choice = await vscode.window.showInformationMessage(
    `Created ${newId}, the successor of ${keyRef(old)}, with the same restrictions. Next: put its key string wherever ${oldId} is used, then delete ${oldId}.`,
    'Copy New Key String',
    'Delete Old Key',
    'Later',
  );
  if (choice === 'Copy New Key String') {
    keyString ??= await ctx.client().getKeyString(created.name);
    await vscode.env.clipboard.writeText(keyString);
    const next = await vscode.window.showInformationMessage(
      `The key string of ${newId} is on the clipboard. Once every app uses it, delete ${oldId}; until then both keys work.`,
      'Delete Old Key',
      'Later',
    );
    if (next === 'Delete Old Key') await deleteKey(ctx, old.name);
  } else if (choice === 'Delete Old Key') {
    await deleteKey(ctx, old.name);
  } else {
    void vscode.window.showInformationMessage(
      `${oldId} is marked "rotated to ${newId}" in the API Keys view; delete it from there (or from the key audit) once ${newId} replaced it.`,
    );
  }
}
