import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo, type DemoData } from '../../../src/emulator/events-data/demo';
import {
  allExpectedDetections,
  DEMO_RULES,
  expectedDetections,
  QUIET_RULE,
  type ExpectedDetection,
  type OracleData,
} from '../../support/yaral-oracle';

const RULES_DIR = join(__dirname, '..', '..', 'e2e', 'fixtures', 'workspace', 'rules');
const HOUR = 3_600_000;

/** Events stamped at `t` (ms) with the given fields, in the JSON form udmSearch returns. */
function event(id: string, t: number, udm: Record<string, unknown>): { udm: Record<string, unknown> } {
  const metadata = { ...(udm.metadata as Record<string, unknown>), id, eventTimestamp: new Date(t).toISOString() };
  return { udm: { ...udm, metadata } };
}

function blockedLogin(id: string, t: number, userid: string): { udm: Record<string, unknown> } {
  return event(id, t, {
    metadata: { eventType: 'USER_LOGIN' },
    principal: { hostname: 'lt-x-01' },
    target: { user: { userid } },
    securityResult: [{ action: ['BLOCK'] }],
  });
}

function checkShape(d: ExpectedDetection): void {
  assert.ok(d.windowStart <= d.windowEnd, `${d.rule}: window`);
  const ids = Object.values(d.events).flat();
  assert.ok(ids.length > 0, `${d.rule}: a detection has events behind it`);
  assert.equal(new Set(ids).size, ids.length, `${d.rule}: an event counted twice`);
}

describe('YARA-L demo rules: the independent oracle', function () {
  this.timeout(60_000);
  // The sandbox anchors its demo data at its start time; two anchors a few hours apart give
  // different events (night-time thinning depends on the hour), so the rules must fire on both.
  const anchors = [Date.UTC(2026, 10, 1, 9, 0), Date.UTC(2026, 10, 2, 20, 35)];
  const demos = new Map<number, DemoData>();
  before(() => {
    for (const a of anchors) demos.set(a, generateDemo(a));
  });

  it('has a rule file in the demo workspace for every rule it computes, and no other', () => {
    const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.yaral'));
    const names = files.map((f) => {
      const m = /^rule\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{/m.exec(readFileSync(join(RULES_DIR, f), 'utf8'));
      assert.ok(m, `${f} has no rule header`);
      assert.equal(`${m[1]}.yaral`, f, 'the file is named after its rule');
      return m[1];
    });
    assert.deepEqual([...names].sort(), [...DEMO_RULES].sort());
  });

  it('finds detections for every producing rule and none for the quiet one, on the demo events', () => {
    for (const [anchor, demo] of demos) {
      const all = allExpectedDetections(demo);
      for (const rule of DEMO_RULES) {
        const n = all[rule].length;
        if (rule === QUIET_RULE) assert.equal(n, 0, `${rule} at ${new Date(anchor).toISOString()}`);
        else assert.ok(n >= 1, `${rule} at ${new Date(anchor).toISOString()}: no detection`);
        all[rule].forEach(checkShape);
      }
    }
  });

  it('keeps each rule’s events, windows and outcomes consistent with the rule', () => {
    const demo = demos.get(anchors[0])!;
    const byId = new Map(demo.events.map((e) => [(e.udm.metadata as { id: string }).id, e]));
    const timeOf = (id: string): number =>
      Date.parse((byId.get(id)!.udm.metadata as { eventTimestamp: string }).eventTimestamp);

    for (const d of expectedDetections('repeated_failed_logins', demo)) {
      assert.ok(d.events.$e.length >= 5);
      assert.equal(d.outcomes.$failures, d.events.$e.length);
      assert.equal(d.outcomes.$risk_score, 10 * d.events.$e.length);
      assert.equal(d.windowEnd - d.windowStart, 24 * HOUR);
      for (const id of d.events.$e) {
        const u = byId.get(id)!.udm as { target: { user: { userid: string } } };
        assert.equal(u.target.user.userid, d.match.$user);
        assert.ok(timeOf(id) >= d.windowStart && timeOf(id) <= d.windowEnd);
      }
    }
    for (const d of expectedDetections('ioc_lookup_then_web_request', demo)) {
      // The window opens at a DNS look-up (the pivot) and the web request falls within it.
      assert.equal(timeOf(d.events.$dns[0]), d.windowStart);
      assert.ok(d.events.$http.every((id) => timeOf(id) >= d.windowStart && timeOf(id) <= d.windowEnd));
      assert.ok([50, 80].includes(d.outcomes.$risk_score as number));
      assert.ok((d.outcomes.$domains as string[]).every((x) => x.endsWith('.test')));
    }
    const c2 = expectedDetections('c2_connection', demo);
    assert.ok(c2.every((d) => d.events.$e.length === 1 && d.windowStart === d.windowEnd));
    // Detections of one group never share events.
    for (const rule of DEMO_RULES) {
      const seen = new Map<string, Set<string>>();
      for (const d of expectedDetections(rule, demo)) {
        const key = JSON.stringify(d.match);
        const ids = seen.get(key) ?? new Set<string>();
        for (const id of Object.values(d.events).flat()) {
          assert.ok(!ids.has(id), `${rule}: ${id} in two detections of ${key}`);
          ids.add(id);
        }
        seen.set(key, ids);
      }
    }
  });

  it('limits detections to the events of a time range', () => {
    const demo = demos.get(anchors[0])!;
    const range = { start: anchors[0] - 2 * 24 * HOUR, end: anchors[0] };
    const limited = expectedDetections('suspicious_domain_lookups', demo, range);
    const full = expectedDetections('suspicious_domain_lookups', demo);
    assert.ok(limited.length > 0 && limited.length < full.length, `${limited.length} of ${full.length}`);
    assert.ok(limited.every((d) => d.windowStart >= range.start));
  });

  it('applies the window model: threshold, inclusive window end, next window after the end', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const lists = [{ name: 'suspicious_domains', lines: [], contentType: 'CONTENT_TYPE_DEFAULT_STRING' }];
    const four: OracleData = { events: [0, 1, 2, 3].map((i) => blockedLogin(`a${i}`, t0 + i * HOUR, 'u')), lists };
    assert.equal(expectedDetections('repeated_failed_logins', four).length, 0);

    // Five within 24 h (the fifth exactly at the end), then five more: two detections, one per window.
    const ten: OracleData = {
      events: [0, 6, 12, 18, 24, 30, 31, 32, 33, 34].map((h, i) => blockedLogin(`b${i}`, t0 + h * HOUR, 'u')),
      lists,
    };
    const d = expectedDetections('repeated_failed_logins', ten);
    assert.deepEqual(
      d.map((x) => x.events.$e),
      [
        ['b0', 'b1', 'b2', 'b3', 'b4'],
        ['b5', 'b6', 'b7', 'b8', 'b9'],
      ],
    );
    assert.deepEqual(d[0].match, { $user: 'u' });

    // A user id that is empty is a zero value of the match placeholder: no detection.
    const empty: OracleData = { events: [0, 1, 2, 3, 4].map((i) => blockedLogin(`c${i}`, t0 + i, '')), lists };
    assert.equal(expectedDetections('repeated_failed_logins', empty).length, 0);
  });
});
