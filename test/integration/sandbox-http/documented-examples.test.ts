// The sandbox's udmSearch runs every documented search example of ../shared/reference/udm-syntax.md
// and udm-functions.md (it answers 200, not 400), and a few of them with the result the
// documentation gives, over the demo data.
import * as assert from 'node:assert/strict';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { FUNCTIONS } from '../../../src/udm/functions';
import { DOCUMENTED_RESULTS, DOCUMENTED_SYNTAX_EXAMPLES, documentedFunctionQuery } from '../../unit/udm/corpus';
import { admin, call, freshSandbox, iso, qs } from './helpers';

const DAY = 86_400_000;

interface Found {
  status: number;
  events: Array<{ udm: Record<string, any> }>;
  message?: string;
}

describe('sandbox udmSearch over the documented examples', function () {
  // Some hundred searches over HTTP: a loaded CI machine needs more than the default 20 s.
  this.timeout(90_000);
  let sandbox: Sandbox;
  let range: { start: string; end: string };

  before(async () => {
    sandbox = await freshSandbox('demo');
    await admin(sandbox, 'ratelimits', { enabled: false });
    // the lists the examples name
    for (const [name, contentType, lines] of [
      ['hosts', 'CONTENT_TYPE_DEFAULT_STRING', ['web-01']],
      ['ip_watchlist', 'CONTENT_TYPE_DEFAULT_STRING', ['10.0.0.5']],
      ['bad_urls', 'REGEX', ['\\.exe$']],
      ['corp_ranges', 'CIDR', ['10.0.0.0/8']],
    ] as const) {
      const r = await call(sandbox, 'POST', '/v2/lists', { body: { name, description: name, contentType, lines } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const now = Date.parse((await admin(sandbox, 'state')).body.now);
    range = { start: iso(now - DAY / 2), end: iso(now) };
  });
  after(async () => {
    await sandbox.close();
  });

  const search = async (query: string, limit = 10000): Promise<Found> => {
    const r = await call(
      sandbox,
      'GET',
      `/v1/events:udmSearch${qs({ query, 'time_range.start_time': range.start, 'time_range.end_time': range.end, limit })}`,
    );
    return { status: r.status, events: r.body?.events ?? [], message: r.body?.error?.message };
  };

  it('accepts every documented syntax and function example', async () => {
    const queries = [
      ...DOCUMENTED_SYNTAX_EXAMPLES.map(([, q]) => q),
      ...FUNCTIONS.filter((f) => f.search && f.example).map((f) => documentedFunctionQuery(f.name, f.example).query),
    ];
    const refused: string[] = [];
    for (const q of queries) {
      const r = await search(q, 1);
      if (r.status !== 200) refused.push(`${q} → ${r.status} ${r.message ?? ''}`);
    }
    assert.deepEqual(refused, []);
  });

  it('gives the documented results', async () => {
    const all = await search('metadata.id != ""');
    assert.ok(all.events.length > 100, 'the demo data has events in the range');
    assert.ok(all.events.length < 10000, 'and fewer than a search returns');

    // if(...) of a condition that always holds keeps every event
    const random = await search('if(math.random() >= 0 and math.random() < 1) = true');
    assert.equal(random.events.length, all.events.length);

    // enum order: the USER_* event types lie between USER_UNCATEGORIZED and USER_RESOURCE_DELETION
    const users = await search(
      'metadata.event_type >= "USER_UNCATEGORIZED" and metadata.event_type <= "USER_RESOURCE_DELETION"',
    );
    assert.ok(users.events.length > 0);
    assert.ok(users.events.every((e) => String(e.udm.metadata.eventType).startsWith('USER_')));
    const userCount = all.events.filter((e) => String(e.udm.metadata.eventType).startsWith('USER_')).length;
    assert.equal(users.events.length, userCount);

    // a field path the schema reference lacks reads no value: nothing matches
    const tls = await search('86400 < timestamp.current_seconds() - $e.network.tls.certificate.not_after');
    assert.equal(tls.status, 200);
    assert.equal(tls.events.length, 0);

    // a placeholder on the right joins: events whose principal and target host are the same
    const same = await search('target.hostname = $h\nprincipal.hostname = $h');
    const sameHost = (e: { udm: Record<string, any> }): boolean =>
      (e.udm.principal?.hostname ?? '') === (e.udm.target?.hostname ?? '');
    assert.equal(same.events.length, all.events.filter(sameHost).length);
    assert.ok(same.events.length < all.events.length);

    // arithmetic over a numeric field an event does not set counts it as 0 (the DNS events name a
    // port and send no bytes)
    const sum = await search('target.port + network.sent_bytes = target.port\ntarget.port > 0');
    const portOnly = all.events.filter(
      (e) => Number(e.udm.target?.port ?? 0) > 0 && Number(e.udm.network?.sentBytes ?? 0) === 0,
    );
    assert.ok(portOnly.length > 0, 'the demo data has events with a port and no sent bytes');
    assert.equal(sum.events.length, portOnly.length);
  });

  it("gives the result each function's page documents, and no other", async () => {
    const total = (await search('metadata.id != ""')).events.length;
    const wrong: string[] = [];
    for (const [page, query] of DOCUMENTED_RESULTS) {
      const holds = await search(query);
      const negated = await search(`not (${query})`);
      if (holds.status !== 200 || holds.events.length !== total || negated.events.length !== 0)
        wrong.push(`${page}: ${query} → ${holds.status} ${holds.message ?? ''} ${holds.events.length}/${total}`);
    }
    assert.deepEqual(wrong, []);
  });
});
