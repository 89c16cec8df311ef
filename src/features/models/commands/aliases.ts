// Set or Move Alias: an alias names one version, so setting it moves it; "-name" removes it.
import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../../../core/display';
import type { Model } from '../../../core/models/types';
import { aliasMoveMessage, modelRef, validateAlias } from '../presentation';
import { needClient, nodeOf, type ModelsContext } from '../context';
import { VersionNode, type ModelsNode } from '../tree';

export async function setVersionAlias(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, VersionNode);
  const c = needClient(ctx);
  const current = n.version.versionAliases ?? [];
  const alias = await vscode.window.showInputBox({
    title: `Set or move an alias to version ${safeText(n.version.versionId)}`,
    prompt: `An alias names one version; setting it here moves it from any other version. Prefix with "-" to remove it. Current: ${safeText(current.join(', ')) || 'none'}`,
    placeHolder: 'golden',
    validateInput: (v) => validateAlias(v.trim()),
  });
  if (!alias) return;
  const value = alias.trim();
  if (value === '-default')
    throw new Error('The default alias cannot be removed; set "default" on another version to move it.');
  const versionId = n.version.versionId ?? '';
  const versionText = safeText(versionId);
  const name = value.replace(/^-/, '');
  // The version that holds the alias now, read from the server (the tree may be older).
  let holder: Model | undefined;
  for await (const v of c.listModelVersions({ name: n.modelName }))
    if ((v.versionAliases ?? []).includes(name)) holder = v;
  if (!value.startsWith('-') && holder?.versionId === versionId) {
    void vscode.window.showInformationMessage(`Version ${versionText} already holds @${safeText(name)}.`);
    return;
  }
  if (value === 'default' && holder) {
    const answer = await vscode.window.showWarningMessage(
      `Make version ${safeText(versionId)} the default version of model ${modelRef(n.modelName, n.version.displayName)}?`,
      {
        modal: true,
        detail: `The "default" alias moves from version ${safeText(holder.versionId ?? '?')} to version ${versionText}. Calls that name the model without a version (get, export, and anything else that uses ${safeText(n.modelName)}) then use version ${versionText}.`,
      },
      'Move Default',
    );
    if (answer !== 'Move Default') return;
  }
  const model = await c.mergeVersionAliases({ name: n.resourceName, versionAliases: [value] });
  // The model row shows the default version and its labels: read it again, with its versions.
  await ctx.provider.refreshModel(n.modelName);
  void vscode.window.showInformationMessage(
    safeText(
      aliasMoveMessage(name, versionId, value.startsWith('-'), holder?.versionId, model.versionAliases ?? []),
      'plain',
      MESSAGE_LIMIT,
    ),
  );
}
