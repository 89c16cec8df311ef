import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  arrangeRows,
  arrangeTimes,
  newestPartRange,
  periodRange,
  queryTitle,
  rowKey,
  windowOf,
} from '../../../../../src/core/secops/results/arrange';
import type { ResolvedWindow } from '../../../../../src/core/secops/timerange';

const T0 = Date.UTC(2024, 0, 1, 0, 0, 0);
const iso = (ms: number): string => new Date(ms).toISOString();
/** RFC 3339 as the service's ranges are written: whole seconds without a fraction. */
const rfc = (ms: number): string => iso(ms).replace('.000Z', 'Z');
const event = (ms: number, id: string) => ({ name: id, udm: { metadata: { id, eventTimestamp: iso(ms) } } });
const win = (startMs: number, endMs: number): ResolvedWindow => ({
  startMs,
  endMs,
  start: iso(startMs),
  end: iso(endMs),
});
const ids = (rows: unknown[]): string[] => rows.map((r) => (r as { name: string }).name);

describe('arranging a run for the results page', () => {
  it('puts a whole answer newest first and plans no rest', () => {
    const rows = [event(T0 + 1000, 'a'), event(T0 + 3000, 'c'), event(T0 + 2000, 'b')];
    const arranged = arrangeRows('udm', rows, { moreDataAvailable: false, window: win(T0, T0 + 60_000) });
    assert.deepEqual(ids(arranged.rows), ['c', 'b', 'a']);
    assert.equal(arranged.rest, undefined);
    assert.equal(arranged.covered, undefined);
    assert.equal(arranged.restSearches, undefined);
    // The rows given are left as they came: the run's own array is replaced, not reordered in place.
    assert.deepEqual(ids(rows), ['a', 'c', 'b']);
  });

  it('a cut answer in ascending order covers the start of the range up to its last row’s second', () => {
    const rows = Array.from({ length: 10 }, (_, i) => event(T0 + i * 1000 + 250, `e${i}`));
    const window = win(T0, T0 + 100_000);
    const arranged = arrangeRows('udm', rows, { moreDataAvailable: true, window, limit: 10 });
    assert.deepEqual(arranged.covered, { start: rfc(T0), end: rfc(T0 + 10_000) });
    assert.ok(arranged.rest);
    assert.equal(arranged.rest.span.order, 'ascending');
    // The rest starts at the last row's second (rows sharing it may have been cut) and ends at the window's end.
    assert.equal(arranged.rest.windows[0][0], T0 + 9000);
    assert.equal(arranged.rest.windows.at(-1)![1], window.endMs);
    assert.equal(arranged.restSearches, arranged.rest.windows.length);
    assert.equal(ids(arranged.rows)[0], 'e9');
  });

  it('a cut answer in descending order covers the end of the range from its first row', () => {
    const rows = Array.from({ length: 10 }, (_, i) => event(T0 + 99_000 - i * 1000, `e${i}`));
    const window = win(T0, T0 + 100_000);
    const arranged = arrangeRows('udm', rows, { moreDataAvailable: true, window, limit: 10 });
    assert.deepEqual(arranged.covered, { start: rfc(T0 + 90_000), end: rfc(T0 + 100_000) });
    assert.equal(arranged.rest?.windows[0]![0], T0);
  });

  it('a cut answer without a window, or a kind without a time, plans nothing', () => {
    const rows = [event(T0, 'a'), event(T0 + 1000, 'b')];
    assert.deepEqual(arrangeRows('udm', rows, { moreDataAvailable: true }), {
      rows: [rows[1], rows[0]],
      order: Uint32Array.from([1, 0]),
    });
    const aliases = [{ entity: { asset: { hostname: 'h' } } }];
    const arranged = arrangeRows('assetAliases', aliases, { moreDataAvailable: true, window: win(T0, T0 + 1000) });
    assert.equal(arranged.rows, aliases);
    assert.equal(arranged.rest, undefined);
  });

  it('says where each arranged row came from, and nothing when the order stays', () => {
    const rows = [event(T0 + 2000, 'a'), event(T0, 'b'), event(T0 + 5000, 'c'), { name: 'no time', udm: {} }];
    const arranged = arrangeRows('udm', rows, { moreDataAvailable: false });
    assert.deepEqual([...arranged.order!], [2, 0, 1, 3]);
    assert.deepEqual(
      arranged.rows,
      [...arranged.order!].map((i) => rows[i]),
    );
    assert.equal(arrangeRows('udm', arranged.rows, { moreDataAvailable: false }).order, undefined);
  });

  it('a cut answer whose rows hold no readable time covers nothing and leaves the whole range to fetch', () => {
    const rows = [{ name: 'x', udm: { metadata: {} } }];
    const window = win(T0, T0 + 10_000);
    const arranged = arrangeRows('udm', rows, { moreDataAvailable: true, window });
    assert.equal(arranged.covered, undefined);
    assert.deepEqual(arranged.rest?.windows, [[T0, T0 + 10_000]]);
  });
});

