// The run history keeps what each run spent of the hourly budget, and whether it failed.
import assert from 'node:assert/strict';
import { addToHistory, readHistory } from '../../../../src/core/secops/history';

describe('run history: what each run spent', () => {
  const ranAt = '2026-12-07T05:00:00.000Z';

  it('keeps the searches a run was charged for and a failure, through a reload', () => {
    let history = addToHistory([], { query: 'a = 1', ranAt, timeRange: 'Last hour', events: 12, searches: 1 });
    history = addToHistory(history, { query: 'b = 2', ranAt, timeRange: 'Last hour', searches: 0, failed: true });
    const read = readHistory(JSON.parse(JSON.stringify(history)));
    assert.deepEqual(read[0], { query: 'b = 2', ranAt, timeRange: 'Last hour', searches: 0, failed: true });
    assert.deepEqual(read[1], { query: 'a = 1', ranAt, timeRange: 'Last hour', events: 12, searches: 1 });
  });

  it('drops a stored count that is not a whole number of searches, and a failure that is not true', () => {
    const read = readHistory([
      { query: 'a', ranAt, timeRange: 'x', searches: -1, failed: 'yes' },
      { query: 'b', ranAt, timeRange: 'x', searches: 1.5 },
      { query: 'c', ranAt, timeRange: 'x', searches: '3' },
    ]);
    assert.deepEqual(
      read.map((h) => [h.searches, h.failed]),
      [
        [undefined, undefined],
        [undefined, undefined],
        [undefined, undefined],
      ],
    );
  });
});
