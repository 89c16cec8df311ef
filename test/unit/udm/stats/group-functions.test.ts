// Outcomes Google documents that go beyond the plain aggregates: window.range computed over a
// group, and $count as an outcome name (the SPL-to-YARA-L and group() pages).
import * as assert from 'node:assert/strict';
import { analyze } from '../../../../src/udm/index';
import { compileStatistics, type StatsResult } from '../../../../src/udm/stats';

const events = [
  {
    metadata: { id: 'a', eventTimestamp: '2024-03-01T10:00:00Z' },
    principal: { hostname: 'web-01' },
    network: { sentBytes: '300' },
  },
  {
    metadata: { id: 'b', eventTimestamp: '2024-03-01T10:01:00Z' },
    principal: { hostname: 'web-01' },
    network: { sentBytes: '0' },
  },
  {
    metadata: { id: 'c', eventTimestamp: '2024-03-01T10:02:00Z' },
    principal: { hostname: 'web-01' },
    network: { sentBytes: '1200' },
  },
  {
    metadata: { id: 'd', eventTimestamp: '2024-03-01T10:03:00Z' },
    principal: { hostname: 'web-02' },
    network: { sentBytes: '50' },
  },
  { metadata: { id: 'e', eventTimestamp: '2024-03-01T10:04:00Z' }, principal: { hostname: 'web-02' } },
];

function rows(query: string): Array<Record<string, unknown>> {
  assert.deepEqual(
    analyze(query)
      .diagnostics.filter((d) => d.severity === 'error')
      .map((d) => d.message),
    [],
  );
  const c = compileStatistics(query);
  assert.ok(c, 'a statistical query');
  const r: StatsResult = c.engine.run(events, { timeZone: 'UTC' });
  assert.deepEqual(r.warnings, []);
  return r.rows.map((row) => Object.fromEntries(r.columns.map((col, i) => [col.name, row[i]])));
}

describe('statistics: functions computed over the group', () => {
  it('window.range(network.sent_bytes, false) in outcome: with match: is [min, max] of the group', () => {
    assert.deepEqual(
      rows(
        'principal.hostname != ""\nmatch:\n  principal.hostname\noutcome:\n  $range = window.range(network.sent_bytes, false)\norder:\n  principal.hostname',
      ),
      [
        { 'principal.hostname': 'web-01', range: [0, 1200] },
        // an event without sent_bytes adds no value, as with the aggregates (avg: "NULL values are ignored")
        { 'principal.hostname': 'web-02', range: [50, 50] },
      ],
    );
  });

  it('window.range(..., true) leaves zeros out (the page: "Setting the optional second argument to true ignores zero values")', () => {
    assert.deepEqual(
      rows(
        'principal.hostname != ""\nmatch:\n  principal.hostname\noutcome:\n  $range = window.range(network.sent_bytes, true)\norder:\n  principal.hostname',
      ),
      [
        { 'principal.hostname': 'web-01', range: [300, 1200] },
        { 'principal.hostname': 'web-02', range: [50, 50] },
      ],
    );
  });

  it('a per-event value beside window.range still asks for an aggregate', () => {
    const codes = analyze(
      '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $r = window.range(network.sent_bytes, false)\n  $b = network.sent_bytes',
    ).diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ['missing-aggregate']);
  });

  it('$count as the SPL-to-YARA-L page writes it: outcome: $count = count(metadata.id), condition: $count > 2', () => {
    assert.deepEqual(
      rows(
        '$host = principal.hostname\nmatch:\n  $host\noutcome:\n  $count = count(metadata.id)\ncondition:\n  $count > 2',
      ),
      [{ host: 'web-01', count: 3 }],
    );
  });

  it('$count as the group() page writes it: $count = count_distinct(metadata.id), order: $count desc', () => {
    assert.deepEqual(
      rows(
        '$host = group(principal.hostname, target.hostname)\nmatch:\n  $host\noutcome:\n  $count = count_distinct(metadata.id)\norder:\n  $count desc',
      ),
      [
        { host: 'web-01', count: 3 },
        { host: 'web-02', count: 2 },
      ],
    );
  });

  it('the other keywords stay refused as names ($max, $outcome)', () => {
    for (const q of ['$max = principal.hostname\nmatch:\n  $max', '$outcome = principal.hostname'])
      assert.ok(
        analyze(q).diagnostics.some((d) => d.code === 'keyword-variable'),
        q,
      );
  });
});
