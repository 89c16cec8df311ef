// The grouping of a statistical query checked against a plain restatement of its rules: a group
// per combination of the distinct non-zero values of each match key (80 and "80" are one value,
// shown as first seen), time buckets on the event time, groups in the order first seen, every
// value of an event counted in each group it joins.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { Compiler } from '../../../../src/udm/evaluate';
import { analyze } from '../../../../src/udm/index';
import { compileStatistics } from '../../../../src/udm/stats';
import type { Operand } from '../../../../src/udm/ast';

interface Ev {
  metadata: { id: string; eventTimestamp?: string };
  principal: { hostname?: string | number; ip?: Array<string | number> };
  network?: { sentBytes?: string | number };
}

const QUERY = `metadata.id != ""
match:
  principal.hostname, principal.ip by 1h
outcome:
  $n = count(metadata.id)
  $bytes = sum(network.sent_bytes)
  $largest = max(network.sent_bytes)
  $hosts = count_distinct(principal.ip)
  $first = earliest(metadata.event_timestamp)`;

const isZero = (v: unknown): boolean => v === undefined || v === '' || v === 0 || v === '0';

function distinct(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  return values.filter((v) => !isZero(v) && !seen.has(String(v)) && !!seen.add(String(v)));
}

/** The table by the rules above, one event and one combination at a time. */
function reference(events: Ev[]): unknown[][] {
  const groups = new Map<
    string,
    { row: unknown[]; members: number[]; bytes: number[]; ips: Set<string>; t: number[] }
  >();
  events.forEach((e, index) => {
    const hosts = distinct(e.principal.hostname === undefined ? [] : [e.principal.hostname]);
    const ips = distinct(e.principal.ip ?? []);
    if (!e.metadata.eventTimestamp) return;
    const t = Date.parse(e.metadata.eventTimestamp) / 1000;
    const hour = Math.floor(t / 3600) * 3600;
    for (const h of hosts)
      for (const ip of ips) {
        const id = JSON.stringify([String(h), String(ip), hour]);
        let g = groups.get(id);
        if (!g) groups.set(id, (g = { row: [h, ip, hour], members: [], bytes: [], ips: new Set(), t: [] }));
        g.members.push(index);
        const b = e.network?.sentBytes;
        if (b !== undefined) g.bytes.push(Number(b));
        for (const v of e.principal.ip ?? []) g.ips.add(String(v));
        g.t.push(t);
      }
  });
  return [...groups.values()].map((g) => [
    ...g.row,
    g.members.length,
    g.bytes.reduce((a, b) => a + b, 0),
    g.bytes.length ? Math.max(...g.bytes) : null,
    g.ips.size,
    Math.min(...g.t),
    g.members,
  ]);
}

const value = fc.constantFrom<string | number>('a', 'b', 'c', 80, '80', '', 0, '0');
const event = fc.record({
  host: fc.option(value, { nil: undefined }),
  ips: fc.option(fc.array(value, { maxLength: 4 }), { nil: undefined }),
  bytes: fc.option(fc.constantFrom<string | number>(1, '2', 30, '400'), { nil: undefined }),
  minute: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
});

/** The events drawn, one a minute from 2026-03-01 where a minute is drawn. */
function eventsOf(drawn: ReadonlyArray<typeof event extends fc.Arbitrary<infer T> ? T : never>): Ev[] {
  return drawn.map((d, i) => ({
    metadata: {
      id: `e${i}`,
      ...(d.minute === undefined
        ? {}
        : { eventTimestamp: new Date(Date.UTC(2026, 2, 1) + d.minute * 60_000).toISOString() }),
    },
    principal: {
      ...(d.host === undefined ? {} : { hostname: d.host }),
      ...(d.ips === undefined ? {} : { ip: d.ips }),
    },
    ...(d.bytes === undefined ? {} : { network: { sentBytes: d.bytes } }),
  }));
}

