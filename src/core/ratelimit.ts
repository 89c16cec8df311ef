// Client-side budgets per API method (QPS / QPH), so normal use never meets a 429.
//
// Each method has a bucket of `limit` tokens. A call spends one token, and that token comes back
// exactly one window after it was spent. Unlike a bucket that refills continuously, this never lets
// more than `limit` calls into ANY window of the given length, so it stays under a server that counts
// with a sliding window, a fixed window or a classic token bucket alike.
//
// What counts is what the service counted. Google's limits table counts query submissions per hour
// and answers 429 RESOURCE_EXHAUSTED when the submission rate is reached; nothing says a request
// that never arrived is counted. So a token is spent before a call (to pace it) and given back when
// the call never reached the service (notReached: refused connection, DNS, TLS, a timeout before any
// answer) or when the service refused it with 429 without running it (refused). Every other answer
// (200, 4xx, 5xx, an answer that broke off midway) was a submission it received: it stays counted.
// Each retry is a call of its own, counted by the same rule.

/** Time source; tests and benchmarks inject a fake or a scaled one. */
export interface RateClock {
  now(): number;
  /** Resolves after `ms`, rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: RateClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The signal's reason when it is an Error (the usual case), else an AbortError carrying it as the cause. */
function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const err = new Error('The operation was aborted', reason === undefined ? undefined : { cause: reason });
  err.name = 'AbortError';
  return err;
}

export interface RateBudget {
  /** Calls allowed per window. */
  limit: number;
  /** Window length in milliseconds (1000 for QPS, 3,600,000 for QPH), before scaling. */
  windowMs: number;
}

export interface RateLimiterOptions {
  clock?: RateClock;
  /**
   * Multiplies every window; benchmarks and tests use a value below 1 so an hour or a second
   * passes faster. Must match the scale of the server being talked to.
   */
  windowScale?: number;
  /**
   * Extra spacing added to each token's return, as a fraction of the window, so that network jitter
   * between the client's clock and the server's arrival time cannot make two calls look closer than
   * one window apart.
   */
  safetyMargin?: number;
  /** Lower bound of that extra spacing in milliseconds (after scaling), for short windows. */
  minSafetyMs?: number;
}

export interface BudgetSnapshot {
  method: string;
  limit: number;
  remaining: number;
  windowMs: number;
  /** When the next spent token comes back (epoch ms on the limiter's clock), or undefined when full. */
  nextRefillAt: number | undefined;
  /** Set while the server has told us to hold off (a 429 with Retry-After): "throttled until". */
  blockedUntil: number | undefined;
}

/** A call could not start within the time it was allowed to wait for its budget. */
export class BudgetWaitError extends Error {
  override readonly name = 'BudgetWaitError';
  constructor(
    readonly method: string,
    /** When the call could start (epoch ms). */
    readonly until: number,
    /** 'budget': the window's calls are spent; 'throttled': the service asked to slow down. */
    readonly reason: 'budget' | 'throttled',
  ) {
    const at = new Date(until).toLocaleTimeString();
    super(
      reason === 'budget'
        ? `The ${method} budget for this window is spent; the next call can start at ${at}.`
        : `The service asked to slow down ${method} calls until ${at}.`,
    );
  }
}

interface Bucket {
  budget: RateBudget;
  /** Times at which spent tokens come back, ascending. */
  returns: number[];
  blockedUntil: number;
  /** Promise chain so waiting callers are served in arrival order. */
  queue: Promise<void>;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: RateClock;
  private readonly scale: number;
  private readonly margin: number;
  private readonly minSafetyMs: number;
  private readonly listeners = new Set<(method: string) => void>();

