// What every service handler of the sandbox's gRPC half works with.
import type { SandboxClock } from '../types';
import type { ModelStore } from './store';
import type { OperationManager } from './operations';
import type { ProtoObject } from '../../core/proto';
import type { EncodedMessage } from './encoded';
import { invalidArgument } from './errors';

export interface ServiceContext {
  store: ModelStore;
  ops: OperationManager;
  clock: SandboxClock;
}

/**
 * A handler of one RPC; `R` is the decoded request (camelCase fields, defaults filled in; see ./messages).
 * It answers with the response as an object, or already encoded (see ./encoded).
 */
export type Handler<R> = (
  request: R,
  ctx: ServiceContext,
) => ProtoObject | EncodedMessage | Promise<ProtoObject | EncodedMessage>;

/** The handlers of one service, each typed by its request: `M` maps method names to request shapes. */
export type ServiceHandlers<M> = { [Method in keyof M]: Handler<M[Method]> };

/**
 * A service's handlers as the server dispatches them: by method name, with the request the descriptor's
 * codec decoded (whose shape is the one the handler's type names).
 */
export type AnyServiceHandlers = Partial<Record<string, Handler<never>>>;

const LABEL_KEY = /^[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u;
const LABEL_VALUE = /^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u;

/** Label rules of Google Cloud resources: at most 64, lower-case keys and values of at most 63 characters. */
export function checkLabels(labels: Record<string, string> | null | undefined, field: string): Record<string, string> {
  const out = { ...(labels ?? {}) };
  const keys = Object.keys(out);
  if (keys.length > 64)
    throw invalidArgument(`${field} has ${keys.length} labels; at most 64 are allowed.`, [
      { field, description: 'too many labels' },
    ]);
  for (const key of keys) {
    if (!LABEL_KEY.test(key)) {
      throw invalidArgument(
        `Label key "${key}" in ${field} is invalid: keys start with a lower-case letter and hold at most 63 lower-case letters, digits, "_" or "-".`,
        [{ field: `${field}.${key}`, description: 'invalid label key' }],
      );
    }
    if (!LABEL_VALUE.test(out[key])) {
      throw invalidArgument(
        `Label value "${out[key]}" of "${key}" in ${field} is invalid: values hold at most 63 lower-case letters, digits, "_" or "-".`,
        [{ field: `${field}.${key}`, description: 'invalid label value' }],
      );
    }
  }
  return out;
}

export function requireField(value: unknown, field: string): void {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    throw invalidArgument(`${field} is required.`, [{ field, description: 'required field is not set' }]);
  }
}

/** Field mask paths in camelCase; an empty mask is refused where the API requires one. */
export function maskPaths(mask: { paths?: string[] | null } | null | undefined): string[] {
  return (mask?.paths ?? []).map((p) => p.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));
}
