// Delete Model and Delete Version: refused with the reason while deployed, for the only version,
// or for the default version; otherwise confirmed, run as a long operation, and the deleted
// resource's details tabs and metrics pages closed.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import type { ModelRegistryClient } from '../../../core/models/client';
import type { Model } from '../../../core/models/types';
import { GoogleApiError } from '../../../core/google/errors';
import { checkBeforeModal } from '../../../platform/progress';
import { isDefaultVersion, lastSegment, modelRef, versionRef } from '../presentation';
import { needClient, nodeOf, type ModelsContext } from '../context';
import { runModelOperation } from '../run-operation';
import { undeployFrom, type DeploymentRef } from './undeploy';
import { ModelNode, VersionNode, type ModelsNode } from '../tree';

type Deployments = Awaited<ReturnType<ModelRegistryClient['findDeployments']>>;

/**
 * The delete's outcome, or 'gone' when the service says there is nothing to delete (NOT_FOUND:
 * someone else deleted it first). The caller takes the row out and says so.
 */
async function goneAlready<T>(deleting: Promise<T>): Promise<T | 'gone'> {
  try {
    return await deleting;
  } catch (err) {
    if (err instanceof GoogleApiError && err.status === 'NOT_FOUND') return 'gone';
    throw err;
  }
}

/** What the user asked for is already true: information, not an error. */
function alreadyDeleted(what: string): void {
  void vscode.window.showInformationMessage(`${what} was already deleted (by someone else); it is no longer listed.`);
}

/**
 * The guard's message names every deployment and offers "Undeploy from <endpoint>…" (one deployment)
 * or "Undeploy…" (a choice of them); after an undeploy the user runs the delete again.
 */
async function explainDeployments(ctx: ModelsContext, what: string, found: Deployments): Promise<void> {
  const lines = found.map(
    ({ endpoint, deployedModel }) =>
      `• endpoint ${safeText(endpoint.displayName || lastSegment(endpoint.name))} (${safeText(endpoint.name)}): deployed model ${safeText(deployedModel.id)}${deployedModel.modelVersionId ? `, version ${safeText(deployedModel.modelVersionId)}` : ''}`,
  );
  const refs: DeploymentRef[] = found
    .filter(({ endpoint, deployedModel }) => endpoint.name && deployedModel.id && deployedModel.model)
    .map(({ endpoint, deployedModel }) => ({
      version: `${deployedModel.model!.split('@')[0]}@${deployedModel.modelVersionId || deployedModel.model!.split('@')[1] || ''}`,
      endpoint: endpoint.name!,
      deployedModelId: deployedModel.id!,
      ...(endpoint.displayName ? { endpointDisplayName: endpoint.displayName } : {}),
    }));
  const button =
    refs.length === 1
      ? `Undeploy from ${safeText(refs[0].endpointDisplayName || lastSegment(refs[0].endpoint))}…`
      : refs.length
        ? 'Undeploy…'
        : undefined;
  const answer = await vscode.window.showWarningMessage(
    `${what} cannot be deleted while it is deployed.`,
    { modal: true, detail: `Undeploy it from these endpoints first:\n${lines.join('\n')}` },
    ...(button ? [button] : []),
  );
  if (!answer) return;
  const ref =
    refs.length === 1
      ? refs[0]
      : (
          await vscode.window.showQuickPick(
            refs.map((r) => ({
              label: `Undeploy from ${safeText(r.endpointDisplayName || lastSegment(r.endpoint))}…`,
              description: `version ${safeText(r.version.split('@')[1])} · deployed model ${safeText(r.deployedModelId)}`,
              ref: r,
            })),
            { title: `Undeploy ${what}`, placeHolder: 'The deployment to undeploy first' },
          )
        )?.ref;
  if (ref && (await undeployFrom(ctx, ref)) && refs.length === 1)
    void vscode.window.showInformationMessage(`${what} is no longer deployed; run Delete again to delete it.`);
}

/** Deletes a model with every version, once no endpoint serves it and the user confirmed. */
async function deleteWholeModel(ctx: ModelsContext, modelName: string, label: string): Promise<void> {
  const c = needClient(ctx);
  // The check's progress is off the screen before the modal question below.
  const deployments = await checkBeforeModal(`Checking endpoints for ${label}…`, (signal) =>
    c.findDeployments(modelName, { signal }),
  );
  if (deployments.length) return explainDeployments(ctx, `Model ${label}`, deployments);
  const answer = await vscode.window.showWarningMessage(
    `Delete model ${label}?`,
    {
      modal: true,
      detail: `${safeText(modelName)}\n\nEvery version, evaluation and slice of this model is deleted. This cannot be undone.`,
    },
    'Delete Model',
  );
  if (answer !== 'Delete Model') return;
  const title = `Delete model ${label}`;
  const outcome = await goneAlready(
    runModelOperation(ctx, {
      title,
      resource: modelName,
      kind: 'delete',
      start: (signal) => c.deleteModel({ name: modelName }, { signal }),
    }),
  );
  if (outcome === 'gone' || outcome.state === 'succeeded') {
    ctx.provider.removeModel(modelName);
    ctx.metrics.markDeleted(modelName);
    await ctx.details.closeDeleted(modelName);
  } else await ctx.provider.refreshModel(modelName);
  if (outcome === 'gone') return alreadyDeleted(`Model ${label}`);
  ctx.operations.announce(title, outcome, `Deleted model ${label}.`);
}

