// The operations the Model Registry reports for a location (the Operations mixin's ListOperations),
// whoever started them (gcloud, a pipeline, CI, another window): each read defensively (a bad
// shape is skipped and counted, never shown half-read), named by what it does, and kept when it is
// running or finished recently.
import { parseOperationName } from '../names';
import { OPERATION_TYPES, type OperationKind } from './operation';
import type { ModelOperationMetadata, Operation } from './types';
import { timestampToDate } from './types';
import { typeNameOfUrl, unpackAny } from './wire';

export type ServerOperationState = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface ServerOperation {
  name: string;
  /** The RPC that started it ("CopyModel"), from the metadata's type; "" when unknown. */
  method: string;
  /** The kind the operation runner follows it as, when known. */
  kind: OperationKind | undefined;
  /** The model or endpoint the operation belongs to (from its name), else its location. */
  resource: string;
  location: string;
  state: ServerOperationState;
  started: Date | undefined;
  /** Last update; the end when finished. */
  updated: Date | undefined;
  /** The server's error message of a failed operation. */
  error: string | undefined;
  /** What a finished operation made (a copy's or upload's model, with its version). */
  result: string | undefined;
}

/** How long a finished operation stays listed. */
export const RECENT_MS = 60 * 60 * 1000;

const KIND_OF_METHOD: Record<string, OperationKind> = {
  UploadModel: 'upload',
  CopyModel: 'copy',
  ExportModel: 'export',
  DeleteModel: 'delete',
  CreateEndpoint: 'createEndpoint',
  DeployModel: 'deploy',
  UndeployModel: 'undeploy',
  DeleteEndpoint: 'deleteEndpoint',
};

const METHOD_OF_METADATA = new Map<string, string>(
  Object.entries(KIND_OF_METHOD)
    .filter(([, kind]) => !kind.startsWith('delete'))
    .map(([method, kind]) => [OPERATION_TYPES[kind].metadata, method]),
);

/** The method from the metadata type; a delete's metadata is shared, so its resource decides. */
function methodOf(metadataType: string, resource: string): string {
  const known = METHOD_OF_METADATA.get(metadataType);
  if (known) return known;
  if (metadataType.endsWith('.DeleteOperationMetadata'))
    return /\/endpoints\/[^/]+$/.test(resource)
      ? 'DeleteEndpoint'
      : /\/models\/[^/]+$/.test(resource)
        ? 'DeleteModel'
        : 'Delete';
  const m = /\.([A-Za-z]+)OperationMetadata$/.exec(metadataType);
  return m ? m[1] : '';
}

function validTimestamp(ts: unknown): Date | undefined {
  if (!ts || typeof ts !== 'object') return undefined;
  const d = timestampToDate(ts);
  return d && Number.isFinite(d.getTime()) ? d : undefined;
}

/** One listed operation, or undefined when its shape is not an operation of this service. */
export function readServerOperation(op: unknown): ServerOperation | undefined {
  if (!op || typeof op !== 'object') return undefined;
  const o = op as Operation;
  if (typeof o.name !== 'string') return undefined;
  let parsed;
  try {
    parsed = parseOperationName(o.name);
  } catch {
    return undefined;
  }
  if (parsed.kind !== 'resource') return undefined;
  const location = parsed.parent.split('/').slice(0, 4).join('/');
  const resource = parsed.parent;
  const any = o.metadata && typeof o.metadata === 'object' ? o.metadata : undefined;
  const metadataType = typeof any?.type_url === 'string' ? typeNameOfUrl(any.type_url) : '';
  let meta: ModelOperationMetadata | undefined;
  try {
    meta = unpackAny<ModelOperationMetadata>(any);
  } catch {
    meta = undefined;
  }
  const method = methodOf(metadataType, resource);
  const done = o.done === true;
  const code = typeof o.error?.code === 'number' ? o.error.code : 0;
  const state: ServerOperationState = !done
    ? 'running'
    : code === 1
      ? 'cancelled'
      : code !== 0
        ? 'failed'
        : 'succeeded';
  let result: string | undefined;
  if (state === 'succeeded' && (method === 'CopyModel' || method === 'UploadModel')) {
    try {
      const r = unpackAny<{ model?: unknown; modelVersionId?: unknown }>(o.response);
      if (typeof r?.model === 'string' && r.model)
        result = typeof r.modelVersionId === 'string' && r.modelVersionId ? `${r.model}@${r.modelVersionId}` : r.model;
    } catch {
      result = undefined;
    }
  }
  return {
    name: o.name,
    method,
    kind: KIND_OF_METHOD[method],
    resource,
    location,
    state,
    started: validTimestamp(meta?.genericMetadata?.createTime),
    updated: validTimestamp(meta?.genericMetadata?.updateTime),
    error: state === 'failed' && typeof o.error?.message === 'string' ? o.error.message : undefined,
    result,
  };
}

/** Running ones, and finished ones updated within `recentMs` of `now` (a finished one without a time is left out). */
export function isCurrent(op: ServerOperation, now: Date, recentMs = RECENT_MS): boolean {
  if (op.state === 'running') return true;
  return !!op.updated && now.getTime() - op.updated.getTime() <= recentMs;
}

/** "CopyModel" → "Copy model"; "" → "Operation". */
export function methodWords(method: string): string {
  if (!method) return 'Operation';
  const words = method.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words[0].toUpperCase() + words.slice(1);
}
