import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { runRuleTest } from '../../../src/udm/rule/engine';
import type { Detection } from '../../../src/udm/rule/test-types';

const MIN = 60_000;
const T0 = Date.UTC(2026, 5, 1, 12, 0);

type Udm = Record<string, unknown>;

/** A UDM event (the Search API's JSON) stamped `minutes` after T0. */
function ev(id: string, minutes: number, udm: Udm): { udm: Udm } {
  const metadata = { ...(udm.metadata as Udm), id, eventTimestamp: new Date(T0 + minutes * MIN).toISOString() };
  return { udm: { ...udm, metadata } };
}

const login = (id: string, m: number, host: string, user = 'u1'): { udm: Udm } =>
  ev(id, m, {
    metadata: { eventType: 'USER_LOGIN' },
    principal: { hostname: host },
    target: { user: { userid: user } },
  });
const download = (id: string, m: number, host: string, bytes = 10): { udm: Udm } =>
  ev(id, m, {
    metadata: { eventType: 'NETWORK_HTTP' },
    principal: { hostname: host },
    network: { receivedBytes: String(bytes), sentBytes: '5' },
  });

const ids = (d: Detection, v: string): string[] => (d.events[v] ?? []).map((e) => e.id ?? '');
const run = (rule: string, vars: Record<string, unknown[]>, options = {}) =>
  runRuleTest(rule, new Map(Object.entries(vars)), options);

const LOGIN_THEN_DOWNLOAD = (window: string) => `rule login_then_download {
  meta:
    author = "test"
  events:
    $login.metadata.event_type = "USER_LOGIN"
    $login.principal.hostname = $host
    $dl.metadata.event_type = "NETWORK_HTTP"
    $dl.principal.hostname = $host
  match:
    $host over ${window}
  outcome:
    $bytes = sum($dl.network.received_bytes)
  condition:
    $login and $dl
}`;

