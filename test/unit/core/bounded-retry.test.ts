// Every retry loop ends: the retry policy stops after maxRetries or when the next wait would pass
// the total-wait bound, honours a server's Retry-After up to the longest backoff, and says how it
// ended; the limiter's budget wait obeys the same bound.
import { strict as assert } from 'node:assert';
import { GoogleApiError } from '../../../src/core/google/errors';
import {
  DEFAULT_RETRY,
  describeRetries,
  retryDelay,
  retryRecordOf,
  withRetry,
  type RetryPolicy,
} from '../../../src/core/google/retry';
import { BudgetWaitError, RateLimiter, type RateClock } from '../../../src/core/ratelimit';
import { DEFAULT_OPERATION_WAIT_MS, pollOperation } from '../../../src/core/lro';

/** A clock whose sleeps pass at once, recording each wait. */
function virtualTime(): { now: () => number; sleep: (ms: number) => Promise<void>; waits: number[] } {
  let time = 5_000_000;
  const waits: number[] = [];
  return {
    now: () => time,
    sleep: (ms: number) => {
      waits.push(ms);
      time += ms;
      return Promise.resolve();
    },
    waits,
  };
}

const throttled = (retryAfterMs?: number): GoogleApiError =>
  new GoogleApiError('RESOURCE_EXHAUSTED', 'Quota exceeded', retryAfterMs === undefined ? {} : { retryAfterMs });

const policy = (over: Partial<RetryPolicy> = {}): RetryPolicy => ({
  ...DEFAULT_RETRY,
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  ...over,
});

describe('bounded retry policy', () => {
  it('makes maxRetries + 1 attempts against a service that always answers 429, then fails with a record', async () => {
    const t = virtualTime();
    let attempts = 0;
    const err = await withRetry(
      () => {
        attempts++;
        return Promise.reject(throttled(1_000));
      },
      policy({ maxRetries: 4 }),
      { now: t.now, sleep: t.sleep, random: () => 1 },
    ).then(
      () => assert.fail('must not succeed'),
      (e: unknown) => e,
    );
    assert.equal(attempts, 5);
    assert.equal(t.waits.length, 4);
    assert.ok(err instanceof GoogleApiError && err.status === 'RESOURCE_EXHAUSTED', 'the last failure, unchanged');
    const record = retryRecordOf(err);
    assert.ok(record);
    assert.equal(record.attempts, 5);
    assert.equal(record.stoppedBy, 'maxRetries');
    assert.equal(
      record.elapsedMs,
      t.waits.reduce((a, b) => a + b, 0),
    );
    assert.equal(record.retryAt, t.now() + 1_000, 'the time the service named, counted from its last answer');
  });

  it('never waits more than maxTotalWaitMs in all, whatever maxRetries allows', async () => {
    const t = virtualTime();
    let attempts = 0;
    const err = await withRetry(
      () => {
        attempts++;
        return Promise.reject(throttled());
      },
      policy({ maxRetries: 10, maxTotalWaitMs: 10_000 }),
      { now: t.now, sleep: t.sleep, random: () => 1 },
    ).catch((e: unknown) => e);
    const total = t.waits.reduce((a, b) => a + b, 0);
    assert.ok(total <= 10_000, `waited ${total} ms`);
    // 500 + 1000 + 2000 + 4000 = 7500; the next 8000 would pass the bound.
    assert.deepEqual(t.waits, [500, 1_000, 2_000, 4_000]);
    assert.equal(attempts, 5);
    assert.equal(retryRecordOf(err)?.stoppedBy, 'maxTotalWait');
  });

  it("honours a server's Retry-After longer than the backoff, capped at the longest backoff", () => {
    const p = policy({ maxBackoffMs: 30_000 });
    assert.equal(
      retryDelay(p, 0, throttled(7_000), () => 1),
      7_000,
      'Retry-After wins over a 500 ms backoff',
    );
    assert.equal(
      retryDelay(p, 0, throttled(3_600_000), () => 1),
      30_000,
      'an hour is capped',
    );
    assert.equal(
      retryDelay(p, 3, throttled(100), () => 1),
      4_000,
      'a short hint never shortens the backoff',
    );
  });

  it('does not wait at all when the server asks for longer than the whole bound allows', async () => {
    const t = virtualTime();
    let attempts = 0;
    const err = await withRetry(
      () => {
        attempts++;
        return Promise.reject(throttled(3_600_000));
      },
      policy({ maxRetries: 4, maxTotalWaitMs: 60_000 }),
      { now: t.now, sleep: t.sleep },
    ).catch((e: unknown) => e);
    assert.equal(attempts, 1);
    assert.deepEqual(t.waits, []);
    const record = retryRecordOf(err);
    assert.equal(record?.stoppedBy, 'maxTotalWait');
    assert.equal(record?.retryAt, t.now() + 3_600_000);
  });

  it('leaves a failure that was not retried without a record', async () => {
    const t = virtualTime();
    const notRetryable = new GoogleApiError('INVALID_ARGUMENT', 'bad query');
    const err = await withRetry(() => Promise.reject(notRetryable), policy(), { now: t.now, sleep: t.sleep }).catch(
      (e: unknown) => e,
    );
    assert.equal(err, notRetryable);
    assert.equal(retryRecordOf(err), undefined);
    const once = await withRetry(() => Promise.reject(throttled()), policy({ maxRetries: 0 }), {
      now: t.now,
      sleep: t.sleep,
    }).catch((e: unknown) => e);
    assert.equal(retryRecordOf(once), undefined, 'retries off: the failure is the only attempt');
  });

  it('says how many times it tried, for how long, and when the service takes calls again', () => {
    const text = describeRetries(
      { attempts: 5, elapsedMs: 8_400, stoppedBy: 'maxRetries', retryAt: 42 },
      (ms) => `T${ms}`,
    );
    assert.equal(text, 'Cloudbench tried 5 times over 8 s and stopped; the service takes calls again from T42.');
  });
});

