// Request handling shared by every call of the Model Registry client: the request-or-flattened-fields
// rule, the routing header and the location a resource name picks, and the request shapes of the
// paged and copying calls.
import { checkLocationId } from '../names';
import type { Model } from './types';

/** A request that mixes a request message with flattened fields, or names fields a method does not flatten. */
export class RequestShapeError extends Error {
  override readonly name = 'RequestShapeError';
}

/** Either the request message or the flattened fields of the method signature, never both. */
export type RequestOrFields<Req, Fields> = { request: Req } | Fields;

/**
 * The location segment of a resource name, or undefined for project-level names. The segment picks
 * the regional host, and names come from responses too (operations, copies, listings): one that is
 * not a location id is refused here, before a host is built from it.
 */
export function locationOfName(name: string | undefined): string | undefined {
  const m = name?.match(/^projects\/[^/]+\/locations\/([^/]*)/);
  if (!m) return undefined;
  const segment = m[1];
  // "projects/p/locations/l/models/m@1": a version or alias follows the model, never the location.
  return checkLocationId(segment, name);
}

export function getPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const key of path.split('.')) cur = (cur as Record<string, unknown> | undefined)?.[key];
  return cur;
}

/** x-goog-request-params exactly as google-gax builds it: key=urlencoded(value) joined by "&". */
export function routingHeader(request: object, fields: readonly string[]): string {
  return fields
    .map((f) => [f, getPath(request, f)] as const)
    .filter(([, v]) => typeof v === 'string' && v !== '')
    .map(([f, v]) => `${f}=${encodeURIComponent(v as string)}`)
    .join('&');
}

/**
 * Accepts either `{ request }` or the flattened fields, never both, as the official clients do.
 * Flattened fields outside the method signature are refused too, so a typo is not silently dropped.
 */
export function resolveRequest<Req extends object>(method: string, input: object, flattened: readonly string[]): Req {
  const keys = Object.keys(input).filter((k) => (input as Record<string, unknown>)[k] !== undefined);
  if (keys.includes('request')) {
    const others = keys.filter((k) => k !== 'request');
    if (others.length) {
      throw new RequestShapeError(
        `${method}: pass either a request message or the flattened fields (${others.join(', ')}), not both.`,
      );
    }
    const request = (input as { request: unknown }).request;
    if (request === null || typeof request !== 'object')
      throw new RequestShapeError(`${method}: the request must be an object.`);
    return request as Req;
  }
  const unknown = keys.filter((k) => !flattened.includes(k));
  if (unknown.length) {
    throw new RequestShapeError(
      `${method}: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not a flattened field (${flattened.join(', ')}); pass a request message instead.`,
    );
  }
  return input as Req;
}

export interface ListModelsRequest {
  parent: string;
  filter?: string;
  pageSize?: number;
  pageToken?: string;
  readMask?: { paths: string[] };
}
export interface ListModelVersionsRequest {
  name: string;
  filter?: string;
  orderBy?: string;
  pageSize?: number;
  pageToken?: string;
  readMask?: { paths: string[] };
}
export interface PagedNameRequest {
  name: string;
  pageSize?: number;
  pageToken?: string;
}
export interface PagedParentRequest {
  parent: string;
  filter?: string;
  pageSize?: number;
  pageToken?: string;
}
export interface UploadModelRequest {
  parent: string;
  model: Model;
  modelId?: string;
  parentModel?: string;
  serviceAccount?: string;
}
export interface CopyModelRequest {
  parent: string;
  sourceModel: string;
  modelId?: string;
  parentModel?: string;
  encryptionSpec?: { kmsKeyName: string };
  customServiceAccount?: string;
}
