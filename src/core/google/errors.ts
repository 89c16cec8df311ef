// One error type for every Google API failure, whether it came over gRPC or REST, so features
// explain failures the same way whatever the transport.
import { isLoopbackHost } from '../loopback';
import {
  deletePreconditionAdvice,
  isBarePrecondition,
  permissionSentence,
  preconditionSentence,
  requirementOf,
} from './method-requirements';

export const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;
export type StatusName = (typeof STATUS_NAMES)[number];

/** google.rpc.Code names with the HTTP status each maps to (from code.proto); the sandbox answers with the same table. */
export const HTTP_FOR_STATUS: Readonly<Record<StatusName, number>> = {
  OK: 200,
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
};

export function isStatusName(value: unknown): value is StatusName {
  return typeof value === 'string' && (STATUS_NAMES as readonly string[]).includes(value);
}

export function statusFromGrpcCode(code: number): StatusName {
  return STATUS_NAMES[code] ?? 'UNKNOWN';
}

export function grpcCodeFor(status: StatusName): number {
  return STATUS_NAMES.indexOf(status);
}

export function httpStatusFor(status: StatusName): number {
  return HTTP_FOR_STATUS[status];
}

/** The status Google's REST APIs report for an HTTP code when the body names none. */
export function statusFromHttp(httpStatus: number): StatusName {
  switch (httpStatus) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 412:
      return 'FAILED_PRECONDITION';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return httpStatus >= 500 ? 'INTERNAL' : 'UNKNOWN';
  }
}

/** The JSON error body Google REST APIs send: {"error":{"code","message","status"}}. */
export interface ErrorBody {
  error: { code: number; message: string; status: StatusName; details?: unknown[] };
}

export function errorBody(status: StatusName, message: string, details?: unknown[]): ErrorBody {
  return { error: { code: httpStatusFor(status), message, status, ...(details ? { details } : {}) } };
}

export class GoogleApiError extends Error {
  override readonly name = 'GoogleApiError';
  /** Numeric gRPC code of `status`. */
  readonly code: number;
  constructor(
    readonly status: StatusName,
    message: string,
    readonly options: { httpStatus?: number; details?: unknown[]; retryAfterMs?: number; method?: string } = {},
  ) {
    super(message);
    this.code = grpcCodeFor(status);
  }
  get httpStatus(): number {
    return this.options.httpStatus ?? httpStatusFor(this.status);
  }
  get details(): unknown[] {
    return this.options.details ?? [];
  }
  get retryAfterMs(): number | undefined {
    return this.options.retryAfterMs;
  }

  /** Builds the error from a decoded REST error body, tolerating bodies that are not Google's shape. */
  static fromRest(httpStatus: number, body: unknown, method?: string): GoogleApiError {
    const err = (body as { error?: { message?: unknown; status?: unknown; details?: unknown } } | undefined)?.error;
    // A body that says UNKNOWN tells less than the HTTP code (412 Precondition Failed, say).
    const status = isStatusName(err?.status) && err.status !== 'UNKNOWN' ? err.status : statusFromHttp(httpStatus);
    const message = typeof err?.message === 'string' && err.message !== '' ? err.message : `HTTP ${httpStatus}`;
    const details = Array.isArray(err?.details) ? err.details : undefined;
    return new GoogleApiError(status, message, {
      httpStatus,
      ...(details ? { details } : {}),
      ...(method ? { method } : {}),
    });
  }

  /** Builds the error from a @grpc/grpc-js ServiceError-like object. */
  static fromGrpc(err: { code?: number; details?: string; message?: string }, method?: string): GoogleApiError {
    const status = typeof err.code === 'number' ? statusFromGrpcCode(err.code) : 'UNKNOWN';
    const message = err.details || err.message || status;
    return new GoogleApiError(status, message, method ? { method } : {});
  }
}

/** The user (or a caller's AbortSignal) stopped the work: shown to nobody, logged at debug. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

/**
 * A call on a client that was closed because the settings changed (a new client replaced it) or the
 * window is closing: the call never reached the service, and the current client may make it again.
 */
export class ClientClosedError extends Error {
  override readonly name = 'ClientClosedError';
  constructor(service: string) {
    super(`The ${service} client is closed (the connection was rebuilt).`);
  }
}

