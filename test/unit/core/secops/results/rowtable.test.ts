import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cellText,
  defaultColumns,
  discoverColumns,
  type ColumnSpec,
} from '../../../../../src/core/secops/results/fields';
import {
  CELL_MAX,
  ResultRows,
  answerRowsRequest,
  buildTable,
  cellReader,
  columnKey,
  decodeCells,
} from '../../../../../src/core/secops/results/rowtable';
import { parseToWebview } from '../../../../../src/core/secops/messages';
import { filterIndices } from '../../../../../src/core/secops/results/table';

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

/** Any JSON value, nested a few levels, with keys the paths below use. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'udm', '0'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('result row tables', () => {
  it('reads every cell as cellText does, for any JSON and any path', () => {
    fc.assert(
      fc.property(
        json,
        fc.array(fc.constantFrom('a', 'b', 'c', 'udm', '0'), { minLength: 1, maxLength: 4 }),
        fc.array(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 3 }), { maxLength: 2 }),
        (row, path, fallbacks) => {
          const column: ColumnSpec = { id: path.join('.'), label: 'x', fallbacks: fallbacks.map((f) => f.join('.')) };
          assert.equal(cellReader(column)(row), cellText(row, column));
        },
      ),
    );
  });

  it('holds times and the shown columns of a slice of rows, and nothing else of the events', () => {
    const rows = [udmRow(1), udmRow(2, { about: { labels: [{ value: HOSTILE }] } }), udmRow(3)];
    const columns = defaultColumns('udm');
    const table = buildTable(rows, 'udm', columns, 1);
    assert.equal(table.count, 2);
    assert.ok(table.times instanceof Float64Array);
    assert.deepEqual([...table.times], [Date.UTC(2024, 0, 1, 0, 2), Date.UTC(2024, 0, 1, 0, 3)]);
    assert.ok(table.cells instanceof Uint8Array && !Buffer.isBuffer(table.cells), 'a plain Uint8Array');
    const cells = decodeCells(table);
    assert.deepEqual(
      cells,
      columns.map((c) => rows.slice(1).map((r) => cellText(r, c))),
    );
    assert.deepEqual(cells[2], ['host-2', 'host-0']);
    assert.equal(new TextDecoder().decode(table.cells).includes('img'), false, 'fields not shown stay behind');
    // Rows without a time, and kinds without a time field, get NaN.
    assert.ok(Number.isNaN(buildTable([{ udm: {} }], 'udm', columns).times[0]));
    assert.ok(Number.isNaN(buildTable([{ a: 1 }], 'alerts', []).times[0]));
  });

  it('cuts very long cells and keeps unicode intact through the UTF-8 block', () => {
    const long = 'é'.repeat(CELL_MAX + 50);
    const table = buildTable([{ a: long }, { a: '日本語 🚀' }], 'alerts', [{ id: 'a', label: 'A' }]);
    const [cells] = decodeCells(table);
    assert.equal(cells[0], `${'é'.repeat(CELL_MAX)}…`);
    assert.equal(cells[1], '日本語 🚀');
  });

  it('passes the page’s checks, and keys columns by their paths and fallbacks', () => {
    const table = buildTable([udmRow(1)], 'udm', defaultColumns('udm'));
    const parsed = parseToWebview({ type: 'append', runId: 'r', table });
    assert.equal(parsed.type === 'append' && parsed.table.count, 1);
    assert.notEqual(columnKey({ id: 'a', label: 'A' }), columnKey({ id: 'a', label: 'A', fallbacks: ['b'] }));
    assert.equal(columnKey({ id: 'a', label: 'A' }), columnKey({ id: 'a', label: 'Other label' }));
  });

  it("a first message names the run's total only when the rest follows: above its rows, bounded, not while arriving", () => {
    const table = buildTable([udmRow(1), udmRow(2)], 'udm', defaultColumns('udm'));
    const results = {
      type: 'results',
      run: { runId: 'r', kind: 'udm', title: 't' },
      columns: [],
      table,
      fields: [],
      moreDataAvailable: false,
    };
    const totalOf = (extra: object): unknown => (parseToWebview({ ...results, ...extra }) as { total?: number }).total;
    assert.equal(totalOf({ total: 1571 }), 1571);
    for (const total of [2, 1, -5, 1.5, '1571', 2_000_000, Number.NaN]) assert.equal(totalOf({ total }), undefined);
    assert.equal(totalOf({ total: 1571, arriving: true }), undefined, 'an arriving answer has no total yet');
  });

  it('answers the page about whole events: filter, event, fields and new columns', () => {
    const rows = [udmRow(1), udmRow(2), udmRow(3, { about: [{ labels: [{ value: HOSTILE }] }] })];
    const store = new ResultRows('udm', rows);
    const columns = defaultColumns('udm');

    const filtered = answerRowsRequest(store, {
      type: 'rows.filter',
      runId: 'r',
      id: 1,
      filter: 'hostname:host-0',
      columns,
    });
    assert.equal(filtered.type, 'rows.filtered');
    if (filtered.type !== 'rows.filtered') return;
    assert.deepEqual([...filtered.indices], [2]);
    assert.equal(filtered.count, 3);
    assert.deepEqual(filtered.searched, [{ field: 'hostname', paths: ['principal.hostname', 'target.hostname'] }]);
    // A column title works as a field name, and words search every value of the event.
    const byTitle = answerRowsRequest(store, {
      type: 'rows.filter',
      runId: 'r',
      id: 2,
      filter: '"Event type":dns',
      columns,
    });
    assert.deepEqual(byTitle.type === 'rows.filtered' && [...byTitle.indices], [0, 2]);
    const words = answerRowsRequest(store, { type: 'rows.filter', runId: 'r', id: 3, filter: HOSTILE, columns });
    assert.deepEqual(words.type === 'rows.filtered' && [...words.indices], [...filterIndices(rows, HOSTILE)]);

    const event = answerRowsRequest(store, { type: 'rows.event', runId: 'r', id: 4, index: 1 });
    assert.deepEqual(event.type === 'rows.event' && JSON.parse(event.eventJson), rows[1]);
    const missing = answerRowsRequest(store, { type: 'rows.event', runId: 'r', id: 5, index: 3 });
    assert.equal(missing.type, 'rows.unavailable');
    assert.equal(missing.id, 5);

    const fields = answerRowsRequest(store, { type: 'rows.fields', runId: 'r', id: 6 });
    assert.deepEqual(fields.type === 'rows.fields' && fields.paths, discoverColumns(rows));

    const column = { id: 'udm.metadata.id', label: 'id' };
    const cells = answerRowsRequest(store, { type: 'rows.cells', runId: 'r', id: 7, columns: [column] });
    assert.deepEqual(cells.type === 'rows.cells' && decodeCells(cells.table), [['id1', 'id2', 'id3']]);

    // Appended rows are found too, and the earlier rows keep their positions.
    const more = rows.concat([udmRow(6)]);
    store.setRows(more);
    const after = answerRowsRequest(store, {
      type: 'rows.filter',
      runId: 'r',
      id: 8,
      filter: 'hostname:host-0',
      columns,
    });
    assert.deepEqual(after.type === 'rows.filtered' && [after.count, ...after.indices], [4, 2, 3]);

    const gone = answerRowsRequest(undefined, { type: 'rows.event', runId: 'old', id: 9, index: 0 });
    assert.deepEqual(gone.type === 'rows.unavailable' && [gone.runId, gone.id], ['old', 9]);
  });
});
