// Picking paths out of an answer's events must give, read along those paths, exactly what the whole
// events give (through arrays, fallbacks, odd keys and escapes), keep each event's full text, and
// refuse exactly what JSON.parse refuses, however the body is cut into pieces.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { UdmEventsScanner, UdmStreamSyntaxError } from '../../../src/core/secops/udm-stream';
import { EventPicker, NEED_MORE, pathTree } from '../../../src/core/secops/udm-pick';
import { cellReader } from '../../../src/core/secops/results/rowtable';
import { splitAt } from '../../support/split-bytes';
import { defaultColumns, valuesAt } from '../../../src/core/secops/results/fields';

const KEYS = [
  'udm',
  'metadata',
  'principal',
  'hostname',
  'ip',
  'securityResult',
  'action',
  '__proto__',
  'a.b',
  'é',
  'name',
];
const key = fc.constantFrom(...KEYS);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 1 }),
    tie('object'),
    fc.array(tie('any'), { maxLength: 3 }),
  ),
  object: fc.dictionary(key, tie('any'), { maxKeys: 4 }),
})).any;
const path = fc.array(key, { minLength: 1, maxLength: 3 }).map((segs) => segs.join('.'));

function readPicked(chunks: Uint8Array[], paths: string[]): { events: unknown[]; texts: string[]; fields: unknown } {
  const s = new UdmEventsScanner({ pick: paths });
  const events: unknown[] = [];
  const texts: string[] = [];
  for (const c of chunks) {
    const got = s.read(c);
    events.push(...got.events);
    texts.push(...got.texts);
  }
  return { events, texts, fields: s.end() };
}

describe('picking paths out of udmSearch events', () => {
  it('read along the paths picked, the events give what the whole events give, in any pieces', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 5 }),
        fc.array(path, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        (events, paths, cuts, indent) => {
          const text = JSON.stringify({ events, moreDataAvailable: true }, null, indent ? 2 : undefined);
          const bytes = Buffer.from(text);
          const whole = (JSON.parse(text) as { events: unknown[] }).events;
          const got = readPicked(
            splitAt(
              bytes,
              cuts.map((c) => c % (bytes.length + 1)),
            ),
            paths,
          );
          assert.deepEqual(got.fields, { moreDataAvailable: true });
          assert.equal(got.events.length, whole.length);
          assert.deepEqual(
            got.texts.map((t) => JSON.parse(t) as unknown),
            whole,
          );
          for (let k = 0; k < whole.length; k++) {
            for (const p of paths) {
              assert.deepEqual(valuesAt(got.events[k], p), valuesAt(whole[k], p), p);
              const read = cellReader({ id: p, label: '' });
              assert.equal(read(got.events[k]), read(whole[k]), p);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the table of the default columns what the whole events give', () => {
    const columns = defaultColumns('udm');
    const paths = columns.flatMap((c) => [c.id, ...(c.fallbacks ?? [])]);
    const events = [
      {
        name: 'e1',
        udm: { metadata: { eventTimestamp: '2026-01-01T00:00:00Z' }, principal: { ip: ['10.0.0.1', '10.0.0.2'] } },
      },
      {
        name: 'e2',
        udm: {
          securityResult: [{ action: ['BLOCK'] }, 7, [{ action: 'x' }], { severity: 'HIGH' }],
          target: { user: { userid: 'u' } },
        },
      },
    ];
    const got = readPicked([Buffer.from(JSON.stringify({ events }))], paths);
    for (const column of columns) {
      const read = cellReader(column);
      assert.deepEqual(got.events.map(read), events.map(read), column.id);
    }
  });

  it('refuses exactly what JSON.parse refuses', () => {
    const good = JSON.stringify({ events: [{ udm: { a: [1, -2.5e3, true, null, 'x\\u00e9\\n'], b: { c: 'd' } } }] });
    fc.assert(
      fc.property(fc.nat(good.length - 1), fc.constantFrom(...'{}[],:"\\0123456789-+.eEtrufalsn x\u0001'), (at, c) => {
        const text = good.slice(0, at) + c + good.slice(at + 1);
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        let picks = true;
        try {
          readPicked([Buffer.from(text)], ['udm.a', 'udm.b.c']);
        } catch (err) {
          if (!(err instanceof UdmStreamSyntaxError)) throw err;
          picks = false;
        }
        assert.equal(picks, parses, text);
      }),
      { numRuns: 1000 },
    );
  });

  it('says when the bytes end before the value does', () => {
    const picker = new EventPicker();
    const tree = pathTree(['a']);
    const bytes = Buffer.from('{"a":[1,2],"b":"x"}');
    for (let cut = 0; cut < bytes.length; cut++) assert.equal(picker.pick(bytes.subarray(0, cut), 0, tree), NEED_MORE);
    assert.deepEqual(picker.pick(bytes, 0, tree), { value: { a: [1, 2] }, end: bytes.length });
  });
});
