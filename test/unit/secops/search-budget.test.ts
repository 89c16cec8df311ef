// What the search budget and "fetch the rest" decide on their own: the limiter after a 429, where a
// cut answer's rows sit in its range, what the rest costs, newest-first order and every pivot seed
// 002 lists.
import assert from 'node:assert/strict';
import { RateLimiter, type RateClock } from '../../../src/core/ratelimit';
import { coveredSpan, fetchRest, planRest, uncoveredRanges, type WindowResult } from '../../../src/core/secops/split';
import fc from 'fast-check';
import { newestFirstOrder, sortNewestFirst } from '../../../src/core/secops/results/table';
import { PIVOT_ACTIONS, pivotsFor } from '../../../src/core/secops/results/pivots';

function fakeClock(start = 1_000_000): RateClock & { time: number } {
  const clock = {
    time: start,
    now: () => clock.time,
    sleep: async (ms: number) => {
      clock.time += ms;
    },
  };
  return clock;
}

describe('search budget after a 429', () => {
  it('holds calls until the server takes them again, without touching the hourly count', async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(
      { s: { limit: 10, windowMs: 100_000 } },
      { clock, safetyMargin: 0, minSafetyMs: 0 },
    );
    for (let i = 0; i < 3; i++) await limiter.acquire('s');
    assert.equal(limiter.snapshot('s').remaining, 7);
    // The fourth call is refused: its token comes back, the three the service answered stay spent.
    await limiter.acquire('s');
    limiter.refused('s', 5_000);
    assert.equal(limiter.snapshot('s').remaining, 7, 'a 429 says "slow down", not "the hour is spent"');
    assert.equal(limiter.snapshot('s').blockedUntil, clock.time + 5_000);
    assert.equal(limiter.canAcquireNow('s'), false);
    clock.time += 5_000;
    assert.equal(limiter.snapshot('s').blockedUntil, undefined);
    assert.equal(limiter.canAcquireNow('s'), true);
  });

  it("gives the refused call's token back: its retry is counted once", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ s: { limit: 100, windowMs: 1_000 } }, { clock, safetyMargin: 0, minSafetyMs: 0 });
    await limiter.acquire('s');
    limiter.refused('s', 0);
    assert.equal(limiter.snapshot('s').remaining, 100);
    await limiter.acquire('s');
    assert.equal(limiter.snapshot('s').remaining, 99);
  });

  it('keeps the count across a restart: the spent tokens come back at the same times', async () => {
    const clock = fakeClock();
    const budgets = { s: { limit: 10, windowMs: 100_000 } };
    const first = new RateLimiter(budgets, { clock, safetyMargin: 0, minSafetyMs: 0 });
    for (let i = 0; i < 4; i++) await first.acquire('s');
    const kept = JSON.parse(JSON.stringify(first.spent('s'))) as unknown[];
    const second = new RateLimiter(budgets, { clock, safetyMargin: 0, minSafetyMs: 0 });
    second.restoreSpent('s', [...kept, 'junk', -1, clock.time + 10_000_000]);
    assert.equal(second.snapshot('s').remaining, 6, 'only times still to come within a window count');
    clock.time += 100_000;
    assert.equal(second.snapshot('s').remaining, 10);
  });
});

