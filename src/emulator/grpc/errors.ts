// gRPC errors as the real service sends them: a status code, a message, and google.rpc.Status with
// typed details in the `grpc-status-details-bin` trailer (gax decodes it into `statusDetails`).
import { Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { encodeMessage, packAny, type ProtoAny } from '../../core/proto';

export type StatusName = keyof typeof Status;

export interface FieldViolation {
  field: string;
  description: string;
}

/** An error thrown by a handler; the dispatcher turns it into a gRPC status. */
export class RpcError extends Error {
  constructor(
    readonly code: Status,
    message: string,
    readonly details: ProtoAny[] = [],
  ) {
    super(message);
  }

  toServiceError(): Partial<ServiceError> {
    const metadata = new Metadata();
    const statusBytes = encodeMessage('google.rpc.Status', {
      code: this.code,
      message: this.message,
      details: this.details,
    });
    metadata.set('grpc-status-details-bin', Buffer.from(statusBytes));
    return { code: this.code, details: this.message, message: this.message, metadata };
  }
}

export function invalidArgument(message: string, violations: FieldViolation[] = []): RpcError {
  const details = violations.length ? [packAny('google.rpc.BadRequest', { fieldViolations: violations })] : [];
  return new RpcError(Status.INVALID_ARGUMENT, message, details);
}

// NOT_FOUND carries no details, like the real service's; it is also the most frequent error a UI sees
// (polling a deleted resource), and gax pays a proto load for every error that has details.
export function notFound(message: string, _resourceType?: string, _resourceName?: string): RpcError {
  return new RpcError(Status.NOT_FOUND, message);
}

export function failedPrecondition(message: string, type?: string, subject?: string): RpcError {
  const details = type
    ? [
        packAny('google.rpc.PreconditionFailure', {
          violations: [{ type, subject: subject ?? '', description: message }],
        }),
      ]
    : [];
  return new RpcError(Status.FAILED_PRECONDITION, message, details);
}

export function alreadyExists(message: string): RpcError {
  return new RpcError(Status.ALREADY_EXISTS, message);
}

export function aborted(message: string): RpcError {
  return new RpcError(Status.ABORTED, message);
}

export function unauthenticated(): RpcError {
  return new RpcError(
    Status.UNAUTHENTICATED,
    'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
    [
      packAny('google.rpc.ErrorInfo', {
        reason: 'CREDENTIALS_MISSING',
        domain: 'googleapis.com',
        metadata: { service: 'aiplatform.googleapis.com' },
      }),
    ],
  );
}

const HTTP_TO_STATUS: Record<number, Status> = {
  400: Status.INVALID_ARGUMENT,
  401: Status.UNAUTHENTICATED,
  403: Status.PERMISSION_DENIED,
  404: Status.NOT_FOUND,
  409: Status.ABORTED,
  429: Status.RESOURCE_EXHAUSTED,
  499: Status.CANCELLED,
  500: Status.INTERNAL,
  501: Status.UNIMPLEMENTED,
  503: Status.UNAVAILABLE,
  504: Status.DEADLINE_EXCEEDED,
};

/** A fault rule's code (status name or HTTP code) as a gRPC status; unknown values become UNAVAILABLE. */
export function statusOfFaultCode(code: string | number): Status {
  if (typeof code === 'number') return HTTP_TO_STATUS[code] ?? (code >= 500 ? Status.INTERNAL : Status.UNKNOWN);
  const upper = code.toUpperCase() as StatusName;
  const value = Status[upper];
  return typeof value === 'number' ? value : Status.UNAVAILABLE;
}

export function injectedFault(code: string | number): RpcError {
  const status = statusOfFaultCode(code);
  const message =
    status === Status.RESOURCE_EXHAUSTED
      ? 'Quota exceeded (injected by the sandbox fault rules).'
      : `${Status[status]} (injected by the sandbox fault rules).`;
  const details =
    status === Status.RESOURCE_EXHAUSTED || status === Status.UNAVAILABLE
      ? [packAny('google.rpc.RetryInfo', { retryDelay: { seconds: 1 } })]
      : [];
  return new RpcError(status, message, details);
}
