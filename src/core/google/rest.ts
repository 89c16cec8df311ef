// JSON over HTTP for Google REST APIs (API Keys v2, SecOps Search v1) on undici.
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { CancelledError, GoogleApiError, throwIfAborted } from './errors';
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from './retry';
import { isLoopbackEndpoint } from '../loopback';
import type { TokenSource } from './credentials';
import { loadClientCertificate, type ClientCertSource } from './endpoints';

export const REST_CLIENT_VERSION = '0.1.0';

/** x-goog-api-client for REST calls: names Node, the HTTP library and Cloudbench, as Google's clients do. */
export function restApiClientHeader(): string {
  return `gl-node/${process.versions.node} rest/undici cloudbench/${REST_CLIENT_VERSION}`;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];

/**
 * The dispatcher for calls to Google: through the proxy of HTTPS_PROXY / HTTP_PROXY (NO_PROXY
 * honoured) when one is set, presenting the client certificate for mTLS when there is one;
 * undefined means undici's default. The loopback sandbox (`baseUrl` on 127.0.0.0/8, ::1 or
 * localhost) is never reached through a proxy, as the Vertex AI gRPC channel to it is not.
 */
export function googleDispatcher(
  clientCert?: { cert: string; key: string },
  env: Record<string, string | undefined> = process.env,
  baseUrl?: string,
): Dispatcher | undefined {
  const proxied = PROXY_VARIABLES.some((v) => env[v]) && !(baseUrl !== undefined && isLoopbackEndpoint(baseUrl));
  const tls = clientCert ? { cert: clientCert.cert, key: clientCert.key } : undefined;
  if (proxied) return new EnvHttpProxyAgent({ ...(tls ? { connect: tls, requestTls: tls } : {}) });
  if (tls) return new Agent({ connect: tls });
  return undefined;
}

export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number | boolean>;

export interface RestRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Path below the base URL, starting with "/"; segments the caller built are not re-encoded. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Safe to repeat after a transport failure or a retryable status; defaults to true for GET. */
  idempotent?: boolean;
  /** Name used in errors and logs, e.g. "apikeys.keys.create". */
  methodName?: string;
  timeoutMs?: number;
  /**
   * Reads a successful answer's body as it arrives instead of parsing it whole; what it resolves
   * with is the call's result. Error answers are still read whole and become GoogleApiErrors.
   */
  readBody?: (body: AsyncIterable<Uint8Array>) => Promise<unknown>;
  /**
   * Called once the service's answer began (its status line and headers arrived), whatever the
   * status: a call that fails before (refused connection, DNS, TLS, a timeout with no response) never
   * reached the service, and a per-call quota is not charged for it.
   */
  onAnswer?: (statusCode: number) => void;
}

export interface RestClientOptions {
  baseUrl: string;
  tokens: TokenSource;
  retry?: RetryPolicy;
  timeoutMs?: number;
  userAgent?: string;
  dispatcher?: Dispatcher;
  /** Client certificate to present (mTLS endpoints); loaded on the first call. */
  clientCert?: ClientCertSource;
  /** Called before each retry: for logs (never pass it secrets). */
  onRetry?: (methodName: string, err: unknown, attempt: number, delayMs: number) => void;
}

/** What a Google REST service's client takes: the REST client's options, its host defaulting to the service's. */
export type ServiceRestOptions = Omit<RestClientOptions, 'baseUrl' | 'userAgent'> & { baseUrl?: string };

/** The REST client of a service client (API Keys, Resource Manager): `defaultBaseUrl` unless overridden. */
export function serviceRestClient(options: ServiceRestOptions, defaultBaseUrl: string): RestClient {
  return new RestClient({
    baseUrl: options.baseUrl || defaultBaseUrl,
    tokens: options.tokens,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.clientCert ? { clientCert: options.clientCert } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
  });
}

/**
 * Encodes a query string the way Google APIs expect: every value percent-encoded (so "+" in a
 * time offset never arrives as a space), repeated keys for arrays.
 */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

