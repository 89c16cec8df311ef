import assert from 'node:assert/strict';
import { exportFileName, exportOptionsOf, exportRunText } from '../../../../../src/core/secops/results/export-run';
import {
  CANNOT_SPLIT,
  restOutcome,
  restProgressText,
  restQuestion,
  restStopped,
} from '../../../../../src/core/secops/results/rest';

describe('what "fetch the rest" says', () => {
  it('asks with the searches it will spend and what the hour has left', () => {
    assert.equal(
      restQuestion(1, undefined),
      'Fetching the rest will spend about 1 UDM search (more if parts of the range are busier than the part already fetched).',
    );
    assert.match(
      restQuestion(12, { remaining: 100, limit: 120 }),
      /about 12 UDM searches .* 100 of 120 remain this hour\.$/,
    );
    assert.match(
      restQuestion(12, { remaining: 3, limit: 120 }),
      /3 of 120 remain this hour, so it stops when they run out/,
    );
  });

  it('counts the windows done of all the windows known', () => {
    assert.equal(
      restProgressText({ items: 12345, windowsDone: 2, windowsPending: 3 }),
      '12,345 events · 2 of 5 searches done',
    );
    assert.equal(restProgressText({ items: 1, windowsDone: 0, windowsPending: 1 }), '1 events · 0 of 1 search done');
  });

  it('says how it ended', () => {
    assert.equal(
      restOutcome({ complete: true, windowsFetched: 1 }, 20_000),
      'All 20,000 events fetched with 1 more search.',
    );
    assert.match(
      restOutcome({ complete: false, stoppedBy: 'maxItems', windowsFetched: 9 }, 200_000),
      /^Stopped at 200,000 events \(the panel's cap\)/,
    );
    assert.match(
      restOutcome({ complete: false, stoppedBy: 'minWindow', windowsFetched: 9 }, 5),
      /one-second windows .* 5 events fetched\.$/,
    );
    assert.equal(restStopped(true, 1500, 'ignored'), 'Stopped; 1,500 events kept.');
    assert.equal(restStopped(false, 1500, 'boom'), 'Fetching the rest failed: boom');
    assert.match(CANNOT_SPLIT, /narrow its time range/);
  });
});

describe('exporting a run', () => {
  it('names the file by what it holds and when, with no characters a file system refuses', () => {
    const at = new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123));
    assert.equal(exportFileName('udm', 'csv', at), 'udm-results-2024-05-06T07-08-09.csv');
    assert.equal(exportFileName('assetEvents', 'ndjson', at), 'assetEvents-2024-05-06T07-08-09.ndjson');
    assert.doesNotMatch(exportFileName('iocMatches', 'json', at), /[:/\\]/);
  });

  it('writes the whole set newest first, in the default columns when none are chosen', () => {
    const rows = [1, 3, 2].map((s) => ({
      name: `e${s}`,
      udm: { metadata: { eventTimestamp: `2024-01-01T00:00:0${s}Z`, eventType: 'GENERIC_EVENT' } },
    }));
    const ndjson = exportRunText('udm', rows, 'ndjson', []);
    assert.deepEqual(
      ndjson
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name),
      ['e3', 'e2', 'e1'],
    );
    const csv = exportRunText('udm', rows, 'csv', []);
    assert.match(csv.split(/\r?\n/)[0], /^Time,/);
    const chosen = exportRunText('udm', rows, 'csv', [{ id: 'udm.metadata.eventType', label: 'Type' }]);
    assert.deepEqual(chosen.trim().split(/\r?\n/), ['Type', 'GENERIC_EVENT', 'GENERIC_EVENT', 'GENERIC_EVENT']);
    // Rows of a kind without a time keep their order.
    const aliases = [{ entity: { asset: { hostname: 'b' } } }, { entity: { asset: { hostname: 'a' } } }];
    assert.equal(exportRunText('assetAliases', aliases, 'json', []), JSON.stringify(aliases, null, 2) + '\n');
  });

  it('writes the rows in the sort the page shows and, when asked, every field as a column', () => {
    const rows = [
      {
        name: 'e1',
        udm: {
          metadata: { eventTimestamp: '2024-01-01T00:00:01Z' },
          principal: { hostname: 'host-10', ip: ['10.0.0.1'] },
        },
      },
      { name: 'e2', udm: { metadata: { eventTimestamp: '2024-01-01T00:00:02Z' }, principal: { hostname: 'host-2' } } },
      { name: 'e3', udm: { metadata: { eventTimestamp: '2024-01-01T00:00:03Z' }, principal: { hostname: 'host-2' } } },
    ];
    const host = { id: 'udm.principal.hostname', label: 'Host' };
    const names = (csv: string): string[] => csv.trim().split(/\r?\n/).slice(1);
    // host-2 before host-10 (numeric-aware, as the page sorts); ties keep the order the rows came.
    assert.deepEqual(
      names(
        exportRunText('udm', rows, 'csv', [host, { id: 'name', label: 'Name' }], {
          sort: { column: host, direction: 'asc' },
        }),
      ),
      ['host-2,e2', 'host-2,e3', 'host-10,e1'],
    );
    assert.deepEqual(
      names(
        exportRunText('udm', rows, 'csv', [{ id: 'name', label: 'Name' }], {
          sort: { column: host, direction: 'desc' },
        }),
      ),
      ['e1', 'e2', 'e3'],
    );
    // Every field, named as UDM names it (no `udm.` root).
    const header = exportRunText('udm', rows, 'csv', [host], { allColumns: true }).split(/\r?\n/)[0].split(',');
    for (const field of ['name', 'metadata.eventTimestamp', 'principal.hostname', 'principal.ip'])
      assert.ok(header.includes(field), header.join(','));
  });

  it('checks the export options a page sends', () => {
    const column = (c: unknown) => c as { id: string; label: string };
    const fail = (m: string) => new Error(m);
    assert.deepEqual(exportOptionsOf({}, column, fail), {});
    assert.deepEqual(
      exportOptionsOf({ sort: { column: { id: 'a', label: 'A' }, direction: 'desc' }, allColumns: true }, column, fail),
      {
        sort: { column: { id: 'a', label: 'A' }, direction: 'desc' },
        allColumns: true,
      },
    );
    assert.throws(() => exportOptionsOf({ sort: { column: {}, direction: 'up' } }, column, fail), /direction/);
    assert.throws(() => exportOptionsOf({ allColumns: 'yes' }, column, fail), /allColumns/);
  });
});