describe("arranging by the rows' times alone (rows held as text)", () => {
  it('gives the order and the cut of arranging the rows themselves', () => {
    const window = win(T0, T0 + 100_000);
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined })),
        fc.boolean(),
        (offsets, more) => {
          const rows = offsets.map((o, i) =>
            o === undefined ? { name: `e${i}`, udm: { metadata: {} } } : event(T0 + o, `e${i}`),
          );
          const times = offsets.map((o) => (o === undefined ? Number.NaN : T0 + o));
          const cut = { moreDataAvailable: more, window, limit: 20 };
          const { rows: arrangedRows, ...whole } = arrangeRows('udm', rows, cut);
          const byTimes = arrangeTimes(times, cut);
          assert.deepEqual(byTimes, whole);
          assert.deepEqual(ids(arrangedRows), byTimes.order ? [...byTimes.order].map((i) => `e${i}`) : ids(rows));
        },
      ),
    );
  });
});

describe('rowKey', () => {
  it('counts a row by its name, else its event ID, else its whole text', () => {
    assert.equal(rowKey({ name: 'events/1', metadata: { id: 'x' } }), 'events/1');
    assert.equal(rowKey({ metadata: { id: 'abc' } }), 'abc');
    assert.equal(rowKey({ value: 1 }), '{"value":1}');
    assert.equal(rowKey(null), 'null');
  });
});

describe('queryTitle', () => {
  it('drops comments and joins lines', () => {
    assert.equal(queryTitle('// note\nprincipal.ip = "1.2.3.4"\n  and true'), 'principal.ip = "1.2.3.4" and true');
    assert.equal(queryTitle('/* unfinished comment'), 'query');
  });
});

describe('time ranges from a run', () => {
  it('the newest part is as wide as the covered part, on whole seconds, inside the window', () => {
    const window = win(T0, T0 + 3_600_000);
    const range = newestPartRange(window, { start: iso(T0 + 3_000_000), end: iso(T0 + 3_600_000) });
    assert.deepEqual(range, { kind: 'custom', start: rfc(T0 + 3_000_000), end: rfc(T0 + 3_600_000) });
    const wide = newestPartRange(window, { start: iso(T0 - 10_000_000), end: iso(T0 + 3_600_000) });
    assert.equal(wide.kind === 'custom' && wide.start, rfc(T0));
    const narrow = newestPartRange(window, { start: iso(T0 + 5), end: iso(T0 + 5) });
    assert.equal(narrow.kind === 'custom' && narrow.start, rfc(T0 + 3_599_000));
  });

  it('a picked period widens to whole seconds', () => {
    assert.deepEqual(periodRange(iso(T0 + 1500), iso(T0 + 2500)), {
      kind: 'custom',
      start: rfc(T0 + 1000),
      end: rfc(T0 + 3000),
    });
  });

  it('the query bar’s range becomes a window as given', () => {
    assert.deepEqual(windowOf({ startTime: iso(T0 + 1500), endTime: iso(T0 + 2500) }), win(T0 + 1500, T0 + 2500));
  });
});
