// One poller for every long-running operation, gRPC or REST: backoff between polls, an
// AbortSignal that stops waiting at once, and the operation's error turned into a GoogleApiError.
import { CancelledError, GoogleApiError, statusFromGrpcCode } from './google/errors';
import { sleep } from './google/retry';

export interface OperationLike {
  name: string;
  done?: boolean;
  metadata?: unknown;
  error?: { code?: number; message?: string; details?: unknown[] } | null;
  response?: unknown;
}

export interface PollOptions<Op extends OperationLike> {
  /** Fetches the latest state (GetOperation). */
  get(name: string, signal?: AbortSignal): Promise<Op>;
  signal?: AbortSignal;
  initialDelayMs?: number;
  maxDelayMs?: number;
  multiplier?: number;
  /** Gives up (DEADLINE_EXCEEDED) after this long; the operation itself goes on. */
  totalTimeoutMs?: number;
  /** Every state seen, the first included: for progress. */
  onUpdate?(op: Op): void;
  /** Injected for tests. */
  now?: () => number;
  /** The method that started the operation ("DeleteModel", "apikeys.keys.patch"), named in its failure. */
  method?: string;
}

/** The error an operation finished with. */
export class OperationFailedError extends GoogleApiError {
  /** `method`: the call that started the operation, so its failure is explained like the call's own. */
  constructor(
    readonly operation: OperationLike,
    method?: string,
  ) {
    const code = operation.error?.code ?? 2;
    super(statusFromGrpcCode(code), operation.error?.message || `Operation ${operation.name} failed`, {
      ...(operation.error?.details ? { details: operation.error.details } : {}),
      ...(method ? { method } : {}),
    });
  }
}

/**
 * Reading the operation's state failed after the retries the read allows: the operation itself was
 * not reported failed and may still finish on the server, which the message says.
 */
export class OperationTrackingError extends GoogleApiError {
  constructor(
    readonly operationName: string,
    cause: GoogleApiError,
  ) {
    super(
      cause.status,
      `Lost track of ${operationName}: ${cause.message}. The operation may still be running or may have finished on the server; check its state again before repeating it.`,
      cause.options,
    );
  }
}

/**
 * How long a poll waits when its caller names no bound: an hour covers the long copies and exports
 * of the Model Registry; past it the operation goes on and the user is told to check it later.
 */
export const DEFAULT_OPERATION_WAIT_MS = 3_600_000;

/** Resolves with the finished operation; throws OperationFailedError if it ended in error. */
export async function pollOperation<Op extends OperationLike>(first: Op, options: PollOptions<Op>): Promise<Op> {
  const now = options.now ?? Date.now;
  const started = now();
  const totalTimeoutMs = options.totalTimeoutMs ?? DEFAULT_OPERATION_WAIT_MS;
  let delay = options.initialDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 10_000;
  const multiplier = options.multiplier ?? 1.5;
  let op = first;
  options.onUpdate?.(op);
  while (!op.done) {
    if (options.signal?.aborted) throw new CancelledError();
    if (now() - started > totalTimeoutMs) {
      throw new GoogleApiError(
        'DEADLINE_EXCEEDED',
        `Stopped waiting for ${op.name} after ${Math.round(totalTimeoutMs / 1000)} s; it may still finish.`,
      );
    }
    await sleep(delay, options.signal);
    delay = Math.min(maxDelay, delay * multiplier);
    try {
      op = await options.get(op.name, options.signal);
    } catch (err) {
      if (err instanceof GoogleApiError) throw new OperationTrackingError(op.name, err);
      throw err;
    }
    options.onUpdate?.(op);
  }
  if (op.error && (op.error.code ?? 0) !== 0) throw new OperationFailedError(op, options.method);
  return op;
}
