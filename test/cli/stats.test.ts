// `cloudbench stats` run as a process over generated events, against a computation written here
// (grouping, daily buckets in a time zone, sums and maxima by hand), not the statistics engine.
import assert from 'node:assert/strict';
import { parseCsv } from '../support/csv';
import { cliPath, removeWorkspaces, runCli, workspace } from './cli-support';

const QUERY = `metadata.event_type = "NETWORK_CONNECTION"
match:
  principal.hostname by 1d
outcome:
  $event_count = count(metadata.id)
  $bytes = sum(network.sent_bytes)
  $largest = max(network.sent_bytes)
`;

/** Asia/Kolkata is UTC+05:30 all year: days start at 18:30 UTC. */
const KOLKATA_OFFSET_S = 5.5 * 3600;
const DAY_S = 86_400;

interface Generated {
  host: string;
  type: string;
  seconds: number;
  bytes: number;
}

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generate(n: number): Generated[] {
  const next = random(32);
  const start = Date.UTC(2026, 10, 1) / 1000;
  const hosts = ['web-1', 'web-2', 'db-1', 'mail'];
  const types = ['NETWORK_CONNECTION', 'NETWORK_CONNECTION', 'USER_LOGIN'];
  return Array.from({ length: n }, () => ({
    host: hosts[Math.floor(next() * hosts.length)],
    type: types[Math.floor(next() * types.length)],
    seconds: start + Math.floor(next() * 3 * DAY_S),
    bytes: Math.floor(next() * 100_000),
  }));
}

/** The events as the results view exports them (the Search API's JSON: int64 as strings). */
function asExported(events: Generated[]): object[] {
  return events.map((e, i) => ({
    name: `events/${i}`,
    udm: {
      metadata: { id: `id-${i}`, eventType: e.type, eventTimestamp: new Date(e.seconds * 1000).toISOString() },
      principal: { hostname: e.host },
      network: { sentBytes: String(e.bytes) },
    },
  }));
}

/** The expected table, keyed "host|bucket start (UTC ISO)". */
function expected(events: Generated[]): Map<string, { events: number; bytes: number; largest: number }> {
  const out = new Map<string, { events: number; bytes: number; largest: number }>();
  for (const e of events) {
    if (e.type !== 'NETWORK_CONNECTION') continue;
    const day = Math.floor((e.seconds + KOLKATA_OFFSET_S) / DAY_S) * DAY_S - KOLKATA_OFFSET_S;
    const key = `${e.host}|${new Date(day * 1000).toISOString()}`;
    const row = out.get(key) ?? { events: 0, bytes: 0, largest: 0 };
    row.events++;
    row.bytes += e.bytes;
    row.largest = Math.max(row.largest, e.bytes);
    out.set(key, row);
  }
  return out;
}

