// readUdmSearchStream over a body cut at every byte boundary: the batches it hands over add up to
// exactly the events JSON.parse finds, in order, each batch as soon as its last event is complete;
// a body cut short fails (after events were handed over, as an answer that broke off, never as a
// quiet end), and a body that is not JSON midway fails the same way instead of hanging.
import * as assert from 'node:assert/strict';
import { UdmSearchStreamBrokenError, readUdmSearchStream } from '../../../src/core/secops/udm-search-stream';
import { UdmStreamSyntaxError } from '../../../src/core/secops/udm-stream';

const ANSWER = JSON.stringify({
  events: [
    { name: 'e1', udm: { metadata: { eventTimestamp: '2026-01-01T00:00:01Z' }, principal: { hostname: 'a"}]' } } },
    { name: 'e2', udm: { metadata: { description: '\\\\ é 😀 \u2028' } } },
    { name: 'e3', udm: { about: [{ labels: [{ key: '[', value: '{' }] }] } },
  ],
  moreDataAvailable: true,
});
const BYTES = new TextEncoder().encode(ANSWER);
const EVENTS = (JSON.parse(ANSWER) as { events: unknown[] }).events;

async function* pieces(chunks: Uint8Array[], thenFail?: Error): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
  if (thenFail) throw thenFail;
}

/** The offset just past the last byte of each event (its closing brace). */
function eventEnds(): number[] {
  const ends: number[] = [];
  let at = BYTES.indexOf(0x5b) + 1; // past "events":[
  for (const e of EVENTS) {
    at += new TextEncoder().encode(JSON.stringify(e)).length;
    ends.push(at);
    at += 1; // the comma
  }
  return ends;
}

describe('readUdmSearchStream', () => {
  it('hands over exactly the events of the answer, in order, for every place the body is cut in two', async () => {
    const ends = eventEnds();
    for (let cut = 1; cut < BYTES.length; cut++) {
      const batches: unknown[][] = [];
      const result = await readUdmSearchStream(pieces([BYTES.subarray(0, cut), BYTES.subarray(cut)]), (b) =>
        batches.push(b),
      );
      assert.deepEqual(batches.flat(), EVENTS, `cut at ${cut}`);
      assert.equal(result.eventCount, 3);
      assert.equal(result.moreDataAvailable, true);
      // The first piece hands over every event it completes, and nothing else.
      const complete = ends.filter((e) => e <= cut).length;
      assert.equal(complete > 0 ? batches[0].length : 0, complete, `first batch, cut at ${cut}`);
    }
  });

  it('a body cut short at any byte fails: after events came as an answer that broke off, before them as not JSON', async () => {
    for (let cut = 0; cut < BYTES.length; cut++) {
      let handed = 0;
      const err = await readUdmSearchStream(pieces([BYTES.subarray(0, cut)]), (b) => (handed += b.length)).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err, `cut at ${cut} was taken for a whole answer`);
      if (handed > 0) {
        assert.ok(err instanceof UdmSearchStreamBrokenError, `cut at ${cut}: ${(err as Error).message}`);
        assert.equal(err.eventsReceived, handed);
        assert.match(err.message, new RegExp(`broke off after ${handed} events.*Run the search again`));
      } else assert.ok(err instanceof UdmStreamSyntaxError, `cut at ${cut}: ${(err as Error).message}`);
    }
  });

  it('says how many events came with thousands separated, as every message does ("after 1,076 events")', () => {
    const err = new UdmSearchStreamBrokenError(1076, new Error('other side closed'));
    assert.match(err.message, /broke off after 1,076 events \(other side closed\)/);
  });

  it('a connection lost after the first batch is an answer that broke off, naming the events that came', async () => {
    const lost = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const ends = eventEnds();
    const err = await readUdmSearchStream(pieces([BYTES.subarray(0, ends[1] + 1)], lost), () => undefined).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err instanceof UdmSearchStreamBrokenError, String(err));
    assert.equal(err.eventsReceived, 2);
  });

  it('hostile text after the first event fails at once instead of waiting for more', async () => {
    const ends = eventEnds();
    const head = BYTES.subarray(0, ends[0]);
    for (const junk of [',]]]}', ',{"a":}', ',x', '}{', ', "str" : 1}']) {
      let handed = 0;
      const err = await readUdmSearchStream(
        pieces([head, new TextEncoder().encode(junk)]),
        (b) => (handed += b.length),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(err instanceof UdmSearchStreamBrokenError, `${junk}: ${String(err)}`);
      assert.equal(handed, 1);
    }
  });
});