describe('a cut answer', () => {
  const sec = (n: number): number => n * 1000;

  it('from a service that keeps the oldest rows covers the start of the range, and the rest starts at its last second', () => {
    const span = coveredSpan([sec(0), sec(1), sec(5), sec(9)]);
    assert.deepEqual(span, { firstMs: sec(0), lastMs: sec(9), order: 'ascending' });
    assert.deepEqual(uncoveredRanges(0, sec(100), span), [[sec(9), sec(100)]]);
  });

  it('from a service that keeps the newest rows covers the end; rows in no order leave the whole range', () => {
    const span = coveredSpan([sec(99), sec(95), sec(90)]);
    assert.equal(span.order, 'descending');
    assert.deepEqual(uncoveredRanges(0, sec(100), span), [[0, sec(91)]]);
    assert.deepEqual(uncoveredRanges(0, sec(100), coveredSpan([sec(5), sec(1), sec(7)])), [[0, sec(100)]]);
  });

  it('plans the rest by the density of the rows it has: about as many searches as the rest needs', () => {
    // 1,000 rows over the first 10 s of 100 s, limit 1,000: the remaining 90 s hold about 9,000.
    const times = Array.from({ length: 1000 }, (_, i) => i * 10);
    const plan = planRest(0, sec(100), times, 1000);
    assert.ok(plan.windows.length >= 9 && plan.windows.length <= 13, `planned ${plan.windows.length}`);
    assert.equal(plan.windows[0][0], sec(9));
    assert.equal(plan.windows.at(-1)![1], sec(100));
  });

  it('fetches every event once, spending close to the planned searches, and counts windows truly', async () => {
    const all = Array.from({ length: 5000 }, (_, i) => i * 20); // one event every 20 ms over 100 s
    const limit = 1000;
    const calls: Array<[number, number]> = [];
    const fetch = async (from: number, to: number): Promise<WindowResult<number>> => {
      calls.push([from, to]);
      const inside = all.filter((t) => t >= from && t < to);
      return { items: inside.slice(0, limit), truncated: inside.length > limit };
    };
    const first = await fetch(0, sec(100));
    calls.length = 0;
    const plan = planRest(0, sec(100), first.items, limit);
    const progress: Array<{ done: number; pending: number }> = [];
    const result = await fetchRest(plan, fetch, {
      keyOf: String,
      timeOf: (t) => t,
      initial: first.items,
      limit,
      onProgress: (p) => progress.push({ done: p.windowsDone, pending: p.windowsPending }),
    });
    assert.equal(result.complete, true);
    assert.deepEqual(
      [...result.items].sort((a, b) => a - b),
      all,
    );
    assert.equal(result.windowsFetched, calls.length);
    assert.ok(calls.length <= plan.windows.length + 2, `${calls.length} searches for a plan of ${plan.windows.length}`);
    assert.deepEqual(
      progress.map((p) => p.done),
      calls.map((_, i) => i + 1),
    );
    assert.equal(progress.at(-1)!.pending, 0);
  });

  it('a second holding more than the limit is skipped and reported, not asked for forever', async () => {
    const all = Array.from({ length: 50 }, () => 0).concat([sec(5)]);
    const fetch = async (from: number, to: number): Promise<WindowResult<number>> => {
      const inside = all.map((t, i) => ({ t, i })).filter(({ t }) => t >= from && t < to);
      return { items: inside.slice(0, 10).map(({ i }) => i), truncated: inside.length > 10 };
    };
    const result = await fetchRest({ windows: [[0, sec(10)]], span: coveredSpan([]) }, fetch, {
      keyOf: String,
      timeOf: (i) => all[i],
      limit: 10,
    });
    assert.equal(result.complete, false);
    assert.equal(result.stoppedBy, 'minWindow');
    assert.ok(result.items.includes(50), 'the event after the crowded second is still fetched');
  });
});

describe('newest first', () => {
  it('orders rows by time descending, stable, rows without a time last', () => {
    const rows = [
      { t: '2024-01-01T00:00:01Z', id: 'a' },
      { id: 'none' },
      { t: '2024-01-01T00:00:03Z', id: 'b' },
      { t: '2024-01-01T00:00:01Z', id: 'c' },
    ];
    assert.deepEqual(
      sortNewestFirst(rows, 't').map((r) => r.id),
      ['b', 'a', 'c', 'none'],
    );
    assert.deepEqual([...newestFirstOrder(Float64Array.from([3, 2, 1]))], [0, 1, 2]);
    assert.deepEqual([...newestFirstOrder(Float64Array.from([1, 3, 2]), [2, 0, 1])], [1, 2, 0]);
  });

  it('is the stable sort by time descending, rows without a time last, of any subset in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(Number.NaN)), { maxLength: 80 }),
        fc.integer({ min: 0, max: 1_000 }),
        (times, seed) => {
          // A subset of the rows in a scrambled order, as a filter and earlier appends leave them.
          const indices = times.map((_, i) => i).filter((i) => (i * 7 + seed) % 5 !== 0);
          indices.sort((a, b) => ((a * 31 + seed) % 17) - ((b * 31 + seed) % 17) || a - b);
          const expected = indices
            .map((row, place) => ({ row, place, t: times[row] }))
            .sort((a, b) => {
              if (Number.isNaN(a.t) || Number.isNaN(b.t))
                return Number.isNaN(a.t) === Number.isNaN(b.t) ? a.place - b.place : Number.isNaN(a.t) ? 1 : -1;
              return b.t - a.t || a.place - b.place;
            })
            .map((r) => r.row);
          assert.deepEqual([...newestFirstOrder(Float64Array.from(times), indices)], expected);
        },
      ),
    );
  });
});

describe('pivots of seed 002', () => {
  it('offers every indicator of ListEvents, ListAssetAliases and ListUserAliases', () => {
    for (const action of [
      'assetEvents.hostname',
      'assetEvents.ip',
      'assetEvents.mac',
      'assetEvents.productId',
      'assetAliases.hostname',
      'assetAliases.ip',
      'assetAliases.mac',
      'assetAliases.productId',
      'userAliases.email',
      'userAliases.username',
      'userAliases.windowsSid',
      'userAliases.employeeId',
      'userAliases.productObjectId',
    ])
      assert.ok((PIVOT_ACTIONS as readonly string[]).includes(action), action);
    assert.deepEqual(pivotsFor('principal.asset.assetId', 'CS:1234-5678'), [
      'assetEvents.productId',
      'assetAliases.productId',
    ]);
    assert.deepEqual(pivotsFor('principal.user.employeeId', 'E10247'), ['userAliases.employeeId']);
    assert.deepEqual(pivotsFor('principal.user.productObjectId', 'abc-123'), ['userAliases.productObjectId']);
    assert.deepEqual(pivotsFor('principal.asset.productObjectId', 'abc-123'), []);
  });
});
