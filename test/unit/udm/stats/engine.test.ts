import * as assert from 'node:assert/strict';
import type { CompareExpr, Expr, Operand } from '../../../../src/udm/ast';
import { check } from '../../../../src/udm/check';
import { Compiler } from '../../../../src/udm/evaluate';
import { parse } from '../../../../src/udm/parser';
import { compileStatistics, StatsEngine, type StatsPlan, type StatsResult } from '../../../../src/udm/stats';

interface Ev {
  metadata: { eventTimestamp: string; eventType: string; id: string };
  principal: { hostname?: string; ip?: string[]; user?: { userid?: string } };
  target?: { hostname?: string; port?: number };
  network?: { sentBytes?: string };
}

let n = 0;
function ev(time: string, host: string | undefined, extra: Partial<Ev> = {}): Ev {
  n++;
  return {
    metadata: { eventTimestamp: time, eventType: 'USER_LOGIN', id: `id${n}` },
    principal: { ...(host === undefined ? {} : { hostname: host }), ...(extra.principal ?? {}) },
    ...(extra.target ? { target: extra.target } : {}),
    ...(extra.network ? { network: extra.network } : {}),
  };
}

const EVENTS: Ev[] = [
  ev('2024-03-01T10:05:00Z', 'web-01', {
    principal: { ip: ['10.0.0.1', '10.0.0.2'], user: { userid: 'alice' } },
    network: { sentBytes: '100' },
    target: { hostname: 'db', port: 5432 },
  }),
  ev('2024-03-01T10:45:00Z', 'web-01', {
    principal: { ip: ['10.0.0.1'], user: { userid: 'bob' } },
    network: { sentBytes: '300' },
    target: { hostname: 'db', port: 5432 },
  }),
  ev('2024-03-01T11:15:00Z', 'web-02', {
    principal: { ip: ['10.0.0.3'], user: { userid: 'alice' } },
    network: { sentBytes: '50' },
    target: { hostname: 'mail', port: 25 },
  }),
  // no hostname: left out of groups keyed on it
  ev('2024-03-01T11:30:00Z', undefined, { principal: { user: { userid: 'carol' } } }),
];

function table(query: string, events: readonly unknown[] = EVENTS, timeZone = 'UTC'): StatsResult {
  const c = compileStatistics(query);
  assert.ok(c, 'a statistical query');
  return c.engine.run(events, { timeZone });
}

function asObjects(r: StatsResult): Array<Record<string, unknown>> {
  return r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c.name, row[i]])));
}

/** An operand or an expression, written in query syntax (the filter parser reads it). */
function exprOf(text: string): Expr {
  const e = parse(text).query.filter;
  assert.ok(e);
  return e;
}
function operandOf(field: string): Operand {
  return (exprOf(`${field} = "x"`) as CompareExpr).left;
}

function engine(plan: Partial<StatsPlan> & Pick<StatsPlan, 'outcomes'>, filter = 'metadata.id != ""'): StatsEngine {
  const q = parse(filter).query;
  const compiler = new Compiler({ check: check(q), referenceLists: undefined });
  return new StatsEngine({ keys: [], dedup: [], order: [], grouped: true, ...plan }, compiler);
}

