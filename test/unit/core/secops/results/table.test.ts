import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cellText,
  defaultColumns,
  discoverColumns,
  timeReader,
  valuesAt,
  type ColumnSpec,
} from '../../../../../src/core/secops/results/fields';
import {
  SearchIndex,
  compareCells,
  filterIndices,
  histogram,
  newestFirstOrder,
  parseFilter,
  pickInOrder,
  sortByKeys,
  sortIndices,
  timesOf,
} from '../../../../../src/core/secops/results/table';
import { tableParts } from '../../../../../src/core/secops/results/rowtable';

const HOSTILE = '<img src=x onerror=alert(1)>';

function udmRow(i: number, extra: Record<string, unknown> = {}): unknown {
  return {
    name: `ev-${i}`,
    udm: {
      metadata: {
        eventTimestamp: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
        eventType: i % 2 ? 'NETWORK_DNS' : 'USER_LOGIN',
        id: `id${i}`,
      },
      principal: { hostname: `host-${i % 3}`, ip: [`10.0.0.${i}`, `10.1.0.${i}`] },
      target: i % 2 ? { ip: ['203.0.113.9'] } : { hostname: 'dc-1' },
      securityResult: [{ action: ['ALLOW'] }, { action: ['BLOCK'] }],
      ...extra,
    },
  };
}

describe('result fields', () => {
  it('reads dotted paths through arrays', () => {
    const row = udmRow(4);
    assert.deepEqual(valuesAt(row, 'udm.principal.ip'), ['10.0.0.4', '10.1.0.4']);
    assert.deepEqual(valuesAt(row, 'udm.securityResult.action'), ['ALLOW', 'BLOCK']);
    assert.deepEqual(valuesAt(row, 'udm.nothing.here'), []);
    assert.deepEqual(valuesAt({ a: [[1, 2], [3]] }, 'a'), [[1, 2], [3]]);
  });

  it('does not read inherited properties', () => {
    assert.deepEqual(valuesAt({}, 'constructor'), []);
    assert.deepEqual(valuesAt({ a: {} }, 'a.__proto__'), []);
  });

  it('has the five default event columns and falls back from hostname to IP', () => {
    const cols = defaultColumns('udm');
    assert.deepEqual(
      cols.map((c) => c.label),
      ['Time', 'Event type', 'Principal', 'Target', 'Security result'],
    );
    assert.equal(cellText(udmRow(1), cols[3]), '203.0.113.9');
    assert.equal(cellText(udmRow(2), cols[3]), 'dc-1');
    assert.equal(cellText(udmRow(2), cols[4]), 'ALLOW, BLOCK');
    assert.deepEqual(defaultColumns('assetEvents').map((c) => c.id)[0], 'metadata.eventTimestamp');
  });

  it('shows artifact indicators as their value, whatever their kind', () => {
    const ioc = defaultColumns('iocMatches')[0];
    assert.equal(cellText({ artifact: { domainName: 'evil.example' } }, ioc), 'evil.example');
    assert.equal(cellText({ artifact: { destinationIpAddress: '198.51.100.23' } }, ioc), '198.51.100.23');
    const details = defaultColumns('iocDetails');
    assert.equal(
      cellText({ addresses: [{ ipAddress: '198.51.100.23', port: [443, 8443] }] }, details[1]),
      '198.51.100.23',
    );
    assert.equal(cellText({ addresses: [{ ipAddress: '198.51.100.23', port: [443, 8443] }] }, details[2]), '443, 8443');
    const asset = defaultColumns('assets')[3];
    assert.equal(cellText({ firstSeenArtifactInfo: { artifactIndicator: { hashMd5: 'abc' } } }, asset), 'abc');
  });

  it('discovers every leaf path present, in first-seen order', () => {
    const rows = [udmRow(1), udmRow(2, { network: { dns: { questions: [{ name: 'a.example', type: 1 }] } } })];
    const cols = discoverColumns(rows);
    assert.ok(cols.includes('udm.metadata.eventTimestamp'));
    assert.ok(cols.includes('udm.principal.ip'));
    assert.ok(cols.includes('udm.network.dns.questions.name'));
    assert.ok(cols.includes('name'));
    assert.equal(new Set(cols).size, cols.length);
    assert.equal(discoverColumns(rows, 3).length, 3);
  });
});

