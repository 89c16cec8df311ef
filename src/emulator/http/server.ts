// The sandbox's HTTP half: API Keys v2 REST, Resource Manager v3 projects, Search API v1 and the /sandbox/v1 admin calls on one
// node:http server. Every API call passes the same gates in order: route, credentials, injected
// faults, rate limit, handler; every failure is a Google JSON error body.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApiError, faultError } from './errors';
import { handleAdmin, type AdminDeps } from './admin-api';
import { StreamedJson } from '../../core/json-pieces';
import { writeStreamedJson } from './json-stream';
import { matchKeysRoute } from './keys-api';
import { matchListsRoute } from './lists-api';
import { matchProjectsRoute } from './projects-api';
import { matchSearchRoute } from './search-api';
import { RateLimiter } from './ratelimit';
import { Params, parseJson, parseQuery, readBody } from './request';
import type { Route } from './route';
import { EventStore } from '../events-data/store';
import { KeyStore } from '../keys-data/store';
import type { FaultInjector, RunningServer, SandboxClock, SandboxPart, SeedName } from '../types';

export interface HttpSandboxOptions {
  host: string;
  port: number;
  clock: SandboxClock;
  faults: FaultInjector;
  seed: SeedName;
  parts: { models: SandboxPart };
}

const API_BODY_LIMIT = 4 * 1024 * 1024;
const ADMIN_BODY_LIMIT = 512 * 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, err: unknown): void {
  const e =
    err instanceof ApiError
      ? err
      : new ApiError('INTERNAL', `Internal error in the sandbox: ${(err as Error)?.message ?? String(err)}`);
  send(res, e.httpStatus, e.body(), e.headers);
}

/** Admin calls need no credentials; every API call needs a bearer token (any non-empty one). */
function checkCredentials(req: IncomingMessage, params: Params): void {
  const auth = req.headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S.*)$/i.exec(auth) : null;
  if (bearer && bearer[1].trim() !== '') return;
  const apiKey = req.headers['x-goog-api-key'] ?? params.query.values.get('key')?.[0];
  if (apiKey) {
    throw new ApiError(
      'UNAUTHENTICATED',
      'API keys are not supported by this API. Expected OAuth2 access token or other authentication credentials that assert a principal.',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'CREDENTIALS_MISSING',
          domain: 'googleapis.com',
        },
      ],
    );
  }
  throw new ApiError(
    'UNAUTHENTICATED',
    'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'CREDENTIALS_MISSING', domain: 'googleapis.com' }],
    { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' },
  );
}

function splitPath(rawPath: string): string[] {
  const parts = rawPath.split('/').slice(1);
  return parts.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      throw new ApiError('INVALID_ARGUMENT', `The path segment "${p}" is not correctly URL-encoded.`);
    }
  });
}

export async function startHttpSandbox(options: HttpSandboxOptions): Promise<RunningServer> {
  const { clock, faults } = options;
  const keys = new KeyStore(clock);
  const events = new EventStore(() => clock.now());
  const limiter = new RateLimiter(clock);
  const calls = new Map<string, number>();
  const deps: AdminDeps = { clock, faults, keys, events, limiter, models: options.parts.models, calls };
  keys.reset(options.seed);
  events.reset(options.seed);

  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const rawQuery = q === -1 ? '' : url.slice(q + 1);
    const httpMethod = (req.method ?? 'GET').toUpperCase();
    let bodyRead: Promise<unknown> | undefined;
    const readJson = (limit: number) => (): Promise<unknown> => (bodyRead ??= readBody(req, limit).then(parseJson));

    if (rawPath.startsWith('/sandbox/v1/')) {
      const action = splitPath(rawPath).slice(2).join('/');
      send(res, 200, await handleAdmin(httpMethod, action, readJson(ADMIN_BODY_LIMIT), deps));
      return;
    }

    const segments = splitPath(rawPath);
    const params = new Params(parseQuery(rawQuery));
    const route: Route | undefined =
      matchKeysRoute(httpMethod, segments, keys) ??
      matchSearchRoute(httpMethod, segments, events, () => clock.now()) ??
      matchListsRoute(httpMethod, segments, events) ??
      matchProjectsRoute(httpMethod, segments);
    if (!route) {
      throw new ApiError(
        'NOT_FOUND',
        `The requested URL ${rawPath} was not found on this server (no ${httpMethod} method there).`,
      );
    }
    checkCredentials(req, params);
    calls.set(route.method, (calls.get(route.method) ?? 0) + 1);

    const decision = faults.decide(route.method);
    if (decision.latencyMs > 0) await new Promise((r) => setTimeout(r, decision.latencyMs));
    if (decision.kind === 'reset') {
      req.socket.destroy();
      return;
    }
    if (decision.kind === 'error') throw faultError(decision.code);

    if (route.method.startsWith('secops.')) {
      // The Search API documents that special characters must be percent-encoded; a raw "+" is refused.
      const plus = [...params.query.rawPlus];
      if (plus.length > 0) {
        throw new ApiError(
          'INVALID_ARGUMENT',
          `The value of ${plus.join(', ')} contains an unencoded "+". Special characters in parameter values must be URL-encoded (write "+" as %2B and a space as %20).`,
          [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: plus.map((field) => ({ field, description: 'unencoded "+"' })),
            },
          ],
        );
      }
      limiter.admit(route.method);
    }

    const result = await route.handle({ httpMethod, segments, params, req, readJson: readJson(API_BODY_LIMIT) });
    if (result instanceof StreamedJson)
      await writeStreamedJson(res, 200, result, decision.kind === 'none' ? decision.body : undefined);
    else send(res, 200, result);
  }

  const server = createServer((req, res) => {
    // Like Google's front end, every answer carries the server's time: here, the sandbox clock's,
    // so clients that count from it (the 30-day undelete window) follow clock:advance.
    res.setHeader('date', new Date(clock.now()).toUTCString());
    handle(req, res).catch((err) => {
      // A body too large or malformed still gets a proper answer; drain what is left of it.
      req.resume();
      sendError(res, err);
    });
  });
  // Longer than any pause of the event loop during a bulk ingest, so a client never reuses a socket
  // the server is closing at that moment (Google's front end keeps idle connections about this long).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    address: `http://${hostForUrl}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