  constructor(budgets: Record<string, RateBudget>, options: RateLimiterOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.scale = options.windowScale ?? 1;
    this.margin = options.safetyMargin ?? 0.01;
    this.minSafetyMs = options.minSafetyMs ?? 10;
    if (!(this.scale > 0)) throw new RangeError('windowScale must be positive');
    if (!(this.margin >= 0 && this.margin < 1)) throw new RangeError('safetyMargin must be in [0, 1)');
    for (const [method, budget] of Object.entries(budgets)) {
      if (!Number.isInteger(budget.limit) || budget.limit < 1)
        throw new RangeError(`${method}: limit must be a positive integer`);
      if (!(budget.windowMs > 0)) throw new RangeError(`${method}: windowMs must be positive`);
      this.buckets.set(method, { budget, returns: [], blockedUntil: 0, queue: Promise.resolve() });
    }
  }

  /** Effective window of a method after scaling, in ms. */
  windowOf(method: string): number {
    return this.bucket(method).budget.windowMs * this.scale;
  }

  /**
   * Waits until a call of `method` fits the budget, then spends a token. Methods without a budget
   * pass straight through. Rejects when the signal aborts (no token is spent then), and with a
   * BudgetWaitError at once when the call could not start within `maxWaitMs`.
   */
  acquire(method: string, signal?: AbortSignal, maxWaitMs = Infinity): Promise<void> {
    const bucket = this.buckets.get(method);
    if (!bucket) return signal?.aborted ? Promise.reject(abortReason(signal)) : Promise.resolve();
    const deadline = this.clock.now() + maxWaitMs;
    const turn = bucket.queue.then(() => this.waitForToken(method, bucket, signal, deadline));
    // A caller that aborts must not stall the ones behind it.
    bucket.queue = turn.catch(() => undefined);
    if (!signal) return turn;
    // An aborted caller leaves at once even while others ahead of it still wait; its queued turn then
    // sees the aborted signal and passes without spending a token.
    return new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => reject(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      turn.then(
        () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        (err: Error) => {
          signal.removeEventListener('abort', onAbort);
          reject(err);
        },
      );
    });
  }

  private async waitForToken(method: string, bucket: Bucket, signal?: AbortSignal, deadline = Infinity): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const now = this.clock.now();
      this.expire(bucket, now);
      let waitUntil = bucket.blockedUntil;
      const spent = bucket.returns.length >= bucket.budget.limit;
      if (spent) waitUntil = Math.max(waitUntil, bucket.returns[0]);
      if (waitUntil <= now) {
        const window = bucket.budget.windowMs * this.scale;
        bucket.returns.push(now + window + Math.max(window * this.margin, this.minSafetyMs));
        this.emit(method);
        return;
      }
      if (waitUntil > deadline)
        throw new BudgetWaitError(method, waitUntil, spent && waitUntil > bucket.blockedUntil ? 'budget' : 'throttled');
      await this.clock.sleep(waitUntil - now, signal);
    }
  }

  /** Whether a call could start right now without waiting. */
  canAcquireNow(method: string): boolean {
    const bucket = this.buckets.get(method);
    if (!bucket) return true;
    const now = this.clock.now();
    this.expire(bucket, now);
    return bucket.blockedUntil <= now && bucket.returns.length < bucket.budget.limit;
  }

  /**
   * The server answered 429 anyway (another client shares the quota, or clocks disagree): hold every
   * call of the method until `retryAfterMs` has passed.
   */
  penalize(method: string, retryAfterMs: number): void {
    const bucket = this.buckets.get(method);
    if (!bucket) return;
    bucket.blockedUntil = Math.max(bucket.blockedUntil, this.clock.now() + Math.max(0, retryAfterMs));
    this.emit(method);
  }

  /**
   * The server refused a call with 429: it did not run it, so the call's token is given back (its
   * retry is not counted twice), and every call of the method is held until `retryAfterMs` has
   * passed. A 429 says "slow down", not "the hour is spent": the count of calls this window stays
   * what the service's answers made it.
   */
  refused(method: string, retryAfterMs: number): void {
    const bucket = this.buckets.get(method);
    if (!bucket) return;
    const now = this.clock.now();
    this.expire(bucket, now);
    bucket.returns.pop();
    bucket.blockedUntil = Math.max(bucket.blockedUntil, now + Math.max(0, retryAfterMs));
    this.emit(method);
  }

  /**
   * A call never reached the service (the connection was refused, DNS or TLS failed, or it timed out
   * before any answer): the service did not count it, so its token is given back. Only a call the
   * service answered, with any status but 429, stays counted.
   */
  notReached(method: string): void {
    const bucket = this.buckets.get(method);
    if (!bucket) return;
    this.expire(bucket, this.clock.now());
    if (bucket.returns.pop() !== undefined) this.emit(method);
  }

  /** When the tokens spent this window come back (epoch ms), to keep the count across a restart. */
  spent(method: string): number[] {
    const bucket = this.bucket(method);
    this.expire(bucket, this.clock.now());
    return [...bucket.returns];
  }

  /**
   * Takes back the tokens a previous run of the editor spent (as `spent` gave them): values that are
   * not times still to come, or more than the limit, are dropped.
   */
  restoreSpent(method: string, returns: readonly unknown[]): void {
    const bucket = this.buckets.get(method);
    if (!bucket) return;
    const now = this.clock.now();
    const horizon = now + bucket.budget.windowMs * this.scale * (1 + this.margin) + this.minSafetyMs;
    const valid = returns.filter(
      (t): t is number => typeof t === 'number' && Number.isFinite(t) && t > now && t <= horizon,
    );
    bucket.returns = [...bucket.returns, ...valid].sort((a, b) => a - b).slice(-bucket.budget.limit);
    this.emit(method);
  }

  snapshot(method: string): BudgetSnapshot {
    const bucket = this.bucket(method);
    const now = this.clock.now();
    this.expire(bucket, now);
    return {
      method,
      limit: bucket.budget.limit,
      remaining: bucket.budget.limit - bucket.returns.length,
      windowMs: bucket.budget.windowMs * this.scale,
      nextRefillAt: bucket.returns[0],
      blockedUntil: bucket.blockedUntil > now ? bucket.blockedUntil : undefined,
    };
  }

  /** Called with the method name whenever its remaining budget changes because of a call or a 429. */
  onDidChange(listener: (method: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private emit(method: string): void {
    for (const listener of this.listeners) {
      try {
        listener(method);
      } catch {
        // A broken listener must not break the call that triggered it.
      }
    }
  }

  private expire(bucket: Bucket, now: number): void {
    let drop = 0;
    while (drop < bucket.returns.length && bucket.returns[drop] <= now) drop++;
    if (drop > 0) bucket.returns.splice(0, drop);
  }

  private bucket(method: string): Bucket {
    const bucket = this.buckets.get(method);
    if (!bucket) throw new Error(`no rate budget for ${method}`);
    return bucket;
  }
}

const SECOND = 1000;
const HOUR = 3_600_000;

/** Search API v1 budgets, from the service's published limits table. */
export const SECOPS_BUDGETS: Readonly<Record<string, RateBudget>> = Object.freeze({
  ListAlerts: { limit: 1, windowMs: SECOND },
  ListEvents: { limit: 1, windowMs: SECOND },
  ListIoCs: { limit: 1, windowMs: SECOND },
  ListIoCDetails: { limit: 1, windowMs: SECOND },
  ListAssets: { limit: 5, windowMs: SECOND },
  ListAssetAliases: { limit: 1, windowMs: SECOND },
  ListUserAliases: { limit: 1, windowMs: SECOND },
  udmSearch: { limit: 360, windowMs: HOUR },
  GetLog: { limit: 60, windowMs: SECOND },
  GetEvent: { limit: 60, windowMs: SECOND },
});

/**
 * Parses an HTTP Retry-After value (delta seconds or an HTTP date) into milliseconds from `now`.
 * Returns undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
