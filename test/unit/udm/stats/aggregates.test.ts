import * as assert from 'node:assert/strict';
import { ARRAY_LIMIT, createAccumulator } from '../../../../src/udm/stats';
import type { AggregateName } from '../../../../src/udm/stats/plan';

function agg(name: AggregateName, values: unknown[]): unknown {
  const acc = createAccumulator(name);
  for (const v of values) acc.add(v);
  return acc.result();
}

describe('statistics: aggregates', () => {
  it('count counts every value, including repeated ones', () => {
    assert.equal(agg('count', ['a', 'b', 'a']), 3);
    assert.equal(agg('count', []), 0);
  });

  it('count_distinct treats 80 and "80" (an int64 in the JSON) as one value', () => {
    assert.equal(agg('count_distinct', ['a', 'b', 'a']), 2);
    assert.equal(agg('count_distinct', [80, '80', 443]), 2);
    assert.equal(agg('count_distinct', []), 0);
  });

  it('sum adds numbers and int64 strings, skips text, and is 0 for an empty group', () => {
    assert.equal(agg('sum', [1, '2', 3.5, 'abc']), 6.5);
    assert.equal(agg('sum', []), 0);
  });

  it('min and max are numeric (10 > 9 although "10" < "9" as text) and null when empty', () => {
    assert.equal(agg('max', ['9', '10', 2]), 10);
    assert.equal(agg('min', ['9', '10', 2]), 2);
    assert.equal(agg('min', [-1, -5]), -5);
    assert.equal(agg('max', []), null);
    assert.equal(agg('min', ['x']), null);
  });

  it('avg of 2, 4, 9 is 5; null when there is nothing to average', () => {
    assert.equal(agg('avg', [2, 4, 9]), 5);
    assert.equal(agg('avg', []), null);
  });

  it('stddev is the population standard deviation: 2, 4, 4, 4, 5, 5, 7, 9 gives 2', () => {
    assert.equal(agg('stddev', [2, 4, 4, 4, 5, 5, 7, 9]), 2);
    assert.equal(agg('stddev', [42]), 0);
    assert.equal(agg('stddev', []), null);
    // large values keep their precision (byte counts near 1e12 differing by 1 and 3)
    const big = agg('stddev', [1e12 + 1, 1e12 + 3]) as number;
    assert.ok(Math.abs(big - 1) < 1e-6, String(big));
  });

  it(`array keeps at most ${ARRAY_LIMIT} values, array_distinct dedups before cutting`, () => {
    const many = Array.from({ length: 40 }, (_, i) => `v${i % 30}`);
    const arr = agg('array', many) as string[];
    assert.equal(arr.length, 25);
    assert.deepEqual(arr.slice(0, 3), ['v0', 'v1', 'v2']);
    const distinct = agg('array_distinct', ['a', 'b', 'a', 'c', 'b']) as string[];
    assert.deepEqual(distinct, ['a', 'b', 'c']);
    const distinctMany = agg('array_distinct', many) as string[];
    assert.equal(distinctMany.length, 25);
    assert.equal(new Set(distinctMany).size, 25);
    assert.deepEqual(agg('array', []), []);
  });

  it('earliest and latest take RFC 3339 text or seconds and return epoch seconds', () => {
    const ts = ['2024-03-01T10:00:00Z', '2024-03-01T09:59:59.999999Z', '2024-03-01T11:00:00+02:00'];
    // 11:00+02:00 is 09:00Z, the earliest
    assert.equal(agg('earliest', ts), Date.UTC(2024, 2, 1, 9, 0, 0) / 1000);
    assert.equal(agg('latest', ts), Date.UTC(2024, 2, 1, 10, 0, 0) / 1000);
    assert.equal(agg('earliest', [1709287200, '1709280000']), 1709280000);
    assert.equal(agg('latest', []), null);
    assert.equal(agg('latest', ['not a time']), null);
  });

  it('earliest tells apart timestamps that differ by one microsecond', () => {
    const r = agg('earliest', ['2024-03-01T10:00:00.000002Z', '2024-03-01T10:00:00.000001Z']) as number;
    assert.equal(Math.round((r % 1) * 1e6), 1);
  });
});