describe('sorting', () => {
  const rows = [{ v: '10' }, { v: '9' }, { v: '' }, { v: 'b' }, { v: 'a' }, { v: '9' }];
  const col: ColumnSpec = { id: 'v', label: 'V' };

  it('sorts numbers numerically, text naturally, blanks last in both directions, stably', () => {
    const all = Uint32Array.from(rows.keys());
    assert.deepEqual([...sortIndices(rows, all, col, 'asc')], [1, 5, 0, 4, 3, 2]);
    assert.deepEqual([...sortIndices(rows, all, col, 'desc')], [3, 4, 0, 1, 5, 2]);
  });

  it('sorts a subset given by a filter', () => {
    assert.deepEqual([...sortIndices(rows, Uint32Array.from([3, 4, 0]), col, 'asc')], [0, 4, 3]);
  });

  it('compares ISO timestamps in time order', () => {
    assert.ok(compareCells('2024-01-01T00:00:09Z', '2024-01-01T00:00:10Z') < 0);
    assert.ok(compareCells('host-2', 'host-10') < 0);
  });

  it('sorts 10,000 rows in time order by the time column', () => {
    const big = Array.from({ length: 10_000 }, (_, i) => udmRow((i * 7919) % 10_000));
    const order = sortIndices(big, Uint32Array.from(big.keys()), defaultColumns('udm')[0], 'asc');
    assert.equal(order.length, 10_000);
    const times = [...order].map((i) => cellText(big[i], defaultColumns('udm')[0]));
    assert.deepEqual(times, [...times].sort());
  });

  /** The rule itself, one comparison per pair of rows: what the ranks must give. */
  function plainOrder(keys: readonly string[], indices: readonly number[], direction: 'asc' | 'desc'): number[] {
    const sign = direction === 'asc' ? 1 : -1;
    return [...indices].sort((x, y) => {
      const a = keys[x];
      const b = keys[y];
      const c = a === '' || b === '' ? compareCells(a, b) : compareCells(a, b) * sign;
      return c !== 0 ? c : indices.indexOf(x) - indices.indexOf(y);
    });
  }

  it('orders by ranks of distinct values exactly as comparing every pair of rows does', () => {
    const value = fc.oneof(
      fc.constantFrom('', 'a', 'A', 'b', 'host-2', 'host-10', 'Host-2', 'NETWORK_DNS', 'network_dns', 'é', 'e'),
      fc.integer({ min: -50, max: 50 }).map(String),
      fc.constantFrom('1', '1.0', '01', '2.5', '-0'),
    );
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 60 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        fc.boolean(),
        (keys, direction, subset) => {
          const indices = keys.map((_, i) => i).filter((i) => !subset || i % 3 !== 1);
          const fast = [...sortByKeys((i) => keys[i], Uint32Array.from(indices), direction)];
          assert.deepEqual(fast, plainOrder(keys, indices, direction));
        },
      ),
    );
  });
});

describe('picking rows from the order of all rows', () => {
  const time = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(Number.NaN));
  const key = fc.constantFrom('', 'a', 'A', 'b', 'host-2', 'host-10', '1', '1.0', '-3');
  /** Ascending positions below n, chosen by a mask. */
  const subsetOf = (n: number, mask: boolean[]): number[] =>
    Array.from({ length: n }, (_, i) => i).filter((i) => mask[i % mask.length]);

  it('gives the rows of a filter newest first exactly as sorting them alone does', () => {
    fc.assert(
      fc.property(fc.array(time, { maxLength: 80 }), fc.array(fc.boolean(), { minLength: 1 }), (times, mask) => {
        const subset = subsetOf(times.length, mask);
        const picked = pickInOrder(newestFirstOrder(times), subset);
        assert.deepEqual([...(picked ?? [])], [...newestFirstOrder(times, subset)]);
      }),
    );
  });

  it('gives the rows of a filter sorted by a column exactly as sorting them alone does', () => {
    fc.assert(
      fc.property(
        fc.array(key, { maxLength: 80 }),
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (keys, mask, direction) => {
          const all = Uint32Array.from(keys.keys());
          const subset = subsetOf(keys.length, mask);
          const picked = pickInOrder(
            sortByKeys((i) => keys[i], all, direction),
            subset,
          );
          assert.deepEqual([...(picked ?? [])], [...sortByKeys((i) => keys[i], Uint32Array.from(subset), direction)]);
        },
      ),
    );
  });

  it('refuses positions that are not ascending, repeat, or lie outside the rows', () => {
    const order = Uint32Array.from([2, 0, 1]);
    assert.deepEqual([...pickInOrder(order, [0, 2])!], [2, 0]);
    assert.deepEqual([...pickInOrder(order, [])!], []);
    for (const bad of [[2, 0], [1, 1], [0, 3], [-1, 0], [0.5]])
      assert.equal(pickInOrder(order, bad), undefined, String(bad));
  });
});

