// Copy Model: one version (the default preselected) to a location of the project, as a new model or
// as a new version of a model already there (CopyModel's parent_model: how a model is promoted from
// one region to another), run as a long operation; the result is revealed where it landed.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import { isLocationId } from '../../../core/names';
import type { Model } from '../../../core/models/types';
import { getLogger } from '../../../platform/log';
import { aliasBadges, isDefaultVersion, modelLabel, modelRef, splitVersion, validateModelId } from '../presentation';
import { needClient, nodeOf, toProto3Json, type ModelsContext } from '../context';
import { V1BETA1 } from '../details-documents';
import { runModelOperation } from '../run-operation';
import { ModelNode, VersionNode, type ModelsNode } from '../tree';

const log = getLogger('models');
/** Models offered as the destination of a new version: enough to pick from; the filter finds the rest. */
const MAX_PICK_MODELS = 1000;

/** The locations to copy to: the configured ones, else every location the service lists. */
async function copyLocations(ctx: ModelsContext, project: string): Promise<string[]> {
  const configured = ctx.connection().settings.locations;
  if (configured.length) return configured;
  const locations: string[] = [];
  for await (const l of needClient(ctx).listLocations(project))
    if (l.locationId && isLocationId(l.locationId)) locations.push(l.locationId);
  return locations;
}

/** Reveals the copy: the model row (expanded), then the new version's row; opens its details. */
async function showCopy(ctx: ModelsContext, modelName: string, versionId: string | undefined): Promise<void> {
  const name = versionId ? `${modelName}@${versionId}` : modelName;
  const made = await needClient(ctx).getModel({ name });
  await ctx.details.open(name, toProto3Json(`${V1BETA1}.Model`, made), {
    model: modelName,
    ...(versionId ? { versionId } : {}),
  });
  try {
    // A version added to a model already shown: that row is read again; a new model: the tree is.
    if (ctx.provider.loadedModel(modelName)) await ctx.provider.refreshModel(modelName);
    else ctx.provider.refresh();
    const node = await ctx.provider.findModel(modelName);
    if (!node) return;
    await ctx.view.reveal(node, { select: !versionId, focus: false, expand: true });
    if (!versionId) return;
    const version = (await node.getChildren()).find(
      (n): n is VersionNode => n instanceof VersionNode && n.version.versionId === versionId,
    );
    if (version) await ctx.view.reveal(version, { select: true, focus: false });
  } catch (err) {
    log.debug(`could not reveal ${name}: ${(err as Error).message}`);
  }
}

/** Which version to copy: every version listed, the default one (or the one the command ran on) preselected. */
async function pickVersion(ctx: ModelsContext, modelName: string, title: string, preselect?: string) {
  const versions: Model[] = [];
  for await (const v of needClient(ctx).listModelVersions({ name: modelName })) versions.push(v);
  const items = versions.map((v) => ({
    label: `Version ${safeText(v.versionId ?? '?')}`,
    description: safeText(aliasBadges(v)),
    detail: v.versionDescription ? safeText(v.versionDescription) : undefined,
    version: v,
  }));
  // The preselected version comes first: Enter takes it.
  const first = items.findIndex((i) => (preselect ? i.version.versionId === preselect : isDefaultVersion(i.version)));
  if (first > 0) items.unshift(...items.splice(first, 1));
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Version to copy (the default version is preselected)',
    matchOnDescription: true,
  });
  return picked?.version;
}

type Destination = { modelId: string } | { parentModel: string; label: string };

