import { CancelledError, GoogleApiError, type StatusName } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  multiplier: number;
  /** Statuses worth another try for a call that is safe to repeat. */
  retryable: readonly StatusName[];
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  multiplier: 2,
  retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'],
};

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
  /** Decides whether an error is worth retrying; default: a GoogleApiError with a retryable status. */
  isRetryable?: (err: unknown) => boolean;
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void;
  random?: () => number;
}

/** Runs `fn` until it succeeds, fails with a non-retryable error, or the retries are used up. */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<T> {
  const isRetryable =
    hooks.isRetryable ?? ((err) => err instanceof GoogleApiError && policy.retryable.includes(err.status));
  for (let attempt = 0; ; attempt++) {
    if (hooks.signal?.aborted) throw new CancelledError();
    try {
      return await fn(attempt);
    } catch (err) {
      if (attempt >= policy.maxRetries || hooks.signal?.aborted || !isRetryable(err)) throw err;
      const serverHint = err instanceof GoogleApiError ? err.retryAfterMs : undefined;
      const delay = Math.max(serverHint ?? 0, backoffDelay(policy, attempt, hooks.random));
      hooks.onRetry?.(err, attempt + 1, delay);
      await sleep(delay, hooks.signal);
    }
  }
}