describe('budget wait bound', () => {
  const clock = (): RateClock & { time: number } => {
    const c = {
      time: 1_000_000,
      now: () => c.time,
      sleep: async (ms: number) => {
        c.time += ms;
      },
    };
    return c;
  };

  it('refuses at once, naming the time, when the budget would not allow a call within the bound', async () => {
    const c = clock();
    const limiter = new RateLimiter(
      { s: { limit: 2, windowMs: 3_600_000 } },
      { clock: c, safetyMargin: 0, minSafetyMs: 0 },
    );
    await limiter.acquire('s');
    await limiter.acquire('s');
    const started = c.time;
    const err = await limiter.acquire('s', undefined, 60_000).catch((e: unknown) => e);
    assert.ok(err instanceof BudgetWaitError);
    assert.equal(err.reason, 'budget');
    assert.equal(err.until, started + 3_600_000);
    assert.equal(c.time, started, 'it did not wait');
    assert.equal(limiter.snapshot('s').remaining, 0, 'and spent nothing');
  });

  it('waits for a short throttle within the bound, and calls it throttled when it is too long', async () => {
    const c = clock();
    const limiter = new RateLimiter(
      { s: { limit: 5, windowMs: 1_000 } },
      { clock: c, safetyMargin: 0, minSafetyMs: 0 },
    );
    limiter.penalize('s', 2_000);
    await limiter.acquire('s', undefined, 5_000);
    assert.equal(c.time, 1_002_000);
    limiter.penalize('s', 120_000);
    const err = await limiter.acquire('s', undefined, 60_000).catch((e: unknown) => e);
    assert.ok(err instanceof BudgetWaitError && err.reason === 'throttled');
  });
});

describe('operation polling bound', () => {
  it('stops waiting for an operation that never finishes after the default hour, saying it may still finish', async () => {
    let time = 0;
    let polls = 0;
    const err = await pollOperation(
      { name: 'operations/forever', done: false },
      {
        get: (name) => {
          polls++;
          time += 20 * 60_000;
          return Promise.resolve({ name, done: false });
        },
        initialDelayMs: 1,
        maxDelayMs: 1,
        now: () => time,
      },
    ).catch((e: unknown) => e);
    assert.ok(err instanceof GoogleApiError && err.status === 'DEADLINE_EXCEEDED');
    assert.match(err.message, /Stopped waiting for operations\/forever after 3600 s; it may still finish/);
    assert.equal(polls, 4, 'polled until the hour had passed, then stopped');
    assert.equal(DEFAULT_OPERATION_WAIT_MS, 3_600_000);
  });
});
