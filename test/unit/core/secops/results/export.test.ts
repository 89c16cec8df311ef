import assert from 'node:assert/strict';
import {
  csvField,
  displayText,
  exportResults,
  isOpenableLink,
  toCsv,
  toNdjson,
} from '../../../../../src/core/secops/results/export';
import { defaultColumns } from '../../../../../src/core/secops/results/fields';
import { parseFromWebview, parseToWebview } from '../../../../../src/core/secops/messages';
import { buildTable, decodeCells } from '../../../../../src/core/secops/results/rowtable';
import { pivotsFor, pivotResultKind } from '../../../../../src/core/secops/results/pivots';
import { describeTimeRange, parseTimeInput, resolveTimeRange } from '../../../../../src/core/secops/timerange';
import { parseCsv } from '../../../../support/csv';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(document.cookie)</script>',
  '"quoted", with comma',
  'line\nbreak\r\nand CR',
  '=HYPERLINK("http://evil.example","x")',
  '+cmd|/c calc',
  '-2+3',
  '@SUM(A1)',
  'exe.\u202Etxt',
  'zero\u200Bwidth',
  'javascript:alert(1)',
];

describe('export', () => {
  const rows = HOSTILE.map((s, i) => ({
    name: `n${i}`,
    udm: {
      metadata: { eventTimestamp: '2024-01-01T00:00:00Z', eventType: 'GENERIC_EVENT' },
      principal: { hostname: s },
    },
  }));
  const columns = defaultColumns('udm');

  it('writes RFC 4180 CSV that round-trips hostile strings, with formula cells defused', () => {
    const csv = toCsv(rows, columns);
    const parsed = parseCsv(csv);
    assert.equal(parsed.length, rows.length + 1);
    assert.deepEqual(parsed[0], ['Time', 'Event type', 'Principal', 'Target', 'Security result']);
    HOSTILE.forEach((s, i) => {
      const cell = parsed[i + 1][2];
      if (/^[=+\-@]/.test(s)) assert.equal(cell, `'${s}`);
      else assert.equal(cell, s);
    });
  });

  it('quotes only when needed', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField(' padded '), '" padded "');
  });

  it('exports the whole set as JSON and NDJSON that parse back identically', () => {
    assert.deepEqual(JSON.parse(exportResults('json', rows, columns)), rows);
    const lines = toNdjson(rows).trimEnd().split('\n');
    assert.equal(lines.length, rows.length);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      rows,
    );
  });

  it('makes control and bidi characters visible and cuts long cells', () => {
    assert.equal(displayText('exe.\u202Etxt'), 'exe.\u2039U+202E\u203Atxt');
    assert.equal(displayText('a\nb\tc'), 'a b c');
    const long = 'x'.repeat(1_000_000);
    const shown = displayText(long, 100);
    assert.ok(shown.length < 140);
    assert.ok(shown.endsWith('(1,000,000 chars)'));
    assert.equal(
      displayText(HOSTILE[0]),
      HOSTILE[0],
      'markup stays literal text; the page inserts it with textContent',
    );
  });

  it('opens only http(s) links', () => {
    assert.equal(isOpenableLink('https://tenant.backstory.chronicle.security/assetResults?x=1'), true);
    assert.equal(isOpenableLink('http://example.com'), true);
    for (const bad of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>1</script>',
      'file:///etc/passwd',
      'vscode://x',
      'command:workbench.action.quit',
      'not a url',
      'https://',
    ]) {
      assert.equal(isOpenableLink(bad), false, bad);
    }
  });
});