/**
 * A failure that says nothing about the resource, only that this side could not talk to the service
 * for now: the client was closed or rebuilt, the connection was refused or dropped, the service
 * answered UNAVAILABLE. Whatever was being followed may be asked about again through a new connection.
 */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof ClientClosedError) return true;
  if (err instanceof GoogleApiError) return err.status === 'UNAVAILABLE' || refusedAddress(err.message) !== undefined;
  return isBareError(err) && networkErrorCode(err) !== undefined;
}

/** "127.0.0.1:18402" from gRPC's "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:18402. …". */
function refusedAddress(text: string): string | undefined {
  return /\bconnect ECONNREFUSED ((?:\[[^\]]+\]|[^\s.:]+(?:\.[^\s.:]+)*):\d+)/.exec(text)?.[1];
}

/** An address (host:port) that refused the connection, from the error or its causes. */
function refusedAddressOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const fields = e as { code?: unknown; address?: unknown; port?: unknown; message?: unknown };
    if (fields.code === 'ECONNREFUSED' && typeof fields.address === 'string')
      return typeof fields.port === 'number' ? hostPort(fields.address, fields.port) : fields.address;
    if (typeof fields.message === 'string') {
      const found = refusedAddress(fields.message);
      if (found) return found;
    }
  }
  return undefined;
}

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The sentence for a refused connection: the loopback is the built-in sandbox, anything else a service. */
function refusedConnection(address: string): FailureDescription {
  const host = address.replace(/:\d+$/, '');
  return isLoopbackHost(host)
    ? {
        what: `The sandbox at ${address} refused the connection (UNAVAILABLE): it is not running, or it is restarting`,
        next: 'Start the sandbox (Cloudbench: Start Local Sandbox, or npm start) or wait for it to come back, then try again.',
      }
    : {
        what: `The service at ${address} refused the connection (UNAVAILABLE)`,
        next: HINTS.UNAVAILABLE,
      };
}

export function isCancellation(err: unknown): boolean {
  if (err instanceof CancelledError) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'CancelledError';
}

/** Throws CancelledError if the signal was aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/**
 * The one description of a failure, used by every place that shows one (Check Connection, tree
 * rows, panels, toasts, the log): what happened, then the next step. A Google API error by its
 * status and method (the method's permission, preconditions or etag rule), a timeout as
 * DEADLINE_EXCEEDED with the setting to raise, a network failure as UNAVAILABLE, a user's cancel as
 * "Cancelled.".
 */
export function describeError(err: unknown): string {
  const { what, next } = describeFailure(err);
  return next ? `${what}. ${next}` : what;
}

/** A failure in two parts: what happened, and the next step (none when the message already says it). */
export interface FailureDescription {
  what: string;
  next?: string;
}

/** describeError in its two parts, for reports that show them apart (Check Connection). */
export function describeFailure(err: unknown): FailureDescription {
  const refused = err instanceof GoogleApiError || isBareError(err) ? refusedAddressOf(err) : undefined;
  if (refused) return refusedConnection(refused);
  if (err instanceof GoogleApiError) return describeApiError(err);
  if (isTimeout(err))
    return { what: 'The call took longer than allowed (DEADLINE_EXCEEDED)', next: HINTS.DEADLINE_EXCEEDED };
  if (isCancellation(err)) return { what: 'Cancelled.' };
  // A bare socket or fetch failure; Cloudbench's own errors (credentials, say) already name the host and the fix.
  const network = isBareError(err) ? networkErrorCode(err) : undefined;
  if (network) return { what: `The service could not be reached (${network}, UNAVAILABLE)`, next: HINTS.UNAVAILABLE };
  if (err instanceof Error) return { what: err.message };
  return { what: String(err) };
}