describe('statistics: grouping', () => {
  it('groups like the plain restatement of the rules, for any events', () => {
    const compiled = compileStatistics(QUERY);
    assert.ok(compiled && !compiled.hasErrors, JSON.stringify(compiled?.diagnostics));
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (drawn) => {
        const events = eventsOf(drawn);
        const r = compiled.engine.run(events, { timeZone: 'UTC' });
        assert.deepEqual(
          r.rows.map((row, i) => [...row, r.members[i]]),
          reference(events),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('an event joining several groups through a repeated key counts in each, beside single-value events', () => {
    const compiled = compileStatistics(QUERY)!;
    const at = '2026-03-01T10:10:00Z';
    const r = compiled.engine.run(
      [
        {
          metadata: { id: '1', eventTimestamp: at },
          principal: { hostname: 'h', ip: ['x'] },
          network: { sentBytes: 5 },
        },
        {
          metadata: { id: '2', eventTimestamp: at },
          principal: { hostname: 'h', ip: ['x', 'y', 'x'] },
          network: { sentBytes: 7 },
        },
        { metadata: { id: '3', eventTimestamp: at }, principal: { hostname: 'h', ip: ['y'] } },
      ],
      { timeZone: 'UTC' },
    );
    const hour = Date.UTC(2026, 2, 1, 10) / 1000;
    assert.deepEqual(r.rows, [
      ['h', 'x', hour, 2, 12, 7, 2, Date.UTC(2026, 2, 1, 10, 10) / 1000],
      ['h', 'y', hour, 2, 7, 7, 2, Date.UTC(2026, 2, 1, 10, 10) / 1000],
    ]);
    assert.deepEqual(r.members, [
      [0, 1],
      [1, 2],
    ]);
  });

  it('eachValue hands over the values values() lists, for fields, placeholders and functions', () => {
    const a = analyze(
      '$ip = principal.ip\nmetadata.id != ""\noutcome:\n  $x = count(principal.ip)\n  $y = count($ip)\n  $z = count(strings.to_lower(principal.hostname))',
    );
    const compiler = new Compiler({ check: a.check, referenceLists: undefined });
    const operands = (
      a.parse.query.sections.find((s) => s.kind === 'outcome') as { outcomes: { value: { args: Operand[] } }[] }
    ).outcomes.map((o) => o.value.args[0]);
    const events = [
      { metadata: { id: '1' }, principal: { ip: ['10.0.0.1', '10.0.0.2'], hostname: 'WEB' } },
      { metadata: { id: '2' }, principal: {} },
      { metadata: { id: '3' }, principal: { ip: [] } },
    ];
    for (const op of operands) {
      const values = compiler.values(op);
      const each = compiler.eachValue(op);
      for (const e of events) {
        const seen: unknown[] = [];
        each(e, (v) => {
          if (v !== undefined) seen.push(v);
          return false;
        });
        assert.deepEqual(seen, values(e));
      }
    }
  });

  describe('counted as the events come (start, add in batches, finish)', () => {
    const QUERIES = [
      QUERY,
      // No match: each event a row; dedup: keeps the first event per value, across batches.
      'metadata.id != ""\noutcome:\n  $host = principal.hostname\n  $ips = principal.ip\ndedup:\n  principal.hostname',
      // An aggregate without match: one row, even over no events.
      'metadata.id != ""\noutcome:\n  $n = count(metadata.id)\n  $bytes = sum(network.sent_bytes)',
      // condition:, order: and limit: apply to the whole table at the end.
      `${QUERY}\ncondition:\n  $n > 1\norder:\n  $n desc, $bytes asc\nlimit:\n  3`,
    ];

    it('gives the table of one run over all the events, however they are cut into batches', () => {
      const compiled = QUERIES.map((q) => {
        const c = compileStatistics(q);
        assert.ok(c && !c.hasErrors, `${q}: ${JSON.stringify(c?.diagnostics)}`);
        return c;
      });
      fc.assert(
        fc.property(
          fc.array(event, { maxLength: 40 }),
          fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 6 }),
          fc.boolean(),
          (drawn, cuts, filtered) => {
            const events = eventsOf(drawn);
            const bounds = [0, ...cuts.map((c) => Math.min(c, events.length)).sort((a, b) => a - b), events.length];
            // Only events with an id ending in an even digit, when the run is given a filter.
            const filter = filtered ? (e: unknown) => /[02468]$/.test((e as Ev).metadata.id) : undefined;
            for (const c of compiled) {
              const whole = c.engine.run(events, { timeZone: 'UTC', ...(filter ? { filter } : {}) });
              const run = c.engine.start({ timeZone: 'UTC', ...(filter ? { filter } : {}) });
              for (let b = 1; b < bounds.length; b++) run.add(events.slice(bounds[b - 1], bounds[b]));
              assert.equal(run.eventsIn, events.length);
              assert.deepEqual(run.finish(), whole);
            }
          },
        ),
        { numRuns: 150 },
      );
    });

    it('makes room for more events than it first expected, members in the order added', () => {
      const c = compileStatistics(
        'metadata.id != ""\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)',
      )!;
      const events = Array.from({ length: 5000 }, (_, i) => ({
        metadata: { id: `e${i}` },
        principal: { hostname: `h${i % 3}` },
      }));
      const run = c.engine.start();
      for (let i = 0; i < events.length; i += 700) run.add(events.slice(i, i + 700));
      const r = run.finish();
      assert.deepEqual(r.rows, [
        ['h0', 1667],
        ['h1', 1667],
        ['h2', 1666],
      ]);
      assert.deepEqual(
        r.members[2],
        Array.from({ length: 1666 }, (_, k) => 3 * k + 2),
      );
      assert.equal(r.eventsIn, 5000);
    });

    it('takes no events and gives no second table once finished', () => {
      const run = compileStatistics(QUERY)!.engine.start({ timeZone: 'UTC' });
      run.add([]);
      assert.deepEqual(run.finish().rows, []);
      assert.throws(() => run.add([]), /has finished/);
      assert.throws(() => run.finish(), /has finished/);
    });
  });
});
