// Raw HTTP checks of every Search API v1 method against the sandbox: documented paths, parameters,
// JSON shapes, the seed's rules (exactly one indicator, page-size ranges, encoding, rate limits) and
// Google's error bodies.
import * as assert from 'node:assert/strict';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { admin, call, expectError, freshSandbox, iso, qs } from './helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function udmEvent(t: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    metadata: {
      eventTimestamp: iso(t),
      eventType: 'NETWORK_CONNECTION',
      productName: 'Test Firewall',
      vendorName: 'Test',
    },
    principal: { hostname: 'host-a', ip: ['10.0.0.5'] },
    target: { ip: ['203.0.113.10'], port: 443 },
    ...extra,
  };
}

async function nowOf(sandbox: Sandbox): Promise<number> {
  const state = await admin(sandbox, 'state');
  return Date.parse(state.body.now);
}

describe('sandbox Search API v1 (raw HTTP)', function () {
  let sandbox: Sandbox;
  let now: number;
  const week = (): { start_time: string; end_time: string } => ({
    start_time: iso(now - 8 * DAY),
    end_time: iso(now + HOUR),
  });

  beforeEach(async () => {
    sandbox = await freshSandbox('demo');
    // Each test checks rules of its own; budgets are exercised in their own test below.
    await admin(sandbox, 'ratelimits', { enabled: false });
    now = await nowOf(sandbox);
  });
  afterEach(async () => {
    await sandbox.close();
  });

  describe('udmSearch', () => {
    it('evaluates a UDM query over the demo events, newest data included, with moreDataAvailable at the limit', async () => {
      const q = 'metadata.event_type = "NETWORK_DNS" and principal.hostname = "lt-ben-02"';
      const r = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: q, 'time_range.start_time': iso(now - 8 * DAY), 'time_range.end_time': iso(now + HOUR), limit: 5 })}`,
      );
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.events.length, 5);
      assert.equal(r.body.moreDataAvailable, true);
      for (const e of r.body.events) {
        assert.match(e.name, /^[0-9a-f]{32}$/);
        assert.equal(e.udm.metadata.eventType, 'NETWORK_DNS');
        assert.equal(e.udm.principal.hostname, 'lt-ben-02');
      }
      const all = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: q, 'time_range.start_time': iso(now - 8 * DAY), 'time_range.end_time': iso(now + HOUR) })}`,
      );
      assert.ok(all.body.events.length > 5 && all.body.events.length < 10_000);
      assert.equal(all.body.moreDataAvailable, undefined, 'false flags are left out, as proto3 JSON does');
    });

    it('includes the start time and excludes the end time', async () => {
      await admin(sandbox, 'reset', { seed: 'empty' });
      const t0 = Date.parse('2026-03-01T10:00:00Z');
      const ing = await admin(sandbox, 'events:ingest', {
        events: [udmEvent(t0), udmEvent(t0 + 1000), udmEvent(t0 + 2000)],
      });
      assert.equal(ing.status, 200, JSON.stringify(ing.body));
      const r = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: 'principal.hostname = "host-a"', 'time_range.start_time': iso(t0), 'time_range.end_time': iso(t0 + 2000) })}`,
      );
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.body.events.map((e: { udm: { metadata: { eventTimestamp: string } } }) =>
          Date.parse(e.udm.metadata.eventTimestamp),
        ),
        [t0, t0 + 1000],
      );
      const none = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: 'principal.hostname = "nobody"', 'time_range.start_time': iso(t0), 'time_range.end_time': iso(t0 + 5000) })}`,
      );
      assert.deepEqual(none.body, {});
    });

    it('resolves reference lists in queries', async () => {
      const r = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: 'network.dns.questions.name in %suspicious_domains', 'time_range.start_time': week().start_time, 'time_range.end_time': week().end_time })}`,
      );
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok(r.body.events.length > 0);
      assert.ok(
        r.body.events.every((e: { udm: { network: { dns: { questions: Array<{ name: string }> } } } }) =>
          e.udm.network.dns.questions[0].name.endsWith('.test'),
        ),
      );
    });

    it('answers a bad query with 400 INVALID_ARGUMENT pointing at line and column', async () => {
      const q = 'metadata.event_type = "NETWORK_DNS"\nprincipal.hostnme = "x"';
      const r = await call(
        sandbox,
        'GET',
        `/v1/events:udmSearch${qs({ query: q, 'time_range.start_time': week().start_time, 'time_range.end_time': week().end_time })}`,
      );
      expectError(r, 400, 'INVALID_ARGUMENT', /line 2, column 11: .*hostnme/);
    });

    it('refuses a missing query, a limit above 10000, a reversed or over-90-day range and bad times', async () => {
      const base = { 'time_range.start_time': week().start_time, 'time_range.end_time': week().end_time };
      expectError(
        await call(sandbox, 'GET', `/v1/events:udmSearch${qs(base)}`),
        400,
        'INVALID_ARGUMENT',
        /query is required/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ ...base, query: 'principal.hostname = "a"', limit: 10_001 })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /limit/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ ...base, query: 'principal.hostname = "a"', limit: 0 })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /limit/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ query: 'principal.hostname = "a"', 'time_range.start_time': iso(now), 'time_range.end_time': iso(now - HOUR) })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /must be before/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ query: 'principal.hostname = "a"', 'time_range.start_time': iso(now - 91 * DAY), 'time_range.end_time': iso(now) })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /90 days/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ query: 'principal.hostname = "a"', 'time_range.start_time': 'yesterday', 'time_range.end_time': iso(now) })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /time_range.start_time.*yesterday/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/events:udmSearch${qs({ query: 'principal.hostname = "a"', 'time_range.end_time': iso(now) })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /start_time is required/,
      );
    });

    it('refuses an unencoded "+" in a time value but accepts it percent-encoded', async () => {
      const start = iso(now - HOUR).replace('Z', '+00:00');
      const raw = `/v1/events:udmSearch?query=${encodeURIComponent('principal.hostname = "a"')}&time_range.start_time=${start}&time_range.end_time=${encodeURIComponent(iso(now))}`;
      expectError(
        await call(sandbox, 'GET', raw),
        400,
        'INVALID_ARGUMENT',
        /unencoded "\+".*time_range.start_time|time_range.start_time.*unencoded "\+"/,
      );
      const encoded = `/v1/events:udmSearch?query=${encodeURIComponent('principal.hostname = "a"')}&time_range.start_time=${encodeURIComponent(start)}&time_range.end_time=${encodeURIComponent(iso(now))}`;
      assert.equal((await call(sandbox, 'GET', encoded)).status, 200);
    });
  });

  describe('ListEvents', () => {
    it("returns an asset's events by hostname, IP, MAC or product ID, with console links", async () => {
      const byHost = await call(
        sandbox,
        'GET',
        `/v1/asset/listevents${qs({ 'asset.hostname': 'srv-db-01', ...week(), page_size: 50 })}`,
      );
      assert.equal(byHost.status, 200, JSON.stringify(byHost.body));
      assert.equal(byHost.body.events.length, 50);
      assert.equal(byHost.body.moreDataAvailable, true);
      assert.match(byHost.body.uri[0], /assetResults\?assetIdentifier=srv-db-01/);
      const sample = byHost.body.events.find(
        (e: { principal: { hostname: string } }) => e.principal.hostname === 'srv-db-01',
      );
      const times = byHost.body.events.map((e: { metadata: { eventTimestamp: string } }) =>
        Date.parse(e.metadata.eventTimestamp),
      );
      assert.deepEqual(
        times,
        [...times].sort((a: number, b: number) => a - b),
        'events come in time order',
      );
      const ip = sample.principal.ip[0] as string;
      const mac = sample.principal.mac[0] as string;
      const productId = sample.principal.asset.assetId as string;
      for (const [param, value] of [
        ['asset.asset_ip_address', ip],
        ['asset.mac', mac],
        ['asset.product_id', productId],
      ] as const) {
        const r = await call(sandbox, 'GET', `/v1/asset/listevents${qs({ [param]: value, ...week(), page_size: 5 })}`);
        assert.equal(r.status, 200, `${param}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.events.length, 5, param);
      }
    });

    it('needs exactly one asset indicator, a time range and a page size of 1-10000', async () => {
      expectError(
        await call(sandbox, 'GET', `/v1/asset/listevents${qs(week())}`),
        400,
        'INVALID_ARGUMENT',
        /Exactly one asset indicator is required/,
      );
      expectError(
        await call(
          sandbox,
          'GET',
          `/v1/asset/listevents${qs({ 'asset.hostname': 'a', 'asset.asset_ip_address': '10.0.0.1', ...week() })}`,
        ),
        400,
        'INVALID_ARGUMENT',
        /asset.hostname and asset.asset_ip_address/,
      );
      expectError(
        await call(sandbox, 'GET', `/v1/asset/listevents${qs({ 'asset.hostname': 'a', end_time: week().end_time })}`),
        400,
        'INVALID_ARGUMENT',
        /start_time is required/,
      );
      for (const size of [0, 10_001, 'ten']) {
        expectError(
          await call(
            sandbox,
            'GET',
            `/v1/asset/listevents${qs({ 'asset.hostname': 'a', ...week(), page_size: size })}`,
          ),
          400,
          'INVALID_ARGUMENT',
          /page_size/,
        );
      }
      expectError(
        await call(sandbox, 'GET', `/v1/asset/listevents${qs({ 'asset.product_id': '1234', ...week() })}`),
        400,
        'INVALID_ARGUMENT',
        /two-letter type/,
      );
    });
  });

  it('ListAssets finds the assets that reached a domain, an IP or a file hash, with first and last seen', async () => {
    const r = await call(
      sandbox,
      'GET',
      `/v1/artifact/listassets${qs({ 'artifact.domain_name': 'cdn-update-check.test', ...week() })}`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const hosts = r.body.assets.map((a: { asset: { hostname: string } }) => a.asset.hostname).sort();
    assert.deepEqual(hosts, ['lt-ben-02', 'lt-rosa-18', 'ws-dev-04']);
    const a = r.body.assets[0];
    assert.equal(a.firstSeenArtifactInfo.artifactIndicator.domainName, 'cdn-update-check.test');
    assert.ok(Date.parse(a.firstSeenArtifactInfo.seenTime) <= Date.parse(a.lastSeenArtifactInfo.seenTime));
    assert.match(r.body.uri[0], /domainResults\?domain=cdn-update-check.test/);
    const byIp = await call(
      sandbox,
      'GET',
      `/v1/artifact/listassets${qs({ 'artifact.destination_ip_address': '198.51.100.23', page_size: 1 })}`,
    );
    assert.equal(byIp.body.assets.length, 1);
    // The malicious binary's hash leads to the Windows machines that ran it.
    const ev = await call(
      sandbox,
      'GET',
      `/v1/events:udmSearch${qs({ query: 'target.process.file.full_path = /svch0st/', 'time_range.start_time': week().start_time, 'time_range.end_time': week().end_time, limit: 1 })}`,
    );
    const sha256 = ev.body.events[0].udm.target.process.file.sha256 as string;
    const byHash = await call(sandbox, 'GET', `/v1/artifact/listassets${qs({ 'artifact.hash_sha256': sha256 })}`);
    assert.ok(byHash.body.assets.length >= 1);
    assert.equal(byHash.body.assets[0].firstSeenArtifactInfo.artifactIndicator.hashSha256, sha256);
    expectError(
      await call(sandbox, 'GET', `/v1/artifact/listassets${qs({ 'artifact.domain_name': 'a.test', page_size: 101 })}`),
      400,
      'INVALID_ARGUMENT',
      /page_size/,
    );
    expectError(
      await call(sandbox, 'GET', `/v1/artifact/listassets${qs({ 'artifact.hash_md5': 'xyz' })}`),
      400,
      'INVALID_ARGUMENT',
      /32 hexadecimal/,
    );
    expectError(
      await call(
        sandbox,
        'GET',
        `/v1/artifact/listassets${qs({ 'artifact.domain_name': 'a.test', 'artifact.hash_md5': 'd41d8cd98f00b204e9800998ecf8427e' })}`,
      ),
      400,
      'INVALID_ARGUMENT',
      /Exactly one artifact indicator/,
    );
  });

  it("ListAssetAliases shows a laptop's daily DHCP addresses and who held an address", async () => {
    const r = await call(
      sandbox,
      'GET',
      `/v1/alias/listassetaliases${qs({ 'asset.hostname': 'lt-ben-02', ...week() })}`,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const ips = new Set(r.body.aliases.map((a: { entity: { asset: { ip: string[] } } }) => a.entity.asset.ip[0]));
    assert.ok(ips.size >= 7, `a new lease every day, got ${ips.size}`);
    for (const a of r.body.aliases)
      assert.ok(Date.parse(a.metadata.interval.startTime) <= Date.parse(a.metadata.interval.endTime));
    const one = r.body.aliases[0].entity.asset;
    const byIp = await call(sandbox, 'GET', `/v1/alias/listassetaliases${qs({ 'asset.asset_ip_address': one.ip[0] })}`);
    assert.ok(
      byIp.body.aliases.some(
        (a: { entity: { asset: { hostname: string } } }) => a.entity.asset.hostname === 'lt-ben-02',
      ),
    );
    const numeric = (one.assetId as string).split(':')[1];
    const byProduct = await call(
      sandbox,
      'GET',
      `/v1/alias/listassetaliases${qs({ 'asset.product_id': numeric, page_size: 2 })}`,
    );
    assert.equal(byProduct.body.aliases.length, 2);
    expectError(
      await call(sandbox, 'GET', `/v1/alias/listassetaliases${qs({ 'asset.product_id': 'CS:1' })}`),
      400,
      'INVALID_ARGUMENT',
      /integer/,
    );
    expectError(
      await call(sandbox, 'GET', `/v1/alias/listassetaliases${qs({ 'asset.hostname': 'x', page_size: 10_001 })}`),
      400,
      'INVALID_ARGUMENT',
      /page_size/,
    );
  });

  it('ListUserAliases finds a person by any one identifier, with the hosts they own', async () => {
    const byName = await call(sandbox, 'GET', `/v1/alias/listuseraliases${qs({ 'user.username': 'ben.okafor' })}`);
    assert.equal(byName.status, 200, JSON.stringify(byName.body));
    const alias = byName.body.userAliases[0];
    assert.equal(alias.metadata.entityType, 'USER');
    assert.equal(alias.entity.user.userDisplayName, 'Ben Okafor');
    assert.deepEqual(
      alias.relations.map((r: { entity: { hostname: string }; relationship: string }) => [
        r.entity.hostname,
        r.relationship,
      ]),
      [['lt-ben-02', 'OWNS']],
    );
    for (const [param, value] of [
      ['user.email', 'ben.okafor@example.com'],
      ['user.windows_sid', alias.entity.user.windowsSid],
      ['user.employee_id', alias.entity.user.employeeId],
      ['user.product_object_id', alias.entity.user.productObjectId],
    ] as const) {
      const r = await call(sandbox, 'GET', `/v1/alias/listuseraliases${qs({ [param]: value })}`);
      assert.equal(r.body.userAliases?.[0]?.entity.user.userid, 'ben.okafor', param);
    }
    assert.deepEqual(
      (await call(sandbox, 'GET', `/v1/alias/listuseraliases${qs({ 'user.username': 'nobody' })}`)).body,
      {},
    );
    expectError(
      await call(
        sandbox,
        'GET',
        `/v1/alias/listuseraliases${qs({ 'user.username': 'a', 'user.email': 'a@example.com' })}`,
      ),
      400,
      'INVALID_ARGUMENT',
      /Exactly one user indicator/,
    );
  });

  it('ListIoCs lists IoC matches since start_time, capped by page_size with moreDataAvailable', async () => {
    const r = await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: week().start_time })}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const artifacts = r.body.matches.map(
      (m: { artifact: { domainName?: string; destinationIpAddress?: string } }) =>
        m.artifact.domainName ?? m.artifact.destinationIpAddress,
    );
    assert.ok(artifacts.includes('cdn-update-check.test'));
    assert.ok(artifacts.includes('198.51.100.23'));
    const m = r.body.matches[0];
    assert.ok(m.iocIngestTime && m.firstSeenTime && m.lastSeenTime && m.uri.length === 1);
    assert.equal(typeof m.sources[0].confidenceScore.intRawConfidenceScore, 'number');
    assert.match(m.sources[0].confidenceScore.normalizedConfidenceScore, /^(Low|Medium|High)$/);
    const capped = await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: week().start_time, page_size: 1 })}`);
    assert.equal(capped.body.matches.length, 1);
    assert.equal(capped.body.moreDataAvailable, true);
    expectError(await call(sandbox, 'GET', '/v1/ioc/listiocs'), 400, 'INVALID_ARGUMENT', /start_time is required/);
  });

  it('ListIoCDetails gives the feed sources of a domain or an IP', async () => {
    const r = await call(
      sandbox,
      'GET',
      `/v1/artifact/listiocdetails${qs({ 'artifact.domain_name': 'payroll-portal-login.test' })}`,
    );
    assert.equal(r.status, 200);
    const s = r.body.sources[0];
    assert.equal(s.category, 'Phishing');
    assert.deepEqual(s.addresses[0], { domain: 'payroll-portal-login.test', port: [80, 443] });
    assert.match(s.confidenceScore.strRawConfidenceScore, /^\d+$/);
    const ip = await call(
      sandbox,
      'GET',
      `/v1/artifact/listiocdetails${qs({ 'artifact.destination_ip_address': '203.0.113.66' })}`,
    );
    assert.equal(ip.body.sources[0].addresses[0].ipAddress, '203.0.113.66');
    const unknown = await call(
      sandbox,
      'GET',
      `/v1/artifact/listiocdetails${qs({ 'artifact.domain_name': 'www.google.com' })}`,
    );
    assert.equal(unknown.body.sources, undefined);
    expectError(
      await call(sandbox, 'GET', '/v1/artifact/listiocdetails'),
      400,
      'INVALID_ARGUMENT',
      /artifact.domain_name, artifact.destination_ip_address/,
    );
  });

  it('GetEvent and GetLog answer by metadata.id; the log bytes are base64 of the raw log', async () => {
    const s = await call(
      sandbox,
      'GET',
      `/v1/events:udmSearch${qs({ query: 'metadata.event_type = "NETWORK_HTTP"', 'time_range.start_time': week().start_time, 'time_range.end_time': week().end_time, limit: 1 })}`,
    );
    const udm = s.body.events[0].udm;
    const id = udm.metadata.id as string;
    assert.equal(Buffer.from(id, 'base64').toString('hex'), s.body.events[0].name);
    const ev = await call(sandbox, 'GET', `/v1/event:get${qs({ name: id })}`);
    assert.equal(ev.status, 200);
    assert.deepEqual(ev.body.udm, udm);
    const log = await call(sandbox, 'GET', `/v1/events/log:get/${qs({ name: id })}`);
    assert.equal(log.status, 200);
    assert.equal(log.body.log.sourceProduct, 'Internet Access');
    assert.equal(log.body.log.type, 'ZSCALER_WEBPROXY');
    const text = Buffer.from(log.body.log.logBytes, 'base64').toString('utf8');
    assert.ok(text.includes(udm.principal.hostname) && text.includes(udm.target.url), text);
    expectError(
      await call(sandbox, 'GET', `/v1/event:get${qs({ name: 'invalid_event_id' })}`),
      400,
      'INVALID_ARGUMENT',
      /Base64 decoding failed for "invalid_event_id"/,
    );
    expectError(
      await call(sandbox, 'GET', `/v1/event:get${qs({ name: 'AAAAAAAAAAAAAAAAAAAAAA==' })}`),
      404,
      'NOT_FOUND',
    );
    expectError(await call(sandbox, 'GET', '/v1/events/log:get/'), 400, 'INVALID_ARGUMENT', /name is required/);
  });

  it('ListAlerts groups alerting events by asset', async () => {
    const r = await call(sandbox, 'GET', `/v1/alert/listalerts${qs(week())}`);
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    const hosts = r.body.alerts.map((a: { asset: { hostname: string } }) => a.asset.hostname).sort();
    assert.deepEqual(hosts, ['lt-ben-02', 'lt-rosa-18', 'ws-dev-04']);
    const info = r.body.alerts[0].alertInfos[0];
    assert.ok(info.name && info.sourceProduct && info.timestamp && info.udmEvent.metadata.id);
    assert.match(info.severity, /^(Low|Medium|High|Critical)$/);
    assert.ok(Buffer.from(info.rawLog, 'base64').toString('utf8').length > 10);
    const one = await call(sandbox, 'GET', `/v1/alert/listalerts${qs({ ...week(), page_size: 1 })}`);
    assert.equal(one.body.alerts.length, 1);
    assert.equal(one.body.alerts[0].alertInfos.length, 1);
    expectError(
      await call(sandbox, 'GET', `/v1/alert/listalerts${qs({ ...week(), page_size: 100_001 })}`),
      400,
      'INVALID_ARGUMENT',
      /page_size/,
    );
  });

  it('reads reference lists from /v2/lists/{name}', async () => {
    const r = await call(sandbox, 'GET', '/v2/lists/corp_networks');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.lines, ['10.10.0.0/16', '10.20.0.0/16']);
    assert.equal(r.body.contentType, 'CIDR');
    expectError(await call(sandbox, 'GET', '/v2/lists/no_such_list'), 404, 'NOT_FOUND', /no_such_list/);
  });

  it('refuses unknown and repeated parameters, missing credentials and API keys', async () => {
    expectError(
      await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: iso(now - DAY), color: 'blue' })}`),
      400,
      'INVALID_ARGUMENT',
      /Unknown name "color"/,
    );
    expectError(
      await call(
        sandbox,
        'GET',
        `/v1/ioc/listiocs?start_time=${encodeURIComponent(iso(now - DAY))}&start_time=${encodeURIComponent(iso(now - DAY))}`,
      ),
      400,
      'INVALID_ARGUMENT',
      /given 2 times/,
    );
    expectError(
      await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: iso(now - DAY) })}`, { auth: false }),
      401,
      'UNAUTHENTICATED',
      /authentication credential/,
    );
    expectError(
      await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: iso(now - DAY) })}`, {
        auth: false,
        headers: { authorization: 'Bearer ' },
      }),
      401,
      'UNAUTHENTICATED',
    );
    expectError(
      await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: iso(now - DAY), key: 'AIzaXYZ' })}`, {
        auth: false,
      }),
      401,
      'UNAUTHENTICATED',
      /API keys are not supported/,
    );
    expectError(await call(sandbox, 'GET', '/v1/nothing/here'), 404, 'NOT_FOUND');
    expectError(await call(sandbox, 'POST', '/v1/events:udmSearch', { body: {} }), 404, 'NOT_FOUND');
  });

  it("answers calls over a method's rate limit with 429 RESOURCE_EXHAUSTED and RetryInfo, on the sandbox clock", async () => {
    await admin(sandbox, 'ratelimits', { enabled: true, scale: 1 });
    const url = `/v1/asset/listevents${qs({ 'asset.hostname': 'srv-db-01', ...week(), page_size: 1 })}`;
    assert.equal((await call(sandbox, 'GET', url)).status, 200);
    const limited = await call(sandbox, 'GET', url);
    expectError(limited, 429, 'RESOURCE_EXHAUSTED', /1 queries per second/);
    const retry = limited.body.error.details.find(
      (d: { '@type': string }) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo',
    );
    assert.match(retry.retryDelay, /^\d+(\.\d+)?s$/);
    assert.ok(limited.headers['retry-after']);
    // Other methods have budgets of their own.
    assert.equal(
      (await call(sandbox, 'GET', `/v1/ioc/listiocs${qs({ start_time: week().start_time, page_size: 1 })}`)).status,
      200,
    );
    await admin(sandbox, 'clock:advance', { seconds: 1 });
    assert.equal((await call(sandbox, 'GET', url)).status, 200, 'a second later the budget is back');
  });

  it('admits a client that paces itself at the limit even when its calls arrive bunched, but not a faster one', async () => {
    await admin(sandbox, 'ratelimits', { enabled: true, scale: 1 });
    const url = `/v1/artifact/listiocdetails${qs({ 'artifact.domain_name': 'cdn-update-check.test' })}`;
    // 1 QPS: calls whose slots are 1 s apart on average but arrive 0.7 s / 1.3 s apart.
    for (let i = 0; i < 10; i++) {
      assert.equal((await call(sandbox, 'GET', url)).status, 200, `paced call ${i}`);
      await admin(sandbox, 'clock:advance', { seconds: i % 2 === 0 ? 0.7 : 1.3 });
    }
    // 0.8 s apart is 1.25 QPS: the long-run rate catches up within a few calls.
    let refused = 0;
    for (let i = 0; i < 6; i++) {
      if ((await call(sandbox, 'GET', url)).status === 429) refused++;
      await admin(sandbox, 'clock:advance', { seconds: 0.8 });
    }
    assert.ok(refused >= 1, 'a client over the rate is refused');
  });

  it('allows a burst of 360 udmSearch calls per hour, then one more per emission interval; the window can be scaled', async () => {
    await admin(sandbox, 'ratelimits', { enabled: true, scale: 1 });
    const url = `/v1/events:udmSearch${qs({ query: 'principal.hostname = "nobody"', 'time_range.start_time': iso(now - HOUR), 'time_range.end_time': iso(now) })}`;
    const started = sandbox.clock.now();
    let ok = 0;
    let limited: Awaited<ReturnType<typeof call>> | undefined;
    while (!limited && ok < 400) {
      const r = await call(sandbox, 'GET', url);
      if (r.status === 200) ok++;
      else limited = r;
    }
    // The budget refills one call every 10 s (3600 s / 360), so a slow run may get a few more.
    const refills = Math.floor((sandbox.clock.now() - started) / 10_000);
    assert.ok(ok >= 360 && ok <= 361 + refills, `admitted ${ok} calls`);
    expectError(limited!, 429, 'RESOURCE_EXHAUSTED', /360 queries per hour/);
    await admin(sandbox, 'clock:advance', { seconds: 10 });
    assert.equal(
      (await call(sandbox, 'GET', url)).status,
      200,
      'one emission interval later one more call is admitted',
    );
    expectError(await call(sandbox, 'GET', url), 429, 'RESOURCE_EXHAUSTED');
    // scale 0.001 makes the hour 3.6 s of sandbox time, so tests and benchmarks need not wait an hour.
    const set = await admin(sandbox, 'ratelimits', { scale: 0.001 });
    assert.equal(set.body.limits['secops.udmSearch'].windowMs, 3600);
    assert.equal(set.body.limits['secops.udmSearch'].limit, 360);
    assert.equal((await call(sandbox, 'GET', url)).status, 200, 'changing the settings starts every budget afresh');
  });
});