function describeApiError(err: GoogleApiError): FailureDescription {
  const what = `${err.message.trim() || `HTTP ${err.httpStatus}`} (${statusLabel(err)})`;
  // User credentials without a quota project: the fix is a setting, not a role.
  if (err.status === 'PERMISSION_DENIED' && /quota project/i.test(err.message))
    return {
      what,
      next: 'Set cloudbench.quotaProject (or GOOGLE_CLOUD_QUOTA_PROJECT), or run `gcloud auth application-default set-quota-project PROJECT`.',
    };
  // A token without the API's scope (typically a gcloud login used for SecOps).
  if (isScopeInsufficient(err))
    return {
      what,
      next: `The token lacks a scope this API needs; for SecOps sign in with \`${ADC_SECOPS_LOGIN}\`, or choose the SecOps service-account key file in cloudbench.secops.credentialsFile.`,
    };
  if (err.status === 'PERMISSION_DENIED' && /has not been used|is disabled|SERVICE_DISABLED/i.test(err.message))
    return { what, next: 'Enable the API in the project (or the quota project), then try again.' };
  // The method's own needs (permission and role, or preconditions) teach more than a general hint.
  const requirement = requirementOf(err.options.method);
  if (requirement && err.status === 'PERMISSION_DENIED') return { what, next: permissionSentence(requirement) };
  const staleEtag = staleEtagAdvice(err);
  if (staleEtag) return { what, next: staleEtag };
  if (err.status === 'FAILED_PRECONDITION') {
    // A precondition failure that names no reason of its own: the method's documented preconditions.
    const preconditions = isBarePrecondition(err.message) && requirement && preconditionSentence(requirement);
    if (preconditions) return { what, next: preconditions };
    // A delete refused for the reason its message names: what to change first.
    const deleteAdvice = deletePreconditionAdvice(err.options.method, err.message);
    if (deleteAdvice) return { what, next: deleteAdvice };
  }
  return { what, next: HINTS[err.status] };
}

/** "FAILED_PRECONDITION", or "HTTP 412, FAILED_PRECONDITION" when the HTTP code says more than the status. */
function statusLabel(err: GoogleApiError): string {
  return err.options.httpStatus !== undefined && err.options.httpStatus !== httpStatusFor(err.status)
    ? `HTTP ${err.options.httpStatus}, ${err.status}`
    : err.status;
}

/** Methods that send an etag: a 412, ABORTED or etag conflict means the resource changed since it was read. */
const ETAG_METHODS: Record<string, string> = {
  'apikeys.keys.patch': 'key',
  'apikeys.keys.delete': 'key',
  UpdateModel: 'model',
  SetIamPolicy: 'IAM policy',
};

function staleEtagAdvice(err: GoogleApiError): string | undefined {
  const method = err.options.method?.slice(err.options.method.lastIndexOf('/') + 1);
  const thing = method ? ETAG_METHODS[method] : undefined;
  const conflict =
    err.httpStatus === 412 ||
    err.status === 'ABORTED' ||
    (err.status === 'FAILED_PRECONDITION' && /etag/i.test(err.message));
  if (!conflict) return undefined;
  if (thing) return `The ${thing} changed since it was loaded (its etag is stale); refresh and try again.`;
  if (err.httpStatus === 412)
    return 'A condition of the request no longer holds (the resource changed since it was loaded); refresh and try again.';
  return undefined;
}

function isBareError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const proto: unknown = Object.getPrototypeOf(err);
  return proto === Error.prototype || proto === TypeError.prototype;
}

/** An AbortSignal.timeout() that fired: the deadline, not the user. */
export function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || (err instanceof GoogleApiError && err.status === 'DEADLINE_EXCEEDED');
}

const NETWORK_CODES =
  /^(ECONNRESET|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|ETIMEDOUT|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/;

/** The system or undici code of a failure to reach the server (also inside fetch's "fetch failed" cause). */
export function networkErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return code;
  }
  return undefined;
}

const UNEXPECTED_STATUSES: ReadonlySet<StatusName> = new Set(['UNKNOWN', 'INTERNAL', 'DATA_LOSS', 'UNIMPLEMENTED']);

/**
 * Failures that are part of ordinary use (bad input, permissions, not found, throttling, network,
 * credentials, settings): logged as one warning line. The rest (server errors, bugs) keep their stack.
 */