describe('100,000 rows', () => {
  // Ten blocks of 10,000 rows: each block on its own is what the 10,000-row path handles.
  const rows = Array.from({ length: 100_000 }, (_, i) =>
    udmRow(i % 10_000, { about: [{ labels: [{ value: `batch-${Math.floor(i / 10_000)}` }] }] }),
  );
  const blocks = Array.from({ length: 10 }, (_, b) => rows.slice(b * 10_000, (b + 1) * 10_000));
  const hostColumn: ColumnSpec = { id: 'udm.principal.hostname', label: 'Host' };

  it('sorts as each 10,000-row block sorts on its own, blocks kept in order for equal values', () => {
    for (const direction of ['asc', 'desc'] as const) {
      const order = sortIndices(rows, Uint32Array.from(rows.keys()), hostColumn, direction);
      assert.equal(order.length, 100_000);
      // Stable: within one host value the rows keep their positions, so each block's rows come in
      // the order that block alone sorts them.
      for (let b = 0; b < 10; b++) {
        const alone = [...sortIndices(blocks[b], Uint32Array.from(blocks[b].keys()), hostColumn, direction)];
        const inBig = [...order].filter((i) => Math.floor(i / 10_000) === b).map((i) => i - b * 10_000);
        assert.deepEqual(inBig, alone, `block ${b} (${direction})`);
      }
      const hosts = [...order].map((i) => cellText(rows[i], hostColumn));
      const sorted = [...hosts].sort((a, z) => compareCells(a, z) * (direction === 'asc' ? 1 : -1));
      assert.deepEqual(hosts, sorted);
    }
  });

  it('filters as each 10,000-row block does, with search texts made ahead in slices', () => {
    const index = new SearchIndex(rows);
    let slices = 0;
    while (!index.buildUntil(0)) slices++;
    assert.ok(index.complete);
    // Each slice makes a few rows (16) when its time is already up: many slices, none skipped.
    assert.equal(slices, Math.ceil(100_000 / 16) - 1);
    for (const filter of ['host-1 dns', 'udm.principal.hostname:host-2 -user_login', 'batch-7', '"10.0.0.99"']) {
      const big = [...filterIndices(rows, filter, index)];
      const expected = blocks.flatMap((block, b) => [...filterIndices(block, filter)].map((i) => i + b * 10_000));
      assert.deepEqual(big, expected, filter);
      assert.deepEqual(big, [...filterIndices(rows, filter)], `${filter}: made ahead or on demand`);
    }
  });

  it("shows a filter's rows in the sort of all rows as sorting them alone would (the page's path)", () => {
    const all = Uint32Array.from(rows.keys());
    const hosts = rows.map((row) => cellText(row, hostColumn));
    const times = timesOf(rows, 'udm.metadata.eventTimestamp');
    const byHost = sortByKeys((i) => hosts[i], all, 'desc');
    const newest = newestFirstOrder(times);
    for (const filter of ['host-1 dns', 'batch-7', '"10.0.0.99"']) {
      const matched = filterIndices(rows, filter);
      assert.deepEqual([...pickInOrder(byHost, matched)!], [...sortByKeys((i) => hosts[i], matched, 'desc')], filter);
      assert.deepEqual([...pickInOrder(newest, matched)!], [...newestFirstOrder(times, matched)], filter);
    }
  });
});

