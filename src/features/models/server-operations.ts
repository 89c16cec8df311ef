// The Model Registry's side of the Operations view's server list: ListOperations of every location
// of the project (the configured ones, else those the service lists), read defensively, kept when
// running or finished within the hour; followed by name through the current client; a finished
// copy or upload opens the model it made.
import type * as ServerOpsModuleType from '../../core/models/server-operations';
import type { OperationKind } from '../../core/models/operation';
import { describeError } from '../../core/google/errors';
import { isLocationId } from '../../core/names';
import type { ServerOperationInfo, ServerOperationsSource } from '../operations/server';
import { needClient, toProto3Json, type ModelsContext } from './context';
import { V1BETA1 } from './details-documents';
import { modelsFollower } from './run-operation';
import { splitVersion } from './presentation';

// The proto descriptors load when the list is first read, not when the extension activates.
const serverOps = (): typeof ServerOpsModuleType =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('../../core/models/server-operations') as typeof ServerOpsModuleType;

/** At most this many operations are read per location (newest first). */
const MAX_PER_LOCATION = 200;

async function locationsOf(ctx: ModelsContext, project: string, signal: AbortSignal): Promise<string[]> {
  const configured = ctx.connection().settings.locations;
  if (configured.length) return configured;
  const found: string[] = [];
  for await (const l of needClient(ctx).listLocations(project, { signal }))
    if (l.locationId && isLocationId(l.locationId)) found.push(l.locationId);
  return found;
}

/** "Copy model 123 (europe-west4)" */
function titleOf(method: string, resource: string): string {
  const words = serverOps().methodWords(method);
  const parts = resource.split('/');
  const location = parts[3] ?? '';
  const thing = parts.length >= 6 ? ` ${parts[4].replace(/s$/, '')} ${parts[5]}` : '';
  return `${words}${thing} (${location})`;
}

async function listLocation(
  ctx: ModelsContext,
  parent: string,
  now: Date,
  signal: AbortSignal,
): Promise<{ operations: ServerOperationInfo[]; skipped: number }> {
  const mod = serverOps();
  const operations: ServerOperationInfo[] = [];
  let read = 0;
  let skipped = 0;
  for await (const raw of needClient(ctx).listOperations({ name: parent, pageSize: 100 }, { signal })) {
    if (++read > MAX_PER_LOCATION) break;
    const op = mod.readServerOperation(raw);
    if (!op) {
      skipped++;
      continue;
    }
    if (!mod.isCurrent(op, now)) continue;
    operations.push({
      name: op.name,
      title: titleOf(op.method, op.resource),
      resource: op.resource,
      kind: op.kind,
      state: op.state,
      started: op.started,
      updated: op.updated,
      error: op.error,
      result: op.result,
    });
  }
  return { operations, skipped };
}

export function modelsOperationsSource(ctx: ModelsContext): ServerOperationsSource {
  return {
    source: 'models',
    async list(signal) {
      const project = ctx.connection().project;
      if (!project || !ctx.client()) return { operations: [], problems: [] };
      const now = new Date();
      const operations: ServerOperationInfo[] = [];
      const problems: string[] = [];
      for (const location of await locationsOf(ctx, project, signal)) {
        const parent = `projects/${project}/locations/${location}`;
        try {
          const found = await listLocation(ctx, parent, now, signal);
          operations.push(...found.operations);
          if (found.skipped)
            problems.push(
              `${location}: ${found.skipped} operation(s) in a shape Cloudbench does not read were left out`,
            );
        } catch (err) {
          if (signal.aborted) throw err;
          problems.push(`${location}: ${describeError(err)}`);
        }
      }
      return { operations, problems };
    },
    follower: (op) => modelsFollower(ctx, (op.kind ?? 'copy') as OperationKind),
    async openResult(op) {
      if (!op.result) return;
      const { model, version } = splitVersion(op.result);
      const made = await needClient(ctx).getModel({ name: op.result });
      await ctx.details.open(op.result, toProto3Json(`${V1BETA1}.Model`, made), {
        model,
        ...(version ? { versionId: version } : {}),
      });
      if (!ctx.provider.loadedModel(model)) ctx.provider.refresh();
      const node = await ctx.provider.findModel(model);
      if (node) await ctx.view.reveal(node, { select: true, focus: false, expand: true });
    },
  };
}
