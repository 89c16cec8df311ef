// Creating a key and editing a key's restrictions.
import * as vscode from 'vscode';
import { summarizeRestrictions } from '../../../core/apikeys/describe';
import { safeText } from '../../../core/display';
import { describeError } from '../../../core/google/errors';
import { getLogger } from '../../../platform/log';
import { explained, requireProject, resolveKey, revealKey, runKeyOperation, type KeysContext } from '../context';
import { askCreateRequest } from '../inputs';
import { keyIdOf } from '../tree';

const log = getLogger('keys');

export async function createKey(ctx: KeysContext): Promise<void> {
  const project = await requireProject(ctx);
  const request = await askCreateRequest(project);
  if (!request) return;
  const created = await runKeyOperation(
    ctx.operations,
    () => ctx.client(),
    `Creating API key${request.displayName ? ` "${safeText(request.displayName)}"` : ''}`,
    `projects/${project}/locations/global/keys`,
    (signal, follow) => ctx.client().createKey(project, request, { signal, follow }),
  );
  log.info(`created ${created.name}`);
  ctx.provider.refresh();
  void revealKey(ctx, created.name, false).catch((err) =>
    log.warn(`could not reveal ${created.name}: ${describeError(err)}`),
  );
  let keyString = created.keyString;
  const label = safeText(created.displayName || keyIdOf(created.name));
  const choice = await vscode.window.showInformationMessage(
    `Created API key "${label}" (${safeText(keyIdOf(created.name))}). ${summarizeRestrictions(created.restrictions) === 'unrestricted' ? 'It is unrestricted: add restrictions before using it in production.' : ''}`.trim(),
    'Copy Key String',
    'Edit Restrictions',
  );
  if (choice === 'Copy Key String') {
    keyString ??= await ctx.client().getKeyString(created.name);
    await vscode.env.clipboard.writeText(keyString);
    void vscode.window.showInformationMessage(`The key string of "${label}" is on the clipboard.`);
  } else if (choice === 'Edit Restrictions') {
    // The editor belongs to its panel: it disposes itself when the panel closes.
    void ctx.editors.show(created);
  }
}

export async function editKeyRestrictions(ctx: KeysContext, arg?: unknown): Promise<void> {
  const { key, deleted } = await resolveKey(ctx, arg);
  if (deleted) {
    void vscode.window.showWarningMessage(
      `Key "${safeText(key.displayName || keyIdOf(key.name))}" is deleted; undelete it before changing its restrictions.`,
    );
    return;
  }
  // Start from the server's current state (and etag), not from a tree that may be minutes old.
  const fresh = await explained(
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Reading key' }, () =>
      ctx.client().getKey(key.name),
    ),
  );
  // The editor belongs to its panel: it disposes itself when the panel closes.
  void ctx.editors.show(fresh);
}
