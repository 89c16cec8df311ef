// One error type for every Google API failure, whether it came over gRPC or REST, so features
// explain failures the same way whatever the transport.
import { isBarePrecondition, permissionSentence, preconditionSentence, requirementOf } from './method-requirements';

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
    const status = isStatusName(err?.status) ? err.status : statusFromHttp(httpStatus);
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

export function isCancellation(err: unknown): boolean {
  if (err instanceof CancelledError) return true;
  const name = (err as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'CancelledError';
}

/** Throws CancelledError if the signal was aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}

/** A message for people: the server's message, plus what to do next for the statuses that have a usual fix. */
export function describeError(err: unknown): string {
  if (err instanceof GoogleApiError) {
    // User credentials without a quota project: the fix is a setting, not a role.
    if (err.status === 'PERMISSION_DENIED' && /quota project/i.test(err.message))
      return `${err.message} (${err.status}). Set cloudbench.quotaProject (or GOOGLE_CLOUD_QUOTA_PROJECT), or run \`gcloud auth application-default set-quota-project PROJECT\`.`;
    // A token without the API's scope (typically a gcloud login used for SecOps).
    if (isScopeInsufficient(err))
      return `${err.message} (${err.status}). The token lacks a scope this API needs; for SecOps sign in with \`${ADC_SECOPS_LOGIN}\`, or choose the SecOps service-account key file in cloudbench.secops.credentialsFile.`;
    // The method's own needs (permission and role, or preconditions) teach more than a general hint.
    const requirement = requirementOf(err.options.method);
    if (requirement && err.status === 'PERMISSION_DENIED')
      return `${err.message} (${err.status}). ${permissionSentence(requirement)}`;
    if (requirement && err.status === 'FAILED_PRECONDITION') {
      const preconditions = preconditionSentence(requirement);
      if (preconditions && isBarePrecondition(err.message))
        return `${err.message.trim() || 'A precondition failed'} (${err.status}). ${preconditions}`;
    }
    const hint = HINTS[err.status];
    return hint ? `${err.message} (${err.status}). ${hint}` : `${err.message} (${err.status})`;
  }
  if (err instanceof Error) return err.message;
  return String(err);
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

const HINTS: Partial<Record<StatusName, string>> = {
  UNAUTHENTICATED: 'Sign in again: run `gcloud auth application-default login` or choose a credentials file.',
  PERMISSION_DENIED: 'Ask a project owner for the role this action needs.',
  UNAVAILABLE: 'The service could not be reached; check the network or the endpoint setting and try again.',
  DEADLINE_EXCEEDED: 'The call took too long; try again or raise cloudbench.requests.timeoutSeconds.',
  RESOURCE_EXHAUSTED: 'A quota or rate limit was reached; wait a moment and try again.',
};
