import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo, type DemoData } from '../../../src/emulator/events-data/demo';
import { compileQuery } from '../../../src/udm';
import { runRuleTest } from '../../../src/udm/rule/engine';
import { planRuleTest } from '../../../src/udm/rule/plan';
import type { RuleTestPlan } from '../../../src/udm/rule/test-types';
import {
  DEMO_RULES,
  expectedDetections,
  QUIET_RULE,
  type DemoRuleName,
  type ExpectedDetection,
  type TimeRange,
} from '../../support/yaral-oracle';
import { detectionAsOracle } from '../../support/yaral-detections';

const RULES_DIR = join(__dirname, '..', '..', 'e2e', 'fixtures', 'workspace', 'rules');
const HOUR = 3_600_000;

const hopNote = (d: string, hop: string): string =>
  `Hop windows of ${d} placed every ${hop} (aligned on the epoch, UTC), each [start, end); SecOps places its own, so counts can differ.`;
/** The window model each demo rule's result names (the hop is d / 24 in whole minutes). */
const MODEL_NOTES: Record<DemoRuleName, string[]> = {
  c2_connection: [],
  ioc_lookup_then_web_request: ['Sliding windows of 2 h after each $dns event, one per event, each [start, end).'],
  repeated_failed_logins: [hopNote('24 h', '1 h')],
  suspicious_domain_lookups: [hopNote('24 h', '1 h')],
  critical_server_ioc_lookup: [hopNote('1 h', '2 min')],
};

const ruleText = (rule: DemoRuleName): string => readFileSync(join(RULES_DIR, `${rule}.yaral`), 'utf8');

/** What each search of the plan returns from the demo events (the sandbox's udmSearch filter). */
function searchResults(plan: RuleTestPlan, demo: DemoData, lists: Record<string, string[]>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const s of plan.searches) {
    const q = compileQuery(s.query, { referenceLists: lists });
    assert.equal(q.hasErrors, false, `${s.variable}: ${JSON.stringify(q.diagnostics)}`);
    // udmSearch returns `{ udm }` objects: pass them as they come.
    out.set(
      s.variable,
      demo.events.filter((e) => q.matches(e.udm)).map((e) => ({ udm: e.udm })),
    );
  }
  return out;
}