describe('quick filter', () => {
  const rows = [udmRow(1), udmRow(2), udmRow(3, { about: [{ labels: [{ value: HOSTILE }] }] })];

  it('matches all terms anywhere in the row, case-insensitively', () => {
    assert.deepEqual([...filterIndices(rows, 'network_dns')], [0, 2]);
    assert.deepEqual([...filterIndices(rows, 'HOST-0 dns')], [2]);
    assert.deepEqual([...filterIndices(rows, '')], [0, 1, 2]);
  });

  it('supports field:value, quoted phrases and exclusions', () => {
    assert.deepEqual([...filterIndices(rows, 'udm.principal.hostname:host-2')], [1]);
    assert.deepEqual([...filterIndices(rows, '-user_login')], [0, 2]);
    assert.deepEqual([...filterIndices(rows, `"${HOSTILE}"`)], [2]);
    assert.deepEqual(parseFilter('a -b c:d "e f"'), [
      { text: 'a', negate: false },
      { text: 'b', negate: true },
      { path: 'c', text: 'd', negate: false },
      { text: 'e f', negate: false },
    ]);
  });

  it('finds a row when any one of its values holds every plain term, however often values repeat', () => {
    // The rule from the words above, value by value: what the search texts must give.
    const values = (v: unknown): string[] =>
      Array.isArray(v)
        ? v.flatMap(values)
        : v !== null && typeof v === 'object'
          ? Object.values(v).flatMap(values)
          : [String(v).toLowerCase()];
    const value = fc.constantFrom('srv-web-01', '10.10.0.33', 'Hugo', 'hugo', 'NETWORK_HTTP', 'a b', '', 'x');
    const row = fc.dictionary(
      fc.constantFrom('host', 'ip', 'user', 'type'),
      fc.oneof(value, fc.array(value, { maxLength: 4 }), fc.record({ hostname: value, ip: fc.array(value) })),
    );
    const term = fc.constantFrom('srv', 'web-01', '10.10', 'hugo', 'HUGO', '_http', 'x', '33 hugo', '-x', '"a b"');
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), term, (rows, filter) => {
        const expected = rows.flatMap((r, i) =>
          parseFilter(filter).every((t) => values(r).some((v) => v.includes(t.text)) !== t.negate) ? [i] : [],
        );
        assert.deepEqual([...filterIndices(rows, filter)], expected);
      }),
    );
  });

  it('keeps its search texts when rows are appended', () => {
    const index = new SearchIndex(rows);
    assert.deepEqual([...filterIndices(rows, 'dc-1', index)], [1]);
    const more = rows.concat([udmRow(4)]);
    index.setRows(more);
    assert.deepEqual([...filterIndices(more, 'dc-1', index)], [1, 3]);
  });
});

describe('histogram', () => {
  it('bins times with a nice width and counts each event once', () => {
    const start = Date.UTC(2024, 0, 1);
    const end = start + 3_600_000;
    const times = Float64Array.from([start, start + 59_999, start + 60_000, end - 1, end, Number.NaN, start - 1]);
    const bins = histogram(times, start, end, 60);
    assert.equal(bins.length, 60);
    assert.equal(bins[0].end - bins[0].start, 60_000);
    assert.equal(bins[0].count, 2);
    assert.equal(bins[1].count, 1);
    assert.equal(bins[59].count, 1);
    assert.equal(
      bins.reduce((s, b) => s + b.count, 0),
      4,
    );
  });

  it('never makes more bins than asked for, even for odd spans', () => {
    for (const span of [1, 999, 86_400_000, 7 * 86_400_000, 400 * 86_400_000]) {
      const bins = histogram(new Float64Array(0), 1000, 1000 + span, 50);
      assert.ok(bins.length <= 51 && bins.length >= 1, `span ${span}: ${bins.length}`);
    }
    assert.deepEqual(histogram(new Float64Array(0), 5, 5), []);
  });

  it('reads timestamps from rows', () => {
    const t = timesOf([udmRow(1), { udm: {} }], 'udm.metadata.eventTimestamp');
    assert.equal(t[0], Date.UTC(2024, 0, 1, 0, 1));
    assert.ok(Number.isNaN(t[1]));
  });

  it('the table, the held rows and the order read the same time from any row', () => {
    const path = 'udm.metadata.eventTimestamp';
    const at = (v: unknown): unknown => ({ udm: { metadata: { eventTimestamp: v } } });
    const rows = [
      udmRow(1),
      { udm: {} },
      at(1_700_000_000),
      at(['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z']),
      at('not a time'),
      { udm: [{ metadata: { eventTimestamp: '2024-02-01T00:00:00Z' } }, { metadata: {} }] },
      null,
    ];
    const read = timeReader(path);
    const expected = Array.from(timesOf(rows, path));
    assert.deepEqual(
      rows.map((r) => read(r)),
      expected,
    );
    assert.deepEqual(Array.from(tableParts(rows, 'udm', []).times), expected);
    assert.equal(expected[3], Date.UTC(2024, 0, 1), 'the first of several values');
    // Times already read are taken as they are, one per row of the range.
    assert.deepEqual(Array.from(tableParts(rows, 'udm', [], 1, 3, [5, 6]).times), [5, 6]);
    assert.throws(() => tableParts(rows, 'udm', [], 1, 3, [5]), /do not cover/);
  });
});
