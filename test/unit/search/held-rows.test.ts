// A streamed run's events are held as their JSON text and parsed when something first needs them:
// `run.rows` must read as the events themselves, in the order the rows were given, however they
// were reordered, and become a plain array again once settled or assigned.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { JsonText, StreamedJson, jsonPieces } from '../../../src/core/json-pieces';
import { HeldRows, rowsToKeep } from '../../../src/features/search/held-rows';
import type { RunRecord } from '../../../src/features/search/run-store';

const event = (i: number, t: number | undefined): unknown => ({
  name: `events/${i}`,
  udm: { metadata: t === undefined ? {} : { eventTimestamp: new Date(t * 1000).toISOString() }, note: 'é😀"' },
});

function runOf(): RunRecord {
  return { info: { runId: 'r', kind: 'udm', title: 'q' }, slot: 'query', rows: [], moreDataAvailable: false };
}

function hold(events: unknown[]): { held: HeldRows; run: RunRecord } {
  const held = new HeldRows('udm');
  const run = runOf();
  held.attach(run);
  for (let i = 0; i < events.length; i += 3) {
    const batch = events.slice(i, i + 3);
    held.add(
      batch,
      batch.map((e) => JSON.stringify(e)),
    );
  }
  return { held, run };
}

describe('rows held as text', () => {
  it('run.rows reads the events given, in order, reordered as asked, and times follow their rows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.integer({ min: 0, max: 2e9 }), { nil: undefined }), { maxLength: 40 }),
        (ts) => {
          const events = ts.map((t, i) => event(i, t));
          const { held, run } = hold(events);
          assert.equal(held.count, events.length);
          assert.deepEqual(
            held.rowTimes,
            ts.map((t) => (t === undefined ? Number.NaN : t * 1000)),
          );
          const order = Uint32Array.from(events.map((_, i) => events.length - 1 - i));
          held.reorder(order);
          assert.deepEqual(
            run.rows,
            [...order].map((i) => events[i]),
          );
          assert.deepEqual(
            held.rowTimes,
            [...order].map((i) => (ts[i] === undefined ? Number.NaN : ts[i] * 1000)),
          );
        },
      ),
    );
  });

  it('rows read mid-way grow with the rows added after, and a reorder keeps what was parsed', () => {
    const events = Array.from({ length: 9 }, (_, i) => event(i, i));
    const { held, run } = hold(events.slice(0, 6));
    const early = run.rows;
    assert.deepEqual(early, events.slice(0, 6));
    held.add(
      events.slice(6),
      events.slice(6).map((e) => JSON.stringify(e)),
    );
    assert.equal(run.rows, early, 'the same array, grown');
    assert.deepEqual(run.rows, events);
    const firstObject = run.rows[0];
    held.reorder(Uint32Array.from([8, 7, 6, 5, 4, 3, 2, 1, 0]));
    assert.equal(run.rows[8], firstObject, 'parsed events are moved, not parsed again');
    assert.deepEqual(held.slice(0, 2), [events[8], events[7]]);
  });

  it('once settled and read, the run holds a plain array; assigning rows replaces the holder', () => {
    const events = [event(0, 1), event(1, 2)];
    const { held, run } = hold(events);
    held.settle(run);
    assert.ok(Object.getOwnPropertyDescriptor(run, 'rows')?.get, 'read through the holder until first read');
    const rows = run.rows;
    assert.deepEqual(rows, events);
    const own = Object.getOwnPropertyDescriptor(run, 'rows');
    assert.equal(own?.get, undefined);
    assert.equal(own?.value, rows);
    assert.equal(held.count, 2, 'the count stays once the text is let go');

    const other = hold(events);
    other.run.rows = ['replaced'];
    assert.deepEqual(other.run.rows, ['replaced']);
    assert.equal(Object.getOwnPropertyDescriptor(other.run, 'rows')?.get, undefined);
  });

  it('refuses events without their text, and an order that does not cover the rows', () => {
    const held = new HeldRows('udm');
    assert.throws(() => held.add([event(0, 1)], []), /each event needs its text/);
    held.add([event(0, 1)], [JSON.stringify(event(0, 1))]);
    assert.throws(() => held.reorder(Uint32Array.from([0, 1])), /does not cover/);
  });

  it('the copy kept for a reload is the text the rows came in, in the final order, and parses to the rows', () => {
    const events = Array.from({ length: 5 }, (_, i) => event(i, 10 - i));
    const held = new HeldRows('udm');
    const run = runOf();
    held.attach(run);
    // Texts as a service writes them (spaces and escapes JSON.stringify would not write) go as they are.
    const texts = events.map((e) => JSON.stringify(e, null, 1).replace('é', '\\u00e9'));
    held.add(events, texts);
    held.reorder(Uint32Array.from([4, 3, 2, 1, 0]));
    const kept = rowsToKeep(run);
    assert.ok(kept.every((r) => r instanceof JsonText));
    assert.deepEqual(
      kept.map((r) => r.text),
      [4, 3, 2, 1, 0].map((i) => texts[i]),
    );
    const written = Array.from(jsonPieces(new StreamedJson({ version: 1, rows: kept }, 'rows'))).join('');
    assert.deepEqual(JSON.parse(written), { version: 1, rows: [4, 3, 2, 1, 0].map((i) => events[i]) });

    // Once the events were parsed (the detail pane, a filter), those are kept; rows assigned, those.
    const parsed = run.rows;
    assert.equal(rowsToKeep(run), parsed);
    run.rows = ['replaced'];
    assert.deepEqual(rowsToKeep(run), ['replaced']);
    const settled = hold(events);
    settled.held.settle(settled.run);
    assert.ok(
      rowsToKeep(settled.run).every((r) => r instanceof JsonText),
      'settled but unread: still the text',
    );
    const rows = settled.run.rows;
    assert.equal(rowsToKeep(settled.run), rows, 'read once settled: the events themselves');
  });
});