describe('statistics: engine', () => {
  it('a plain query has no statistics', () => {
    assert.equal(compileStatistics('principal.hostname = "x"'), undefined);
  });

  it('sends only the filtering statements to udmSearch', () => {
    const c = compileStatistics(
      'metadata.event_type = "USER_LOGIN"\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)',
    );
    assert.equal(c?.filter, 'metadata.event_type = "USER_LOGIN"');
  });

  it('one row per host with count, count_distinct, sum, min, max, avg', () => {
    const r = table(`metadata.event_type = "USER_LOGIN"
match:
  principal.hostname
outcome:
  $n = count(metadata.id)
  $users = count_distinct(principal.user.userid)
  $bytes = sum(network.sent_bytes)
  $least = min(network.sent_bytes)
  $most = max(network.sent_bytes)
  $mean = avg(network.sent_bytes)
order:
  principal.hostname`);
    assert.deepEqual(
      r.columns.map((c) => [c.name, c.role, c.type]),
      [
        ['principal.hostname', 'key', 'string'],
        ['n', 'outcome', 'number'],
        ['users', 'outcome', 'number'],
        ['bytes', 'outcome', 'number'],
        ['least', 'outcome', 'number'],
        ['most', 'outcome', 'number'],
        ['mean', 'outcome', 'number'],
      ],
    );
    assert.deepEqual(asObjects(r), [
      { 'principal.hostname': 'web-01', n: 2, users: 2, bytes: 400, least: 100, most: 300, mean: 200 },
      { 'principal.hostname': 'web-02', n: 1, users: 1, bytes: 50, least: 50, most: 50, mean: 50 },
    ]);
    assert.equal(r.eventsIn, 4);
    // drill-down: the events behind web-01 are the first two
    assert.deepEqual(r.members[0], [0, 1]);
  });

  it('a repeated field in match: makes a group per value', () => {
    const r = table(`principal.hostname != ""
match:
  principal.ip
outcome:
  $hosts = array_distinct(principal.hostname)
  $n = count(metadata.id)
order:
  principal.ip`);
    assert.deepEqual(asObjects(r), [
      { 'principal.ip': '10.0.0.1', hosts: ['web-01'], n: 2 },
      { 'principal.ip': '10.0.0.2', hosts: ['web-01'], n: 1 },
      { 'principal.ip': '10.0.0.3', hosts: ['web-02'], n: 1 },
    ]);
  });

  it('a group whose outcome field is always missing counts 0 and has null min/avg', () => {
    const r = table(`metadata.id != ""
match:
  principal.user.userid
outcome:
  $bytes = sum(network.sent_bytes)
  $n = count(network.sent_bytes)
  $least = min(network.sent_bytes)
  $mean = avg(network.sent_bytes)
  $first = earliest(metadata.event_timestamp)
order:
  principal.user.userid`);
    const carol = asObjects(r).find((row) => row['principal.user.userid'] === 'carol');
    assert.deepEqual(carol, {
      'principal.user.userid': 'carol',
      bytes: 0,
      n: 0,
      least: null,
      mean: null,
      first: Date.parse('2024-03-01T11:30:00Z') / 1000,
    });
    assert.equal(r.columns.find((c) => c.name === 'first')?.type, 'timestamp');
  });

  it('placeholders group like their field; two keys make one row per pair', () => {
    const r = table(`$host = principal.hostname
$user = principal.user.userid
match:
  $host, $user
outcome:
  $n = count(metadata.id)
order:
  $host, $user`);
    assert.deepEqual(asObjects(r), [
      { host: 'web-01', user: 'alice', n: 1 },
      { host: 'web-01', user: 'bob', n: 1 },
      { host: 'web-02', user: 'alice', n: 1 },
    ]);
  });

  it('order: desc and limit: keep the top rows', () => {
    const r = table(`metadata.id != ""
match:
  principal.user.userid
outcome:
  $n = count(metadata.id)
order:
  $n desc
limit:
  1`);
    assert.deepEqual(asObjects(r), [{ 'principal.user.userid': 'alice', n: 2 }]);
    assert.equal(r.groupsTotal, 3);
  });

  it('a function around an aggregate: math.round(avg(...))', () => {
    const r = table(`metadata.id != ""
match:
  principal.hostname
outcome:
  $avg = math.round(avg(network.sent_bytes))
  $ratio = math.round(sum(network.sent_bytes), 0)
order:
  principal.hostname`);
    assert.deepEqual(
      asObjects(r).map((x) => [x.avg, x.ratio]),
      [
        [200, 400],
        [50, 50],
      ],
    );
  });

  it('without match: an outcome holds plain per-event values, one row per event', () => {
    const r = table(`principal.hostname != ""
outcome:
  $host = principal.hostname
  $label = strings.concat(principal.hostname, ":", target.port)`);
    assert.deepEqual(asObjects(r), [
      { host: 'web-01', label: 'web-01:5432' },
      { host: 'web-01', label: 'web-01:5432' },
      { host: 'web-02', label: 'web-02:25' },
      // events come filtered by udmSearch; this one is kept to show a missing field (concat reads it as "")
      { host: null, label: ':' },
    ]);
    assert.deepEqual(r.members[2], [2]);
  });

  it('an aggregate without match: is one row over every event (also over none)', () => {
    const r = table(`metadata.id != ""
outcome:
  $n = count(metadata.id)`);
    assert.deepEqual(asObjects(r), [{ n: 4 }]);
    assert.deepEqual(asObjects(table(`metadata.id != ""\noutcome:\n  $n = count(metadata.id)`, [])), [{ n: 0 }]);
  });

  it('time buckets: events per host per hour, in the given time zone', () => {
    const e = engine({
      keys: [{ name: 'principal.hostname', operand: operandOf('principal.hostname') }],
      bucket: { count: 1, unit: 'hour' },
      outcomes: [{ name: 'n', value: (exprOf('$n = count(metadata.id)') as { value: Operand }).value }],
      order: [
        { name: 'principal.hostname', descending: false },
        { name: 'time_bucket', descending: false },
      ],
    });
    const r = e.run(EVENTS, { timeZone: 'Asia/Kolkata' });
    assert.deepEqual(
      r.columns.map((c) => c.name),
      ['principal.hostname', 'time_bucket', 'n'],
    );
    // 10:05Z and 10:45Z are 15:35 and 16:15 in Kolkata: two different local hours
    assert.deepEqual(asObjects(r), [
      { 'principal.hostname': 'web-01', time_bucket: Date.parse('2024-03-01T09:30:00Z') / 1000, n: 1 },
      { 'principal.hostname': 'web-01', time_bucket: Date.parse('2024-03-01T10:30:00Z') / 1000, n: 1 },
      { 'principal.hostname': 'web-02', time_bucket: Date.parse('2024-03-01T10:30:00Z') / 1000, n: 1 },
    ]);
    const utc = e.run(EVENTS, { timeZone: 'UTC' });
    assert.equal(utc.rows.length, 2, 'in UTC both web-01 events fall in 10:00');
  });

  it('condition: keeps the groups whose outcome passes', () => {
    const e = engine({
      keys: [{ name: 'principal.hostname', operand: operandOf('principal.hostname') }],
      outcomes: [{ name: 'n', value: (exprOf('$n = count(metadata.id)') as { value: Operand }).value }],
      condition: exprOf('$n > 1'),
    });
    assert.deepEqual(asObjects(e.run(EVENTS)), [{ 'principal.hostname': 'web-01', n: 2 }]);
    const either = engine({
      keys: [{ name: 'principal.hostname', operand: operandOf('principal.hostname') }],
      outcomes: [{ name: 'n', value: (exprOf('$n = count(metadata.id)') as { value: Operand }).value }],
      condition: exprOf('$n > 1 or principal.hostname = "web-02"'),
    });
    assert.equal(either.run(EVENTS).rows.length, 2);
  });

  it('dedup: keeps the first event per value', () => {
    const e = engine({
      grouped: false,
      outcomes: [{ name: 'host', value: operandOf('target.hostname') }],
      dedup: [operandOf('target.hostname')],
    });
    const r = e.run(EVENTS);
    assert.deepEqual(asObjects(r), [{ host: 'db' }, { host: 'mail' }, { host: null }]);
    assert.equal(r.eventsUsed, 3);
  });

  it('arithmetic between aggregates: bytes per event, and on a condition', () => {
    const sum = (exprOf('$b = sum(network.sent_bytes)') as { value: Operand }).value;
    const cnt = (exprOf('$n = count(metadata.id)') as { value: Operand }).value;
    const ratio = { type: 'arith', op: '/', left: sum, right: cnt, start: 0, end: 0 } as unknown as Operand;
    const e = engine({
      keys: [{ name: 'principal.hostname', operand: operandOf('principal.hostname') }],
      outcomes: [{ name: 'per_event', value: ratio }],
      condition: exprOf('$per_event >= 100'),
      order: [{ name: 'principal.hostname', descending: false }],
    });
    // web-01: (100 + 300) / 2 = 200; web-02: 50 / 1 = 50, dropped by the condition
    assert.deepEqual(asObjects(e.run(EVENTS)), [{ 'principal.hostname': 'web-01', per_event: 200 }]);
  });

  describe('queries as written (the parser reads every section)', () => {
    it('events per host per hour, in the given time zone, with condition: and arithmetic', () => {
      const c = compileStatistics(`events:
  metadata.event_type = "USER_LOGIN"
match:
  principal.hostname by 1h
outcome:
  $n = count(metadata.id)
  $per_event = sum(network.sent_bytes) / count(metadata.id)
condition:
  $n >= 1 and $per_event > 60
order:
  principal.hostname, $n desc
limit:
  10`)!;
      assert.deepEqual(
        c.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
        [],
      );
      assert.equal(c.filter, 'metadata.event_type = "USER_LOGIN"');
      const r = c.engine.run(EVENTS, { timeZone: 'Asia/Kolkata' });
      assert.deepEqual(
        r.columns.map((col) => col.name),
        ['principal.hostname', 'time_bucket', 'n', 'per_event'],
      );
      // web-02's only hour has 50 bytes per event: dropped by the condition
      assert.deepEqual(asObjects(r), [
        {
          'principal.hostname': 'web-01',
          time_bucket: Date.parse('2024-03-01T09:30:00Z') / 1000,
          n: 1,
          per_event: 100,
        },
        {
          'principal.hostname': 'web-01',
          time_bucket: Date.parse('2024-03-01T10:30:00Z') / 1000,
          n: 1,
          per_event: 300,
        },
      ]);
    });

    it('over every day and dedup: as written', () => {
      const c = compileStatistics(`metadata.id != ""
match:
  target.hostname over every day
outcome:
  $n = count(metadata.id)
  $first = earliest(metadata.event_timestamp)
order:
  target.hostname`)!;
      assert.deepEqual(asObjects(c.engine.run(EVENTS, { timeZone: 'UTC' })), [
        {
          'target.hostname': 'db',
          time_bucket: Date.parse('2024-03-01T00:00:00Z') / 1000,
          n: 2,
          first: Date.parse('2024-03-01T10:05:00Z') / 1000,
        },
        {
          'target.hostname': 'mail',
          time_bucket: Date.parse('2024-03-01T00:00:00Z') / 1000,
          n: 1,
          first: Date.parse('2024-03-01T11:15:00Z') / 1000,
        },
      ]);
      const d = compileStatistics(`metadata.id != ""
outcome:
  $host = principal.hostname
dedup:
  principal.hostname`)!;
      assert.deepEqual(asObjects(d.engine.run(EVENTS)), [{ host: 'web-01' }, { host: 'web-02' }, { host: null }]);
    });
  });

  it('an order: name that is no column is reported, not silently dropped', () => {
    const r = table(`metadata.id != ""
match:
  principal.hostname
outcome:
  $n = count(metadata.id)
order:
  $missing desc`);
    assert.match(r.warnings.join('\n'), /missing/);
  });

  it('select: and unselect: are reported as not applied, and the table keeps every column', () => {
    const r = table(`metadata.id != ""
match:
  principal.hostname
outcome:
  $n = count(metadata.id)
select:
  $n
unselect:
  principal.hostname`);
    assert.deepEqual(
      r.columns.map((c) => c.name),
      ['principal.hostname', 'n'],
    );
    assert.ok(
      r.warnings.some((w) => w.startsWith('select: is not applied')),
      r.warnings.join('\n'),
    );
    assert.ok(
      r.warnings.some((w) => w.startsWith('unselect: is not applied')),
      r.warnings.join('\n'),
    );
    assert.ok(
      !table(`metadata.id != ""\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)`).warnings.length,
    );
  });

  it('stops when aborted', () => {
    const c = compileStatistics(
      `metadata.id != ""\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)`,
    )!;
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    assert.throws(() => c.engine.run(EVENTS, { signal: ac.signal }), /stop/);
  });
});
