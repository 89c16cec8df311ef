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
        assert.ok(timeOf(id) >= d.windowStart && timeOf(id) < d.windowEnd, 'inside [start, end)');
      }
    }
    for (const d of expectedDetections('ioc_lookup_then_web_request', demo)) {
      // The window opens at a DNS look-up (the pivot) and the web request falls within it.
      assert.equal(timeOf(d.events.$dns[0]), d.windowStart);
      assert.equal(d.windowEnd - d.windowStart, 2 * HOUR);
      assert.ok(d.events.$http.every((id) => timeOf(id) >= d.windowStart && timeOf(id) < d.windowEnd));
      assert.ok([50, 80].includes(d.outcomes.$risk_score as number));
      assert.ok((d.outcomes.$domains as string[]).every((x) => x.endsWith('.test')));
    }
    const c2 = expectedDetections('c2_connection', demo);
    assert.ok(c2.every((d) => d.events.$e.length === 1 && d.windowStart === d.windowEnd));
    // Windows holding the same events give one detection.
    for (const rule of DEMO_RULES) {
      const seen = new Set<string>();
      for (const d of expectedDetections(rule, demo)) {
        const key = JSON.stringify([d.match, d.events]);
        assert.ok(!seen.has(key), `${rule}: two detections of ${key}`);
        seen.add(key);
      }
    }
  });

  it('limits detections to the events of a time range', () => {
    const demo = demos.get(anchors[0])!;
    const range = { start: anchors[0] - 2 * 24 * HOUR, end: anchors[0] };
    const limited = expectedDetections('suspicious_domain_lookups', demo, range);
    const full = expectedDetections('suspicious_domain_lookups', demo);
    assert.ok(limited.length > 0 && limited.length < full.length, `${limited.length} of ${full.length}`);
    // A window may open before the range (the hop places it), but holds only events of the range.
    const inRange = new Set(
      demo.events
        .filter((e) => {
          const t = Date.parse((e.udm.metadata as { eventTimestamp: string }).eventTimestamp);
          return t >= range.start && t < range.end;
        })
        .map((e) => (e.udm.metadata as { id: string }).id),
    );
    assert.ok(limited.every((d) => d.events.$e.every((id) => inRange.has(id))));
    assert.ok(limited.every((d) => d.windowEnd > range.start));
  });

  it('hop windows: a burst’s peak shows, events serve several windows, the end is exclusive', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const lists = [{ name: 'suspicious_domains', lines: [], contentType: 'CONTENT_TYPE_DEFAULT_STRING' }];
    const four: OracleData = { events: [0, 1, 2, 3].map((i) => blockedLogin(`a${i}`, t0 + i * HOUR, 'u')), lists };
    assert.equal(expectedDetections('repeated_failed_logins', four).length, 0);

    // The documented burst: 2 blocked sign-ins, then 9 more within 20 hours, `over 24h`, `#e >= 5`:
    // one 24-hour window holds all 9, so some detection counts 9 and its risk is computed from 9.
    const hours = [0, 3, 20, 22.5, 25, 27.5, 30, 32.5, 35, 37.5, 40];
    const burst: OracleData = {
      events: hours.map((h, i) => blockedLogin(`b${i}`, t0 + h * HOUR + 7 * 60_000, 'u')),
      lists,
    };
    const d = expectedDetections('repeated_failed_logins', burst);
    const peak = d.find((x) => x.events.$e.length === 9);
    assert.ok(peak, JSON.stringify(d.map((x) => x.events.$e.length)));
    assert.deepEqual(peak.events.$e, ['b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9', 'b10']);
    assert.equal(peak.outcomes.$failures, 9);
    assert.equal(peak.outcomes.$risk_score, 90);
    assert.ok(Math.max(...d.map((x) => x.events.$e.length)) === 9, 'no 24-hour window holds more');
    // Overlapping windows: the sign-in at hour 20 is in several detections.
    assert.ok(d.filter((x) => x.events.$e.includes('b2')).length > 1);
    for (const x of d) {
      assert.equal(x.windowEnd - x.windowStart, 24 * HOUR);
      assert.equal(x.windowStart % HOUR, 0, 'windows start on the hour (a 1-hour hop)');
    }
    assert.deepEqual(d[0].match, { $user: 'u' });

    // Five sign-ins, the fifth exactly 24 h after the first: no window [start, start + 24 h) holds all five.
    const edge: OracleData = {
      events: [0, 6, 12, 18, 24].map((h, i) => blockedLogin(`e${i}`, t0 + h * HOUR, 'u')),
      lists,
    };
    assert.equal(expectedDetections('repeated_failed_logins', edge).length, 0);
    const inside: OracleData = {
      events: [0, 6, 12, 18, 23.99].map((h, i) => blockedLogin(`f${i}`, t0 + h * HOUR, 'u')),
      lists,
    };
    assert.equal(expectedDetections('repeated_failed_logins', inside).length, 1);

    // A user id that is empty is a zero value of the match placeholder: no detection.
    const empty: OracleData = { events: [0, 1, 2, 3, 4].map((i) => blockedLogin(`c${i}`, t0 + i, '')), lists };
    assert.equal(expectedDetections('repeated_failed_logins', empty).length, 0);
  });
});