export function isExpectedFailure(err: unknown): boolean {
  if (err instanceof GoogleApiError) return !UNEXPECTED_STATUSES.has(err.status);
  if (isCancellation(err) || isTimeout(err) || networkErrorCode(err)) return true;
  if (!(err instanceof Error)) return false;
  // The language's own errors are programming mistakes; Cloudbench's are said to the user on purpose.
  return !(
    err instanceof TypeError ||
    err instanceof ReferenceError ||
    err instanceof RangeError ||
    err instanceof SyntaxError ||
    err instanceof EvalError ||
    err instanceof URIError
  );
}

/**
 * The few words of a failure that a narrow row shows first: for a refused call, the role to ask
 * for (then the permission). undefined when the full message is all there is to say.
 */
export function briefError(err: unknown): string | undefined {
  if (!(err instanceof GoogleApiError) || err.status !== 'PERMISSION_DENIED') return undefined;
  if (/quota project/i.test(err.message) || isScopeInsufficient(err)) return undefined;
  const requirement = requirementOf(err.options.method);
  return requirement ? `needs ${requirement.roles.join(' or ')} (${requirement.permission})` : undefined;
}

const ADC_SECOPS_LOGIN =
  'gcloud auth application-default login --scopes=https://www.googleapis.com/auth/cloud-platform,https://www.googleapis.com/auth/chronicle-backstory';

/**
 * A call refused because the token lacks the API's scope (typically a gcloud login used for
 * SecOps): Google says so in the message and with the ErrorInfo reason ACCESS_TOKEN_SCOPE_INSUFFICIENT.
 */
export function isScopeInsufficient(err: unknown): boolean {
  if (!(err instanceof GoogleApiError) || err.status !== 'PERMISSION_DENIED') return false;
  if (/insufficient authentication scopes|ACCESS_TOKEN_SCOPE_INSUFFICIENT/i.test(err.message)) return true;
  return err.details.some((d) => (d as { reason?: unknown } | null)?.reason === 'ACCESS_TOKEN_SCOPE_INSUFFICIENT');
}

/** A button for an API failure whose fix is known: a command to run or a command line to copy. */
export interface ApiErrorFix {
  label: string;
  command?: string;
  copy?: string;
}

/** The buttons an API failure offers beside its message (the scope login to copy, for one). */
export function apiErrorFixes(err: unknown): ApiErrorFix[] {
  if (isScopeInsufficient(err))
    return [
      { label: 'Copy Command', copy: ADC_SECOPS_LOGIN },
      { label: 'Choose SecOps Key File…', command: 'cloudbench.chooseSecOpsCredentialsFile' },
    ];
  return [];
}

/** What to do next, for every status (the method-specific guidance above comes first). */
const HINTS: Record<StatusName, string> = {
  OK: 'The call succeeded; nothing to do.',
  CANCELLED: 'The call was cancelled before it finished; run it again if it is still needed.',
  UNKNOWN: 'The service failed without saying why; try again, and see the logs if it keeps failing.',
  INVALID_ARGUMENT: 'The service refused a value of the request; correct the value it names and try again.',
  DEADLINE_EXCEEDED: 'Try again, or raise cloudbench.requests.timeoutSeconds.',
  NOT_FOUND: 'It does not exist (any more); refresh the view, and check the project and location.',
  ALREADY_EXISTS: 'Something with that name exists already; choose another name or use the existing one.',
  PERMISSION_DENIED: 'Ask a project owner for the role this action needs.',
  RESOURCE_EXHAUSTED: 'A quota or rate limit was reached; wait a moment and try again.',
  FAILED_PRECONDITION:
    'The resource is not in a state that allows this (the message says which); change that state first, then try again.',
  ABORTED: 'Another change to the same resource got there first; refresh and try again.',
  OUT_OF_RANGE:
    'A value is outside the range the service accepts (a page token or offset past the end); refresh and try again.',
  UNIMPLEMENTED: 'The service (or this endpoint) does not offer this call; check the endpoint settings.',
  INTERNAL: 'The service failed; try again later, and see the logs if it keeps failing.',
  UNAVAILABLE:
    'The service could not be reached; check the network, any proxy (HTTPS_PROXY) and the endpoint settings, then try again.',
  DATA_LOSS: 'The service reports lost or corrupt data; contact the administrator of the service.',
  UNAUTHENTICATED: 'Sign in again: run `gcloud auth application-default login` or choose a credentials file.',
};