function parseRetryAfter(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class RestClient {
  private readonly baseUrl: string;
  private dispatcher: Promise<Dispatcher | undefined> | undefined;
  constructor(private readonly options: RestClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`Not a valid base URL: "${options.baseUrl}"`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new TypeError(`Base URL must be http(s): "${options.baseUrl}"`);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  get base(): string {
    return this.baseUrl;
  }

  private getDispatcher(): Promise<Dispatcher | undefined> {
    if (this.options.dispatcher) return Promise.resolve(this.options.dispatcher);
    if (!this.dispatcher) {
      const source = this.options.clientCert;
      this.dispatcher = (source ? loadClientCertificate(source) : Promise.resolve(undefined)).then((cert) =>
        googleDispatcher(cert, process.env, this.baseUrl),
      );
      this.dispatcher.catch(() => (this.dispatcher = undefined));
    }
    return this.dispatcher;
  }

  async request<T>(req: RestRequest): Promise<T> {
    const idempotent = req.idempotent ?? req.method === 'GET';
    const policy = this.options.retry ?? DEFAULT_RETRY;
    const methodName = req.methodName ?? `${req.method} ${req.path}`;
    try {
      return await withRetry(
        () => this.once<T>(req, methodName, idempotent),
        idempotent ? policy : { ...policy, maxRetries: 0 },
        {
          ...(req.signal ? { signal: req.signal } : {}),
          isRetryable: (err) =>
            err instanceof GoogleApiError
              ? policy.retryable.includes(err.status)
              : !(err instanceof CancelledError) && isTransportError(err),
          onRetry: (err, attempt, delay) => this.options.onRetry?.(methodName, err, attempt, delay),
        },
      );
    } catch (err) {
      // A dropped connection reaches the user as a status with advice, never as a bare socket error;
      // for a call that changes something, whether the server applied it is unknown.
      if (isTransportError(err)) throw transportFailure(methodName, err, idempotent);
      throw err;
    }
  }

  /** Server time minus local time, from the last response's Date header (0 until one arrived). */
  serverClockOffsetMs = 0;

  /** The server's time now, as its last Date header said (to the second), for server-side windows. */
  serverNow(): number {
    return Date.now() + this.serverClockOffsetMs;
  }

  private noteServerDate(header: string | string[] | undefined): void {
    const value = Array.isArray(header) ? header[0] : header;
    const server = value ? Date.parse(value) : NaN;
    if (Number.isFinite(server)) this.serverClockOffsetMs = server - Date.now();
  }

  private async once<T>(req: RestRequest, methodName: string, idempotent: boolean): Promise<T> {
    throwIfAborted(req.signal);
    const url = this.baseUrl + req.path + encodeQuery(req.query);
    // The token is asked for this exact URL, so the token policy sees where it would go.
    const token = await this.options.tokens.getAccessToken(url, req.signal);
    const timeoutMs = req.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'user-agent': this.options.userAgent ?? 'cloudbench',
      'x-goog-api-client': restApiClientHeader(),
      ...(await this.options.tokens.requestHeaders?.(req.signal)),
      ...req.headers,
    };
    const dispatcher = await this.getDispatcher();
    let body: string | undefined;
    if (req.body !== undefined) {
      body = JSON.stringify(req.body);
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      if (req.signal?.aborted) throw new CancelledError();
      if (timeout.aborted) throw deadlineExceeded(methodName, timeoutMs, idempotent);
      throw err;
    }
    req.onAnswer?.(res.statusCode);
    this.noteServerDate(res.headers['date']);
    if (req.readBody && res.statusCode < 300) {
      try {
        return (await req.readBody(res.body)) as T;
      } catch (err) {
        if (req.signal?.aborted) throw new CancelledError();
        if (timeout.aborted) throw deadlineExceeded(methodName, timeoutMs, idempotent);
        throw err;
      } finally {
        // A reader that stopped early must not leave the connection busy with the rest of the body.
        if (!res.body.readableEnded) res.body.destroy();
      }
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      if (req.signal?.aborted) throw new CancelledError();
      throw err;
    }
    let json: unknown;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        if (res.statusCode < 300)
          throw new GoogleApiError('INTERNAL', `${methodName} answered with a body that is not JSON`, {
            httpStatus: res.statusCode,
            method: methodName,
          });
      }
    }
    if (res.statusCode >= 300) {
      const err = GoogleApiError.fromRest(res.statusCode, json, methodName);
      const retryAfterMs = parseRetryAfter(res.headers['retry-after']);
      if (retryAfterMs !== undefined) {
        throw new GoogleApiError(err.status, err.message, { ...err.options, retryAfterMs });
      }
      throw err;
    }
    return (json ?? {}) as T;
  }
}

function deadlineExceeded(methodName: string, timeoutMs: number, idempotent: boolean): GoogleApiError {
  const limit = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`;
  // The server may still carry out a change the client stopped waiting for.
  const outcome = idempotent
    ? ''
    : '; the change may or may not have been applied, so refresh to check before trying again';
  return new GoogleApiError('DEADLINE_EXCEEDED', `${methodName} took longer than ${limit}${outcome}`, {
    method: methodName,
  });
}

function transportFailure(methodName: string, err: unknown, idempotent: boolean): GoogleApiError {
  const code = String((err as { code?: unknown }).code);
  const message = idempotent
    ? `${methodName}: the connection to the server failed (${code})`
    : `${methodName}: the connection failed (${code}) before the server answered, so the change may or may not have been applied; refresh to check before trying again`;
  return new GoogleApiError('UNAVAILABLE', message, { method: methodName });
}

/** Connection resets and refusals: worth retrying for an idempotent call. */
export function isTransportError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/.test(
      code,
    )
  );
}
