// A case saved from a hunt, its names redacted and its times moved to the base week, still gives
// through the built CLI the detections the original events give: what `cloudbench test-rule`
// answers over the original events, mapped through the case's replacements and moved by its shift,
// is what `cloudbench test` expects of the saved case, and the case passes.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo } from '../../src/emulator/events-data/demo';
import { captureEvents, type Captured } from '../../src/udm/rule/test-capture';
import type { Detection } from '../../src/udm/rule/test-types';
import { DEMO_RULES_DIR } from '../support/yaral-corpus';
import { cliPath, removeWorkspaces, runCli, workspace } from './cli-support';

const ANCHOR = Date.UTC(2026, 10, 11, 14, 37);
// The demo rules that detect something over these events (the others have nothing to carry over).
const RULES = ['suspicious_domain_lookups', 'ioc_lookup_then_web_request', 'c2_connection'];
const LIST_EXTENSION: Record<string, string> = { CIDR: '.cidr', REGEX: '.regex' };

/** A value of the original detections as the saved case has it: names replaced, epoch seconds moved. */
function mapValue(v: unknown, captured: Captured): unknown {
  if (Array.isArray(v)) return v.map((x) => mapValue(x, captured));
  // Epoch seconds (a timestamp outcome) move with the events.
  if (typeof v === 'number' && v > 1e9 && v < 1e11) return v + captured.shift / 1000;
  if (typeof v !== 'string') return v;
  for (const kind of ['host', 'user', 'email', 'ip']) {
    const replaced = captured.replacements.get(`${kind} ${v.toLowerCase()}`);
    if (replaced !== undefined) return replaced;
  }
  return v;
}

function mapRecord(r: Record<string, unknown>, captured: Captured): Record<string, unknown> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, mapValue(v, captured)]));
}

describe('cloudbench test: a redacted, time-shifted case gives the original detections (the built CLI)', function () {
  this.timeout(300_000);
  let cli: string;
  let dir: string;
  const demo = generateDemo(ANCHOR, 8_000);
  const lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines.filter((x) => !x.startsWith('//'))]));

  before(async () => {
    cli = await cliPath();
    const files: Record<string, string> = {};
    for (const [name, lines] of Object.entries(lists)) {
      const type = demo.lists.find((l) => l.name === name)?.contentType ?? '';
      files[`lists/${name}${LIST_EXTENSION[type] ?? '.txt'}`] = `${lines.join('\n')}\n`;
    }
    for (const rule of RULES)
      files[`rules/${rule}.yaral`] = readFileSync(join(DEMO_RULES_DIR, `${rule}.yaral`), 'utf8');
    dir = workspace(files);
    writeFileSync(join(dir, 'events.ndjson'), `${demo.events.map((e) => JSON.stringify({ udm: e.udm })).join('\n')}\n`);
    mkdirSync(join(dir, 'rules', 'saved'));
  });
  after(removeWorkspaces);

  for (const rule of RULES)
    it(`${rule}: the saved case expects the original detections, mapped, and passes`, () => {
      const original = runCli(
        cli,
        ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists'],
        dir,
      );
      assert.equal(original.code, 0, original.stderr);
      const detections = (JSON.parse(original.stdout) as { detections: Detection[] }).detections;
      assert.ok(detections.length > 0, `${rule} detects nothing over the demo events`);

      const ruleText = readFileSync(join(dir, 'rules', `${rule}.yaral`), 'utf8');
      const captured = captureEvents({ ruleText, events: demo.events.map((e) => ({ udm: e.udm })), lists });
      assert.ok(captured.shift < 0 && captured.replacements.size > 0);
      const saved = `${captured.events.map((e) => JSON.stringify(e)).join('\n')}\n`;
      writeFileSync(join(dir, 'rules', 'saved', `${rule}.ndjson`), saved);
      // Nothing the case replaced is left in what it keeps.
      for (const key of captured.replacements.keys())
        assert.ok(!saved.toLowerCase().includes(`"${key.slice(key.indexOf(' ') + 1)}"`), `${key} kept`);

      const iso = (ms: number): string => new Date(ms + captured.shift).toISOString();
      const expected = detections.map((d) => ({
        ...(Object.keys(d.match).length ? { match: mapRecord(d.match, captured) } : {}),
        ...(Object.keys(d.outcomes).length ? { outcomes: mapRecord(d.outcomes, captured) } : {}),
        ...(d.riskScore !== undefined ? { riskScore: d.riskScore } : {}),
        events: Object.fromEntries(Object.entries(d.events).map(([v, list]) => [v, list.map((e) => String(e.id))])),
        // A rule without a match window gives a detection per event, its window an instant.
        ...(d.windowEnd > d.windowStart ? { window: { start: iso(d.windowStart), end: iso(d.windowEnd) } } : {}),
      }));
      // YAML holds JSON as it is.
      const testFile = {
        lists,
        cases: [{ name: 'saved from a hunt', events: `saved/${rule}.ndjson`, expect: { detections: expected } }],
      };
      writeFileSync(join(dir, 'rules', `${rule}.test.yaml`), JSON.stringify(testFile, null, 1));

      const run = runCli(cli, ['test', '--format', 'json', `rules/${rule}.yaral`], dir);
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      const report = JSON.parse(run.stdout) as { passed: number; failed: number; errors: number };
      assert.deepEqual([report.passed, report.failed, report.errors], [1, 0, 0]);
    });
});
