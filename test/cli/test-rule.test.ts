// `cloudbench test-rule` run as a process over the sandbox's demo events exported as NDJSON: the
// detections of every demo rule equal what the editor's Test Rule computes from the same events
// (each planned search's answer, then the engine) and what the independent oracle expects; rules
// with errors, notes, broken and missing events files.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateDemo, type DemoData } from '../../src/emulator/events-data/demo';
import { compileQuery } from '../../src/udm';
import { runRuleTest } from '../../src/udm/rule/engine';
import { parseRuleFile } from '../../src/udm/rule/parse';
import { planRuleTest } from '../../src/udm/rule/plan';
import type { Detection } from '../../src/udm/rule/test-types';
import { CORPUS_DIR, DEMO_RULES_DIR } from '../support/yaral-corpus';
import { DEMO_RULES, expectedDetections, QUIET_RULE, type ExpectedDetection } from '../support/yaral-oracle';
import { cliPath, positionOf, removeWorkspaces, runCli, workspace } from './cli-support';
import { detectionAsOracle } from '../support/yaral-detections';

const ANCHOR = Date.UTC(2026, 10, 1, 9, 0);
const EDITOR_MAX_DETECTIONS = 10_000;
const LIST_EXTENSION: Record<string, string> = { CIDR: '.cidr', REGEX: '.regex' };

const ruleFile = (rule: string): string => join(DEMO_RULES_DIR, `${rule}.yaral`);

/**
 * What the editor's Test Rule computes for a rule file: the rule's own text planned, each search's
 * answer (the sandbox's udmSearch filter over the events, with the instance's lists), the engine
 * over those answers with the lists the rule names.
 */
function editorResult(
  text: string,
  events: ReadonlyArray<{ udm: unknown }>,
  lists: Record<string, string[]>,
): { detections: Detection[]; notes: string[]; untestable: string[] } {
  const rule = parseRuleFile(text).rules[0];
  const ruleText = text.slice(rule.start, rule.end);
  const plan = planRuleTest(ruleText);
  assert.ok(!('error' in plan), JSON.stringify(plan));
  const answers = new Map<string, unknown[]>();
  for (const s of plan.searches) {
    // Without lists a list is empty to the search, as it is to the engine.
    const q = compileQuery(s.query, Object.keys(lists).length ? { referenceLists: lists } : {});
    assert.equal(q.hasErrors, false, s.query);
    answers.set(
      s.variable,
      events.filter((e) => q.matches(e.udm)),
    );
  }
  const used: Record<string, string[]> = {};
  for (const t of parseRuleFile(ruleText).tokens)
    if (t.kind === 'reflist' && t.value && Object.hasOwn(lists, t.value)) used[t.value] = lists[t.value];
  const result = runRuleTest(ruleText, answers, { referenceLists: used, maxDetections: EDITOR_MAX_DETECTIONS });
  return { detections: result.detections, notes: result.notes, untestable: plan.untestable };
}

function byWindow(xs: ExpectedDetection[]): ExpectedDetection[] {
  return [...xs].sort(
    (a, b) => a.windowStart - b.windowStart || JSON.stringify(a.match).localeCompare(JSON.stringify(b.match)),
  );
}

