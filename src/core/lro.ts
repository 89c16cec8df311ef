// One poller for every long-running operation, gRPC or REST: backoff between polls, an
// AbortSignal that stops waiting at once, the operation's error turned into a GoogleApiError, and a
// bounded re-attach when a poll fails because the connection went away (the operation goes on).
import { CancelledError, GoogleApiError, isCancellation, isConnectionLoss, statusFromGrpcCode } from './google/errors';
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
  /** Polls that fail because the connection went away are tried again within these bounds; none by default. */
  reattach?: ReattachPolicy;
  /** Each failed poll that is tried again: for progress ("connection lost; trying again"). */
  onReattach?(err: unknown, attempt: number, delayMs: number): void;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * How long a follower keeps asking after the connection went away (a client rebuilt by a settings
 * change, a sandbox restarting): `get` is called again each time, so it reaches the current client.
 * Both bounds hold; past either the outcome is unknown, never "failed".
 */
export interface ReattachPolicy {
  /** Failed polls in a row tried again before giving up. */
  maxAttempts: number;
  /** Time from the first failed poll of a row after which no further try is made. */
  maxMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Which failures are worth another poll; by default a lost connection (isConnectionLoss). */
  isRecoverable?(err: unknown): boolean;
}

/** Eight tries over at most two minutes: a settings change or a sandbox restart is over well before. */
export const DEFAULT_REATTACH: ReattachPolicy = {
  maxAttempts: 8,
  maxMs: 120_000,
  initialDelayMs: 500,
  maxDelayMs: 15_000,
};

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
  /**
   * `cause`: the last failed read; `tries`: the reads made in the last row of failures and the time
   * they took, when the follower tried again after a lost connection.
   */
  constructor(
    readonly operationName: string,
    readonly cause: unknown,
    readonly tries?: { attempts: number; elapsedMs: number },
  ) {
    const api = cause instanceof GoogleApiError ? cause : undefined;
    const text = api?.message ?? (cause instanceof Error ? cause.message : String(cause));
    super(
      api?.status ?? 'UNAVAILABLE',
      `Lost track of ${operationName}: ${text.replace(/\.$/, '')}. The operation may still be running or may have finished on the server; check its state again before repeating it.`,
      api?.options ?? {},
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
  const pause = options.sleep ?? sleep;
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
    await pause(delay, options.signal);
    delay = Math.min(maxDelay, delay * multiplier);
    op = await readAgain(op.name, options, now, pause);
    options.onUpdate?.(op);
  }
  if (op.error && (op.error.code ?? 0) !== 0) throw new OperationFailedError(op, options.method);
  return op;
}

/**
 * One read of the operation's state. A failed read never says the operation failed: it is tried again
 * while the policy allows (a lost connection, within its bounds), else it ends as "lost track".
 */
async function readAgain<Op extends OperationLike>(
  name: string,
  options: PollOptions<Op>,
  now: () => number,
  pause: (ms: number, signal?: AbortSignal) => Promise<void>,
): Promise<Op> {
  const policy = options.reattach;
  const recoverable = (err: unknown): boolean =>
    policy?.isRecoverable ? policy.isRecoverable(err) : isConnectionLoss(err);
  let firstFailure: number | undefined;
  let delay = policy?.initialDelayMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await options.get(name, options.signal);
    } catch (err) {
      if (options.signal?.aborted || isCancellation(err)) throw err;
      firstFailure ??= now();
      const elapsedMs = now() - firstFailure;
      const again = policy && recoverable(err) && attempt <= policy.maxAttempts && elapsedMs + delay <= policy.maxMs;
      if (!again) throw new OperationTrackingError(name, err, { attempts: attempt, elapsedMs });
      options.onReattach?.(err, attempt, delay);
      await pause(delay, options.signal);
      delay = Math.min(policy.maxDelayMs ?? 15_000, delay * 2);
    }
  }
}
