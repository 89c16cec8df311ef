// Small conversions shared by the sandbox's gRPC services.
import { createHash } from 'node:crypto';
import { invalidArgument } from './errors';
import { ResourceNameError } from '../../core/names';

export interface Timestamp {
  seconds: number;
  nanos: number;
}

export function timestamp(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: Math.round((ms - seconds * 1000) * 1e6) };
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON as google.protobuf.Value (the shape protobufjs' fromObject takes). */
export function jsonToValue(value: Json): Record<string, unknown> {
  if (value === null) return { nullValue: 'NULL_VALUE' };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  if (Array.isArray(value)) return { listValue: { values: value.map(jsonToValue) } };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) fields[k] = jsonToValue(v);
  return { structValue: { fields } };
}

/** google.protobuf.Value (decoded with oneofs) back to JSON. */
export function valueToJson(value: unknown): Json {
  if (!value || typeof value !== 'object') return null;
  const v = value as {
    kind?: string;
    numberValue?: number;
    stringValue?: string;
    boolValue?: boolean;
    listValue?: { values?: unknown[] | null } | null;
    structValue?: { fields?: Record<string, unknown> | null } | null;
  } & Record<string, unknown>;
  const kind = v.kind ?? Object.keys(v).find((k) => v[k] !== null && v[k] !== undefined && k.endsWith('Value'));
  switch (kind) {
    case 'numberValue':
      return Number(v.numberValue);
    case 'stringValue':
      return String(v.stringValue);
    case 'boolValue':
      return Boolean(v.boolValue);
    case 'listValue':
      return (v.listValue?.values ?? []).map(valueToJson);
    case 'structValue': {
      const out: Record<string, Json> = {};
      for (const [k, f] of Object.entries(v.structValue?.fields ?? {})) out[k] = valueToJson(f);
      return out;
    }
    default:
      return null;
  }
}

/** Runs a name parser from core/names, turning its refusal into INVALID_ARGUMENT naming the field. */
export function parseName<T>(field: string, value: unknown, parse: (input: string) => T): T {
  if (typeof value !== 'string' || value === '')
    throw invalidArgument(`${field} is required.`, [{ field, description: 'required field is empty' }]);
  try {
    return parse(value);
  } catch (err) {
    if (err instanceof ResourceNameError)
      throw invalidArgument(`Invalid ${field}: ${err.message}`, [{ field, description: err.message }]);
    throw err;
  }
}

// ----- paging -------------------------------------------------------------------------------------

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

interface TokenBody {
  /** Fingerprint of the request the token belongs to: the same parent, filter and order. */
  f: string;
  /** Offset of the next item. */
  o: number;
}

function fingerprint(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 16);
}

/**
 * Pages a fully computed, stably ordered list. Tokens are opaque (base64url JSON bound to the query), so
 * a token from another query or a hand-made one is refused with INVALID_ARGUMENT as the real API does.
 */
export function paginate<T>(
  items: readonly T[],
  request: { pageSize?: number | null; pageToken?: string | null },
  query: unknown,
): { page: T[]; nextPageToken: string } {
  const pageSize = Number(request.pageSize ?? 0);
  if (!Number.isInteger(pageSize) || pageSize < 0)
    throw invalidArgument(`page_size must not be negative, got ${pageSize}.`, [
      { field: 'page_size', description: 'must be >= 0' },
    ]);
  const size = pageSize === 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
  const fp = fingerprint(query);
  let offset = 0;
  const token = request.pageToken ?? '';
  if (token !== '') {
    let body: TokenBody | undefined;
    try {
      const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
      if (
        parsed &&
        typeof parsed === 'object' &&
        typeof (parsed as TokenBody).f === 'string' &&
        Number.isInteger((parsed as TokenBody).o)
      )
        body = parsed as TokenBody;
    } catch {
      body = undefined;
    }
    if (!body || body.o < 0)
      throw invalidArgument('Invalid page_token: it was not issued by this service.', [
        { field: 'page_token', description: 'malformed page token' },
      ]);
    if (body.f !== fp)
      throw invalidArgument('Invalid page_token: it belongs to a request with different parameters.', [
        { field: 'page_token', description: 'token does not match the request' },
      ]);
    offset = body.o;
  }
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  const nextPageToken =
    next < items.length
      ? Buffer.from(JSON.stringify({ f: fp, o: next } satisfies TokenBody)).toString('base64url')
      : '';
  return { page, nextPageToken };
}

// ----- field masks --------------------------------------------------------------------------------

export function camelCase(path: string): string {
  return path.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Keeps only the top-level fields a read mask names (snake_case or camelCase); an empty mask keeps all. */
export function applyReadMask<T extends Record<string, unknown>>(
  message: T,
  mask: { paths?: string[] | null } | null | undefined,
  always: string[] = ['name'],
): T {
  const paths = mask?.paths ?? [];
  if (paths.length === 0) return message;
  const keep = new Set([...always, ...paths.map((p) => camelCase(p.split('.')[0]))]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) if (keep.has(k)) out[k] = v;
  return out as T;
}

/** A deterministic 19-digit id like the numeric ids Vertex assigns. */
export function numericId(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex').slice(0, 15);
  const n = (BigInt('0x' + hex) % 9_000_000_000_000_000_000n) + 1_000_000_000_000_000_000n;
  return n.toString();
}