/** A new model (with an optional ID) or a new version of a model already in the destination. */
async function pickDestination(ctx: ModelsContext, parent: string, title: string): Promise<Destination | undefined> {
  const kind = await vscode.window.showQuickPick(
    [
      { label: 'New model', description: 'the copy becomes version 1 of a new model', newModel: true },
      {
        label: 'New version of an existing model',
        description: `pick a model in ${safeText(parent.split('/')[3])}`,
        newModel: false,
      },
    ],
    { title, placeHolder: 'Copy as' },
  );
  if (!kind) return undefined;
  if (kind.newModel) {
    const modelId = await vscode.window.showInputBox({
      title,
      prompt: 'Model ID of the copy (leave empty for a generated ID)',
      validateInput: (v) => validateModelId(v.trim()),
    });
    return modelId === undefined ? undefined : { modelId: modelId.trim() };
  }
  const models = vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Listing the models of ${parent}` },
    async () => {
      const found: Model[] = [];
      for await (const m of needClient(ctx).listModels({ request: { parent, pageSize: 200 } })) {
        found.push(m);
        if (found.length >= MAX_PICK_MODELS) break;
      }
      return found.map((m) => ({
        label: modelLabel(m),
        description: safeText(
          splitVersion(m.name ?? '')
            .model.split('/')
            .pop(),
        ),
        model: splitVersion(m.name ?? '').model,
      }));
    },
  );
  const target = await vscode.window.showQuickPick(models, {
    title,
    placeHolder: 'The model that receives the copy as its newest version',
    matchOnDescription: true,
  });
  return target ? { parentModel: target.model, label: target.label } : undefined;
}

export async function copyModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode, VersionNode);
  const c = needClient(ctx);
  const project = ctx.connection().project!;
  const modelName = n instanceof VersionNode ? n.modelName : n.resourceName;
  const shown = modelRef(modelName, n instanceof VersionNode ? n.version.displayName : n.model.displayName);
  const version = await pickVersion(
    ctx,
    modelName,
    `Copy model ${shown}`,
    n instanceof VersionNode ? n.version.versionId : undefined,
  );
  if (!version?.versionId) return;
  const source = `${modelName}@${version.versionId}`;
  const what = `version ${safeText(version.versionId)} of model ${shown}`;
  const sourceLocation = modelName.split('/')[3];
  const locations = await copyLocations(ctx, project);
  const target = await vscode.window.showQuickPick(
    locations.map((l) => ({
      label: l,
      description: l === sourceLocation ? 'same location (a copy next to the source)' : '',
    })),
    { title: `Copy ${what} to location`, placeHolder: 'Destination location in the same project' },
  );
  if (!target) return;
  const parent = `projects/${project}/locations/${target.label}`;
  const destination = await pickDestination(ctx, parent, `Copy ${what} to ${safeText(target.label)}`);
  if (!destination) return;
  const into = 'parentModel' in destination ? ` as a new version of ${destination.label}` : '';
  const title = `Copy ${what} to ${safeText(target.label)}${into}`;
  const request = {
    parent,
    sourceModel: source,
    ...('parentModel' in destination
      ? { parentModel: destination.parentModel }
      : destination.modelId
        ? { modelId: destination.modelId }
        : {}),
  };
  const targetName =
    'parentModel' in destination
      ? destination.parentModel
      : destination.modelId
        ? `${parent}/models/${destination.modelId}`
        : undefined;
  const outcome = await runModelOperation(ctx, {
    title,
    resource: source,
    kind: 'copy',
    ...(targetName ? { target: targetName } : {}),
    start: (signal) => c.copyModel({ request }, { signal }),
  });
  if (outcome.state !== 'succeeded') {
    ctx.provider.refresh();
    ctx.operations.announce(title, outcome, '');
    return;
  }
  const created = outcome.result.model ?? targetName ?? '';
  const versionId = outcome.result.modelVersionId || undefined;
  ctx.operations.announce(
    title,
    outcome,
    `Copied ${what} to ${created ? `model ${modelRef(created, version.displayName)}` : safeText(target.label)}${versionId ? `, version ${safeText(versionId)}` : ''}.`,
  );
  // A new model is shown as the model; a new version of an existing model as that version.
  if (created) await showCopy(ctx, splitVersion(created).model, 'parentModel' in destination ? versionId : undefined);
  else ctx.provider.refresh();
}
