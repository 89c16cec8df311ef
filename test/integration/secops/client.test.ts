// The Search API client against the in-process sandbox: every method, the seed's rules and errors,
// client-side pacing, 429 handling, time-outs, cancellation and "fetch the rest" splitting.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import {
  SecOpsClient,
  UdmSearchTimeoutError,
  decodeLogBytes,
  type SecOpsClientOptions,
} from '../../../src/core/secops/client';
import { fetchAllInWindows } from '../../../src/core/secops/split';
import { SecOpsParamError } from '../../../src/core/secops/params';
import { GoogleApiError, describeError } from '../../../src/core/google/errors';
import { sandboxTokenSource, type TokenSource } from '../../../src/core/google/credentials';
import { RateLimiter, SECOPS_BUDGETS } from '../../../src/core/ratelimit';

const SCALE = 0.01; // windows shortened 100x on both sides: a second lasts 10 ms, an hour 36 s
const HOUR = 3_600_000;

async function admin(sb: Sandbox, action: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${sb.http}/sandbox/v1/${action}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${action}: ${JSON.stringify(json)}`);
  return json;
}

function b64(hex: string): string {
  return Buffer.from(hex, 'hex').toString('base64');
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface Fixture {
  sb: Sandbox;
  now: number;
  client(options?: Partial<SecOpsClientOptions>): SecOpsClient;
}

/** A fresh empty sandbox with scaled rate limits and a known set of events. */
async function fixture(): Promise<Fixture> {
  const sb = await startSandbox({ seed: 'empty' });
  await admin(sb, 'ratelimits', { scale: SCALE });
  const now = Math.floor(sb.clock.now() / 1000) * 1000;
  const events: unknown[] = [];
  // 120 DNS events from host-a over the last two hours, one a minute.
  for (let i = 0; i < 120; i++) {
    events.push({
      udm: {
        metadata: {
          id: b64(`a${i.toString(16).padStart(31, '0')}`),
          eventTimestamp: iso(now - (i + 1) * 60_000),
          eventType: 'NETWORK_DNS',
          productName: 'DNS',
        },
        principal: { hostname: 'host-a', ip: ['10.0.0.5'], mac: ['00:11:22:33:44:55'] },
        target: { hostname: 'evil.example.com', ip: ['203.0.113.9'] },
        network: { dns: { questions: [{ name: 'evil.example.com', type: 1 }] } },
      },
      rawLog: `dns query evil.example.com from host-a #${i}`,
    });
  }
  // A login whose user name holds a "+" and an alerting HTTP event with hostile text.
  events.push({
    udm: {
      metadata: { id: b64('b'.repeat(32)), eventTimestamp: iso(now - 30_000), eventType: 'USER_LOGIN' },
      principal: { hostname: 'host+b', ip: ['10.0.0.6'] },
      target: { user: { userid: 'a+b@example.com' } },
      securityResult: [
        {
          action: ['BLOCK'],
          alertState: 'ALERTING',
          ruleName: 'login from <img src=x onerror=alert(1)>',
          severity: 'HIGH',
        },
      ],
    },
  });
  await admin(sb, 'events:ingest', { events });
  await admin(sb, 'entities:ingest', {
    users: [
      {
        userid: 'alice',
        emailAddresses: ['alice@example.com'],
        windowsSid: 'S-1-5-21-1',
        hosts: ['host-a'],
        title: 'Analyst',
      },
    ],
    iocs: [
      {
        domainName: 'evil.example.com',
        category: 'Malware',
        severity: 'High',
        confidence: 90,
        sourceUrl: 'https://feed.example/evil',
      },
    ],
    referenceLists: [{ name: 'blocked_hosts', lines: ['host-a', 'host+b'] }],
  });
  const make = (options: Partial<SecOpsClientOptions> = {}): SecOpsClient =>
    new SecOpsClient({
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      limiterOptions: { windowScale: SCALE },
      retry: {
        maxRetries: 4,
        initialBackoffMs: 5,
        maxBackoffMs: 50,
        multiplier: 2,
        retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'],
      },
      ...options,
    });
  return { sb, now, client: make };
}

