import { strict as assert } from 'node:assert';
import {
  DEFAULT_KEEP_ROWS,
  MAX_KEEP_ROWS,
  NotebookFormatError,
  keepResults,
  keepStatistics,
  statisticsNote,
  keepRowsSetting,
  keptNote,
  notebookToMarkdown,
  parseNotebook,
  serializeNotebook,
  type NotebookFile,
} from '../../../src/core/notebook/format';

const event = (i: number, host: string): unknown => ({
  name: `events/${i}`,
  udm: {
    metadata: { id: `id-${i}`, eventTimestamp: `2026-11-20T10:0${i % 10}:00Z`, eventType: 'USER_LOGIN' },
    principal: { hostname: host },
  },
});

const run = (n: number, more = false) => ({
  ranAt: '2026-11-20T10:30:00.000Z',
  durationMs: 120,
  query: 'metadata.event_type = "USER_LOGIN"',
  window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' },
  moreDataAvailable: more,
  events: Array.from({ length: n }, (_, i) => event(i, i % 2 ? 'lt-ana-01' : 'web|01')),
});

describe('UDM notebook file', () => {
  it('round-trips cells, time ranges, limits and kept results, sources as lines', () => {
    const nb: NotebookFile = {
      format: 'cloudbench-udm-notebook',
      version: 1,
      timeRange: { kind: 'preset', preset: '7d' },
      cells: [
        { kind: 'markdown', source: ['# Hunt', '', 'Step one.'] },
        {
          kind: 'udm',
          source: ['metadata.event_type = "USER_LOGIN"', 'security_result.action = "BLOCK"'],
          timeRange: { kind: 'custom', start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' },
          limit: 500,
          executionOrder: 3,
          output: keepResults(run(3), 10),
        },
        { kind: 'udm', source: ['principal.hostname = "x"'], output: { kind: 'error', ranAt: 'r', message: 'boom' } },
      ],
    };
    const text = serializeNotebook(nb);
    assert.ok(text.endsWith('\n'));
    assert.ok(
      text.includes('\n        "metadata.event_type = \\"USER_LOGIN\\"",\n'),
      'each source line on its own line',
    );
    const back = parseNotebook(text);
    assert.deepEqual(back, nb);
    assert.equal(serializeNotebook(back), text, 'stable: saving again changes nothing');
  });

  it('reads an empty file as an empty notebook', () => {
    assert.deepEqual(parseNotebook('  \n').cells, []);
  });

  it('refuses what is not a notebook, saying what is wrong', () => {
    assert.throws(
      () => parseNotebook('{nope'),
      (e: Error) => e instanceof NotebookFormatError && /not valid JSON/.test(e.message),
    );
    assert.throws(() => parseNotebook('{"cells": []}'), /"format" must be "cloudbench-udm-notebook"/);
    assert.throws(
      () => parseNotebook('{"format":"cloudbench-udm-notebook","version":9,"cells":[]}'),
      /version 9.*Update Cloudbench/,
    );
    assert.throws(
      () => parseNotebook('{"format":"cloudbench-udm-notebook","version":1,"cells":[{"kind":"python","source":[]}]}'),
      /Cell 1: "kind"/,
    );
    assert.throws(
      () =>
        parseNotebook(
          '{"format":"cloudbench-udm-notebook","version":1,"cells":[{"kind":"udm","source":[],"limit":0}]}',
        ),
      /Cell 1: "limit" must be a whole number from 1 to 10000/,
    );
    assert.throws(
      () =>
        parseNotebook(
          '{"format":"cloudbench-udm-notebook","version":1,"cells":[{"kind":"udm","source":[],"timeRange":{"kind":"preset","preset":"3y"}}]}',
        ),
      /"timeRange" is not a time range/,
    );
  });

  it('accepts a source written as one string (hand-edited files)', () => {
    const nb = parseNotebook(
      '{"format":"cloudbench-udm-notebook","version":1,"cells":[{"kind":"udm","source":"a = 1\\nb = 2"}]}',
    );
    assert.deepEqual(nb.cells[0].source, ['a = 1', 'b = 2']);
  });

  it('keeps the newest rows up to the setting, newest first as the results panel shows them, and says how many', () => {
    // The events came oldest first (minutes 0…9, then again): the kept ones are the newest, in
    // their order of arrival among equal times.
    const kept = keepResults(run(25, true), 10);
    assert.equal(kept.totalEvents, 25);
    assert.equal(kept.keptRows, 10);
    assert.deepEqual(
      kept.events.map((e) => (e as { name: string }).name),
      [9, 19, 8, 18, 7, 17, 6, 16, 5, 15].map((i) => `events/${i}`),
    );
    assert.equal(
      keptNote(kept),
      '25 events (the search was cut at its limit); the newest 10 kept in the notebook (setting cloudbench.notebook.keepRows).',
    );
    assert.equal(keptNote(keepResults(run(3), 10)), '3 events; all kept in the notebook.');
    assert.match(keptNote(keepResults(run(3), 0)), /none kept in the notebook/);
    assert.equal(keptNote(keepResults(run(0), 10)), 'No events matched.');
  });

  it('reads the keep-rows setting defensively', () => {
    assert.equal(keepRowsSetting(undefined), DEFAULT_KEEP_ROWS);
    assert.equal(keepRowsSetting('500'), DEFAULT_KEEP_ROWS);
    assert.equal(keepRowsSetting(-1), DEFAULT_KEEP_ROWS);
    assert.equal(keepRowsSetting(0), 0);
    assert.equal(keepRowsSetting(12.7), 12);
    assert.equal(keepRowsSetting(1e9), MAX_KEEP_ROWS);
  });

  it('a saved file that lies about its counts is corrected on reading', () => {
    const text = JSON.stringify({
      format: 'cloudbench-udm-notebook',
      version: 1,
      cells: [
        { kind: 'udm', source: ['x'], output: { kind: 'results', events: [1, 2, 3], keptRows: 99, totalEvents: 1 } },
      ],
    });
    const out = parseNotebook(text).cells[0].output;
    assert.ok(out && out.kind === 'results');
    assert.equal(out.keptRows, 3);
    assert.equal(out.totalEvents, 3);
  });

  it('exports a Markdown report with notes, fenced queries and escaped tables', () => {
    const nb: NotebookFile = {
      format: 'cloudbench-udm-notebook',
      version: 1,
      cells: [
        { kind: 'markdown', source: ['# Failed logins', 'Who is guessing passwords?'] },
        { kind: 'udm', source: ['principal.hostname = "a```b"'], output: keepResults(run(60), 60) },
        { kind: 'udm', source: ['bad'], output: { kind: 'error', ranAt: 'r', message: 'Invalid | query' } },
        { kind: 'udm', source: ['never ran'] },
      ],
    };
    const md = notebookToMarkdown(nb, 'hunt');
    assert.ok(md.startsWith('# hunt\n'));
    assert.ok(md.includes('Who is guessing passwords?'));
    assert.ok(md.includes('````udm\nprincipal.hostname = "a```b"\n````'), 'a fence longer than any backtick run');
    assert.ok(md.includes('| Time | Event type |'), 'a header row from the result columns');
    assert.ok(md.includes('web\\|01'), 'pipes in values are escaped');
    assert.equal((md.match(/\| id-|\| 2026-11-20T10:0/g) ?? []).length, 50, 'at most 50 rows listed');
    assert.ok(md.includes('_10 more kept rows not shown._'));
    assert.ok(md.includes('> **Error:** Invalid \\| query'));
    assert.ok(md.includes('## Query 3\n\n```udm\nnever ran\n```\n\n_Not run._'));
  });

  describe('statistics outputs', () => {
    const table = (rows: number, partial?: string) =>
      keepStatistics(
        {
          ranAt: '2026-11-20T10:30:00.000Z',
          durationMs: 80,
          query:
            'metadata.event_type = "USER_LOGIN"\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)',
          window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' },
          eventsFetched: 120,
          searches: 2,
          ...(partial ? { partial } : {}),
          timeZone: 'UTC',
          columns: [
            { name: 'principal.hostname', role: 'key', type: 'string' },
            { name: 'n', role: 'outcome', type: 'number' },
          ],
          rows: Array.from({ length: rows }, (_, i) => [`host|${i}`, i * 2]),
          warnings: [],
        },
        3,
      );

    it('round-trips a bounded table and says how much was kept and whether it is partial', () => {
      const out = table(5, 'the budget ran out');
      assert.equal(out.totalRows, 5);
      assert.equal(out.keptRows, 3);
      const nb: NotebookFile = {
        format: 'cloudbench-udm-notebook',
        version: 1,
        cells: [{ kind: 'udm', source: out.query.split('\n'), output: out }],
      };
      assert.deepEqual(parseNotebook(serializeNotebook(nb)), nb);
      assert.equal(
        statisticsNote(out),
        '5 rows from 120 events (2 searches); the first 3 rows kept in the notebook. Partial: the budget ran out.',
      );
    });

    it('refuses rows that do not fit the columns', () => {
      const text = JSON.stringify({
        format: 'cloudbench-udm-notebook',
        version: 1,
        cells: [
          {
            kind: 'udm',
            source: ['x'],
            output: { kind: 'statistics', columns: [{ name: 'a', role: 'key', type: 'string' }], rows: [['a', 1]] },
          },
        ],
      });
      assert.throws(() => parseNotebook(text), /one value per column/);
    });

    it('puts the table in the Markdown report with column labels', () => {
      const md = notebookToMarkdown(
        { format: 'cloudbench-udm-notebook', version: 1, cells: [{ kind: 'udm', source: ['q'], output: table(2) }] },
        'stats',
      );
      assert.ok(md.includes('| principal.hostname | \\$n |'), md);
      assert.ok(md.includes('| host\\|1 | 2 |'), md);
      assert.ok(md.includes('2 rows from 120 events (2 searches).'), md);
    });
  });
});