describe('cloudbench test-rule (the built CLI)', function () {
  this.timeout(180_000);
  let cli: string;
  let demo: DemoData;
  let lists: Record<string, string[]>;
  let dir: string;

  before(async () => {
    cli = await cliPath();
    demo = generateDemo(ANCHOR);
    lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines]));
    const files: Record<string, string> = {};
    // The lists as the Reference Lists view saves them: one file per list, its type in the extension.
    for (const l of demo.lists)
      files[`lists/${l.name}${LIST_EXTENSION[l.contentType] ?? '.txt'}`] = `${l.lines.join('\n')}\n`;
    for (const rule of DEMO_RULES) files[`rules/${rule}.yaral`] = readFileSync(ruleFile(rule), 'utf8');
    dir = workspace(files);
    // The results view's NDJSON export: one `{ name, udm }` per line.
    writeFileSync(
      join(dir, 'events.ndjson'),
      `${demo.events.map((e) => JSON.stringify({ name: e.name, udm: e.udm })).join('\n')}\n`,
    );
  });
  after(removeWorkspaces);

  for (const rule of DEMO_RULES)
    it(`${rule}: the editor's detections and the oracle's, from the exported events`, () => {
      const r = runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists'], dir);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { rule: string; detections: Detection[] };
      assert.equal(out.rule, rule);
      const editor = editorResult(readFileSync(ruleFile(rule), 'utf8'), demo.events, lists);
      // The demo rules are tested whole: the only note names the window model the test computed.
      assert.ok(editor.notes.length <= 1 && editor.notes.every((n) => / windows of /.test(n)), editor.notes.join('\n'));
      assert.equal(r.stderr, editor.notes.map((n) => `note: ${n}\n`).join(''));
      assert.deepEqual(out.detections, JSON.parse(JSON.stringify(editor.detections)));
      const expected = expectedDetections(rule, { events: demo.events, lists: demo.lists });
      for (const e of expected)
        for (const [k, v] of Object.entries(e.outcomes)) if (Array.isArray(v)) e.outcomes[k] = [...v].sort();
      assert.deepEqual(byWindow(out.detections.map((d) => detectionAsOracle(rule, d))), byWindow(expected));
      if (rule === QUIET_RULE) assert.equal(out.detections.length, 0);
      else assert.ok(out.detections.length > 0, 'the demo rule fires');
    });

  it('--format text: a line per detection with its window, match values, risk score and events', () => {
    const rule = 'repeated_failed_logins';
    const json = JSON.parse(
      runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists'], dir).stdout,
    ) as { detections: Detection[] };
    const r = runCli(
      cli,
      ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists', '--format', 'text'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines[0], `${rule}: ${json.detections.length} detections`);
    assert.match(lines[1], /^#\s+window start\s+window end \(exclusive\)\s+match\s+risk\s+events$/);
    assert.equal(lines.length, json.detections.length + 2);
    json.detections.forEach((d, i) => {
      const cells = lines[i + 2].split(/\s{2,}/);
      assert.deepEqual(cells, [
        String(i + 1),
        new Date(d.windowStart).toISOString(),
        new Date(d.windowEnd).toISOString(),
        `$user=${String(d.match.user)}`,
        String(d.riskScore),
        `$e:${d.events.e.length}`,
      ]);
    });
  });

  it('--start/--end test the rule over the events of that range only, as the editor does over its range', () => {
    const rule = 'repeated_failed_logins';
    const times = demo.events.map((e) => Date.parse((e.udm.metadata as { eventTimestamp: string }).eventTimestamp));
    const first = Math.min(...times);
    const last = Math.max(...times);
    // The older half of the events' span, on whole seconds as the range boxes give it.
    const startMs = Math.floor(first / 1000) * 1000;
    const endMs = Math.floor((first + (last - first) / 2) / 1000) * 1000;
    const inRange = demo.events.filter((_, i) => times[i] >= startMs && times[i] < endMs);
    assert.ok(inRange.length > 0 && inRange.length < demo.events.length, 'the range holds some of the events');
    const args = ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists'];
    const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
    const r = runCli(cli, [...args, '--start', iso(startMs), '--end', iso(endMs)], dir);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { detections: Detection[] };
    const editor = editorResult(readFileSync(ruleFile(rule), 'utf8'), inRange, lists);
    assert.deepEqual(out.detections, JSON.parse(JSON.stringify(editor.detections)));
    const whole = JSON.parse(runCli(cli, args, dir).stdout) as { detections: Detection[] };
    assert.ok(out.detections.length < whole.detections.length, 'the range leaves detections out');

    const backwards = runCli(cli, [...args, '--start', iso(endMs), '--end', iso(startMs)], dir);
    assert.equal(backwards.code, 2);
    assert.match(backwards.stderr, /--start must be before --end/);
    const wrong = runCli(cli, [...args, '--start', 'yesterday'], dir);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /--start: "yesterday" is not a time\. Use RFC 3339/);
  });

  it('reads a JSON array of bare UDM events as it reads NDJSON', () => {
    const rule = 'repeated_failed_logins';
    const logins = demo.events.filter((e) => (e.udm.metadata as { eventType?: string }).eventType === 'USER_LOGIN');
    writeFileSync(join(dir, 'logins.json'), JSON.stringify(logins.map((e) => e.udm)));
    const r = runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', 'logins.json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const editor = editorResult(readFileSync(ruleFile(rule), 'utf8'), logins, {});
    const detections = (JSON.parse(r.stdout) as { detections: Detection[] }).detections;
    assert.ok(detections.length > 0);
    assert.deepEqual(detections, JSON.parse(JSON.stringify(editor.detections)));
  });

  it('reads the Search API\'s own answer {"events": [...], "moreDataAvailable": …} as it reads NDJSON', () => {
    const rule = 'repeated_failed_logins';
    const logins = demo.events.filter((e) => (e.udm.metadata as { eventType?: string }).eventType === 'USER_LOGIN');
    // The udmSearch answer's shape (api-facts: `{events:[{name, udm}], moreDataAvailable}`).
    const answer = { events: logins.map((e) => ({ name: e.name, udm: e.udm })), moreDataAvailable: true };
    writeFileSync(join(dir, 'answer.json'), JSON.stringify(answer, null, 2));
    writeFileSync(join(dir, 'answer-bare.json'), JSON.stringify({ events: answer.events }));
    const editor = editorResult(readFileSync(ruleFile(rule), 'utf8'), logins, {});
    assert.ok(editor.detections.length > 0);
    for (const file of ['answer.json', 'answer-bare.json']) {
      const r = runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', file], dir);
      assert.equal(r.code, 0, r.stderr);
      const detections = (JSON.parse(r.stdout) as { detections: Detection[] }).detections;
      assert.deepEqual(detections, JSON.parse(JSON.stringify(editor.detections)));
    }
    writeFileSync(join(dir, 'answer-bad.json'), JSON.stringify({ events: [{ udm: 'nope' }] }));
    const bad = runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', 'answer-bad.json'], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^answer-bad\.json: events\[0\] has a "udm" that is not an object/);
  });

  it('--time-limit takes a positive number of seconds; anything else is a usage error', () => {
    const rule = 'repeated_failed_logins';
    for (const bad of ['0', '-1', 'abc', '1e3', '90000']) {
      const r = runCli(
        cli,
        ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--time-limit', bad],
        dir,
      );
      assert.equal(r.code, 2, `${bad}: ${r.stderr}`);
      assert.match(r.stderr, /--time-limit needs a number of seconds/);
    }
    const ok = runCli(
      cli,
      ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson', '--lists', 'lists', '--time-limit', '30'],
      dir,
    );
    assert.equal(ok.code, 0, ok.stderr);
    assert.ok(!('cut' in JSON.parse(ok.stdout)), 'a run that ends in time is not cut');
  });

  it('refuses a rule naming reference lists --lists does not give (exit 2), rather than testing it without them', () => {
    const rule = 'suspicious_domain_lookups';
    const r = runCli(cli, ['test-rule', `rules/${rule}.yaral`, '--events', 'events.ndjson'], dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /uses the reference list %suspicious_domains, which no --lists folder gives/);
    // With a --lists folder that lacks the list, the same refusal names what it lacks.
    const other = workspace({ 'lists/admins.txt': 'alice\n' });
    const missing = runCli(
      cli,
      ['test-rule', join(dir, `rules/${rule}.yaral`), '--events', join(dir, 'events.ndjson'), '--lists', 'lists'],
      other,
    );
    assert.notEqual(missing.code, 0, missing.stderr);
    assert.match(missing.stderr, /%suspicious_domains/);
  });

  it('names what it cannot test (an entity graph variable) on stderr and still computes the rest', () => {
    const text = readFileSync(join(CORPUS_DIR, 'entity_graph_asset.yaral'), 'utf8');
    const rules = workspace({ 'graph.yaral': text });
    writeFileSync(
      join(rules, 'events.ndjson'),
      demo.events
        .slice(0, 2000)
        .map((e) => JSON.stringify(e.udm))
        .join('\n'),
    );
    const r = runCli(cli, ['test-rule', 'graph.yaral', '--events', 'events.ndjson'], rules);
    assert.equal(r.code, 0, r.stderr);
    const editor = editorResult(text, demo.events.slice(0, 2000), {});
    assert.ok(editor.untestable.length > 0);
    for (const u of editor.untestable) assert.ok(r.stderr.includes(`note: ${u}\n`), r.stderr);
    assert.match(r.stderr, /graph/);
    assert.deepEqual(JSON.parse(r.stdout).detections, JSON.parse(JSON.stringify(editor.detections)));
  });

  it('exits 1 and prints the errors as check does when the rule has errors; nothing on stdout', () => {
    const broken = readFileSync(ruleFile('repeated_failed_logins'), 'utf8').replace(
      '$e.target.user.userid',
      '$e.target.user.useridd',
    );
    const rules = workspace({ 'broken.yaral': broken, 'events.ndjson': `${JSON.stringify(demo.events[0])}\n` });
    const r = runCli(cli, ['test-rule', 'broken.yaral', '--events', 'events.ndjson'], rules);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    const at = positionOf(broken, 'useridd');
    assert.match(
      r.stderr,
      new RegExp(`^broken\\.yaral:${at.line}:${at.column}: error: .*\\[yaral/unknown-field\\]$`, 'm'),
    );
    assert.match(r.stderr, /The rule has errors, so it is not tested\.\n$/);
  });

  it('a missing events file is a usage error naming it; a broken one names the line', () => {
    const rule = `rules/${DEMO_RULES[0]}.yaral`;
    const missing = runCli(cli, ['test-rule', rule, '--events', 'nowhere.ndjson'], dir);
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /^test-rule: --events nowhere\.ndjson: no such file\n/);
    writeFileSync(join(dir, 'broken.ndjson'), `${JSON.stringify(demo.events[0])}\n{"udm": \n`);
    const broken = runCli(cli, ['test-rule', rule, '--events', 'broken.ndjson'], dir);
    assert.equal(broken.code, 1);
    assert.equal(broken.stdout, '');
    assert.match(broken.stderr, /^broken\.ndjson:2: not a JSON value/);
  });

  it('exits 1 when the lists of --lists have errors, and when the rule has nothing the Search API can return', () => {
    const rule = readFileSync(ruleFile('suspicious_domain_lookups'), 'utf8');
    const graphOnly = [
      'rule only_entities {',
      '  meta:',
      '    author = "Cloudbench"',
      '  events:',
      '    $g.graph.metadata.entity_type = "ASSET"',
      '    $g.graph.metadata.source_type = "ENTITY_CONTEXT"',
      '  condition:',
      '    $g',
      '}',
      '',
    ].join('\n');
    const rules = workspace({
      'r.yaral': rule,
      'g.yaral': graphOnly,
      'lists/suspicious_domains.txt': 'a.test\n',
      'bad/suspicious_domains.txt': 'a.test\n',
      'bad/corp.cidr': '10.0.0.0/33\n',
      'events.ndjson': `${JSON.stringify(demo.events[0])}\n`,
    });
    const bad = runCli(cli, ['test-rule', 'r.yaral', '--events', 'events.ndjson', '--lists', 'bad'], rules);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^bad\/corp\.cidr:1:\d+: error: .*prefix length "33"/m);
    assert.match(bad.stderr, /The reference lists of --lists have errors, so the rule is not tested\.\n$/);
    const ok = runCli(cli, ['test-rule', 'r.yaral', '--events', 'events.ndjson', '--lists', 'lists'], rules);
    assert.equal(ok.code, 0, ok.stderr);

    const graph = runCli(cli, ['test-rule', 'g.yaral', '--events', 'events.ndjson'], rules);
    assert.equal(graph.code, 1, graph.stdout + graph.stderr);
    assert.equal(graph.stdout, '');
    const plan = planRuleTest(graphOnly);
    const why = 'error' in plan ? plan.error : plan.untestable.join(' ');
    assert.ok(why.length > 0);
    assert.ok(graph.stderr.includes(why), graph.stderr);
    assert.match(graph.stderr, /^only_entities (cannot be tested|has no event variable)/);
  });
});