describe('cloudbench stats (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;
  const events = generate(600);
  const exported = asExported(events);

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('computes the table over a JSON export: the groups, daily buckets in --tz and the aggregates', () => {
    const dir = workspace({ 'q.udm': QUERY, 'events.json': JSON.stringify(exported, null, 2) });
    const r = runCli(
      cli,
      ['stats', '--query', 'q.udm', '--events', 'events.json', '--tz', 'Asia/Kolkata', '--format', 'json'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const want = expected(events);
    const got = new Map(
      rows.map((row) => [
        `${String(row['principal.hostname'])}|${String(row.time_bucket)}`,
        { events: row.event_count, bytes: row.bytes, largest: row.largest },
      ]),
    );
    assert.ok(want.size >= 12, `only ${want.size} groups generated`);
    assert.deepEqual(got, want);
  });

  it('reads NDJSON as well, and writes CSV with the times in the zone', () => {
    const ndjson = exported.map((e) => JSON.stringify(e)).join('\n') + '\n';
    const dir = workspace({ 'q.udm': QUERY, 'events.ndjson': ndjson });
    const r = runCli(cli, ['stats', '--query', 'q.udm', '--events', 'events.ndjson', '--tz', 'Asia/Kolkata'], dir);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = parseCsv(r.stdout);
    assert.deepEqual(header, ['principal.hostname', 'time bucket', '$event_count', '$bytes', '$largest']);
    const want = expected(events);
    assert.equal(rows.length, want.size);
    for (const [host, bucket, count, bytes, largest] of rows) {
      // "2026-11-02 00:00 +05:30" is the local midnight that starts the day.
      const m = /^(\d{4}-\d{2}-\d{2}) 00:00 \+05:30$/.exec(bucket);
      assert.ok(m, bucket);
      const startUtc = new Date(Date.parse(`${m[1]}T00:00:00+05:30`)).toISOString();
      assert.deepEqual(
        [Number(count), Number(bytes), Number(largest)],
        Object.values(want.get(`${host}|${startUtc}`) ?? {}),
      );
    }
  });

  it('--lists DIR gives the query its reference lists', () => {
    const query = QUERY.replace(
      'metadata.event_type = "NETWORK_CONNECTION"',
      'metadata.event_type = "NETWORK_CONNECTION" and principal.hostname in %web_hosts',
    );
    const dir = workspace({
      'q.udm': query,
      'events.json': JSON.stringify(exported),
      'lists/web_hosts.txt': '// the web tier\nweb-1\nweb-2\n',
    });
    const r = runCli(
      cli,
      [
        'stats',
        '--query',
        'q.udm',
        '--events',
        'events.json',
        '--tz',
        'Asia/Kolkata',
        '--format',
        'json',
        '--lists',
        'lists',
      ],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const want = [...expected(events).entries()].filter(([key]) => key.startsWith('web-'));
    assert.ok(want.length > 0);
    assert.deepEqual(
      new Map(
        rows.map((row) => [
          `${String(row['principal.hostname'])}|${String(row.time_bucket)}`,
          { events: row.event_count, bytes: row.bytes, largest: row.largest },
        ]),
      ),
      new Map(want),
    );
    // Without the list the table would be computed as if it were empty: refused instead.
    const unknown = runCli(cli, ['stats', '--query', 'q.udm', '--events', 'events.json'], dir);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stdout, '');
    assert.match(unknown.stderr, /^q\.udm:1:\d+: error: Unknown reference list %web_hosts\n.*--lists DIR/);
  });

  it('names the line of an event it cannot read and exits 1', () => {
    const lines = exported.slice(0, 5).map((e) => JSON.stringify(e));
    lines.splice(3, 0, '{"name": "events/x", "udm": "not an object"}');
    const array = JSON.stringify(exported.slice(0, 3), null, 2).replace(/\n]$/, ',\n  {"udm": {"metadata": {}}\n]');
    const dir = workspace({
      'q.udm': QUERY,
      'bad.ndjson': lines.join('\n') + '\n',
      'broken.ndjson': `${lines[0]}\n${lines[1].slice(0, 40)}\n`,
      'bad.json': array,
      'list.json': '[1, 2]',
      'empty.json': '  \n',
    });
    const run = (file: string) => runCli(cli, ['stats', '--query', 'q.udm', '--events', file], dir);
    const cases: Array<[string, RegExp]> = [
      ['bad.ndjson', /^bad\.ndjson:4: the event has a "udm" that is not an object/],
      ['broken.ndjson', /^broken\.ndjson:2: not a JSON value \(.*\); an events file is a JSON array or NDJSON/],
      [
        'bad.json',
        new RegExp(
          `^bad\\.json:${array.split('\n').findIndex((l) => l.includes('{"udm": {"metadata": {}}')) + 1}: event 4 is not valid JSON`,
        ),
      ],
      ['list.json', /^list\.json:1: event 1 is a number, not an event object/],
      ['empty.json', /^empty\.json: the file is empty/],
    ];
    for (const [file, message] of cases) {
      const r = run(file);
      assert.equal(r.code, 1, `${file}: ${r.stderr}`);
      assert.equal(r.stdout, '', file);
      assert.match(r.stderr, message, file);
    }
  });

  it('refuses a query with errors or without a statistical section, exit 1', () => {
    const dir = workspace({
      'typo.udm': QUERY.replace('principal.hostname by', 'principal.hostnme by'),
      'plain.udm': 'metadata.event_type = "USER_LOGIN"\n',
      'events.ndjson': `${JSON.stringify(exported[0])}\n`,
    });
    const typo = runCli(cli, ['stats', '--query', 'typo.udm', '--events', 'events.ndjson'], dir);
    assert.equal(typo.code, 1);
    assert.match(typo.stderr, /^typo\.udm:3:13: error: Unknown field 'hostnme'/);
    const plain = runCli(cli, ['stats', '--query', 'plain.udm', '--events', 'events.ndjson'], dir);
    assert.equal(plain.code, 1);
    assert.match(plain.stderr, /no match: or outcome: section/);
  });

  it('given a YARA-L rule, says to use test-rule instead of listing parse errors', () => {
    const rule = 'rule logins {\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n';
    const dir = workspace({
      'logins.yaral': rule,
      'logins-rule.udm': `// a rule saved with the wrong extension\n${rule}`,
      'events.ndjson': `${JSON.stringify(exported[0])}\n`,
    });
    for (const file of ['logins.yaral', 'logins-rule.udm']) {
      const r = runCli(cli, ['stats', '--query', file, '--events', 'events.ndjson'], dir);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `${file} is a YARA-L rule, not a statistical query: run it over the events with cloudbench test-rule ${file} --events events.ndjson\n`,
      );
    }
  });
});
