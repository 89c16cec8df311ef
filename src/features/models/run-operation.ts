// What Model Registry operations bring to the one operation runner (features/operations): reads by
// name through the client of the current connection (so a rebuilt client is used from the next poll
// on), cancel and stop-waiting by name, progress from the metadata, and the resource's own state for
// Check Again (GetModel of a copy's destination, or of what a delete removed).
import type { ModelOperationMetadata, Operation } from '../../core/models/types';
import { timestampToDate } from '../../core/models/types';
import type * as OperationModuleType from '../../core/models/operation';
import type * as WireModuleType from '../../core/models/wire';
import type { ModelOperation, OperationKind, OperationsApi } from '../../core/models/operation';
import { GoogleApiError } from '../../core/google/errors';
import { ClientClosedError } from '../../core/google/errors';
import type { OperationLike } from '../../core/lro';
import type { JournalEntry } from '../operations/journal';
import type { OperationOutcome } from '../operations/outcome';
import type { OperationFollower, OperationRun } from '../operations/runner';
import type { ModelsContext } from './context';

// The proto descriptors load on first use (an operation), not when the extension activates.
/* eslint-disable @typescript-eslint/no-require-imports */
const wire = (): typeof WireModuleType => require('../../core/models/wire') as typeof WireModuleType;
const operationModule = (): typeof OperationModuleType =>
  require('../../core/models/operation') as typeof OperationModuleType;
/* eslint-enable @typescript-eslint/no-require-imports */

export type { OperationOutcome } from '../operations/outcome';

/** The operation calls of whichever client the connection has now; no client yet is a lost connection. */
export function currentOperationsApi(ctx: Pick<ModelsContext, 'client'>): OperationsApi {
  const client = () => {
    const c = ctx.client();
    // Between a settings change and the next client (or without a project): not a failure of the operation.
    if (!c) throw new ClientClosedError('Model Registry');
    return c;
  };
  return {
    getOperation: (name, opts) => client().getOperation(name, opts),
    cancelOperation: (name, opts) => client().cancelOperation(name, opts),
    deleteOperation: (name, opts) => client().deleteOperation(name, opts),
  };
}

/** Progress in words, without the elapsed time (the row and the notification show it already). */
export function progressText(op: OperationLike): string {
  const meta = wire().unpackAny<ModelOperationMetadata>(op.metadata as Operation['metadata']);
  const parts: string[] = [];
  const failures = meta?.genericMetadata?.partialFailures ?? [];
  if (failures.length) parts.push(`${failures.length} partial failure(s)`);
  if (meta?.outputInfo?.artifactOutputUri) parts.push(`to ${meta.outputInfo.artifactOutputUri}`);
  if (meta?.outputInfo?.imageOutputUri) parts.push(`to ${meta.outputInfo.imageOutputUri}`);
  const created = timestampToDate(meta?.genericMetadata?.createTime);
  if (!parts.length && created) parts.push('running on the server');
  return parts.join(', ');
}

/** What a model or version looks like now, in a sentence; NOT_FOUND is an answer too. */
async function modelState(ctx: Pick<ModelsContext, 'client'>, name: string, signal?: AbortSignal): Promise<string> {
  const client = ctx.client();
  if (!client) return `${name} could not be read: no Model Registry client (select a project).`;
  try {
    const model = await client.getModel({ name }, signal ? { signal } : {});
    return `${name} exists${model.versionId ? ` (version ${model.versionId})` : ''}.`;
  } catch (err) {
    if (err instanceof GoogleApiError && err.status === 'NOT_FOUND') return `${name} does not exist (NOT_FOUND).`;
    throw err;
  }
}

/** The resource to read for Check Again: a copy's destination (from the result when known), else what the operation acted on. */
function resourceToCheck(entry: JournalEntry, op: OperationLike | undefined): string | undefined {
  if (entry.kind === 'copy') {
    const made = op?.done
      ? wire().unpackAny<{ model?: string }>(op.response as Operation['response'])?.model
      : undefined;
    return made || entry.target;
  }
  if (entry.kind === 'delete' || entry.kind === 'deleteVersion') return entry.resource;
  return undefined;
}

/** Follows Model Registry operations by name through the current client. */
export function modelsFollower(ctx: Pick<ModelsContext, 'client'>, kind: OperationKind): OperationFollower {
  const api = currentOperationsApi(ctx);
  const byName = (name: string): ModelOperation => new (operationModule().ModelOperation)(api, kind, { name });
  return {
    get: (name, signal) => api.getOperation(name, signal ? { signal } : {}),
    cancel: async (name) => {
      const outcome = await byName(name).cancel();
      return { message: outcome.message, following: outcome.kind !== 'unsupported' };
    },
    stopWaiting: async (name) => {
      await byName(name).stopWaiting();
      return 'Stopped waiting. The operation goes on running on the server; its result will not be kept.';
    },
    progress: progressText,
    checkResource: async (entry, op, signal) => {
      const name = resourceToCheck(entry, op);
      return name ? modelState(ctx, name, signal) : undefined;
    },
  };
}

export interface ModelOperationRun<Res> {
  title: string;
  resource: string;
  kind: OperationKind;
  /** The model a copy makes, when its ID was given. */
  target?: string;
  /** Starts the operation; the signal aborts only while the start call is in flight. */
  start(signal: AbortSignal): Promise<ModelOperation<Res, ModelOperationMetadata>>;
  /** First poll interval (tests shorten it). */
  initialPollMs?: number;
}

/** Runs a Model Registry operation through the one runner; resolves with its decoded result. */
export function runModelOperation<Res>(
  ctx: ModelsContext,
  run: ModelOperationRun<Res>,
): Promise<OperationOutcome<Res>> {
  const spec: OperationRun<Res> = {
    title: run.title,
    resource: run.resource,
    source: 'models',
    kind: run.kind,
    ...(run.target ? { target: run.target } : {}),
    method: operationModule().OPERATION_METHODS[run.kind],
    follower: modelsFollower(ctx, run.kind),
    ...(run.initialPollMs !== undefined ? { initialPollMs: run.initialPollMs } : {}),
    work: async (signal, follow) => {
      const started = await run.start(signal);
      const done = await follow(started.latest);
      return wire().unpackAny<Res>(done.response as Operation['response']) ?? ({} as Res);
    },
  };
  return ctx.services.operations.run(spec);
}
