// Copy Model: to another location of the project (or next to the source), as a long operation.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import { isLocationId } from '../../../core/names';
import { getLogger } from '../../../platform/log';
import { modelRef, validateModelId } from '../presentation';
import { needClient, nodeOf, toProto3Json, type ModelsContext } from '../context';
import { V1BETA1 } from '../details-documents';
import { runModelOperation } from '../run-operation';
import { ModelNode, type ModelsNode } from '../tree';

const log = getLogger('models');

/** The locations to copy to: the configured ones, else every location the service lists. */
async function copyLocations(ctx: ModelsContext, project: string): Promise<string[]> {
  const configured = ctx.connection().settings.locations;
  if (configured.length) return configured;
  const locations: string[] = [];
  for await (const l of needClient(ctx).listLocations(project))
    if (l.locationId && isLocationId(l.locationId)) locations.push(l.locationId);
  return locations;
}

/** Opens the new model's details and shows it in the tree. */
async function showCopy(ctx: ModelsContext, created: string): Promise<void> {
  const model = await needClient(ctx).getModel({ name: created });
  await ctx.details.open(created, toProto3Json(`${V1BETA1}.Model`, model), { model: created });
  try {
    const node = await ctx.provider.findModel(created);
    if (node) await ctx.view.reveal(node, { select: true, focus: false, expand: true });
  } catch (err) {
    log.debug(`could not reveal ${created}: ${(err as Error).message}`);
  }
}

export async function copyModel(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  const n = nodeOf(node, ModelNode);
  const c = needClient(ctx);
  const project = ctx.connection().project!;
  const source = n.resourceName;
  const sourceLocation = source.split('/')[3];
  const locations = await copyLocations(ctx, project);
  const target = await vscode.window.showQuickPick(
    locations.map((l) => ({
      label: l,
      description: l === sourceLocation ? 'same location (a copy next to the source)' : '',
    })),
    {
      title: `Copy model ${modelRef(source, n.model.displayName)} to location`,
      placeHolder: 'Destination location in the same project',
    },
  );
  if (!target) return;
  const modelId = await vscode.window.showInputBox({
    title: `Copy model ${modelRef(source, n.model.displayName)} to ${safeText(target.label)}`,
    prompt: 'Model ID of the copy (leave empty for a generated ID)',
    validateInput: (v) => validateModelId(v.trim()),
  });
  if (modelId === undefined) return;
  const parent = `projects/${project}/locations/${target.label}`;
  const title = `Copy model ${modelRef(source, n.model.displayName)} to ${safeText(target.label)}`;
  const outcome = await runModelOperation(ctx, {
    title,
    resource: source,
    kind: 'copy',
    ...(modelId.trim() ? { target: `${parent}/models/${modelId.trim()}` } : {}),
    start: (signal) =>
      c.copyModel(
        { request: { parent, sourceModel: source, ...(modelId.trim() ? { modelId: modelId.trim() } : {}) } },
        { signal },
      ),
  });
  ctx.provider.refresh();
  if (outcome.state !== 'succeeded') {
    ctx.operations.announce(title, outcome, '');
    return;
  }
  const created = outcome.result.model ?? '';
  ctx.operations.announce(
    title,
    outcome,
    `Copied model ${modelRef(source, n.model.displayName)} to ${created ? `model ${modelRef(created, n.model.displayName)}` : safeText(target.label)}${outcome.result.modelVersionId ? `, version ${safeText(outcome.result.modelVersionId)}` : ''}.`,
  );
  if (created) await showCopy(ctx, created);
}
