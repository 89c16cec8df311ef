// Statistical search against the in-process sandbox through the real Search API client: the filter
// goes to udmSearch, the rest of a truncated answer is fetched over smaller windows only when
// approved, and the table computed locally matches hand-counted figures, complete or marked partial.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { SecOpsClient } from '../../../src/core/secops/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { RateLimiter } from '../../../src/core/ratelimit';
import { fetchStatisticsEvents, type MoreSearchesQuestion } from '../../../src/features/shared/statistics-fetch';
import { admin, iso } from '../../support/sandbox-admin';
import { compileStatistics, type StatsResult } from '../../../src/udm/stats';

const HOUR = 3_600_000;

// host-a logs in 30 times (sent bytes 1..30), host-b 12 times (10, 20, … 120), host-c 5 times
// (no sent bytes); 10 DNS events that the filter leaves out.
const HOSTS: Array<[string, number, (i: number) => number | undefined]> = [
  ['host-a', 30, (i) => i + 1],
  ['host-b', 12, (i) => (i + 1) * 10],
  ['host-c', 5, () => undefined],
];

async function seed(sb: Sandbox, now: number): Promise<void> {
  const events: unknown[] = [];
  let n = 0;
  for (const [host, count, bytes] of HOSTS) {
    for (let i = 0; i < count; i++) {
      n++;
      const b = bytes(i);
      events.push({
        udm: {
          metadata: {
            id: Buffer.from(`login-${host}-${i}`).toString('base64'),
            // spread over the last 3 hours, a few minutes apart
            eventTimestamp: iso(now - (n * 3 + 1) * 60_000),
            eventType: 'USER_LOGIN',
          },
          principal: { hostname: host, user: { userid: i % 2 ? 'alice' : 'bob' } },
          ...(b === undefined ? {} : { network: { sentBytes: String(b) } }),
        },
      });
    }
  }
  for (let i = 0; i < 10; i++) {
    events.push({
      udm: {
        metadata: {
          id: Buffer.from(`dns-${i}`).toString('base64'),
          eventTimestamp: iso(now - (i + 1) * 60_000),
          eventType: 'NETWORK_DNS',
        },
        principal: { hostname: 'host-a' },
      },
    });
  }
  await admin(sb, 'events:ingest', { events });
}

const QUERY = `metadata.event_type = "USER_LOGIN"
match:
  principal.hostname
outcome:
  $logins = count(metadata.id)
  $users = count_distinct(principal.user.userid)
  $bytes = sum(network.sent_bytes)
  $largest = max(network.sent_bytes)
order:
  $logins desc`;

/** host-a: 30 logins, bytes 1+…+30 = 465; host-b: 12, 10+…+120 = 780; host-c: 5, no bytes. */
const EXPECTED = [
  { 'principal.hostname': 'host-a', logins: 30, users: 2, bytes: 465, largest: 30 },
  { 'principal.hostname': 'host-b', logins: 12, users: 2, bytes: 780, largest: 120 },
  { 'principal.hostname': 'host-c', logins: 5, users: 2, bytes: 0, largest: null },
];

function objects(r: StatsResult): Array<Record<string, unknown>> {
  return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i]])));
}

