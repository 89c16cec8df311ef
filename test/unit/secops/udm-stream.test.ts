// The incremental udmSearch reader must give exactly what JSON.parse of the whole answer gives,
// however the body is cut into chunks: inside strings, escapes, \u sequences and multi-byte UTF-8.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitAt } from '../../support/split-bytes';
import { UdmEventsScanner, UdmStreamSyntaxError } from '../../../src/core/secops/udm-stream';

function expected(text: string): { events: unknown[]; fields: Record<string, unknown> } {
  const whole = JSON.parse(text) as Record<string, unknown>;
  const events = Array.isArray(whole.events) ? whole.events : [];
  delete whole.events;
  return { events, fields: whole };
}

function scanChunks(chunks: Uint8Array[]): { events: unknown[]; fields: Record<string, unknown>; batches: number } {
  const s = new UdmEventsScanner();
  const events: unknown[] = [];
  let batches = 0;
  for (const c of chunks) {
    const got = s.read(c);
    if (got.events.length > 0) batches++;
    events.push(...got.events);
    // Each event's text is the JSON it was parsed from.
    assert.deepEqual(
      got.texts.map((t) => JSON.parse(t) as unknown),
      got.events,
    );
  }
  return { events, fields: s.end(), batches };
}

const TRICKY = JSON.stringify(
  {
    uri: ['https://example.test/a?b="c"&d=[e]'],
    events: [
      {
        name: 'e1',
        udm: {
          principal: { hostname: 'h"}{][,', process: { commandLine: 'cmd /c "echo \\"{x}\\" > C:\\\\t.txt"' } },
          additional: { nested: [[1, [2, { deep: '}}]]' }]], {}], emptyString: '', unicode: 'é ü 日本 😀 \u2028' },
        },
      },
      { name: 'e2', udm: { metadata: { description: '\\\\', tabs: '\t\n\r\b\f', slash: '\\/' } } },
      { name: 'e3', udm: {} },
    ],
    moreDataAvailable: true,
    tail: { events: ['not the top-level array'] },
  },
  null,
  1,
).replace('"unicode": "', '"unicode": "\\u0041\\u00e9\\ud83d\\ude00');

describe('udmSearch stream scanner', () => {
  it('gives the same events and fields as JSON.parse when the answer is cut at every byte boundary', () => {
    const bytes = Buffer.from(TRICKY);
    const want = expected(TRICKY);
    assert.equal(want.events.length, 3);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = scanChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
      assert.deepEqual(got.events, want.events, `cut at byte ${cut}`);
      assert.deepEqual(got.fields, want.fields, `cut at byte ${cut}`);
    }
  });

  it('reads a body that arrives one byte at a time, handing each event over as its brace arrives', () => {
    const bytes = Buffer.from(TRICKY);
    const s = new UdmEventsScanner();
    const seen: number[] = [];
    for (let i = 0; i < bytes.length; i++) if (s.push(bytes.subarray(i, i + 1)).length > 0) seen.push(i);
    const closing = ['"e1"', '"e2"', '"e3"'].map((n) => TRICKY.indexOf(n));
    assert.equal(seen.length, 3);
    // Each event is complete before the next one's name appears in the body.
    assert.ok(seen[0] < closing[1] && seen[1] < closing[2]);
    assert.deepEqual(s.end(), expected(TRICKY).fields);
  });

  it('matches JSON.parse for random answers in random multi-chunk splits, with fields in any order', () => {
    const event = fc.record({ name: fc.string(), udm: fc.dictionary(fc.string(), fc.jsonValue()) });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.dictionary(
          fc.string().filter((k) => k !== 'events'),
          fc.jsonValue(),
          { maxKeys: 3 },
        ),
        fc.nat(4),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, extra, position, indent, cuts) => {
          const entries: Array<[string, unknown]> = Object.entries({ ...extra, moreDataAvailable: true });
          entries.splice(Math.min(position, entries.length), 0, ['events', events]);
          const text = JSON.stringify(Object.fromEntries(entries), null, indent ? 2 : undefined);
          const bytes = Buffer.from(text);
          const got = scanChunks(
            splitAt(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            ),
          );
          const want = expected(text);
          assert.deepEqual(got.events, want.events);
          assert.deepEqual(got.fields, want.fields);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads elements of any JSON type, and hands over an element that spans many pieces whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 40 }),
        (events, indent, cuts) => {
          const text = JSON.stringify({ events, moreDataAvailable: false }, null, indent ? 2 : undefined);
          const bytes = Buffer.from(text);
          const got = scanChunks(
            splitAt(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            ),
          );
          assert.deepEqual(got.events, expected(text).events);
          assert.deepEqual(got.fields, { moreDataAvailable: false });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses elements without a comma between them, naming where', () => {
    const s = new UdmEventsScanner();
    assert.throws(
      () => s.push('{"events":[{"a":1},{"b":2} {"c":3}]}'),
      (e: unknown) => e instanceof UdmStreamSyntaxError && /events 2 and 3 .*not separated/.test(e.message),
    );
  });

  it('finds the array under an escaped key and ignores "events" deeper down', () => {
    const text = '{"a":{"events":[1]},"\\u0065vents":[{"x":1},{"y":"]"}],"b":[{"events":[2]}]}';
    const got = scanChunks([Buffer.from(text)]);
    assert.deepEqual(got.events, [{ x: 1 }, { y: ']' }]);
    assert.deepEqual(got.fields, { a: { events: [1] }, b: [{ events: [2] }] });
  });

  it('an empty answer ({}) has no events and no fields', () => {
    const got = scanChunks([Buffer.from('{}')]);
    assert.deepEqual(got.events, []);
    assert.deepEqual(got.fields, {});
  });

  it('refuses a body cut short, naming how many events came, and an event that is not JSON', () => {
    const s = new UdmEventsScanner();
    assert.equal(s.push('{"events":[{"a":1},{"b":').length, 1);
    assert.throws(
      () => s.end(),
      (e: unknown) => e instanceof UdmStreamSyntaxError && /after 1 events/.test(e.message),
    );
    const bad = new UdmEventsScanner();
    assert.throws(() => bad.push('{"events":[{"a":01}]}'), UdmStreamSyntaxError);
    const notObject = new UdmEventsScanner();
    notObject.push('[1,2]');
    assert.throws(() => notObject.end(), /not a JSON object/);
  });
});
