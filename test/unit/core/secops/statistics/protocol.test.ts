import * as assert from 'node:assert/strict';
import {
  cellText,
  chartChoices,
  chartData,
  decodeStatsRows,
  estimateSearches,
  exportTable,
  parseFromStatsView,
  parseToStatsView,
  StatsMessageError,
} from '../../../../../src/core/secops/statistics/protocol';
import type { StatsColumn } from '../../../../../src/udm/stats/plan';

const HOST: StatsColumn = { name: 'principal.hostname', role: 'key', type: 'string' };
const USER: StatsColumn = { name: 'principal.user.userid', role: 'key', type: 'string' };
const BUCKET: StatsColumn = { name: 'time_bucket', role: 'bucket', type: 'timestamp' };
const N: StatsColumn = { name: 'n', role: 'outcome', type: 'number' };
const IPS: StatsColumn = { name: 'ips', role: 'outcome', type: 'array' };

describe('statistics: view protocol, exports and charts', () => {
  it('accepts the page messages it knows and refuses the rest', () => {
    assert.deepEqual(parseFromStatsView({ type: 'openGroup', runId: 'r1', row: 3 }), {
      type: 'openGroup',
      runId: 'r1',
      row: 3,
    });
    assert.deepEqual(parseFromStatsView({ type: 'export', runId: 'r1', format: 'ndjson' }), {
      type: 'export',
      runId: 'r1',
      format: 'ndjson',
    });
    assert.throws(() => parseFromStatsView({ type: 'openGroup', runId: 'r1', row: -1 }), StatsMessageError);
    assert.throws(() => parseFromStatsView({ type: 'export', runId: 'r1', format: 'xlsx' }), StatsMessageError);
    assert.throws(() => parseFromStatsView({ type: 'copy', text: 5 }), StatsMessageError);
    assert.throws(() => parseFromStatsView({ type: 'eval', code: '1' }), StatsMessageError);
    assert.throws(() => parseFromStatsView(null), StatsMessageError);
  });

  it('checks a table message and its rows on the page side', () => {
    const run = {
      runId: 'r',
      title: 't',
      startTime: 'a',
      endTime: 'b',
      eventsFetched: 3,
      searches: 1,
      groupsTotal: 1,
      timeZone: 'UTC',
      warnings: ['w', 7],
      partial: 'computed over 3 events',
    };
    const m = parseToStatsView({ type: 'table', run, columns: [HOST, N], rowsJson: '[["a",1]]' });
    assert.equal(m.type, 'table');
    if (m.type === 'table') {
      assert.deepEqual(m.run.warnings, ['w']);
      assert.equal(m.run.partial, 'computed over 3 events');
      assert.deepEqual(decodeStatsRows(m.rowsJson, 2), [['a', 1]]);
    }
    assert.throws(() => decodeStatsRows('[["a"]]', 2), StatsMessageError);
    assert.throws(() => decodeStatsRows('{', 2), StatsMessageError);
    assert.throws(
      () =>
        parseToStatsView({
          type: 'table',
          run,
          columns: [{ name: 'x', role: 'evil', type: 'number' }],
          rowsJson: '[]',
        }),
      StatsMessageError,
    );
  });

  it('cell text: timestamps in the table time zone, arrays joined, nulls empty', () => {
    const t = Date.parse('2024-11-03T06:00:00Z') / 1000;
    assert.equal(cellText(t, BUCKET, 'America/New_York'), '2024-11-03 01:00 -05:00');
    assert.equal(cellText(['10.0.0.1', '10.0.0.2'], IPS, 'UTC'), '10.0.0.1, 10.0.0.2');
    assert.equal(cellText(null, N, 'UTC'), '');
    assert.equal(cellText(1 / 3, N, 'UTC'), '0.333333333333');
  });

  it('exports the whole table: CSV with labels and formula guards, JSON and NDJSON objects', () => {
    const rows = [
      ['=cmd|calc', 2, ['a', 'b']],
      ['web "01"', 1, []],
    ];
    const cols = [HOST, N, IPS];
    assert.equal(
      exportTable('csv', cols, rows, 'UTC'),
      'principal.hostname,$n,$ips\r\n\'=cmd|calc,2,"a, b"\r\n"web ""01""",1,\r\n',
    );
    assert.deepEqual(JSON.parse(exportTable('json', cols, rows, 'UTC')), [
      { 'principal.hostname': '=cmd|calc', n: 2, ips: ['a', 'b'] },
      { 'principal.hostname': 'web "01"', n: 1, ips: [] },
    ]);
    const nd = exportTable('ndjson', [BUCKET, N], [[1709287200, 4]], 'UTC')
      .trim()
      .split('\n');
    assert.deepEqual(JSON.parse(nd[0]), { time_bucket: '2024-03-01T10:00:00.000Z', n: 4 });
  });

  it('chooses the chart from the shape of the table', () => {
    assert.deepEqual(chartChoices([HOST, N]), ['bar', 'table']);
    assert.deepEqual(chartChoices([BUCKET, N]), ['timeseries', 'bar', 'table']);
    assert.deepEqual(chartChoices([HOST, BUCKET, N]), ['timeseries', 'stacked', 'grouped', 'table']);
    assert.deepEqual(chartChoices([HOST, USER, N]), ['stacked', 'grouped', 'table']);
    assert.deepEqual(chartChoices([HOST, IPS]), ['table']);
    assert.deepEqual(chartChoices([HOST, USER, BUCKET, N]), ['table']);
  });

  it('chart data: bars per key, series per second key, buckets in time order', () => {
    const bars = chartData(
      'bar',
      [HOST, N],
      [
        ['a', 3],
        ['b', 5],
      ],
      'UTC',
    );
    assert.deepEqual(bars?.labels, ['a', 'b']);
    assert.deepEqual(bars?.datasets, [{ label: '$n', data: [3, 5] }]);

    const rows = [
      ['a', 'x', 1],
      ['a', 'y', 2],
      ['b', 'y', 4],
    ];
    const stacked = chartData('stacked', [HOST, USER, N], rows, 'UTC');
    assert.deepEqual(stacked?.labels, ['a', 'b']);
    // series by total: y (6) before x (1)
    assert.deepEqual(stacked?.datasets, [
      { label: 'y', data: [2, 4] },
      { label: 'x', data: [1, null] },
    ]);

    const t0 = Date.parse('2024-03-01T10:00:00Z') / 1000;
    const series = chartData(
      'timeseries',
      [BUCKET, N],
      [
        [t0 + 3600, 2],
        [t0, 1],
      ],
      'UTC',
    );
    assert.deepEqual(series?.labels, ['2024-03-01 10:00 +00:00', '2024-03-01 11:00 +00:00']);
    assert.deepEqual(series?.datasets[0].data, [1, 2]);
    assert.equal(chartData('table', [HOST, N], [], 'UTC'), undefined);
  });

  it('estimates the searches fetching the rest would spend', () => {
    const start = 0;
    const end = 100 * 3_600_000;
    // 10,000 events over the last 10 of 100 hours: about 100,000 events, ~15 final windows
    const times = Array.from({ length: 10_000 }, (_, i) => end - i * 3600);
    const e = estimateSearches(start, end, times, 10_000);
    assert.equal(e.atLeast, 2);
    assert.ok(e.likely !== undefined && e.likely >= 20 && e.likely <= 40, String(e.likely));
    // events spread over the whole window say nothing about the total
    assert.deepEqual(estimateSearches(start, end, [start + 1, end - 1], 10_000), { atLeast: 2 });
  });
});
