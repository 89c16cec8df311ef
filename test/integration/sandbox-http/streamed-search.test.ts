// udmSearch answers are streamed out event by event: the body must be byte for byte what
// JSON.stringify gives, whatever the values hold.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { request } from 'undici';
import { JsonText, StreamedJson, jsonPieces } from '../../../src/core/json-pieces';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { AUTH, admin, freshSandbox, iso, qs } from './helpers';

const DAY = 86_400_000;

describe('sandbox udmSearch streamed body', function () {
  it('the pieces join to exactly JSON.stringify of the body, for any JSON values and key orders', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        fc.boolean(),
        (events, extra, arrayFirst) => {
          const rest = { ...extra };
          delete rest.events;
          const body = arrayFirst ? { events, ...rest } : { ...rest, events };
          assert.equal([...jsonPieces(new StreamedJson(body, 'events'))].join(''), JSON.stringify(body));
        },
      ),
    );
  });

  it('leaves out members JSON.stringify leaves out, and writes null for holes it cannot represent', () => {
    const body = { a: undefined, events: [{ x: 1 }, undefined, 'q"\\\u2028'], b: () => 1, moreDataAvailable: true };
    assert.equal([...jsonPieces(new StreamedJson(body, 'events'))].join(''), JSON.stringify(body));
  });

  it('writes an element given as JSON text as that text, in place', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.array(fc.boolean()), (events, asText) => {
        const given = events.map((e, i) => (asText[i] ? new JsonText(JSON.stringify(e)) : e));
        const body = { events: given, moreDataAvailable: true };
        assert.equal(
          [...jsonPieces(new StreamedJson(body, 'events'))].join(''),
          JSON.stringify({ events, moreDataAvailable: true }),
        );
      }),
    );
  });

  describe('over HTTP', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await freshSandbox('demo');
      await admin(sandbox, 'ratelimits', { enabled: false });
    });
    after(async () => {
      await sandbox.close();
    });

    it('sends 10,000 demo events in many chunks whose text is the JSON.stringify of what it parses to', async () => {
      const now = Date.parse((await admin(sandbox, 'state')).body.now);
      const path = `/v1/events:udmSearch${qs({
        query: 'principal.hostname = /.*/',
        'time_range.start_time': iso(now - 8 * DAY),
        'time_range.end_time': iso(now),
      })}`;
      const res = await request(`${sandbox.http}${path}`, { headers: AUTH });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-length'], undefined);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      let chunks = 0;
      const parts: Buffer[] = [];
      for await (const chunk of res.body) {
        chunks++;
        parts.push(chunk as Buffer);
      }
      const text = Buffer.concat(parts).toString('utf8');
      const parsed = JSON.parse(text) as { events: Array<{ name: string; udm: unknown }>; moreDataAvailable?: boolean };
      assert.equal(parsed.events.length, 10_000);
      assert.equal(parsed.moreDataAvailable, true);
      assert.ok(chunks > 1, `expected the body in several chunks, got ${chunks}`);
      assert.equal(text, JSON.stringify(parsed));
      // The events' text is kept between searches: a second answer is the same, byte for byte.
      const again = await request(`${sandbox.http}${path}`, { headers: AUTH });
      assert.equal(await again.body.text(), text);
    });

    it('answers an event added after a search with its own text, and earlier ones unchanged', async () => {
      const now = Date.parse((await admin(sandbox, 'state')).body.now);
      const path = `/v1/events:udmSearch${qs({
        query: 'principal.hostname = "kept-text-host"',
        'time_range.start_time': iso(now - DAY),
        'time_range.end_time': iso(now + 1000),
      })}`;
      const udm = (id: string) => ({
        metadata: { eventTimestamp: iso(now - 60_000), eventType: 'GENERIC_EVENT', id },
        principal: { hostname: 'kept-text-host' },
      });
      const ingest = async (id: string): Promise<void> => {
        const res = await admin(sandbox, 'events:ingest', { events: [{ udm: udm(id) }] });
        assert.equal(res.status, 200, JSON.stringify(res.body));
      };
      await ingest('Zmlyc3Q='); // base64 of "first"
      const first = JSON.parse(await (await request(`${sandbox.http}${path}`, { headers: AUTH })).body.text());
      await ingest('c2Vjb25k'); // base64 of "second"
      const both = JSON.parse(await (await request(`${sandbox.http}${path}`, { headers: AUTH })).body.text());
      assert.deepEqual(both.events.map((e: { udm: { metadata: { id: string } } }) => e.udm.metadata.id).sort(), [
        'Zmlyc3Q=',
        'c2Vjb25k',
      ]);
      assert.deepEqual(
        both.events.find((e: { name: string }) => e.name === first.events[0].name),
        first.events[0],
      );
    });

    it('an empty answer is still {} (no events key, no moreDataAvailable)', async () => {
      const now = Date.parse((await admin(sandbox, 'state')).body.now);
      const path = `/v1/events:udmSearch${qs({
        query: 'principal.hostname = "no-such-host"',
        'time_range.start_time': iso(now - DAY),
        'time_range.end_time': iso(now),
      })}`;
      const res = await request(`${sandbox.http}${path}`, { headers: AUTH });
      assert.equal(res.statusCode, 200);
      assert.equal(await res.body.text(), '{}');
    });
  });
});
