// The realistic seed: production-shaped UDM events (every noun filled, enrichment, several security
// results, additional fields), valid against the UDM schema, 3-6 KB each, the same for the same
// reset time, and enough of them that a 30-day search over every host stops at the 10,000 limit.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { generateRealistic, REALISTIC_COUNT } from '../../../src/emulator/events-data/realistic';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { udmJsonProblems } from '../../support/udm-json';
import { admin, call, freshSandbox, iso, qs } from './helpers';

const DAY = 86_400_000;
const ANCHOR = Date.parse('2026-11-20T10:00:00Z');

function digest(events: ReturnType<typeof generateRealistic>['events']): string {
  const h = createHash('sha256');
  for (const e of events) h.update(JSON.stringify({ name: e.name, udm: e.udm }));
  return h.digest('hex');
}

describe('sandbox realistic seed', function () {
  this.timeout(120_000);
  const data = generateRealistic(ANCHOR);

  it('is deterministic: the same reset time gives the same events, byte for byte', () => {
    assert.equal(data.events.length, REALISTIC_COUNT);
    assert.equal(digest(generateRealistic(ANCHOR).events), digest(data.events));
    // A later reset time moves the events with it.
    const later = generateRealistic(ANCHOR + DAY, 50).events;
    assert.equal(later[0].t, data.events[0].t + DAY);
    assert.equal(later[0].name, data.events[0].name);
  });

  it('every event is valid UDM JSON with every noun, enrichment, security results and additional fields', () => {
    for (const e of data.events) {
      assert.deepEqual(udmJsonProblems(e.udm), [], `event ${e.name}`);
      const u = e.udm as Record<string, any>;
      for (const noun of [u.principal, u.src, u.target, u.observer, u.intermediary[0]]) {
        assert.equal(typeof noun.hostname, 'string');
        assert.ok(noun.ip.length > 0 && noun.mac.length > 0, `${e.name}: a noun without addresses`);
        assert.equal(typeof noun.asset, 'object');
        assert.equal(typeof noun.user.userid, 'string');
        assert.equal(typeof noun.process.pid, 'string');
      }
      assert.equal(typeof u.principal.process.parentProcess.commandLine, 'string');
      assert.match(u.principal.process.file.sha256, /^[0-9a-f]{64}$/);
      assert.equal(u.metadata.enrichmentState, 'ENRICHED');
      assert.ok(u.securityResult.length >= 2);
      assert.ok(Object.keys(u.additional).length >= 3);
      assert.ok(u.network.dns || (u.network.http && u.network.tls), `${e.name}: network without dns or http/tls`);
      assert.ok(e.t >= ANCHOR - 30 * DAY && e.t < ANCHOR);
    }
  });

  it('each event is 3-6 KB of JSON as udmSearch sends it', () => {
    for (const e of data.events) {
      const bytes = Buffer.byteLength(JSON.stringify({ name: e.name, udm: e.udm }));
      assert.ok(bytes >= 3 * 1024 && bytes <= 6 * 1024, `${e.name}: ${bytes} bytes`);
    }
  });

  describe('in a sandbox', () => {
    let sandbox: Sandbox;
    before(async () => {
      sandbox = await freshSandbox('empty');
      await admin(sandbox, 'ratelimits', { enabled: false });
    });
    after(async () => {
      await sandbox.close();
    });
    /** udmSearch over every host for the `days` before `now`. */
    const everyHost = (now: number, days: number): ReturnType<typeof call> =>
      call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({
          query: 'principal.hostname = /.*/',
          'time_range.start_time': iso(now - days * DAY),
          'time_range.end_time': iso(now),
        })}`,
      );

    it('its events pass the sandbox ingest validation', async () => {
      const sample = data.events.slice(0, 300).map((e) => JSON.parse(JSON.stringify(e.udm)));
      const r = await admin(sandbox, 'events:ingest', { events: sample });
      assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
      assert.equal(r.body.ingested, 300);
    });

    it('reset {"seed":"realistic"} loads it: a 30-day search over every host stops at 10,000 events', async () => {
      const reset = await admin(sandbox, 'reset', { seed: 'realistic' });
      assert.equal(reset.status, 200);
      await admin(sandbox, 'ratelimits', { enabled: false });
      const now = Date.parse(reset.body.now);
      const r = await everyHost(now, 30);
      assert.equal(r.status, 200);
      assert.equal(r.body.events.length, 10_000);
      assert.equal(r.body.moreDataAvailable, true);
      assert.ok(r.body.events[0].udm.securityResult.length >= 2);
      assert.ok(r.body.events.every((e: { udm: unknown }) => udmJsonProblems(e.udm).length === 0));
    });

    it('reset {"seed":"realistic","events":N} generates N events over the same 30 days', async () => {
      const reset = await admin(sandbox, 'reset', { seed: 'realistic', events: 1_234 });
      assert.equal(reset.status, 200, JSON.stringify(reset.body));
      assert.equal(reset.body.search.events, 1_234);
      await admin(sandbox, 'ratelimits', { enabled: false });
      const now = Date.parse(reset.body.now);
      const r = await everyHost(now, 31);
      assert.equal(r.status, 200);
      assert.equal(r.body.events.length, 1_234);
      assert.notEqual(r.body.moreDataAvailable, true);
      // A reset without a count goes back to the seed's own size.
      const again = await admin(sandbox, 'reset', { seed: 'realistic' });
      assert.equal(again.body.search.events, REALISTIC_COUNT);
    });

    it('refuses an event count that is not a whole number from 1 to 200,000, or for another seed', async () => {
      for (const events of [0, -1, 1.5, '9', null, 200_001, 1e300]) {
        const r = await admin(sandbox, 'reset', { seed: 'realistic', events });
        assert.equal(r.status, 400, `events ${JSON.stringify(events)}`);
        assert.match(r.body.error.message, /events must be a whole number from 1 to 200,000/);
      }
      const demo = await admin(sandbox, 'reset', { seed: 'demo', events: 10 });
      assert.equal(demo.status, 400);
      assert.match(demo.body.error.message, /realistic" seed only/);
    });

    it('refuses an unknown seed name, listing the known ones', async () => {
      const r = await admin(sandbox, 'reset', { seed: 'huge' });
      assert.equal(r.status, 400);
      assert.match(r.body.error.message, /"demo", "realistic", "empty"/);
    });
  });
});
