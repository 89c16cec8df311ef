import assert from 'node:assert/strict';
import { fetchAllInWindows, type WindowResult } from '../../../src/core/secops/split';

/** A fake service over integer timestamps that returns at most `cap` items per window. */
function service(times: number[], cap: number) {
  const calls: Array<[number, number]> = [];
  const fetch = async (from: number, to: number): Promise<WindowResult<number>> => {
    calls.push([from, to]);
    const inWindow = times.filter((t) => t >= from && t < to);
    return { items: inWindow.slice(0, cap), truncated: inWindow.length > cap };
  };
  return { fetch, calls };
}

describe('fetchAllInWindows', () => {
  it('splits truncated windows until every item is fetched once', async () => {
    const times = Array.from({ length: 1000 }, (_, i) => (i * 7919) % 100_000);
    const { fetch, calls } = service(times, 100);
    const first = await fetch(0, 100_000);
    assert.equal(first.truncated, true);
    const result = await fetchAllInWindows(0, 100_000, fetch, { keyOf: String, initial: first.items, minWindowMs: 1 });
    assert.equal(result.complete, true);
    assert.deepEqual(
      [...result.items].sort((a, b) => a - b),
      [...new Set(times)].sort((a, b) => a - b),
    );
    assert.ok(calls.length > 10);
    for (const [from, to] of calls) assert.ok(to > from);
  });

  it('reports progress with only the newly added items', async () => {
    const times = Array.from({ length: 50 }, (_, i) => i * 10);
    const { fetch } = service(times, 20);
    const added: number[] = [];
    let last = 0;
    await fetchAllInWindows(0, 500, fetch, {
      keyOf: String,
      initial: times.slice(0, 20),
      onProgress: (p, items) => {
        added.push(...items);
        last = p.items;
      },
      minWindowMs: 1,
    });
    assert.equal(last, 50);
    assert.deepEqual(
      added.sort((a, b) => a - b),
      times.slice(20),
    );
  });

  it('stops at the item cap and says so', async () => {
    const times = Array.from({ length: 500 }, (_, i) => i);
    const { fetch } = service(times, 10);
    const result = await fetchAllInWindows(0, 500, fetch, { keyOf: String, maxItems: 50, minWindowMs: 1 });
    assert.equal(result.complete, false);
    assert.equal(result.stoppedBy, 'maxItems');
    assert.ok(result.items.length >= 50 && result.items.length < 70);
  });

  it('keeps a window that is still truncated at the smallest width', async () => {
    const times = Array.from({ length: 30 }, () => 5); // all at the same instant
    const { fetch } = service(times, 10);
    const result = await fetchAllInWindows(0, 100, fetch, { keyOf: () => String(Math.random()), minWindowMs: 10 });
    assert.equal(result.complete, false);
    assert.equal(result.stoppedBy, 'minWindow');
  });

  it('stops with CancelledError when aborted', async () => {
    const controller = new AbortController();
    const times = Array.from({ length: 100 }, (_, i) => i);
    const { fetch } = service(times, 5);
    let windows = 0;
    await assert.rejects(
      fetchAllInWindows(0, 100, fetch, {
        keyOf: String,
        minWindowMs: 1,
        signal: controller.signal,
        onProgress: () => {
          if (++windows === 3) controller.abort();
        },
      }),
      (err: Error) => err.name === 'CancelledError',
    );
    assert.equal(windows, 3);
  });
});
