// Request parsing shared by every route of the HTTP half: path segments, query parameters, JSON bodies.
import type { IncomingMessage } from 'node:http';
import { ApiError, invalidArgument } from './errors';

export interface ParsedQuery {
  /** Decoded parameter values, every occurrence kept. */
  values: Map<string, string[]>;
  /** Parameter names whose raw (undecoded) value held a literal "+". */
  rawPlus: Set<string>;
}

export function parseQuery(raw: string): ParsedQuery {
  const values = new Map<string, string[]>();
  const rawPlus = new Set<string>();
  if (raw === '') return { values, rawPlus };
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw invalidArgument(`The query parameter "${rawName}" is not correctly URL-encoded.`);
    }
    if (rawValue.includes('+')) rawPlus.add(name);
    const list = values.get(name);
    if (list) list.push(value);
    else values.set(name, [value]);
  }
  return { values, rawPlus };
}

/** Query parameters every Google REST API accepts besides its own (discovery "standard parameters"). */
export const STANDARD_PARAMS = new Set([
  '$alt',
  'alt',
  '$.xgafv',
  'access_token',
  'oauth_token',
  'callback',
  'fields',
  '$fields',
  'key',
  'prettyPrint',
  'quotaUser',
  'uploadType',
  'upload_protocol',
]);

/** Accessor over a request's query that refuses parameters the method does not know and repeated ones. */
export class Params {
  private readonly used = new Set<string>();
  constructor(readonly query: ParsedQuery) {}

  has(name: string): boolean {
    return this.query.values.has(name);
  }

  get(name: string): string | undefined {
    this.used.add(name);
    const list = this.query.values.get(name);
    if (!list) return undefined;
    if (list.length > 1)
      throw invalidArgument(`The query parameter "${name}" was given ${list.length} times; give it once.`, name);
    return list[0];
  }

  /** Any alias of one field (snake_case and camelCase spellings of the same field). */
  getAny(...names: string[]): string | undefined {
    let found: string | undefined;
    for (const n of names) {
      const v = this.get(n);
      if (v !== undefined) {
        if (found !== undefined)
          throw invalidArgument(
            `The query parameters ${names.join(' and ')} name the same field; give only one.`,
            names[0],
          );
        found = v;
      }
    }
    return found;
  }

  int(names: string[], min: number, max: number, def: number): number {
    const text = this.getAny(...names);
    if (text === undefined || text === '') return def;
    if (!/^-?\d+$/.test(text))
      throw invalidArgument(`Invalid value at '${names[0]}' (TYPE_INT32), "${text}"`, names[0]);
    const n = Number(text);
    if (n < min || n > max) throw invalidArgument(`${names[0]} must be between ${min} and ${max}, got ${n}.`, names[0]);
    return n;
  }

  bool(names: string[]): boolean {
    const text = this.getAny(...names);
    if (text === undefined || text === '' || text === 'false') return false;
    if (text === 'true') return true;
    throw invalidArgument(`Invalid value at '${names[0]}' (TYPE_BOOL), "${text}"`, names[0]);
  }

  /** Refuses any parameter the handler never asked for, as Google's front end does. */
  rejectUnknown(): void {
    for (const name of this.query.values.keys()) {
      if (this.used.has(name) || STANDARD_PARAMS.has(name)) continue;
      throw invalidArgument(
        `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`,
        name,
      );
    }
  }
}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit, keep draining (without keeping) so the client still receives the 400 instead of
  // a reset connection.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limitBytes) chunks.push(chunk as Buffer);
  }
  if (size > limitBytes)
    throw new ApiError(
      'INVALID_ARGUMENT',
      `The request body is ${size} bytes, larger than the limit of ${limitBytes} bytes.`,
    );
  return Buffer.concat(chunks);
}

/** JSON.parse with Google's wording for a malformed payload. An empty body reads as {}. */
export function parseJson(buf: Buffer): unknown {
  const text = buf.toString('utf8').trim();
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalidArgument(`Invalid JSON payload received. ${(err as Error).message}`);
  }
}
