// Google's REST error model ({"error":{"code","message","status","details"}}) for the sandbox's HTTP half.
import { HTTP_FOR_STATUS } from '../../core/google/errors';

/** google.rpc.Code names with the HTTP status each maps to: the clients' own table. */
export const STATUS_TO_HTTP: Readonly<Record<string, number>> = HTTP_FOR_STATUS;

/** The status name Google's front end reports for a bare HTTP code (used when a fault names only a number). */
const HTTP_TO_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export type ErrorDetail = Record<string, unknown> & { '@type': string };

export class ApiError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly status: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.httpStatus = STATUS_TO_HTTP[status] ?? 500;
  }

  body(): { error: { code: number; message: string; status: string; details?: ErrorDetail[] } } {
    const error: { code: number; message: string; status: string; details?: ErrorDetail[] } = {
      code: this.httpStatus,
      message: this.message,
      status: this.status,
    };
    if (this.details.length > 0) error.details = this.details;
    return { error };
  }
}

const RETRY_ONE_SECOND: ErrorDetail = { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' };

/** Turns a fault rule's code (a status name or an HTTP number) into an error. */
export function faultError(code: string | number): ApiError {
  if (typeof code === 'number') {
    const status = HTTP_TO_STATUS[code] ?? (code >= 500 ? 'INTERNAL' : 'UNKNOWN');
    const err = new ApiError(
      status,
      `Injected fault: HTTP ${code}.`,
      status === 'RESOURCE_EXHAUSTED' ? [RETRY_ONE_SECOND] : [],
    );
    // A bare number keeps its exact HTTP status even where the name maps elsewhere (e.g. 502).
    Object.defineProperty(err, 'httpStatus', { value: code });
    return err;
  }
  const status = code.toUpperCase();
  if (!(status in STATUS_TO_HTTP)) return new ApiError('INTERNAL', `Injected fault: ${code}.`);
  return new ApiError(status, `Injected fault: ${status}.`, status === 'RESOURCE_EXHAUSTED' ? [RETRY_ONE_SECOND] : []);
}

export const invalidArgument = (message: string, field?: string): ApiError =>
  new ApiError(
    'INVALID_ARGUMENT',
    message,
    field
      ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: message }] }]
      : [],
  );
export const notFound = (message: string): ApiError => new ApiError('NOT_FOUND', message);
export const failedPrecondition = (message: string): ApiError => new ApiError('FAILED_PRECONDITION', message);
