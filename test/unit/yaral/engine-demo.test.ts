import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo, type DemoData } from '../../../src/emulator/events-data/demo';
import { compileQuery } from '../../../src/udm';
import { runRuleTest } from '../../../src/udm/rule/engine';
import { planRuleTest } from '../../../src/udm/rule/plan';
import type { Detection, RuleTestPlan } from '../../../src/udm/rule/test-types';
import {
  DEMO_RULES,
  expectedDetections,
  QUIET_RULE,
  type DemoRuleName,
  type ExpectedDetection,
  type TimeRange,
} from '../../support/yaral-oracle';

const RULES_DIR = join(__dirname, '..', '..', 'e2e', 'fixtures', 'workspace', 'rules');
const HOUR = 3_600_000;

const ruleText = (rule: DemoRuleName): string => readFileSync(join(RULES_DIR, `${rule}.yaral`), 'utf8');

/** The detection as the oracle writes it: `$`-keyed maps, text match values, sorted distinct arrays. */
function asOracle(rule: DemoRuleName, d: Detection): ExpectedDetection {
  const outcomes: ExpectedDetection['outcomes'] = {};
  for (const [k, v] of Object.entries(d.outcomes)) {
    outcomes[`$${k}`] = Array.isArray(v) ? v.map(String).sort() : (v as number | string);
  }
  return {
    rule,
    match: Object.fromEntries(Object.entries(d.match).map(([k, v]) => [`$${k}`, String(v)])),
    windowStart: d.windowStart,
    windowEnd: d.windowEnd,
    outcomes,
    events: Object.fromEntries(Object.entries(d.events).map(([k, v]) => [`$${k}`, v.map((e) => e.id ?? '')])),
  };
}

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
        const got = result.detections.map((d) => asOracle(rule, d));
        const sort = (xs: ExpectedDetection[]): ExpectedDetection[] =>
          [...xs].sort(
            (a, b) => a.windowStart - b.windowStart || JSON.stringify(a.match).localeCompare(JSON.stringify(b.match)),
          );
        for (const e of expected)
          for (const [k, v] of Object.entries(e.outcomes)) if (Array.isArray(v)) e.outcomes[k] = [...v].sort();
        assert.deepEqual(sort(got), sort(expected), `${rule} at ${new Date(anchor).toISOString()}`);
        if (rule === QUIET_RULE) assert.equal(got.length, 0);
        else assert.ok(got.length > 0, 'the demo rule fires');
        assert.deepEqual(result.notes, []);
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
        result.detections.map((d) => asOracle(rule, d).events),
        expected.map((d) => d.events),
        rule,
      );
      assert.ok(result.detections.every((d) => d.windowStart >= range.start));
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
});
