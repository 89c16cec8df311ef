import type { IncomingMessage } from 'node:http';
import type { Params } from './request';

export interface RequestContext {
  httpMethod: string;
  /** Decoded path segments after the leading slash. */
  segments: string[];
  params: Params;
  req: IncomingMessage;
  readJson(): Promise<unknown>;
}

export interface Route {
  /** Name used by fault rules and rate limits, e.g. "apikeys.keys.create" or "secops.udmSearch". */
  method: string;
  /** The response body (or a promise of it). */
  handle(ctx: RequestContext): unknown;
}