describe('Test Rule engine: the demo rules over the demo events, against the independent oracle', function () {
  this.timeout(120_000);
  const anchors = [Date.UTC(2026, 10, 1, 9, 0), Date.UTC(2026, 10, 2, 20, 35)];
  const demos = new Map<number, DemoData>();
  before(() => {
    for (const a of anchors) demos.set(a, generateDemo(a));
  });

  for (const rule of DEMO_RULES) {
    it(`${rule}: the same detections, windows, outcomes and events at two sandbox start times`, () => {
      const text = ruleText(rule);
      const plan = planRuleTest(text);
      assert.ok(!('error' in plan), JSON.stringify(plan));
      assert.deepEqual(plan.untestable, []);
      for (const [anchor, demo] of demos) {
        const lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines]));
        const result = runRuleTest(text, searchResults(plan, demo, lists), { referenceLists: lists });
        const expected = expectedDetections(rule, { events: demo.events, lists: demo.lists });
        const got = result.detections.map((d) => detectionAsOracle(rule, d));
        const sort = (xs: ExpectedDetection[]): ExpectedDetection[] =>
          [...xs].sort(
            (a, b) => a.windowStart - b.windowStart || JSON.stringify(a.match).localeCompare(JSON.stringify(b.match)),
          );
        for (const e of expected)
          for (const [k, v] of Object.entries(e.outcomes)) if (Array.isArray(v)) e.outcomes[k] = [...v].sort();
        assert.deepEqual(sort(got), sort(expected), `${rule} at ${new Date(anchor).toISOString()}`);
        if (rule === QUIET_RULE) assert.equal(got.length, 0);
        else assert.ok(got.length > 0, 'the demo rule fires');
        assert.deepEqual(result.notes, MODEL_NOTES[rule]);
        assert.equal(result.cut, undefined);
        for (const d of result.detections) {
          const risk = d.outcomes.risk_score;
          assert.equal(d.riskScore, risk, 'the risk score is the $risk_score outcome');
          for (const list of Object.values(d.events))
            for (const ev of list) assert.ok(ev.udm && typeof ev.udm === 'object');
        }
      }
    });
  }

  it('limits detections to the events of a time range, as the oracle does', () => {
    const demo = demos.get(anchors[0])!;
    const lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines]));
    const range: TimeRange = { start: anchors[0] - 2 * 24 * HOUR, end: anchors[0] };
    for (const rule of ['suspicious_domain_lookups', 'repeated_failed_logins'] as const) {
      const text = ruleText(rule);
      const plan = planRuleTest(text) as RuleTestPlan;
      const result = runRuleTest(text, searchResults(plan, demo, lists), { referenceLists: lists, timeRange: range });
      const expected = expectedDetections(rule, { events: demo.events, lists: demo.lists }, range);
      assert.deepEqual(
        result.detections.map((d) => detectionAsOracle(rule, d).events),
        expected.map((d) => d.events),
        rule,
      );
      for (const d of result.detections)
        for (const list of Object.values(d.events))
          for (const e of list) {
            const t = Date.parse((e.udm as { metadata: { eventTimestamp: string } }).metadata.eventTimestamp);
            assert.ok(t >= range.start && t < range.end, 'only events of the range');
          }
    }
  });

  it('accepts the udm objects themselves as well as { udm } results, and variable names with their $', () => {
    const demo = demos.get(anchors[0])!;
    const text = ruleText('repeated_failed_logins');
    const events = demo.events.map((e) => e.udm);
    const a = runRuleTest(text, new Map([['e', events]]));
    const b = runRuleTest(text, new Map([['$e', demo.events.map((e) => ({ udm: e.udm }))]]));
    assert.ok(a.detections.length > 0);
    assert.deepEqual(
      a.detections.map((d) => d.windowStart),
      b.detections.map((d) => d.windowStart),
    );
  });

  it('caps the detections it lists and says so', () => {
    const demo = demos.get(anchors[0])!;
    const text = ruleText('c2_connection');
    const result = runRuleTest(text, new Map([['e', demo.events]]), { maxDetections: 3 });
    assert.equal(result.detections.length, 3);
    assert.ok(
      result.notes.some((n) => /first 3 detections/.test(n)),
      result.notes.join('\n'),
    );
  });

  it('property: agrees with the oracle on random blocked sign-ins and DNS look-ups', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const lists = [
      { name: 'suspicious_domains', lines: ['a.test', 'b.test'], contentType: 'CONTENT_TYPE_DEFAULT_STRING' },
    ];
    const item = fc.record({
      kind: fc.constantFrom('login', 'dns', 'http'),
      who: fc.constantFrom('u1', 'u2', ''),
      minutes: fc.integer({ min: 0, max: 3 * 24 * 60 }),
      domain: fc.constantFrom('a.test', 'b.test', 'c.test'),
    });
    const toEvent = (x: { kind: string; who: string; minutes: number; domain: string }, i: number) => {
      const metadata = { id: `x${i}`, eventTimestamp: new Date(t0 + x.minutes * 60_000).toISOString() };
      if (x.kind === 'login')
        return {
          udm: {
            metadata: { ...metadata, eventType: 'USER_LOGIN' },
            principal: { hostname: 'lt-1' },
            target: { user: { userid: x.who } },
            securityResult: [{ action: ['BLOCK'] }],
          },
        };
      if (x.kind === 'dns')
        return {
          udm: {
            metadata: { ...metadata, eventType: 'NETWORK_DNS' },
            principal: { hostname: x.who },
            network: { dns: { questions: [{ name: x.domain }], answers: [{ data: '198.51.100.23' }] } },
          },
        };
      return {
        udm: {
          metadata: { ...metadata, eventType: 'NETWORK_HTTP' },
          principal: { hostname: x.who },
          target: { ip: ['198.51.100.23'] },
          network: { http: { responseCode: x.minutes % 2 ? 403 : 200 } },
        },
      };
    };
    const rules = ['repeated_failed_logins', 'suspicious_domain_lookups', 'ioc_lookup_then_web_request'] as const;
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), (items) => {
        const events = items.map(toEvent);
        for (const rule of rules) {
          const text = ruleText(rule);
          const plan = planRuleTest(text) as RuleTestPlan;
          const byVar = new Map(plan.searches.map((s) => [s.variable, events as unknown[]]));
          const got = runRuleTest(text, byVar, { referenceLists: { suspicious_domains: lists[0].lines } });
          const expected = expectedDetections(rule, { events, lists });
          for (const e of expected)
            for (const [k, v] of Object.entries(e.outcomes)) if (Array.isArray(v)) e.outcomes[k] = [...v].sort();
          assert.deepEqual(
            got.detections.map((d) => detectionAsOracle(rule, d)),
            expected,
            rule,
          );
        }
      }),
      { numRuns: 100 },
    );
  });
});