describe('statistical search against the sandbox', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let now: number;
  beforeEach(async () => {
    sb = await startSandbox({ seed: 'empty' });
    now = Math.floor(sb.clock.now() / 1000) * 1000;
    await seed(sb, now);
  });
  afterEach(async () => {
    await sb.close();
  });

  const client = (limiter?: RateLimiter): SecOpsClient =>
    new SecOpsClient({ baseUrl: sb.http, tokens: sandboxTokenSource(), ...(limiter ? { limiter } : {}) });

  async function runStats(
    limit: number,
    confirm: (q: MoreSearchesQuestion) => boolean,
    extra: { limiter?: RateLimiter; abortAfterSearches?: number } = {},
  ) {
    const compiled = compileStatistics(QUERY)!;
    assert.equal(compiled.hasErrors, false, JSON.stringify(compiled.diagnostics));
    const abort = new AbortController();
    const asked: MoreSearchesQuestion[] = [];
    const fetched = await fetchStatisticsEvents({
      client: client(extra.limiter),
      query: compiled.filter,
      startMs: now - 4 * HOUR,
      endMs: now,
      limit,
      maxEvents: 200_000,
      signal: abort.signal,
      confirmMore: async (q) => {
        asked.push(q);
        return confirm(q);
      },
      onProgress: (p) => {
        if (extra.abortAfterSearches !== undefined && p.searches >= extra.abortAfterSearches) abort.abort();
      },
    });
    const table = compiled.engine.run(
      fetched.events.map((e) => e.udm),
      { timeZone: 'UTC' },
    );
    return { fetched, table, asked, filter: compiled.filter };
  }

  it('one search when the answer is whole: the table matches the hand count', async () => {
    const { fetched, table, asked, filter } = await runStats(10_000, () => assert.fail('no question expected'));
    assert.equal(filter, 'metadata.event_type = "USER_LOGIN"');
    assert.equal(fetched.searches, 1);
    assert.equal(fetched.partial, undefined);
    assert.equal(fetched.events.length, 47);
    assert.equal(asked.length, 0);
    assert.deepEqual(objects(table), EXPECTED);
  });

  it('the first answer read as it arrives hands its events over in order before the fetch ends, same table', async () => {
    const compiled = compileStatistics(QUERY)!;
    const arriving: unknown[][] = [];
    let ended = false;
    const fetching = fetchStatisticsEvents({
      client: client(),
      query: compiled.filter,
      startMs: now - 4 * HOUR,
      endMs: now,
      limit: 10_000,
      maxEvents: 200_000,
      signal: new AbortController().signal,
      confirmMore: async () => assert.fail('no question expected'),
      onArriving: (batch) => {
        assert.equal(ended, false);
        arriving.push(batch);
      },
    }).finally(() => (ended = true));
    const fetched = await fetching;
    assert.deepEqual(arriving.flat(), fetched.events);
    assert.equal(fetched.events.length, 47);
    assert.deepEqual(
      objects(
        compiled.engine.run(
          fetched.events.map((e) => e.udm),
          { timeZone: 'UTC' },
        ),
      ),
      EXPECTED,
    );
  });

  it('a truncated answer: asks once, fetches the rest over smaller windows, same table', async () => {
    const { fetched, table, asked } = await runStats(10, () => true);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].fetched, 10);
    assert.ok(asked[0].atLeast >= 2);
    assert.ok(asked[0].remaining > 0 && asked[0].limit > 0);
    assert.equal(fetched.partial, undefined);
    assert.equal(fetched.events.length, 47, 'every login once, none twice');
    assert.ok(fetched.searches > 2, `searches: ${fetched.searches}`);
    assert.deepEqual(objects(table), EXPECTED);
  });

  it('declined: the table is computed over the first answer and says it is partial', async () => {
    const { fetched, table } = await runStats(10, () => false);
    assert.equal(fetched.searches, 1);
    assert.equal(fetched.events.length, 10);
    assert.match(fetched.partial ?? '', /first 10 events/);
    const total = objects(table).reduce((s, r) => s + (r.logins as number), 0);
    assert.equal(total, 10);
  });

  it('stopped while fetching the rest: keeps what was fetched, marked partial', async () => {
    const { fetched } = await runStats(10, () => true, { abortAfterSearches: 3 });
    assert.match(fetched.partial ?? '', /stopped/);
    assert.ok(fetched.events.length >= 10 && fetched.events.length < 47, String(fetched.events.length));
  });

  it('stops when the hourly budget runs out, marked partial', async () => {
    const limiter = new RateLimiter({ udmSearch: { limit: 3, windowMs: HOUR } });
    const { fetched } = await runStats(10, () => true, { limiter });
    assert.equal(fetched.searches, 3);
    assert.match(fetched.partial ?? '', /budget ran out/);
  });
});
