import { CancelledError, GoogleApiError, describeError, type StatusName } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
  /** Statuses worth another try for a call that is safe to repeat. */
  retryable: readonly StatusName[];
  /**
   * All the waiting one call may do between its attempts (backoff, a server's Retry-After, a
   * client-side budget wait), so that a service that keeps refusing ends in one clear failure.
   * DEFAULT_MAX_TOTAL_WAIT_MS when unset.
   */
  maxTotalWaitMs?: number;
}

// A minute: long enough for a 429's usual few seconds, short enough that nobody waits on a spinner.
export const DEFAULT_MAX_TOTAL_WAIT_MS = 60_000;

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  multiplier: 2,
  retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'],
  maxTotalWaitMs: DEFAULT_MAX_TOTAL_WAIT_MS,
};

/** How a call's retries ended: attached to the error it finally failed with. */
export interface RetryRecord {
  /** Attempts made, the first included. */
  attempts: number;
  /** From the first attempt's start to the failure. */
  elapsedMs: number;
  /** Why it stopped: the retries were used up, or the next wait would pass the total-wait bound. */
  stoppedBy: 'maxRetries' | 'maxTotalWait';
  /** When the service (or the budget) said calls are taken again, if it said (epoch ms). */
  retryAt?: number;
}

const RETRY_RECORD = Symbol('cloudbench.retryRecord');

/** The record of a call that was retried and gave up; undefined for a failure that was not retried. */
export function retryRecordOf(err: unknown): RetryRecord | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  return (err as { [RETRY_RECORD]?: RetryRecord })[RETRY_RECORD];
}

/** Marks `err` (kept as it is, so its class and status still decide how it is shown) with its retries. */
export function attachRetryRecord<E>(err: E, record: RetryRecord): E {
  if (typeof err === 'object' && err !== null && Object.isExtensible(err))
    Object.defineProperty(err, RETRY_RECORD, { value: record, enumerable: false, configurable: true });
  return err;
}

/** "tried 5 times over 8 s", with when the service takes calls again when it said. */
export function describeRetries(record: RetryRecord, timeText: (ms: number) => string): string {
  const seconds = Math.max(1, Math.round(record.elapsedMs / 1000));
  const tried = `Cloudbench tried ${record.attempts} ${record.attempts === 1 ? 'time' : 'times'} over ${seconds} s and stopped`;
  const until = record.retryAt !== undefined ? `; the service takes calls again from ${timeText(record.retryAt)}` : '';
  return `${tried}${until}.`;
}

/**
 * A failure as the one message at the end of the retry policy says it, in every feature: what
 * happened (describeError), then how long Cloudbench tried when it retried.
 */
export function describeWithRetries(err: unknown, timeText: (ms: number) => string): string {
  const record = retryRecordOf(err);
  const text = describeError(err);
  return record ? `${text} ${describeRetries(record, timeText)}` : text;
}

/** Exponential backoff with full jitter: a random delay in [0, min(max, initial * multiplier^attempt)]. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * policy.multiplier ** attempt);
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/** Resolves after `ms`, or rejects with CancelledError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryHooks {
  signal?: AbortSignal;
  /** Injected for tests. */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Decides whether an error is worth retrying; default: a GoogleApiError with a retryable status. */
  isRetryable?: (err: unknown) => boolean;
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  random?: () => number;
}

/**
 * The wait before retry number `attempt + 1`: the backoff, or the server's Retry-After when longer,
 * but never more than the policy's longest backoff (a server asking for an hour is not waited on).
 */
export function retryDelay(policy: RetryPolicy, attempt: number, err: unknown, random?: () => number): number {
  const serverHint = err instanceof GoogleApiError ? err.retryAfterMs : undefined;
  return Math.max(Math.min(serverHint ?? 0, policy.maxBackoffMs), backoffDelay(policy, attempt, random));
}

/**
 * Runs `fn` until it succeeds, fails with a non-retryable error, the retries are used up, or the
 * next wait would pass `policy.maxTotalWaitMs`. A failure after at least one retry, or one the server
 * asked to wait longer for than the bound, carries a RetryRecord (see retryRecordOf).
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<T> {
  const isRetryable =
    hooks.isRetryable ?? ((err) => err instanceof GoogleApiError && policy.retryable.includes(err.status));
  const now = hooks.now ?? Date.now;
  const pause = hooks.sleep ?? sleep;
  const started = now();
  const maxWait = policy.maxTotalWaitMs ?? DEFAULT_MAX_TOTAL_WAIT_MS;
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    if (hooks.signal?.aborted) throw new CancelledError();
    try {
      return await fn(attempt);
    } catch (err) {
      if (hooks.signal?.aborted || !isRetryable(err)) throw err;
      const serverHint = err instanceof GoogleApiError ? err.retryAfterMs : undefined;
      const record = (stoppedBy: RetryRecord['stoppedBy']): RetryRecord => ({
        attempts: attempt + 1,
        elapsedMs: now() - started,
        stoppedBy,
        ...(serverHint !== undefined ? { retryAt: now() + serverHint } : {}),
      });
      if (attempt >= policy.maxRetries) throw attempt > 0 ? attachRetryRecord(err, record('maxRetries')) : err;
      const delay = retryDelay(policy, attempt, err, hooks.random);
      // A server asking for more than the bound allows is not worth a retry that would come too early.
      if (waited + delay > maxWait || (serverHint ?? 0) > maxWait - waited)
        throw attachRetryRecord(err, record('maxTotalWait'));
      hooks.onRetry?.(err, attempt + 1, delay);
      await pause(delay, hooks.signal);
      waited += delay;
    }
  }
}
