// The page checks the end of an arriving answer before it reorders anything: the order must be a
// permutation of exactly the rows sent, and the partial note plain bounded text.
import { strict as assert } from 'node:assert';
import { MessageError, parseToWebview } from '../../../../src/core/secops/messages';

const base = { type: 'arrived', runId: 'r', count: 3, moreDataAvailable: true };

describe('the arrived message', () => {
  it('carries the order, the plan of a cut answer and a partial note', () => {
    const m = parseToWebview({
      ...base,
      order: Uint32Array.from([2, 0, 1]),
      covered: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
      restSearches: 4,
      partial: { cancelled: true, message: 'Cancelled after 3 events had arrived' },
    });
    assert.deepEqual(m, {
      type: 'arrived',
      runId: 'r',
      count: 3,
      order: Uint32Array.from([2, 0, 1]),
      moreDataAvailable: true,
      covered: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
      restSearches: 4,
      partial: { cancelled: true, message: 'Cancelled after 3 events had arrived' },
    });
    assert.deepEqual(parseToWebview(base), { ...base });
  });

  it('refuses an order that repeats, skips, overruns or is not typed, and a count that is not one', () => {
    for (const order of [
      Uint32Array.from([0, 0, 1]),
      Uint32Array.from([0, 1]),
      Uint32Array.from([0, 1, 3]),
      Uint32Array.from([0, 1, 2, 3]),
      [0, 1, 2],
      'x',
    ])
      assert.throws(() => parseToWebview({ ...base, order }), MessageError, String(order));
    for (const count of [-1, 1.5, '3', 2_000_000])
      assert.throws(() => parseToWebview({ ...base, count }), MessageError);
    assert.throws(() => parseToWebview({ ...base, partial: { message: 'x'.repeat(1001) } }), MessageError);
    assert.throws(() => parseToWebview({ ...base, partial: 'cancelled' }), MessageError);
  });

  it('drops a covered range or a search count of the wrong shape instead of showing it', () => {
    const m = parseToWebview({ ...base, covered: { start: 1, end: 'x' }, restSearches: -2 });
    assert.deepEqual(m, { ...base });
  });
});