describe('Test Rule engine: windows, missing events, counts, zero values, joins and outcomes', () => {
  it('opens a sliding window at each pivot event (after): earlier events do not count', () => {
    const events = [download('d0', -5, 'h'), login('l1', 0, 'h'), download('d1', 5, 'h'), download('d2', 12, 'h')];
    const { detections } = run(LOGIN_THEN_DOWNLOAD('10m after $login'), { login: events, dl: events });
    assert.equal(detections.length, 1);
    const [d] = detections;
    assert.deepEqual(d.match, { host: 'h' });
    assert.equal(d.windowStart, T0);
    assert.equal(d.windowEnd, T0 + 10 * MIN);
    assert.deepEqual(ids(d, 'login'), ['l1']);
    assert.deepEqual(ids(d, 'dl'), ['d1']);
    assert.equal(d.outcomes.bytes, 10);
  });

  it('closes a sliding window at each pivot event (before)', () => {
    const events = [login('l0', -30, 'h'), login('l1', -90, 'h2'), download('d1', 0, 'h'), download('d2', 0, 'h2')];
    const { detections } = run(LOGIN_THEN_DOWNLOAD('1h before $dl'), { login: events, dl: events });
    assert.equal(detections.length, 1);
    assert.deepEqual(detections[0].match, { host: 'h' });
    // (t - 1h, t] in whole milliseconds: [t - 1h + 1 ms, t + 1 ms), the pivot inside.
    assert.equal(detections[0].windowStart, T0 - 60 * MIN + 1);
    assert.equal(detections[0].windowEnd, T0 + 1);
    assert.deepEqual(ids(detections[0], 'login'), ['l0']);
  });

  it('a hop window excludes its end; windows holding the same events give one detection', () => {
    // a and b lie exactly 10 minutes apart: no window [start, start + 10m) holds both.
    const events = [login('a', 0, 'h'), download('b', 10, 'h'), login('c', 11, 'h'), download('d', 21, 'h')];
    const { detections, notes } = run(LOGIN_THEN_DOWNLOAD('10m'), { login: events, dl: events });
    assert.deepEqual(
      detections.map((d) => [...ids(d, 'login'), ...ids(d, 'dl')]),
      [['c', 'b']],
    );
    // Windows every minute (the hop), on whole minutes: the earliest holding c and b starts at 2.
    assert.equal(detections[0].windowStart, T0 + 2 * MIN);
    assert.equal(detections[0].windowEnd, T0 + 12 * MIN);
    assert.deepEqual(notes, [
      'Hop windows of 10 min placed every 1 min (aligned on the epoch, UTC), each [start, end); SecOps places its own, so counts can differ.',
    ]);
  });

  const MISSING = `rule alert_without_fix {
  meta:
    author = "test"
  events:
    $alert.metadata.event_type = "SCAN_FILE"
    $alert.security_result.category = "SOFTWARE_MALICIOUS"
    $alert.principal.hostname = $host
    $fix.metadata.event_type = "SCAN_FILE"
    $fix.security_result.action = "QUARANTINE"
    $fix.principal.hostname = $host
  match:
    $host over 2h
  condition:
    $alert and !$fix
}`;
  const scan = (id: string, m: number, host: string, what: 'alert' | 'fix'): { udm: Udm } =>
    ev(id, m, {
      metadata: { eventType: 'SCAN_FILE' },
      principal: { hostname: host },
      securityResult: [what === 'alert' ? { category: ['SOFTWARE_MALICIOUS'] } : { action: ['QUARANTINE'] }],
    });

  it('!$e: a detection only where the other event is missing from the window', () => {
    const events = [
      scan('a1', 0, 'lonely', 'alert'),
      scan('b1', 0, 'fixed', 'alert'),
      scan('b2', 60, 'fixed', 'fix'),
      scan('c1', 0, 'late', 'alert'),
      scan('c2', 180, 'late', 'fix'),
    ];
    // After each alert (a sliding window): the fix 60 minutes later is in the alert's window.
    const after = run(MISSING.replace('$host over 2h', '$host over 2h after $alert'), { alert: events, fix: events });
    assert.deepEqual(after.detections.map((d) => d.match.host).sort(), ['late', 'lonely']);
    for (const d of after.detections) assert.deepEqual(d.events.fix ?? [], []);
    // Hop windows: some 2-hour window holds the fixed host's alert without its fix (the one
    // ending before the fix), so all three hosts give a detection.
    const hop = run(MISSING, { alert: events, fix: events });
    assert.deepEqual(hop.detections.map((d) => d.match.host).sort(), ['fixed', 'late', 'lonely']);
    const fixed = hop.detections.find((d) => d.match.host === 'fixed')!;
    assert.ok(fixed.windowEnd <= T0 + 60 * MIN && fixed.windowStart <= T0, 'the window ends before the fix');
    for (const d of hop.detections) assert.deepEqual(d.events.fix ?? [], []);
  });

  it('!$e next to an outcome comparison under not: the missing variable stays optional', () => {
    const rule = MISSING.replace('$host over 2h', '$host over 2h after $alert').replace(
      '  condition:\n    $alert and !$fix',
      '  outcome:\n    $alerts = count($alert.metadata.id)\n  condition:\n    $alert and !$fix and not ($alerts > 5)',
    );
    assert.notEqual(rule, MISSING);
    const events = [scan('a1', 0, 'lonely', 'alert'), scan('b1', 0, 'fixed', 'alert'), scan('b2', 60, 'fixed', 'fix')];
    const { detections } = run(rule, { alert: events, fix: events });
    assert.deepEqual(
      detections.map((d) => [d.match.host, d.outcomes.alerts]),
      [['lonely', 1]],
    );
  });

  const COUNT = (extra = '') => `rule many_logins {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.target.user.userid = $user
  match:
    $user over 1h
  outcome:
    $n = count($e.metadata.id)
  condition:
    #e >= 3
${extra}}`;

  it('#e: counts the events of the window, at the threshold and below it', () => {
    const three = [login('x1', 0, 'h'), login('x2', 30, 'h'), login('x3', 59, 'h')];
    const r = run(COUNT(), { e: three });
    assert.equal(r.detections.length, 1);
    assert.equal(r.detections[0].outcomes.n, 3);
    // The third an hour after the first: outside every 1-hour window [start, end) holding the first.
    const two = [login('y1', 0, 'h'), login('y2', 30, 'h'), login('y3', 60, 'h')];
    assert.equal(run(COUNT(), { e: two }).detections.length, 0);
  });

  it('drops a zero-valued match key unless allow_zero_values = true', () => {
    const events = [login('z1', 0, 'h', ''), login('z2', 1, 'h', ''), login('z3', 2, 'h', '')];
    assert.equal(run(COUNT(), { e: events }).detections.length, 0);
    const allowed = run(COUNT('  options:\n    allow_zero_values = true\n'), { e: events });
    assert.equal(allowed.detections.length, 1);
    assert.deepEqual(allowed.detections[0].match, { user: '' });
  });

  it('compares fields across variables ($create before $delete)', () => {
    const rule = `rule create_then_delete {
  meta:
    author = "test"
  events:
    $create.target.user.userid = $user
    $create.metadata.event_type = "USER_CREATION"
    $delete.target.user.userid = $user
    $delete.metadata.event_type = "USER_DELETION"
    $create.metadata.event_timestamp.seconds <= $delete.metadata.event_timestamp.seconds
  match:
    $user over 4h
  condition:
    $create and $delete
}`;
    const user = (id: string, m: number, type: string, userid: string): { udm: Udm } =>
      ev(id, m, { metadata: { eventType: type }, target: { user: { userid } } });
    const events = [
      user('c1', 0, 'USER_CREATION', 'kept'),
      user('d1', 30, 'USER_DELETION', 'kept'),
      user('d2', 0, 'USER_DELETION', 'reversed'),
      user('c2', 30, 'USER_CREATION', 'reversed'),
    ];
    const { detections } = run(rule, { create: events, delete: events });
    assert.deepEqual(
      detections.map((d) => d.match.user),
      ['kept'],
    );
  });

  it('joins on a direct field equality between variables', () => {
    const rule = `rule same_ip {
  meta:
    author = "test"
  events:
    $a.metadata.event_type = "USER_LOGIN"
    $b.metadata.event_type = "NETWORK_HTTP"
    $a.principal.ip = $b.target.ip
    $a.target.user.userid = $user
  match:
    $user over 1h
  condition:
    $a and $b
}`;
    const a = ev('a', 0, {
      metadata: { eventType: 'USER_LOGIN' },
      principal: { ip: ['10.0.0.1', '10.0.0.2'] },
      target: { user: { userid: 'u' } },
    });
    const b1 = ev('b1', 5, { metadata: { eventType: 'NETWORK_HTTP' }, target: { ip: ['10.0.0.2'] } });
    const b2 = ev('b2', 6, { metadata: { eventType: 'NETWORK_HTTP' }, target: { ip: ['10.9.9.9'] } });
    const { detections } = run(rule, { a: [a, b1, b2], b: [a, b1, b2] });
    assert.equal(detections.length, 1);
    assert.deepEqual(ids(detections[0], 'b'), ['b1']);
  });

  it('computes outcome aggregates, arithmetic, if(), constants and outcome comparisons in condition:', () => {
    const rule = `rule traffic {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_HTTP"
    $e.principal.hostname = $host
  match:
    $host over 1h
  outcome:
    $received = sum($e.network.received_bytes)
    $total = sum($e.network.received_bytes) + sum($e.network.sent_bytes)
    $mean = avg($e.network.received_bytes)
    $smallest = min($e.network.received_bytes)
    $per_event = $total / count($e.metadata.id)
    $size = if(count($e.metadata.id) > 2, "many", "few")
    $first = earliest($e.metadata.event_timestamp)
    $hosts = array_distinct($e.principal.hostname)
    $constant = 7
    $risk_score = max(10) + 5
  condition:
    $e and $received > 100
}`;
    const events = [
      download('a', 0, 'big', 40),
      download('b', 10, 'big', 60),
      download('c', 20, 'big', 20),
      download('d', 0, 'small', 10),
    ];
    const { detections } = run(rule, { e: events });
    // Windows holding b and c only (80 bytes) and the small host fail $received > 100.
    assert.equal(detections.length, 1, JSON.stringify(detections.map((d) => d.outcomes.received)));
    const o = detections[0].outcomes;
    assert.equal(o.received, 120);
    assert.equal(o.total, 135);
    assert.equal(o.mean, 40);
    assert.equal(o.smallest, 20);
    assert.equal(o.per_event, 45);
    assert.equal(o.size, 'many');
    assert.equal(o.first, Math.floor(T0 / 1000));
    assert.deepEqual(o.hosts, ['big']);
    assert.equal(o.constant, 7);
    assert.equal(detections[0].riskScore, 15);
  });

  it('gives one detection per event without match:, with per-event outcomes', () => {
    const rule = `rule each {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_HTTP"
    $e.principal.hostname = $host
  outcome:
    $bytes = $e.network.received_bytes
    $where = $host
  condition:
    $e
}`;
    const { detections } = run(rule, { e: [download('a', 0, 'h1', 5), download('b', 1, 'h2', 6)] });
    assert.deepEqual(
      detections.map((d) => [d.windowStart, d.windowEnd, Number(d.outcomes.bytes), d.outcomes.where]),
      [
        [T0, T0, 5, 'h1'],
        [T0 + MIN, T0 + MIN, 6, 'h2'],
      ],
    );
  });

  it('gives one detection per event without match:, however many values a repeated field gives', () => {
    const rule = `rule each_ip {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.principal.ip = $ip
  outcome:
    $ips = array_distinct($ip)
  condition:
    $e
}`;
    const e = ev('a', 0, { metadata: { eventType: 'USER_LOGIN' }, principal: { ip: ['10.0.0.1', '10.0.0.2'] } });
    const { detections } = run(rule, { e: [e] });
    assert.equal(detections.length, 1);
    assert.deepEqual(detections[0].outcomes.ips, ['10.0.0.1', '10.0.0.2']);
  });

  it('tests a rule with an entity variable without it, and says what was taken as met', () => {
    const rule = `rule departed {
  meta:
    author = "test"
  events:
    $login.metadata.event_type = "USER_LOGIN"
    $login.target.user.userid = $user
    $directory.graph.metadata.entity_type = "USER"
    $directory.graph.entity.user.userid = $user
  match:
    $user over 1d
  outcome:
    $departments = array_distinct($directory.graph.entity.user.department)
  condition:
    $login and $directory
}`;
    const r = run(rule, { login: [login('l', 0, 'h')] });
    assert.equal(r.detections.length, 1);
    assert.ok(
      r.notes.some((n) => n.includes('$directory') && n.includes('entity')),
      r.notes.join('\n'),
    );
    assert.ok(
      r.notes.some((n) => n.includes('taken as met')),
      r.notes.join('\n'),
    );
    assert.ok(!('departments' in r.detections[0].outcomes), 'an outcome over entity data is not guessed');
  });

  it('does not compute metrics functions, and says what it took as met', () => {
    const rule = `rule unusual_failures {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.target.user.userid = $user
  match:
    $user over 1h
  outcome:
    $usual = max(metrics.auth_attempts_fail(period:1d, window:30d, metric:event_count_sum, agg:max, target.user.userid:$user))
    $now = count($e.metadata.id)
  condition:
    $e and $now > $usual
}`;
    const r = run(rule, { e: [login('a', 0, 'h'), login('b', 1, 'h')] });
    assert.equal(r.detections.length, 1);
    assert.equal(r.detections[0].outcomes.now, 2);
    assert.ok(!('usual' in r.detections[0].outcomes));
    assert.ok(
      r.notes.some((n) => n.includes('$usual uses metrics.auth_attempts_fail')),
      r.notes.join('\n'),
    );
    assert.ok(
      r.notes.some((n) => n.includes("'$usual' in condition")),
      r.notes.join('\n'),
    );
  });

  it('computes a `by` window as fixed buckets aligned on the epoch', () => {
    const events = [
      login('a', 0, 'h'),
      login('b', 59, 'h'),
      login('c', 61, 'h'),
      login('d', 62, 'h'),
      login('e', 63, 'h'),
    ];
    const r = run(COUNT().replace('$user over 1h', '$user by 1h'), { e: events });
    assert.equal(r.detections.length, 1);
    assert.deepEqual(ids(r.detections[0], 'e'), ['c', 'd', 'e']);
    assert.equal(r.detections[0].windowStart, T0 + 60 * MIN);
    assert.equal(r.detections[0].windowEnd, T0 + 120 * MIN, 'the end is exclusive');
    assert.ok(
      r.notes.some((n) => n.startsWith('Tumbling windows of 1 h')),
      r.notes.join('\n'),
    );
  });

  it('reads reference lists, and says when one was not given', () => {
    const rule = `rule admin_login {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.target.user.userid in %admins
  condition:
    $e
}`;
    const events = [login('a', 0, 'h', 'root'), login('b', 1, 'h', 'bob')];
    const withList = run(rule, { e: events }, { referenceLists: { admins: ['root'] } });
    assert.deepEqual(
      withList.detections.map((d) => ids(d, 'e')),
      [['a']],
    );
    assert.deepEqual(withList.notes, []);
    const without = run(rule, { e: events });
    assert.equal(without.detections.length, 0);
    assert.ok(
      without.notes.some((n) => n.includes('%admins was not given')),
      without.notes.join('\n'),
    );
  });

  it('applies suppression_window per $suppression_key (single event) and per match values', () => {
    const single = `rule quiet {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.principal.hostname = $hostname
  outcome:
    $suppression_key = $hostname
  condition:
    $e
  options:
    suppression_window = 5m
}`;
    const events = [
      login('a', 0, 'h1'),
      login('b', 3, 'h1'),
      login('c', 4, 'h2'),
      login('d', 5, 'h1'),
      login('e', 9, 'h1'),
    ];
    const r = run(single, { e: events });
    assert.deepEqual(
      r.detections.map((d) => ids(d, 'e')[0]),
      ['a', 'c', 'd'],
    );
    assert.ok(
      r.notes.some((n) => /suppressed 2 detections/.test(n)),
      r.notes.join('\n'),
    );
    // Per match values, in 3-hour windows aligned on the epoch (09:00–12:00, 12:00–15:00 UTC): x's
    // detection (its earliest hop window opens at 11:02) is alone in the first; y's (12:32) and
    // z's (14:22) share the second, where only the first is kept.
    const multi = COUNT('  options:\n    suppression_window = 3h\n').replace('#e >= 3', '#e >= 1');
    const m = run(multi, { e: [login('x', 0, 'h'), login('y', 90, 'h'), login('z', 200, 'h')] });
    assert.deepEqual(
      m.detections.map((d) => [ids(d, 'e'), new Date(d.windowStart).toISOString().slice(11, 16)]),
      [
        [['x'], '11:02'],
        [['y'], '12:32'],
      ],
    );
  });

  it('caps a join that would explode and says so', () => {
    const events = Array.from({ length: 3000 }, (_, i) => [
      login(`l${i}`, i / 100, 'h'),
      download(`d${i}`, i / 100, 'h'),
    ]).flat();
    const r = run(LOGIN_THEN_DOWNLOAD('1h'), { login: events, dl: events }, { limits: { maxRows: 20_000 } });
    assert.equal(r.cut?.reason, 'work-limit');
    assert.match(r.cut.message, /^The join stopped at its cap of 20,000 rows of joined events \(work limit\)/);
    assert.equal(r.notes.filter((n) => n === r.cut!.message).length, 1, 'said once in the notes, in the same words');
    assert.ok(r.detections.length >= 1);
  });

  it('bounds a join of 10,000 events per variable on one value with its default caps, and says so', () => {
    const logins = Array.from({ length: 10_000 }, (_, i) => login(`l${i}`, i / 200, 'h'));
    const downloads = Array.from({ length: 10_000 }, (_, i) => download(`d${i}`, i / 200, 'h'));
    const r = run(LOGIN_THEN_DOWNLOAD('1h'), { login: logins, dl: downloads });
    assert.equal(r.cut?.reason, 'work-limit');
    assert.match(r.cut.message, /^The join stopped at its cap of 200,000 rows/);
    assert.ok(r.detections.length >= 1);
    assert.match(r.cut.message, new RegExp(`the ${r.detections.length.toLocaleString('en-US')} detections shown`));
  });

  it('stops scanning windows at its cap and says so', () => {
    const events = Array.from({ length: 50 }, (_, i) => [login(`l${i}`, i, 'h'), download(`d${i}`, i, 'h')]).flat();
    const rule = LOGIN_THEN_DOWNLOAD('1h').replace('$login and $dl', '$login and #dl > 1000');
    const r = run(rule, { login: events, dl: events }, { limits: { maxWork: 12_000 } });
    assert.equal(r.detections.length, 0);
    assert.equal(r.cut?.reason, 'work-limit');
    assert.match(
      r.cut.message,
      /^The windows stopped in match group 1 of 1 \(work limit\): no detection was found before it/,
    );
  });

  it('property: detections lie inside their windows, and no two of a group hold the same events', () => {
    const event = fc.record({
      kind: fc.constantFrom('login', 'dl'),
      host: fc.constantFrom('a', 'b', ''),
      minute: fc.integer({ min: 0, max: 240 }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 40 }),
        fc.constantFrom('30m', '30m after $login', '30m before $dl'),
        (list, window) => {
          const events = list.map((e, i) =>
            e.kind === 'login' ? login(`e${i}`, e.minute, e.host) : download(`e${i}`, e.minute, e.host),
          );
          const { detections } = run(LOGIN_THEN_DOWNLOAD(window), { login: events, dl: events });
          const seen = new Map<string, Set<string>>();
          for (const d of detections) {
            const group = JSON.stringify(d.match);
            assert.notEqual(d.match.host, '', 'zero-valued hosts are dropped');
            const used = seen.get(group) ?? new Set<string>();
            const key = JSON.stringify(Object.values(d.events).map((l) => l.map((e) => e.id)));
            assert.ok(!used.has(key), `${key} twice in ${group}`);
            used.add(key);
            for (const list of Object.values(d.events))
              for (const e of list) {
                const meta = (e.udm as { metadata: { eventTimestamp: string } }).metadata;
                const t = Date.parse(meta.eventTimestamp);
                assert.ok(t >= d.windowStart && t < d.windowEnd, `${e.id} outside its window`);
                assert.equal((e.udm as { principal: { hostname: string } }).principal.hostname, d.match.host);
              }
            seen.set(group, used);
            assert.ok(ids(d, 'login').length > 0 && ids(d, 'dl').length > 0, 'the condition holds');
            assert.equal(d.windowEnd - d.windowStart, 30 * MIN);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