describe('SecOps Search client against the sandbox', function () {
  this.timeout(60_000);
  let f: Fixture;
  beforeEach(async () => {
    f = await fixture();
  });
  afterEach(async () => {
    await f.sb.close();
  });

  describe('udmSearch', () => {
    it('returns the matching events of [start, end) with names and UDM', async () => {
      const res = await f
        .client()
        .udmSearch({ query: 'principal.hostname = "host-a"', startTime: f.now - HOUR, endTime: f.now, limit: 10_000 });
      assert.equal(
        res.events.length,
        60,
        'events 1..60 minutes ago; the one exactly an hour ago sits on the inclusive start',
      );
      assert.equal(res.moreDataAvailable, false);
      assert.ok(
        res.events.every(
          (e) => e.udm.principal?.hostname === 'host-a' && typeof e.name === 'string' && e.name.length > 0,
        ),
      );
    });

    it('treats the start as inclusive and the end as exclusive', async () => {
      const t = f.now - 5 * 60_000; // exactly one event at this instant
      const c = f.client();
      const inclusive = await c.udmSearch({ query: 'principal.hostname = "host-a"', startTime: t, endTime: t + 1000 });
      const exclusive = await c.udmSearch({ query: 'principal.hostname = "host-a"', startTime: t - 1000, endTime: t });
      assert.equal(inclusive.events.length, 1);
      assert.equal(exclusive.events.length, 0);
    });

    it('says moreDataAvailable when the limit cuts the result, and fetching the rest in windows gets everything once', async () => {
      const c = f.client();
      const query = 'metadata.event_type = "NETWORK_DNS"';
      const start = f.now - 3 * HOUR;
      const first = await c.udmSearch({ query, startTime: start, endTime: f.now, limit: 25 });
      assert.equal(first.events.length, 25);
      assert.equal(first.moreDataAvailable, true);
      const progress: number[] = [];
      const all = await fetchAllInWindows(
        start,
        f.now,
        async (from, to, signal) => {
          const r = await c.udmSearch({ query, startTime: from, endTime: to, limit: 25 }, signal);
          return { items: r.events, truncated: r.moreDataAvailable };
        },
        { keyOf: (e) => e.name, initial: first.events, onProgress: (p) => progress.push(p.items) },
      );
      assert.equal(all.complete, true);
      assert.equal(all.items.length, 120);
      assert.equal(new Set(all.items.map((e) => e.name)).size, 120);
      assert.ok(all.windowsFetched >= 5);
      assert.equal(progress.at(-1), 120);
    });

    it('URL-encodes every value, so a "+" in the query reaches the server intact', async () => {
      const res = await f
        .client()
        .udmSearch({ query: 'principal.hostname = "host+b"', startTime: f.now - HOUR, endTime: f.now });
      assert.equal(res.events.length, 1);
      assert.equal(res.events[0].udm.principal?.hostname, 'host+b');
    });

    it('reports a bad query as INVALID_ARGUMENT with the server message', async () => {
      await assert.rejects(
        f.client().udmSearch({ query: 'principal.hostname = = "x"', startTime: f.now - HOUR, endTime: f.now }),
        (err: unknown) =>
          err instanceof GoogleApiError &&
          err.status === 'INVALID_ARGUMENT' &&
          err.httpStatus === 400 &&
          err.message.length > 0,
      );
    });

    it('validates parameters before sending anything', async () => {
      const offline = new SecOpsClient({ baseUrl: 'http://127.0.0.1:1', tokens: sandboxTokenSource() });
      const w = { startTime: f.now - HOUR, endTime: f.now };
      await assert.rejects(
        offline.udmSearch({ query: '  ', ...w }),
        (e: unknown) => e instanceof SecOpsParamError && e.parameter === 'query',
      );
      await assert.rejects(
        offline.udmSearch({ query: 'x', ...w, limit: 10_001 }),
        /limit must be an integer from 1 to 10000/,
      );
      await assert.rejects(
        offline.udmSearch({ query: 'x', startTime: f.now, endTime: f.now - 1000 }),
        /must be before/,
      );
      await assert.rejects(offline.udmSearch({ query: 'x', startTime: '2024-01-01', endTime: f.now }), /RFC 3339/);
      await assert.rejects(
        offline.udmSearch({ query: 'x', startTime: f.now - 91 * 24 * HOUR, endTime: f.now }),
        /at most 90 days/,
      );
    });
  });

  describe('ListEvents', () => {
    it("lists an asset's events by hostname, IP and MAC, with console links", async () => {
      const c = f.client();
      const w = { startTime: f.now - 3 * HOUR, endTime: f.now };
      const byHost = await c.listEvents({ asset: { hostname: 'host-a' }, ...w });
      assert.equal(byHost.events.length, 120);
      assert.ok(byHost.uri[0].startsWith('https://'));
      assert.equal((await c.listEvents({ asset: { assetIpAddress: '10.0.0.5' }, ...w })).events.length, 120);
      assert.equal((await c.listEvents({ asset: { mac: '00:11:22:33:44:55' }, ...w })).events.length, 120);
    });

    it('signals a full page so the caller can narrow the window (rule 1)', async () => {
      const c = f.client();
      const start = f.now - 3 * HOUR;
      const page = await c.listEvents({
        asset: { hostname: 'host-a' },
        startTime: start,
        endTime: f.now,
        pageSize: 50,
      });
      assert.equal(page.events.length, 50);
      assert.equal(page.moreDataAvailable, true);
      const all = await fetchAllInWindows(
        start,
        f.now,
        async (from, to) => {
          const r = await c.listEvents({ asset: { hostname: 'host-a' }, startTime: from, endTime: to, pageSize: 50 });
          return { items: r.events, truncated: r.moreDataAvailable || r.events.length === 50 };
        },
        { keyOf: (e) => e.metadata?.id ?? '', initial: page.events },
      );
      assert.equal(all.items.length, 120);
    });

    it('requires exactly one asset indicator and a well-formed product id', async () => {
      const c = f.client();
      const w = { startTime: f.now - HOUR, endTime: f.now };
      await assert.rejects(c.listEvents({ asset: {}, ...w }), /exactly one asset indicator/);
      await assert.rejects(
        c.listEvents({ asset: { hostname: 'a', assetIpAddress: '10.0.0.1' }, ...w }),
        /not asset.hostname and asset.asset_ip_address/,
      );
      await assert.rejects(c.listEvents({ asset: { productId: '1234' }, ...w }), /two-letter type/);
      await assert.rejects(c.listEvents({ asset: { hostname: 'a' }, ...w, pageSize: 10_001 }), /page_size/);
    });
  });

  describe('artifacts, aliases and IoCs', () => {
    it('ListAssets finds the assets that saw a domain and an IP, with first and last seen', async () => {
      const c = f.client();
      const byDomain = await c.listAssets({
        artifact: { domainName: 'evil.example.com' },
        startTime: f.now - 3 * HOUR,
        endTime: f.now,
      });
      assert.equal(byDomain.assets.length, 1);
      assert.deepEqual(byDomain.assets[0].asset, { hostname: 'host-a' });
      assert.ok(
        byDomain.assets[0].firstSeenArtifactInfo!.seenTime! < byDomain.assets[0].lastSeenArtifactInfo!.seenTime!,
      );
      assert.ok(byDomain.uri[0].includes('domainResults'));
      const byIp = await c.listAssets({ artifact: { destinationIpAddress: '203.0.113.9' } });
      assert.equal(byIp.assets.length, 1);
      await assert.rejects(
        c.listAssets({ artifact: { domainName: 'a.com', hashMd5: 'd41d8cd98f00b204e9800998ecf8427e' } }),
        /exactly one artifact indicator/,
      );
      await assert.rejects(c.listAssets({ artifact: { hashSha256: 'abc' } }), /64 hexadecimal/);
      await assert.rejects(c.listAssets({ artifact: { domainName: 'a.com' }, pageSize: 101 }), /from 1 to 100/);
    });

    it('ListAssetAliases and ListUserAliases return the entity records', async () => {
      const c = f.client();
      const assetAliases = await c.listAssetAliases({ asset: { hostname: 'host-a' } });
      assert.equal(assetAliases.aliases.length, 1);
      assert.equal(assetAliases.aliases[0].entity!.asset!.hostname, 'host-a');
      assert.ok(assetAliases.aliases[0].metadata!.interval!.startTime);
      await assert.rejects(c.listAssetAliases({ asset: { productId: 'CS:12' } }), /must be an integer/);
      const users = await c.listUserAliases({ user: { email: 'alice@example.com' } });
      assert.equal(users.userAliases.length, 1);
      assert.equal(users.userAliases[0].entity!.user!.userid, 'alice');
      assert.equal((await c.listUserAliases({ user: { windowsSid: 'S-1-5-21-1' } })).userAliases.length, 1);
      await assert.rejects(c.listUserAliases({ user: {} }), /exactly one user indicator/);
    });

    it('ListIoCs and ListIoCDetails report the matched indicator and its sources', async () => {
      const c = f.client();
      const iocs = await c.listIocs({ startTime: f.now - 3 * HOUR });
      assert.equal(iocs.matches.length, 1);
      assert.deepEqual(iocs.matches[0].artifact, { domainName: 'evil.example.com' });
      assert.equal(iocs.moreDataAvailable, false);
      const details = await c.listIocDetails({ artifact: { domainName: 'evil.example.com' } });
      assert.equal(details.sources.length, 1);
      assert.equal(details.sources[0].category, 'Malware');
      await assert.rejects(c.listIocDetails({ artifact: {} }), /exactly one artifact indicator/);
      await assert.rejects(c.listIocs({ startTime: f.now, pageSize: 0 }), /page_size/);
    });
  });

  describe('single events, alerts and lists', () => {
    it('GetEvent and GetLog by event id; the raw log decodes from base64', async () => {
      const c = f.client();
      const id = b64(`a${(3).toString(16).padStart(31, '0')}`);
      const event = await c.getEvent(id);
      assert.equal(event.udm.metadata?.id, id);
      const log = await c.getLog(id);
      assert.equal(decodeLogBytes(log.log.logBytes), 'dns query evil.example.com from host-a #3');
      await assert.rejects(
        c.getEvent('not base64!'),
        (e: unknown) => e instanceof GoogleApiError && e.status === 'INVALID_ARGUMENT',
      );
      await assert.rejects(
        c.getEvent(b64('f'.repeat(32))),
        (e: unknown) => e instanceof GoogleApiError && e.status === 'NOT_FOUND',
      );
    });

    it('ListAlerts groups alerting events; reference lists read from /v2/lists', async () => {
      const c = f.client();
      const alerts = await c.listAlerts({ startTime: f.now - HOUR, endTime: f.now });
      assert.equal(alerts.alerts.length, 1);
      const list = await c.getReferenceList('blocked_hosts');
      assert.deepEqual(list.lines, ['host-a', 'host+b']);
      await assert.rejects(
        c.getReferenceList('missing_list'),
        (e: unknown) => e instanceof GoogleApiError && e.status === 'NOT_FOUND',
      );
      await assert.rejects(c.getReferenceList('../keys'), /single path segment/);
    });
  });

  describe('errors, limits and cancellation', () => {
    it('is refused without credentials (401 UNAUTHENTICATED)', async () => {
      const noToken: TokenSource = { kind: 'google', getAccessToken: async () => '' };
      const c = f.client({ tokens: noToken });
      await assert.rejects(
        c.getEvent(b64('a'.repeat(32))),
        (e: unknown) => e instanceof GoogleApiError && e.status === 'UNAUTHENTICATED' && e.httpStatus === 401,
      );
    });

    it('paces a burst under the server limit: no 429 at all', async () => {
      // A second lasts 100 ms here, not 10: the calls' spacing must stand for pacing, not for how
      // promptly a busy machine's event loop sends a call (10 ms of delay would be a real second).
      const scale = 0.1;
      await admin(f.sb, 'ratelimits', { scale });
      try {
        const retries: string[] = [];
        const c = f.client({
          limiterOptions: { windowScale: scale },
          onRetry: (_m, err) => retries.push((err as GoogleApiError).status),
        });
        const w = { startTime: f.now - HOUR, endTime: f.now, pageSize: 1 };
        await Promise.all(Array.from({ length: 15 }, () => c.listEvents({ asset: { hostname: 'host-a' }, ...w })));
        assert.deepEqual(retries, []);
      } finally {
        await admin(f.sb, 'ratelimits', { scale: SCALE });
      }
    });

    it('honours 429 RESOURCE_EXHAUSTED from the server: waits, retries and succeeds', async () => {
      const retries: Array<{ status: string; delay: number }> = [];
      // A client whose own budget is far too generous, so the server has to push back.
      const greedy = f.client({
        limiter: new RateLimiter(
          { ...SECOPS_BUDGETS, ListEvents: { limit: 100, windowMs: 1000 } },
          { windowScale: SCALE },
        ),
        onRetry: (_m, err, _a, delay) => retries.push({ status: (err as GoogleApiError).status, delay }),
      });
      const w = { startTime: f.now - HOUR, endTime: f.now, pageSize: 1 };
      const results = await Promise.all(
        Array.from({ length: 4 }, () => greedy.listEvents({ asset: { hostname: 'host-a' }, ...w })),
      );
      assert.equal(results.length, 4);
      assert.ok(retries.length >= 1, 'at least one call met a 429');
      assert.ok(retries.every((r) => r.status === 'RESOURCE_EXHAUSTED'));
    });

    it('gives up on 429 after the retries and reports RESOURCE_EXHAUSTED', async () => {
      await admin(f.sb, 'faults', { rules: [{ method: 'secops.getEvent', errorRate: 1, codes: [429] }] });
      const c = f.client({
        retry: { maxRetries: 2, initialBackoffMs: 1, maxBackoffMs: 5, multiplier: 2, retryable: ['UNAVAILABLE'] },
      });
      await assert.rejects(
        c.getEvent(b64('a'.repeat(32))),
        (e: unknown) => e instanceof GoogleApiError && e.status === 'RESOURCE_EXHAUSTED' && e.httpStatus === 429,
      );
    });

    it('retries UNAVAILABLE and succeeds once the server recovers', async () => {
      await admin(f.sb, 'faults', { rules: [{ method: 'secops.getEvent', errorRate: 0.5, codes: [503] }], seed: 7 });
      const c = f.client({
        retry: { maxRetries: 8, initialBackoffMs: 1, maxBackoffMs: 5, multiplier: 2, retryable: ['UNAVAILABLE'] },
      });
      const id = b64(`a${(1).toString(16).padStart(31, '0')}`);
      for (let i = 0; i < 6; i++) assert.equal((await c.getEvent(id)).udm.metadata?.id, id);
    });

    it('surfaces the server-side UDM search time-out with the advice to narrow the time range, without retrying', async () => {
      await admin(f.sb, 'faults', {
        rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: ['DEADLINE_EXCEEDED'] }],
      });
      const retries: unknown[] = [];
      const c = f.client({ onRetry: (_m, err) => retries.push(err) });
      await assert.rejects(
        c.udmSearch({ query: 'principal.hostname = "host-a"', startTime: f.now - HOUR, endTime: f.now }),
        (e: unknown) =>
          e instanceof UdmSearchTimeoutError &&
          /10-minute time-out/.test(e.message) &&
          /Narrow the time range/.test(describeError(e)) &&
          !/timeoutSeconds/.test(describeError(e)),
      );
      assert.equal(retries.length, 0);
    });

    it('turns a search that outlives its deadline into the same advice', async () => {
      await admin(f.sb, 'faults', { rules: [{ method: 'secops.udmSearch', latencyMs: 2000 }] });
      const c = f.client({ udmSearchTimeoutMs: 100 });
      await assert.rejects(
        c.udmSearch({ query: 'principal.hostname = "host-a"', startTime: f.now - HOUR, endTime: f.now }),
        UdmSearchTimeoutError,
      );
    });

    it('cancels a call waiting for its rate budget and one in flight', async () => {
      const c = f.client({ limiterOptions: { windowScale: 1 } });
      const w = { startTime: f.now - HOUR, endTime: f.now, pageSize: 1 };
      await c.listEvents({ asset: { hostname: 'host-a' }, ...w });
      const waiting = new AbortController();
      const queued = c.listEvents({ asset: { hostname: 'host-a' }, ...w }, waiting.signal);
      waiting.abort();
      await assert.rejects(queued, (e: Error) => e.name === 'CancelledError');

      await admin(f.sb, 'faults', { rules: [{ method: 'secops.getEvent', latencyMs: 5000 }] });
      const inFlight = new AbortController();
      const call = c.getEvent(b64('a'.repeat(32)), inFlight.signal);
      setImmediate(() => inFlight.abort());
      await assert.rejects(call, (e: Error) => e.name === 'CancelledError');
    });
  });
});
