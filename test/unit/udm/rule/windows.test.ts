// The match windows against an independent evaluator written from Google's documented windowing
// (reference/yaral-rules.md, "Match"), with plain loops over the events: hop windows of length d
// placed every hop (this tester's stated hop: d / 24 in whole minutes, at least one, aligned on the
// epoch), one sliding window per pivot event, windows [start, end), windows holding the same
// events giving one detection (the earliest), and `!$e` as the absence of $e from the window. It
// shares no code with src/udm: only the rule texts and the shapes of the answers.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { runRuleTest } from '../../../../src/udm/rule/engine';

const MIN = 60_000;
/** A day boundary: hop windows are aligned on multiples of the hop since the epoch. */
const T0 = Date.UTC(2026, 2, 3);

type WindowKind = 'hop' | 'after' | 'before';

interface Shape {
  /** count: one variable, `#e >= k`; pair: $a (sign-ins) and $b (web requests) on one host */
  kind: 'count' | 'pair';
  minutes: number;
  window: WindowKind;
  k: number;
  /** pair only: `$a and !$b` */
  absent: boolean;
}

interface Ev {
  id: string;
  t: number;
  host: string;
  type: 'login' | 'http';
}

interface Found {
  host: string;
  start: number;
  end: number;
  a: string[];
  b: string[];
  n?: number;
}

function ruleText(s: Shape): string {
  const w = s.window === 'hop' ? '' : s.window === 'after' ? ' after $a' : ' before $b';
  if (s.kind === 'count')
    return `rule burst {
  meta:
    author = "test"
  events:
    $a.metadata.event_type = "USER_LOGIN"
    $a.principal.hostname = $host
  match:
    $host over ${s.minutes}m
  outcome:
    $n = count($a.metadata.id)
  condition:
    #a >= ${s.k}
}`;
  return `rule pair {
  meta:
    author = "test"
  events:
    $a.metadata.event_type = "USER_LOGIN"
    $a.principal.hostname = $host
    $b.metadata.event_type = "NETWORK_HTTP"
    $b.principal.hostname = $host
  match:
    $host over ${s.minutes}m${w}
  condition:
    $a and ${s.absent ? '!$b' : '$b'}
}`;
}

function udmOf(e: Ev): unknown {
  return {
    udm: {
      metadata: {
        id: e.id,
        eventType: e.type === 'login' ? 'USER_LOGIN' : 'NETWORK_HTTP',
        eventTimestamp: new Date(e.t).toISOString(),
      },
      principal: { hostname: e.host },
    },
  };
}

/** The windows of one host's events, each [start, end), in the order they are placed. */
function windowsOf(s: Shape, events: Ev[]): Array<[number, number]> {
  const d = s.minutes * MIN;
  const out: Array<[number, number]> = [];
  if (s.window === 'hop') {
    let hopMinutes = Math.floor(s.minutes / 24);
    if (hopMinutes < 1) hopMinutes = 1;
    const hop = hopMinutes * MIN;
    let lo = Infinity;
    let hi = -Infinity;
    for (const e of events) {
      if (e.t < lo) lo = e.t;
      if (e.t > hi) hi = e.t;
    }
    // Every multiple of the hop whose window [start, start + d) can hold an event.
    for (let start = Math.ceil((lo - d + 1) / hop) * hop; start <= hi; start += hop) out.push([start, start + d]);
    return out;
  }
  const pivotType = s.window === 'after' ? 'login' : 'http';
  const pivots = events.filter((e) => e.type === pivotType).sort((x, y) => x.t - y.t);
  // after: [t, t + d); before: (t - d, t], which in whole milliseconds is [t - d + 1, t + 1).
  for (const p of pivots) out.push(s.window === 'after' ? [p.t, p.t + d] : [p.t - d + 1, p.t + 1]);
  return out;
}