describe('webview messages', () => {
  it('accepts well-formed messages from the page', () => {
    assert.deepEqual(parseFromWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(
      parseFromWebview({ type: 'pivot', runId: 'r', action: 'assetEvents.hostname', value: 'h', row: 3 }),
      { type: 'pivot', runId: 'r', action: 'assetEvents.hostname', value: 'h', row: 3 },
    );
    const exp = parseFromWebview({
      type: 'export',
      runId: 'r',
      format: 'csv',
      columns: [{ id: 'a', label: 'A', extra: 1 }],
    });
    assert.deepEqual(exp, { type: 'export', runId: 'r', format: 'csv', columns: [{ id: 'a', label: 'A' }] });
  });

  it('refuses anything else, naming the problem', () => {
    const bad: unknown[] = [
      null,
      'ready',
      [],
      { type: 'nope' },
      { type: 'export', runId: 'r', format: 'xlsx', columns: [] },
      { type: 'pivot', runId: 'r', action: 'deleteEverything', value: 'x' },
      { type: 'pivot', runId: 'r', action: 'rawLog', value: 'x', row: -1 },
      { type: 'openLink', url: 42 },
      { type: 'fetchRest' },
      { type: 'export', runId: 'r', format: 'csv', columns: [{ id: 1 }] },
    ];
    for (const m of bad) assert.throws(() => parseFromWebview(m), /./, JSON.stringify(m));
  });

  it('checks messages to the page too', () => {
    const table = buildTable([{ a: 1 }], 'alerts', [{ id: 'a', label: 'A' }]);
    const ok = parseToWebview({
      type: 'results',
      run: { runId: 'r', kind: 'udm', title: 't', uri: ['https://x', 5] },
      columns: [],
      table,
      fields: ['a'],
      moreDataAvailable: true,
    });
    assert.equal(ok.type, 'results');
    assert.deepEqual(ok.type === 'results' && ok.run.uri, ['https://x']);
    assert.deepEqual(ok.type === 'results' && decodeCells(ok.table), [['1']]);
    assert.throws(
      () =>
        parseToWebview({
          type: 'results',
          run: { runId: 'r', kind: 'evil', title: 't' },
          columns: [],
          table,
          fields: [],
        }),
      /run/,
    );
    // Rows as JSON objects (or JSON text) are not a table.
    for (const bad of [[{ a: 1 }], '[{"a":1}]', { ...table, times: [1] }, { ...table, cells: '[["1"]]' }])
      assert.throws(
        () =>
          parseToWebview({
            type: 'results',
            run: { runId: 'r', kind: 'udm', title: 't' },
            columns: [],
            table: bad,
            fields: [],
          }),
        /table/,
      );
    assert.throws(
      () =>
        parseToWebview({
          type: 'rows.filtered',
          runId: 'r',
          id: 1,
          count: 2,
          indices: Uint32Array.of(0, 5),
          searched: [],
        }),
      /indices/,
      'a position past the rows the answer covers',
    );
    assert.throws(() => decodeCells({ ...table, cells: new TextEncoder().encode('{"not":"an array"}') }), /match/);
    assert.throws(() => decodeCells({ ...table, cells: new TextEncoder().encode('<img src=x>') }), /not valid JSON/);
    assert.throws(() => decodeCells({ ...table, count: 2, times: new Float64Array(2) }), /match/);
    assert.throws(() => parseToWebview({ type: 'status', runId: 'r', state: 'exploded' }), /state/);
  });
});

describe('pivots', () => {
  it('offers the right follow-ups per field and value shape', () => {
    assert.deepEqual(pivotsFor('principal.hostname', 'host-a'), ['assetEvents.hostname', 'assetAliases.hostname']);
    assert.deepEqual(pivotsFor('target.hostname', 'evil.example.com'), [
      'assetEvents.hostname',
      'assetAliases.hostname',
      'assets.domain',
      'iocDetails.domain',
    ]);
    assert.deepEqual(pivotsFor('principal.ip', '10.0.0.5'), [
      'assetEvents.ip',
      'assets.ip',
      'iocDetails.ip',
      'assetAliases.ip',
    ]);
    assert.deepEqual(pivotsFor('principal.ip', 'not-an-ip'), []);
    assert.deepEqual(pivotsFor('principal.mac', '00:11:22:33:44:55'), ['assetEvents.mac', 'assetAliases.mac']);
    assert.deepEqual(pivotsFor('target.process.file.sha256', 'a'.repeat(64)), ['assets.sha256']);
    assert.deepEqual(pivotsFor('target.process.file.md5', 'xyz'), []);
    assert.deepEqual(pivotsFor('metadata.id', 'AAAA'), ['rawLog', 'fullEvent']);
    assert.deepEqual(pivotsFor('network.dns.questions.name', 'a.example.org'), ['assets.domain', 'iocDetails.domain']);
    assert.deepEqual(pivotsFor('principal.user.userid', 'alice'), ['userAliases.username']);
    assert.deepEqual(pivotsFor('principal.hostname', '<img src=x onerror=alert(1)>'), [
      'assetEvents.hostname',
      'assetAliases.hostname',
    ]);
    assert.equal(pivotResultKind('assets.md5'), 'assets');
    assert.equal(pivotResultKind('rawLog'), 'text');
  });
});

describe('time range', () => {
  it('resolves presets at run time, ending just after now', () => {
    const now = Date.UTC(2024, 4, 1, 12, 0, 0, 400);
    const w = resolveTimeRange({ kind: 'preset', preset: '1h' }, now);
    assert.equal(w.end, '2024-05-01T12:00:01Z');
    assert.equal(w.start, '2024-05-01T11:00:01Z');
    assert.equal(
      resolveTimeRange({ kind: 'preset', preset: '7d' }, now).endMs -
        resolveTimeRange({ kind: 'preset', preset: '7d' }, now).startMs,
      7 * 86_400_000,
    );
    assert.equal(describeTimeRange({ kind: 'preset', preset: '24h' }), 'Last 24 hours');
  });

  it('checks custom ranges', () => {
    const w = resolveTimeRange({ kind: 'custom', start: '2024-05-01T00:00:00+02:00', end: '2024-05-01T00:00:00Z' }, 0);
    assert.equal(w.start, '2024-04-30T22:00:00Z');
    assert.throws(
      () => resolveTimeRange({ kind: 'custom', start: '2024-05-02T00:00:00Z', end: '2024-05-01T00:00:00Z' }, 0),
      /after it ends/,
    );
  });

  it('reads typed times: RFC 3339, now and offsets', () => {
    const now = Date.UTC(2024, 4, 1, 12, 0, 0);
    assert.deepEqual(parseTimeInput('now', now), { value: '2024-05-01T12:00:00Z' });
    assert.deepEqual(parseTimeInput('-2h', now), { value: '2024-05-01T10:00:00Z' });
    assert.deepEqual(parseTimeInput('-7d', now), { value: '2024-04-24T12:00:00Z' });
    assert.deepEqual(parseTimeInput('2024-05-01T01:02:03Z', now), { value: '2024-05-01T01:02:03Z' });
    assert.ok('error' in parseTimeInput('yesterday', now));
    assert.ok('error' in parseTimeInput('', now));
  });
});