export async function deleteModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode);
  await deleteWholeModel(ctx, n.resourceName, modelRef(n.resourceName, n.model.displayName));
}

/** The default version cannot go: offers to move "default" to another version first. */
async function offerDefaultMove(ctx: ModelsContext, n: VersionNode, ofModel: string): Promise<void> {
  const c = needClient(ctx);
  const answer = await vscode.window.showWarningMessage(
    `Version ${n.version.versionId} is the default version of ${ofModel}.`,
    {
      modal: true,
      detail:
        'Calls that name the model without a version use the default version, so it cannot be deleted. Move the "default" alias to another version first.',
    },
    'Set or Move Alias…',
  );
  if (!answer) return;
  const others: Model[] = [];
  for await (const v of c.listModelVersions({ name: n.modelName }))
    if (v.versionId !== n.version.versionId) others.push(v);
  const target = await vscode.window.showQuickPick(
    others.map((v) => ({
      label: `Version ${safeText(v.versionId)}`,
      description: safeText((v.versionAliases ?? []).map((a) => `@${a}`).join(' ')),
      version: v,
    })),
    { title: `Move "default" of ${ofModel} to` },
  );
  if (!target) return;
  await c.mergeVersionAliases({ name: `${n.modelName}@${target.version.versionId}`, versionAliases: ['default'] });
  await ctx.provider.refreshModel(n.modelName);
  void vscode.window.showInformationMessage(
    `Moved @default from version ${safeText(n.version.versionId)} to version ${safeText(target.version.versionId)}; run Delete Version on version ${safeText(n.version.versionId)} again to delete it.`,
  );
}

/** How many versions the model has (counting stops at two) and where this version is deployed. */
function checkVersion(c: ModelRegistryClient, n: VersionNode): Promise<{ versions: number; deployments: Deployments }> {
  return checkBeforeModal(`Checking ${versionRef(n.version)}…`, async (signal) => {
    const opts = { signal };
    let versions = 0;
    for await (const _v of c.listModelVersions({ request: { name: n.modelName, pageSize: 2 } }, opts)) {
      if (++versions > 1) break;
    }
    const deployments = await c.findDeployments(n.modelName, { ...opts, versionId: n.version.versionId ?? '' });
    return { versions, deployments };
  });
}

export async function deleteModelVersion(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, VersionNode);
  const c = needClient(ctx);
  const label = versionRef(n.version);
  const ofModel = `model ${modelRef(n.modelName, n.version.displayName)}`;
  const check = await checkVersion(c, n);
  if (check.versions <= 1) {
    const answer = await vscode.window.showWarningMessage(
      `Version ${n.version.versionId} is the only version of ${ofModel}.`,
      {
        modal: true,
        detail: 'The only version of a model cannot be deleted on its own; delete the whole model instead.',
      },
      'Delete Model…',
    );
    if (answer === 'Delete Model…')
      await deleteWholeModel(ctx, n.modelName, modelRef(n.modelName, n.version.displayName));
    return;
  }
  if (check.deployments.length)
    return explainDeployments(ctx, `Version ${n.version.versionId} of ${ofModel}`, check.deployments);
  if (isDefaultVersion(n.version)) return offerDefaultMove(ctx, n, ofModel);
  const aliases = safeText((n.version.versionAliases ?? []).join(', '));
  const answer = await vscode.window.showWarningMessage(
    `Delete ${label}?`,
    {
      modal: true,
      detail: `${safeText(n.resourceName)}${aliases ? `\nAliases: ${aliases}` : ''}\n\nThe version and its evaluations are deleted. This cannot be undone.`,
    },
    'Delete Version',
  );
  if (answer !== 'Delete Version') return;
  const title = `Delete ${label}`;
  const outcome = await goneAlready(
    runModelOperation(ctx, {
      title,
      resource: n.resourceName,
      kind: 'deleteVersion',
      start: (signal) => c.deleteModelVersion({ name: n.resourceName }, { signal }),
    }),
  );
  // The model row shows the default version and the versions under it: both are read again.
  await ctx.provider.refreshModel(n.modelName);
  if (outcome === 'gone' || outcome.state === 'succeeded') {
    ctx.metrics.markDeleted(n.modelName, n.version.versionId);
    await ctx.details.closeDeleted(n.modelName, n.version.versionId);
  }
  if (outcome === 'gone') return alreadyDeleted(`${label[0]?.toUpperCase() ?? ''}${label.slice(1)}`);
  ctx.operations.announce(title, outcome, `Deleted ${label}.`);
}
