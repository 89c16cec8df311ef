// The /sandbox/v1 admin calls (reset, clock, ingest, faults, rate limits, state) and bad input on
// every HTTP surface: malformed JSON, unknown fields, bad names and page tokens, oversized pages,
// missing credentials.
import * as assert from 'node:assert/strict';
import { request } from 'undici';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { admin, call, expectError, freshSandbox, iso, qs } from './helpers';

const KEYS = '/v2/projects/cloudbench-demo/locations/global/keys';

describe('sandbox admin calls and bad input', function () {
  let sandbox: Sandbox;

  beforeEach(async () => {
    sandbox = await freshSandbox('demo');
  });
  afterEach(async () => {
    await sandbox.close();
  });

  describe('admin calls', () => {
    it('state counts the calls of each method that reached the service, refused ones too; reset clears them', async () => {
      assert.deepEqual((await admin(sandbox, 'state')).body.calls, {});
      await call(sandbox, 'GET', KEYS);
      await call(sandbox, 'GET', KEYS, { auth: false });
      await admin(sandbox, 'faults', { rules: [{ method: 'apikeys.keys.list', errorRate: 1, codes: [429] }] });
      assert.equal((await call(sandbox, 'GET', KEYS)).status, 429);
      assert.deepEqual((await admin(sandbox, 'state')).body.calls, { 'apikeys.keys.list': 2 });
      await admin(sandbox, 'reset', { seed: 'demo' });
      assert.deepEqual((await admin(sandbox, 'state')).body.calls, {});
    });

    it('state counts both halves; reset empties and refills keys, events and models', async () => {
      const demo = await admin(sandbox, 'state');
      assert.equal(demo.status, 200);
      assert.equal(demo.body.apiKeys.keys, 15);
      assert.equal(demo.body.apiKeys.deletedKeys, 2);
      assert.equal(demo.body.search.events, 50_000);
      assert.ok(
        Object.values(demo.body.models as Record<string, number>).some((n) => n > 0),
        JSON.stringify(demo.body.models),
      );
      const empty = await admin(sandbox, 'reset', { seed: 'empty' });
      assert.equal(empty.status, 200);
      assert.equal(empty.body.apiKeys.keys, 0);
      assert.equal(empty.body.search.events, 0);
      assert.ok(
        Object.values(empty.body.models as Record<string, number>).every((n) => n === 0),
        JSON.stringify(empty.body.models),
      );
      assert.equal((await call(sandbox, 'GET', KEYS)).body.keys.length, 0);
      const again = await admin(sandbox, 'reset', { seed: 'demo' });
      assert.equal(again.body.apiKeys.keys, 15);
      expectError(
        await admin(sandbox, 'reset', { seed: 'full' }),
        400,
        'INVALID_ARGUMENT',
        /"demo", "realistic", "empty"/,
      );
    });

    it('demo data is deterministic across resets', async () => {
      const list = async () =>
        (await call(sandbox, 'GET', `${KEYS}?showDeleted=true`)).body.keys.map(
          (k: { name: string; uid: string }) => `${k.name} ${k.uid}`,
        );
      const before = await list();
      await admin(sandbox, 'reset', { seed: 'demo' });
      assert.deepEqual(await list(), before);
    });

    it('clock:advance moves every timestamp forward and refuses going back', async () => {
      const t0 = Date.parse((await admin(sandbox, 'state')).body.now);
      const r = await admin(sandbox, 'clock:advance', { seconds: 86_400 });
      assert.equal(r.status, 200);
      assert.ok(Date.parse(r.body.now) - t0 >= 86_400_000);
      const created = await call(sandbox, 'POST', `${KEYS}?keyId=after-advance`, { body: {} });
      assert.ok(Date.parse(created.body.response.createTime) - t0 >= 86_400_000);
      expectError(await admin(sandbox, 'clock:advance', { seconds: -5 }), 400, 'INVALID_ARGUMENT', /never goes back/);
      expectError(await admin(sandbox, 'clock:advance', { seconds: '5' }), 400, 'INVALID_ARGUMENT');
    });

    it('events:ingest stores events for search, GetEvent and GetLog; bad events are refused whole', async () => {
      await admin(sandbox, 'reset', { seed: 'empty' });
      const t = Date.parse('2026-05-05T05:05:05Z');
      const r = await admin(sandbox, 'events:ingest', {
        events: [
          {
            udm: {
              metadata: { eventTimestamp: iso(t), eventType: 'USER_LOGIN', id: 'AAECAwQFBgcICQoLDA0ODw==' },
              principal: { hostname: 'kiosk-1' },
            },
            rawLog: 'login ok user=zoe',
          },
          { metadata: { eventTimestamp: iso(t + 1) }, principal: { hostname: 'kiosk-2' } },
        ],
      });
      assert.deepEqual(r.body, { ingested: 2, events: 2 });
      const log = await call(sandbox, 'GET', `/v1/events/log:get/${qs({ name: 'AAECAwQFBgcICQoLDA0ODw==' })}`);
      assert.equal(Buffer.from(log.body.log.logBytes, 'base64').toString(), 'login ok user=zoe');
      const s = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: 'principal.hostname = "kiosk-2"', 'time_range.start_time': iso(t), 'time_range.end_time': iso(t + 1000) })}`,
      );
      assert.equal(s.body.events.length, 1);
      assert.equal(s.body.events[0].udm.metadata.eventType, 'GENERIC_EVENT');
      assert.ok(s.body.events[0].udm.metadata.id, 'an id is assigned');
      expectError(
        await admin(sandbox, 'events:ingest', { events: [{ metadata: { eventTimestamp: 'noon' } }] }),
        400,
        'INVALID_ARGUMENT',
        /events\[0\].metadata.eventTimestamp/,
      );
      expectError(
        await admin(sandbox, 'events:ingest', { events: [{ principal: {} }] }),
        400,
        'INVALID_ARGUMENT',
        /metadata is required/,
      );
      expectError(await admin(sandbox, 'events:ingest', { events: {} }), 400, 'INVALID_ARGUMENT', /must be an array/);
      expectError(
        await admin(sandbox, 'events:ingest', { evnts: [] }),
        400,
        'INVALID_ARGUMENT',
        /Unknown field "evnts"/,
      );
      assert.equal((await admin(sandbox, 'state')).body.search.events, 2, 'nothing of a refused batch is stored');
    });

    it('entities:ingest adds users, IoCs and reference lists that the Search API then serves', async () => {
      await admin(sandbox, 'reset', { seed: 'empty' });
      const r = await admin(sandbox, 'entities:ingest', {
        users: [{ userid: 'zoe', emailAddresses: ['zoe@example.com'], employeeId: 'E1', hosts: ['kiosk-1'] }],
        iocs: [{ domainName: 'evil.test', category: 'Phishing', severity: 'High', confidence: 90 }],
        referenceLists: [{ name: 'kiosks', lines: ['kiosk-1', 'kiosk-2'] }],
      });
      assert.deepEqual(r.body.ingested, { users: 1, iocs: 1, referenceLists: 1 });
      const u = await call(sandbox, 'GET', `/v1/alias/listuseraliases${qs({ 'user.employee_id': 'E1' })}`);
      assert.equal(u.body.userAliases[0].entity.user.userid, 'zoe');
      const d = await call(sandbox, 'GET', `/v1/artifact/listiocdetails${qs({ 'artifact.domain_name': 'evil.test' })}`);
      assert.equal(d.body.sources[0].category, 'Phishing');
      const t = Date.parse('2026-05-05T05:05:05Z');
      await admin(sandbox, 'events:ingest', {
        events: [
          {
            metadata: { eventTimestamp: iso(t) },
            principal: { hostname: 'kiosk-2' },
            target: { hostname: 'evil.test' },
          },
        ],
      });
      const s = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: 'principal.hostname in %kiosks', 'time_range.start_time': iso(t), 'time_range.end_time': iso(t + 1) })}`,
      );
      assert.equal(s.body.events?.length, 1, JSON.stringify(s.body));
      const iocs = await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: iso(t - 1000) })}`);
      assert.equal(iocs.body.matches[0].artifact.domainName, 'evil.test');
      expectError(
        await admin(sandbox, 'entities:ingest', {
          iocs: [{ domainName: 'a.test', destinationIpAddress: '203.0.113.1' }],
        }),
        400,
        'INVALID_ARGUMENT',
        /exactly one/,
      );
    });

    it('faults: error rate with codes, connection resets, latency, per method and prefix; admin calls are never faulted', async () => {
      expectError(
        await admin(sandbox, 'faults', { rules: [{ method: 'apikeys.keys.get', errorRate: 2 }] }),
        400,
        'INVALID_ARGUMENT',
        /errorRate/,
      );
      const set = await admin(sandbox, 'faults', {
        rules: [{ method: 'apikeys.keys.get', errorRate: 1, codes: ['UNAVAILABLE'] }],
      });
      assert.equal(set.body.rules.length, 1);
      expectError(await call(sandbox, 'GET', `${KEYS}/maps-web`), 503, 'UNAVAILABLE', /Injected fault/);
      assert.equal((await call(sandbox, 'GET', KEYS)).status, 200, 'other methods are untouched');
      await admin(sandbox, 'faults', [{ method: 'secops.*', errorRate: 1, codes: [500] }]);
      const r = await call(sandbox, 'GET', '/v2/lists/admin_users');
      assert.equal(r.status, 500);
      assert.equal(r.body.error.status, 'INTERNAL');
      await admin(sandbox, 'faults', [{ method: 'secops.getReferenceList', errorRate: 1, codes: [429] }]);
      const throttled = await call(sandbox, 'GET', '/v2/lists/admin_users');
      expectError(throttled, 429, 'RESOURCE_EXHAUSTED');
      assert.equal(throttled.body.error.details[0]['@type'], 'type.googleapis.com/google.rpc.RetryInfo');
      await admin(sandbox, 'faults', { rules: [{ method: 'apikeys.*', resetRate: 1 }] });
      await assert.rejects(
        request(`${sandbox.http}${KEYS}`, { headers: { authorization: 'Bearer t' } }).then((res) => res.body.text()),
      );
      assert.equal((await admin(sandbox, 'state')).status, 200);
      await admin(sandbox, 'faults', { rules: [{ method: 'apikeys.keys.list', latencyMs: 150 }] });
      const started = performance.now();
      assert.equal((await call(sandbox, 'GET', KEYS)).status, 200);
      assert.ok(performance.now() - started >= 140);
      const cleared = await admin(sandbox, 'faults', { rules: [] });
      assert.deepEqual(cleared.body.rules, []);
      assert.deepEqual((await admin(sandbox, 'faults')).body.rules, []);
    });

    it('ratelimits settings are validated; unknown admin calls and methods are refused', async () => {
      expectError(await admin(sandbox, 'ratelimits', { scale: 0 }), 400, 'INVALID_ARGUMENT', /scale/);
      expectError(await admin(sandbox, 'ratelimits', { speed: 1 }), 400, 'INVALID_ARGUMENT', /unknown field "speed"/);
      const d = await admin(sandbox, 'ratelimits');
      assert.equal(d.body.limits['secops.listAssets'].limit, 5);
      assert.equal(d.body.limits['secops.getEvent'].limit, 60);
      expectError(await admin(sandbox, 'time-travel', {}), 404, 'NOT_FOUND', /Known:/);
      expectError(await call(sandbox, 'DELETE', '/sandbox/v1/state', { auth: false }), 501, 'UNIMPLEMENTED');
      expectError(
        await call(sandbox, 'POST', '/sandbox/v1/reset', { rawBody: '{"seed":', auth: false }),
        400,
        'INVALID_ARGUMENT',
        /Invalid JSON payload/,
      );
    });
  });

  describe('bad input on the API Keys surface', () => {
    it('invalid JSON, unknown fields and wrong types in bodies', async () => {
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { rawBody: '{"displayName": ' }),
        400,
        'INVALID_ARGUMENT',
        /Invalid JSON payload received/,
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { body: { displayNam: 'typo' } }),
        400,
        'INVALID_ARGUMENT',
        /Unknown name "displayNam" at 'key'/,
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { body: { restrictions: { platformAKeyRestrictions: {} } } }),
        400,
        'INVALID_ARGUMENT',
        /Unknown name "platformAKeyRestrictions"/,
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { body: { displayName: 7 } }),
        400,
        'INVALID_ARGUMENT',
        /display_name/,
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { body: ['not', 'an', 'object'] }),
        400,
        'INVALID_ARGUMENT',
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, { body: { displayName: 'x'.repeat(64) } }),
        400,
        'INVALID_ARGUMENT',
        /limit is 63/,
      );
      expectError(
        await call(sandbox, 'PATCH', `${KEYS}/maps-web?updateMask=displayName,owner`, { body: { displayName: 'a' } }),
        400,
        'INVALID_ARGUMENT',
        /"owner"/,
      );
      expectError(
        await call(sandbox, 'POST', `${KEYS}/maps-web:undelete`, { body: { force: true } }),
        400,
        'INVALID_ARGUMENT',
        /Unknown name "force"/,
      );
      // An oversized body still gets a JSON answer, not a reset connection.
      expectError(
        await call(sandbox, 'POST', `${KEYS}?keyId=x1`, {
          body: { displayName: 'x', annotations: { big: 'y'.repeat(5 * 1024 * 1024) } },
        }),
        400,
        'INVALID_ARGUMENT',
        /larger than the limit/,
      );
    });

    it('camelCase updateMask, no mask (fields present) and "*" (everything replaced)', async () => {
      const camel = await call(sandbox, 'PATCH', `${KEYS}/maps-web?updateMask=displayName`, {
        body: { displayName: 'camel' },
      });
      assert.equal(camel.body.done, true);
      assert.equal(camel.body.response.displayName, 'camel');
      assert.equal(camel.body.response['@type'], 'type.googleapis.com/google.api.apikeys.v2.Key');
      const noMask = await call(sandbox, 'PATCH', `${KEYS}/maps-web`, { body: { annotations: { a: 'b' } } });
      assert.deepEqual(noMask.body.response.annotations, { a: 'b' });
      assert.equal(noMask.body.response.displayName, 'camel', 'fields absent from the body stay');
      assert.ok(noMask.body.response.restrictions);
      // Empty proto3 values are "not set": an empty annotations map leaves the annotations alone.
      const emptyMap = await call(sandbox, 'PATCH', `${KEYS}/maps-web`, {
        body: { displayName: 'renamed', annotations: {} },
      });
      assert.equal(emptyMap.body.response.displayName, 'renamed');
      assert.deepEqual(emptyMap.body.response.annotations, { a: 'b' });
      const star = await call(sandbox, 'PATCH', `${KEYS}/maps-web?updateMask=*`, { body: { displayName: 'star' } });
      assert.equal(star.body.response.restrictions, undefined);
      assert.deepEqual(star.body.response.annotations, {});
    });

    it('malformed names, bad page tokens, oversized page sizes, bad booleans, unknown parameters', async () => {
      expectError(
        await call(sandbox, 'GET', '/v2/projects/Bad_Project!/locations/global/keys'),
        400,
        'INVALID_ARGUMENT',
        /not a valid project/,
      );
      expectError(await call(sandbox, 'GET', '/v2/projects/p/locations/global/keys/k/extra/parts'), 404, 'NOT_FOUND');
      expectError(await call(sandbox, 'GET', `${KEYS}/does-not-exist`), 404, 'NOT_FOUND', /does-not-exist/);
      expectError(
        await call(sandbox, 'GET', `${KEYS}?pageToken=garbage`),
        400,
        'INVALID_ARGUMENT',
        /Invalid page token/,
      );
      const first = await call(sandbox, 'GET', `${KEYS}?pageSize=2`);
      expectError(
        await call(sandbox, 'GET', `${KEYS}?pageSize=2&showDeleted=true&pageToken=${first.body.nextPageToken}`),
        400,
        'INVALID_ARGUMENT',
        /page token/,
      );
      // AIP-158: an oversized page size is coerced to the maximum (300), a negative or huge one refused.
      await admin(sandbox, 'reset', { seed: 'empty' });
      for (let i = 0; i < 305; i++)
        assert.equal((await call(sandbox, 'POST', `${KEYS}?keyId=k${i}`, { body: {} })).status, 200);
      const big = await call(sandbox, 'GET', `${KEYS}?pageSize=100000`);
      assert.equal(big.status, 200);
      assert.equal(big.body.keys.length, 300);
      const rest = await call(sandbox, 'GET', `${KEYS}?pageSize=100000&pageToken=${big.body.nextPageToken}`);
      assert.equal(rest.body.keys.length, 5);
      assert.equal(rest.body.nextPageToken, undefined);
      await admin(sandbox, 'reset', { seed: 'demo' });
      expectError(await call(sandbox, 'GET', `${KEYS}?pageSize=-1`), 400, 'INVALID_ARGUMENT', /pageSize/);
      expectError(await call(sandbox, 'GET', `${KEYS}?pageSize=99999999999`), 400, 'INVALID_ARGUMENT', /pageSize/);
      expectError(await call(sandbox, 'GET', `${KEYS}?showDeleted=yes`), 400, 'INVALID_ARGUMENT', /TYPE_BOOL/);
      expectError(await call(sandbox, 'GET', `${KEYS}?colour=red`), 400, 'INVALID_ARGUMENT', /Unknown name "colour"/);
      expectError(await call(sandbox, 'GET', '/v2/operations/unknown-op'), 404, 'NOT_FOUND');
      expectError(await call(sandbox, 'GET', '/v2/keys:lookupKey'), 400, 'INVALID_ARGUMENT', /keyString is required/);
      const ks = (await call(sandbox, 'GET', `${KEYS}/maps-web/keyString`)).body.keyString as string;
      const looked = await call(sandbox, 'GET', `/v2/keys:lookupKey${qs({ keyString: ks, etag: 'W/"any"' })}`);
      assert.equal(
        looked.body.name,
        'projects/cloudbench-demo/locations/global/keys/maps-web',
        'lookupKey also takes an etag (seed 001)',
      );
      // Standard Google parameters are accepted everywhere.
      assert.equal(
        (await call(sandbox, 'GET', `${KEYS}?$alt=json%3Benum-encoding%3Dint&prettyPrint=false`)).status,
        200,
      );
    });

    it('every API method refuses a call without credentials', async () => {
      const calls: Array<[string, string]> = [
        ['POST', `${KEYS}?keyId=anon`],
        ['GET', KEYS],
        ['GET', `${KEYS}/maps-web`],
        ['GET', `${KEYS}/maps-web/keyString`],
        ['PATCH', `${KEYS}/maps-web?updateMask=displayName`],
        ['DELETE', `${KEYS}/maps-web`],
        ['POST', `${KEYS}/old-maps-key:undelete`],
        ['GET', '/v2/keys:lookupKey?keyString=x'],
        ['GET', '/v2/operations/x'],
        ['GET', '/v1/events:udmSearch'],
        ['GET', '/v1/asset/listevents'],
        ['GET', '/v1/artifact/listassets'],
        ['GET', '/v1/alias/listassetaliases'],
        ['GET', '/v1/alias/listuseraliases'],
        ['GET', '/v1/ioc/listiocs'],
        ['GET', '/v1/artifact/listiocdetails'],
        ['GET', '/v1/event:get'],
        ['GET', '/v1/events/log:get/'],
        ['GET', '/v1/alert/listalerts'],
        ['GET', '/v2/lists/admin_users'],
      ];
      for (const [method, path] of calls) {
        const r = await call(sandbox, method as 'GET', path, {
          auth: false,
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        });
        expectError(r, 401, 'UNAUTHENTICATED');
      }
      // Nothing changed.
      assert.equal((await call(sandbox, 'GET', `${KEYS}/maps-web`)).body.displayName, 'Maps JavaScript (website)');
    });
  });
});
