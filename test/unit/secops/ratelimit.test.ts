import assert from 'node:assert/strict';
import { RateLimiter, SECOPS_BUDGETS, parseRetryAfter, type RateClock } from '../../../src/core/ratelimit';

/** A clock that only moves when a sleeper needs it to: sleeping advances time to the wake-up. */
function fakeClock(start = 1_000_000): RateClock & { sleeps: number[]; time: number } {
  const clock = {
    time: start,
    sleeps: [] as number[],
    now: () => clock.time,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      clock.sleeps.push(ms);
      clock.time += ms;
    },
  };
  return clock;
}

describe('RateLimiter', () => {
  it('lets a full window of calls through at once, then spaces the rest one window apart', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ m: { limit: 5, windowMs: 1000 } }, { clock, safetyMargin: 0, minSafetyMs: 0 });
    const starts: number[] = [];
    for (let i = 0; i < 12; i++) {
      await limiter.acquire('m');
      starts.push(clock.time - 1_000_000);
    }
    assert.deepEqual(starts, [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000]);
  });

  it('never admits more than the limit in any window of its length', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ m: { limit: 3, windowMs: 1000 } }, { clock, safetyMargin: 0.01 });
    const starts: number[] = [];
    for (let i = 0; i < 30; i++) {
      clock.time += (i * 37) % 450; // irregular arrivals
      await limiter.acquire('m');
      starts.push(clock.time);
    }
    for (let i = 0; i + 3 < starts.length; i++)
      assert.ok(starts[i + 3] - starts[i] >= 1000, `calls ${i}..${i + 3} fit in one window`);
  });

  it('keeps at least the minimum safety spacing on short windows', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(
      { m: { limit: 1, windowMs: 1000 } },
      { clock, windowScale: 0.05, safetyMargin: 0.01, minSafetyMs: 10 },
    );
    await limiter.acquire('m');
    const before = clock.time;
    await limiter.acquire('m');
    assert.equal(clock.time - before, 60, '50 ms window + 10 ms floor (1% would be 0.5 ms)');
  });

  it('reports the remaining budget and tells listeners', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(SECOPS_BUDGETS, { clock });
    const seen: string[] = [];
    const listener = limiter.onDidChange((m) => seen.push(m));
    assert.equal(limiter.snapshot('udmSearch').remaining, 360);
    await limiter.acquire('udmSearch');
    await limiter.acquire('udmSearch');
    const snap = limiter.snapshot('udmSearch');
    assert.equal(snap.remaining, 358);
    assert.equal(snap.limit, 360);
    assert.equal(snap.windowMs, 3_600_000);
    assert.deepEqual(seen, ['udmSearch', 'udmSearch']);
    clock.time += 3_600_000 * 1.02;
    assert.equal(limiter.snapshot('udmSearch').remaining, 360);
    listener.dispose();
    await limiter.acquire('udmSearch');
    assert.deepEqual(seen, ['udmSearch', 'udmSearch'], 'a disposed listener hears nothing more');
  });

  it('scales windows so an hour can pass in a test', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(
      { udmSearch: { limit: 2, windowMs: 3_600_000 } },
      { clock, windowScale: 0.001, safetyMargin: 0, minSafetyMs: 0 },
    );
    await limiter.acquire('udmSearch');
    await limiter.acquire('udmSearch');
    assert.equal(limiter.canAcquireNow('udmSearch'), false);
    await limiter.acquire('udmSearch');
    assert.deepEqual(clock.sleeps, [3600]);
  });

  it('holds every caller after a 429 until the server said to come back', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ m: { limit: 100, windowMs: 1000 } }, { clock });
    limiter.penalize('m', 2500);
    assert.ok(limiter.snapshot('m').blockedUntil);
    const before = clock.time;
    await limiter.acquire('m');
    assert.equal(clock.time - before, 2500);
  });

  it('gives up waiting when the signal aborts, without spending a token', async () => {
    let now = 0;
    const pending: Array<() => void> = [];
    const clock: RateClock = {
      now: () => now,
      sleep: (_ms, signal) =>
        new Promise((resolve, reject) => {
          pending.push(resolve);
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
    };
    const limiter = new RateLimiter({ m: { limit: 1, windowMs: 1000 } }, { clock, safetyMargin: 0, minSafetyMs: 0 });
    await limiter.acquire('m');
    const controller = new AbortController();
    const waiting = limiter.acquire('m', controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(waiting, /stop/);
    now = 1000;
    assert.equal(limiter.snapshot('m').remaining, 1);
  });

  it('passes methods without a budget straight through', async () => {
    const limiter = new RateLimiter({}, { clock: fakeClock() });
    await limiter.acquire('GetReferenceList');
    assert.equal(limiter.canAcquireNow('GetReferenceList'), true);
  });

  it('has the published budget for every method', () => {
    assert.deepEqual(
      Object.fromEntries(Object.entries(SECOPS_BUDGETS).map(([m, b]) => [m, `${b.limit}/${b.windowMs}`])),
      {
        ListAlerts: '1/1000',
        ListEvents: '1/1000',
        ListIoCs: '1/1000',
        ListIoCDetails: '1/1000',
        ListAssets: '5/1000',
        ListAssetAliases: '1/1000',
        ListUserAliases: '1/1000',
        udmSearch: '360/3600000',
        GetLog: '60/1000',
        GetEvent: '60/1000',
      },
    );
  });

  it('refuses nonsense budgets', () => {
    assert.throws(() => new RateLimiter({ m: { limit: 0, windowMs: 1000 } }), /limit/);
    assert.throws(() => new RateLimiter({ m: { limit: 1, windowMs: 0 } }), /windowMs/);
    assert.throws(() => new RateLimiter({}, { windowScale: 0 }), /windowScale/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('3', 0), 3000);
    assert.equal(parseRetryAfter('0.5', 0), 500);
    const now = Date.parse('2024-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Mon, 01 Jan 2024 00:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('', 0), undefined);
    assert.equal(parseRetryAfter('soon', 0), undefined);
    assert.equal(parseRetryAfter(undefined, 0), undefined);
  });
});
