// Saving hunt events as a rule test case: the redacted, time-shifted events give the same
// detections as the original events (names and times mapped), and the saved case passes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { generateDemo } from '../../../../src/emulator/events-data/demo';
import { parseRuleFile } from '../../../../src/udm/rule/parse';
import { BASE_WEEK, captureEvents, caseOf, caseYaml, shiftFor } from '../../../../src/udm/rule/test-capture';
import { compareExpectation, runCase } from '../../../../src/udm/rule/test-case';
import { parseRuleTestFile } from '../../../../src/udm/rule/test-file';
import type { Detection } from '../../../../src/udm/rule/test-types';
import { DEMO_RULES_DIR } from '../../../support/yaral-corpus';
import { DEMO_RULES } from '../../../support/yaral-oracle';

const ANCHOR = Date.UTC(2026, 10, 11, 14, 37);
const WEEK = 7 * 86_400_000;

function ruleText(rule: string): string {
  const text = readFileSync(join(DEMO_RULES_DIR, `${rule}.yaral`), 'utf8');
  const r = parseRuleFile(text).rules[0];
  return text.slice(r.start, r.end);
}

function detections(run: ReturnType<typeof runCase>): Detection[] {
  assert.ok('detections' in run, JSON.stringify(run));
  return run.detections;
}

describe('saving events as a rule test case', function () {
  // Each case runs the engine three times over 8,000 demo events: slow on a busy 2-core machine.
  this.timeout(180_000);
  const demo = generateDemo(ANCHOR, 8_000);
  const lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines.filter((x) => !x.startsWith('//'))]));
  const events = demo.events.map((e) => ({ udm: e.udm }));

  for (const rule of DEMO_RULES)
    it(`${rule}: redacted, time-shifted events give the original detections, names and times mapped`, () => {
      const text = ruleText(rule);
      const original = detections(runCase({ ruleText: text, events, lists }));
      const captured = captureEvents({ ruleText: text, events, lists });
      assert.ok(captured.shift % WEEK === 0 && captured.shift < 0);
      const saved = detections(runCase({ ruleText: text, events: captured.events, lists }));
      assert.equal(saved.length, original.length);
      const mapped = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(mapped);
        if (typeof v !== 'string') return v;
        for (const kind of ['host', 'user', 'email', 'ip'])
          if (captured.replacements.has(`${kind} ${v.toLowerCase()}`))
            return captured.replacements.get(`${kind} ${v.toLowerCase()}`);
        return v;
      };
      original.forEach((d, i) => {
        const s = saved[i];
        assert.equal(s.windowStart, d.windowStart + captured.shift);
        assert.equal(s.windowEnd, d.windowEnd + captured.shift);
        assert.equal(s.riskScore, d.riskScore);
        assert.deepEqual(
          s.match,
          mapped(
            d.match === undefined ? {} : Object.fromEntries(Object.entries(d.match).map(([k, v]) => [k, mapped(v)])),
          ),
        );
        for (const [k, v] of Object.entries(d.outcomes)) {
          if (typeof v === 'number' && k === 'first_lookup') assert.equal(s.outcomes[k], v + captured.shift / 1000);
          else assert.deepEqual(s.outcomes[k], mapped(v), `${rule} outcome ${k}`);
        }
        assert.deepEqual(
          Object.fromEntries(Object.entries(s.events).map(([k, list]) => [k, list.map((e) => e.id)])),
          Object.fromEntries(Object.entries(d.events).map(([k, list]) => [k, list.map((e) => e.id)])),
        );
      });
      // No host name, user or address of the original survives unless the rule or a list names it.
      const stored = JSON.stringify(captured.events);
      for (const key of captured.replacements.keys()) {
        const value = key.slice(key.indexOf(' ') + 1);
        assert.ok(!stored.toLowerCase().includes(`"${value}"`), `${value} is still in the saved events`);
      }
    });

  it('moves the earliest event into the base week, keeping the time of day and the weekday', () => {
    const t = Date.UTC(2026, 10, 11, 14, 37, 5);
    const shift = shiftFor([t, t + 3_600_000]);
    const moved = new Date(t + shift);
    assert.ok(t + shift >= BASE_WEEK && t + shift < BASE_WEEK + WEEK);
    assert.equal(moved.getUTCDay(), new Date(t).getUTCDay());
    assert.equal(moved.toISOString().slice(11), new Date(t).toISOString().slice(11));
  });

  it('writes a case that parses under cases: and passes', () => {
    const text = ruleText('c2_connection');
    const source = events.filter((e) => JSON.stringify(e).includes('198.51.100.23')).slice(0, 40);
    const captured = captureEvents({ ruleText: text, events: source });
    const found = detections(runCase({ ruleText: text, events: captured.events, lists: {} }));
    assert.ok(found.length > 0);
    const file = `cases:\n${caseYaml(caseOf('saved from a hunt', captured.events, found))}`;
    const parsed = parseRuleTestFile(file);
    assert.deepEqual(parsed.problems, []);
    const c = parsed.file?.cases[0];
    assert.ok(c && 'inline' in c.events);
    const again = detections(runCase({ ruleText: text, events: c.events.inline, lists: {} }));
    assert.deepEqual(compareExpectation(c.expect, again), []);
    assert.equal((parse(file) as { cases: unknown[] }).cases.length, 1);
  });
});