/** The detections the documented model gives, by plain loops. */
function expected(s: Shape, all: Ev[]): Found[] {
  const out: Found[] = [];
  const hosts = [...new Set(all.map((e) => e.host))].filter((h) => h !== ''); // zero values are dropped
  for (const host of hosts) {
    const events = all.filter((e) => e.host === host && (s.kind === 'pair' || e.type === 'login'));
    const seen = new Set<string>();
    for (const [start, end] of windowsOf(s, events)) {
      const a: string[] = [];
      const b: string[] = [];
      for (const e of events) if (e.t >= start && e.t < end) (e.type === 'login' ? a : b).push(e.id);
      // Every detection holds an $a; without one the window holds nothing the rule joins.
      if (a.length === 0) continue;
      if (s.kind === 'pair' && !s.absent && b.length === 0) continue;
      a.sort();
      b.sort();
      const key = `${a.join(',')}|${b.join(',')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (s.kind === 'count' ? a.length < s.k : s.absent && b.length > 0) continue;
      out.push({ host, start, end, a, b, ...(s.kind === 'count' ? { n: a.length } : {}) });
    }
  }
  return out.sort((x, y) => x.start - y.start || (x.host < y.host ? -1 : x.host > y.host ? 1 : 0));
}

function actual(s: Shape, events: Ev[]): Found[] {
  const all = events.map(udmOf);
  const r = runRuleTest(
    ruleText(s),
    new Map([
      ['a', all],
      ['b', all],
    ]),
    { maxDetections: 100_000 },
  );
  assert.equal(r.cut, undefined);
  return r.detections.map((d) => ({
    host: String(d.match.host),
    start: d.windowStart,
    end: d.windowEnd,
    a: (d.events.a ?? []).map((e) => e.id ?? '').sort(),
    b: (d.events.b ?? []).map((e) => e.id ?? '').sort(),
    ...(s.kind === 'count' ? { n: Number(d.outcomes.n) } : {}),
  }));
}

const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    kind: fc.constant('count' as const),
    minutes: fc.constantFrom(1, 10, 30, 60, 90, 1440),
    window: fc.constant('hop' as const),
    k: fc.integer({ min: 1, max: 5 }),
    absent: fc.constant(false),
  }),
  fc.record({
    kind: fc.constant('pair' as const),
    minutes: fc.constantFrom(5, 60, 120),
    window: fc.constantFrom<WindowKind>('hop', 'after', 'before'),
    k: fc.constant(1),
    absent: fc.boolean(),
  }),
);

/** Times near the edges that matter: on, just before and just after multiples of the hop and of d. */
function eventsFor(s: Shape): fc.Arbitrary<Ev[]> {
  const hop = Math.max(1, Math.floor(s.minutes / 24)) * MIN;
  const d = s.minutes * MIN;
  const time = fc.oneof(
    fc.integer({ min: 0, max: 3 * d }),
    fc
      .tuple(fc.integer({ min: 0, max: 3 * Math.ceil(d / hop) }), fc.constantFrom(-1, 0, 1))
      .map(([k, e]) => k * hop + e),
    fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(-1, 0, 1)).map(([k, e]) => k * d + e),
  );
  const event = fc.record({
    offset: time,
    host: fc.constantFrom('h1', 'h1', 'h2', ''),
    type: fc.constantFrom<'login' | 'http'>('login', 'http'),
  });
  return fc
    .array(event, { maxLength: 9 })
    .map((list) => list.map((e, i) => ({ id: `e${i}`, t: T0 + e.offset, host: e.host, type: e.type })));
}

describe('Test Rule windows against the documented model (independent evaluator)', function () {
  this.timeout(120_000);

  it('property: hop, sliding after/before and `!$e` windows give the documented detections (10,000 cases)', () => {
    fc.assert(
      fc.property(
        shape.chain((s) => fc.tuple(fc.constant(s), eventsFor(s))),
        ([s, events]) => {
          assert.deepEqual(actual(s, events), expected(s, events), ruleText(s));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('the documented burst: 9 blocked sign-ins within 20 hours after 2 earlier ones, `over 24h`, `#e >= 5`', () => {
    const hours = [0, 3, 20, 22.5, 25, 27.5, 30, 32.5, 35, 37.5, 40];
    const events: Ev[] = hours.map((h, i) => ({
      id: `b${i}`,
      t: T0 + h * 60 * MIN + 7 * MIN,
      host: 'h1',
      type: 'login',
    }));
    const s: Shape = { kind: 'count', minutes: 1440, window: 'hop', k: 5, absent: false };
    const got = actual(s, events);
    assert.deepEqual(got, expected(s, events));
    const peak = got.filter((d) => d.n === 9);
    assert.equal(peak.length, 1, JSON.stringify(got.map((d) => d.n)));
    assert.deepEqual(peak[0].a, ['b10', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9']);
    assert.ok(got.every((d) => (d.n ?? 0) <= 9));
  });

  it('a pivot inside another pivot’s window opens its own window', () => {
    const at = (id: string, m: number, type: 'login' | 'http'): Ev => ({ id, t: T0 + m * MIN, host: 'h1', type });
    const events = [at('a1', 0, 'login'), at('a2', 30, 'login'), at('b1', 40, 'http'), at('b2', 100, 'http')];
    const s: Shape = { kind: 'pair', minutes: 60, window: 'after', k: 1, absent: false };
    const got = actual(s, events);
    assert.deepEqual(
      got.map((d) => [d.start - T0, d.a, d.b]),
      [
        [0, ['a1', 'a2'], ['b1']],
        [30 * MIN, ['a2'], ['b1']],
      ],
    );
  });
});
