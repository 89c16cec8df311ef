// `cloudbench test` run as a process: the demo rules' test files pass, JUnit and SARIF read back
// with real parsers, a broken rule change fails its case with the difference, the options that
// fail a run, and hostile test files (paths out of the repository, links, huge files, names that
// forge workflow commands or XML).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DEMO_RULES_DIR } from '../support/yaral-corpus';
import { assertValidSarif, cliPath, removeWorkspaces, runCli, workspace, type CliResult } from './cli-support';

// xml2js (a strict, well-used XML parser) reads the JUnit report back.
const xml2js = createRequire(__filename)('xml2js') as {
  parseStringPromise(text: string, options?: Record<string, unknown>): Promise<unknown>;
};

interface JunitCase {
  $: { classname: string; name: string; file: string; line: string };
  failure?: Array<{ _: string; $: { message: string; type: string } }>;
  error?: Array<{ _: string; $: { message: string } }>;
}
interface JunitSuite {
  $: { name: string; tests: string; failures: string; errors: string; file: string };
  testcase?: JunitCase[];
}
interface Junit {
  testsuites: { $: { tests: string; failures: string; errors: string }; testsuite?: JunitSuite[] };
}

async function junit(text: string): Promise<Junit> {
  return (await xml2js.parseStringPromise(text, { strict: true })) as Junit;
}

const C2_RULE = readFileSync(join(DEMO_RULES_DIR, 'c2_connection.yaral'), 'utf8');
const SECRET = 'hunter2-never-in-output';

/** The demo workspace's rules folder with its test files and events. */
function demoFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const copy = (rel: string): void => {
    for (const e of readdirSync(join(DEMO_RULES_DIR, rel), { withFileTypes: true }))
      if (e.isDirectory()) copy(join(rel, e.name));
      else files[join('rules', rel, e.name)] = readFileSync(join(DEMO_RULES_DIR, rel, e.name), 'utf8');
  };
  copy('');
  return files;
}

function c2Test(name: string, extra = ''): string {
  return `cases:
  - name: ${JSON.stringify(name)}
    events:
      - udm:
          metadata: { id: "c2-1", eventTimestamp: "2026-11-01T09:00:00Z", eventType: NETWORK_CONNECTION }
          principal: { hostname: lt-ana-01 }
          target: { ip: ["198.51.100.23"], port: 4444 }
    expect: { detections: [{ riskScore: 90 }] }
${extra}`;
}

function assertNoWorkflowCommand(text: string): void {
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    assert.ok(!line.trim().startsWith('::'), `a line starts a workflow command: ${JSON.stringify(line)}`);
    assert.ok(!line.includes('##['), `a line holds an old-style workflow command: ${JSON.stringify(line)}`);
  }
}

describe('cloudbench test (the built CLI)', function () {
  this.timeout(180_000);
  let cli: string;
  const run = (args: string[], cwd: string): CliResult => runCli(cli, args, cwd);

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('passes every demo rule with the CI options, and the JUnit report reads back case by case', async () => {
    const dir = workspace(demoFiles());
    const r = run(
      ['test', '--format', 'junit', '--minimum-tests', '2', '--require-fire-and-no-fire', '--fail-on-missing', 'rules'],
      dir,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const doc = await junit(r.stdout);
    const suites = doc.testsuites.testsuite ?? [];
    const rules = readdirSync(DEMO_RULES_DIR).filter((f) => f.endsWith('.yaral'));
    assert.deepEqual(suites.map((s) => s.$.name).sort(), rules.map((f) => `rules/${f}`).sort());
    let cases = 0;
    for (const s of suites) {
      assert.equal(s.$.failures, '0');
      assert.equal(s.$.errors, '0');
      assert.ok((s.testcase ?? []).length >= 2, s.$.name);
      for (const c of s.testcase ?? []) {
        cases++;
        assert.equal(c.failure, undefined);
        assert.equal(c.$.file, s.$.file);
        // The line is where the case's name is written in the test file.
        const lines = readFileSync(join(dir, c.$.file), 'utf8').split('\n');
        assert.match(
          lines[Number(c.$.line) - 1],
          new RegExp(`name: ${c.$.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
        );
      }
    }
    assert.equal(doc.testsuites.$.tests, String(cases));
    assert.equal(doc.testsuites.$.failures, '0');
  });

  it('gives the same report in any time zone', () => {
    const dir = workspace(demoFiles());
    const outs = ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC'].map((tz) => {
      const r = spawnSync(cli, ['test', '--format', 'json', 'rules'], {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: dir, TZ: tz },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    });
    assert.equal(outs[1], outs[0]);
    assert.equal(outs[2], outs[0]);
  });

  it('fails the case a broken rule change breaks, with the difference on the case line', async () => {
    const files = demoFiles();
    files['rules/c2_connection.yaral'] = C2_RULE.replace('90, 75', '70, 75');
    const dir = workspace(files);
    const text = run(['test', 'rules/c2_connection.yaral'], dir);
    assert.equal(text.code, 1);
    assert.match(
      text.stdout,
      /FAIL a connection to the C2 address on port 4444 scores 90 {2}\(rules\/c2_connection\.test\.yaml:3\)/,
    );
    assert.match(text.stdout, /detection 1 riskScore: expected 90, got 70/);
    assert.match(text.stdout, /4 cases in 1 rule: 3 passed, 1 failed\./);
    const doc = await junit(run(['test', '--format', 'junit', 'rules'], dir).stdout);
    const c2 = doc.testsuites.testsuite?.find((s) => s.$.name === 'rules/c2_connection.yaral');
    const failed = c2?.testcase?.filter((c) => c.failure) ?? [];
    assert.deepEqual(
      failed.map((c) => c.$.name),
      ['a connection to the C2 address on port 4444 scores 90'],
    );
    assert.match(failed[0].failure?.[0].$.message ?? '', /riskScore: expected 90, got 70/);
    assert.equal(doc.testsuites.$.failures, '1');

    // A rule that no longer parses: its cases cannot run, and the run fails.
    files['rules/c2_connection.yaral'] = C2_RULE.replace('condition:', 'condition');
    const broken = run(['test', '--format', 'json', 'rules/c2_connection.test.yaml'], workspace(files));
    assert.equal(broken.code, 1);
    const json = JSON.parse(broken.stdout);
    assert.equal(json.errors, 4);
    assert.equal(json.rules[0].problems[0].code, 'rule-errors');
  });

  it('fails --minimum-tests, --require-fire-and-no-fire and --fail-on-missing as they say', () => {
    const dir = workspace({
      'rules/c2.yaral': C2_RULE,
      'rules/c2.test.yaml': c2Test('fires'),
      'rules/untested.yaral': C2_RULE.replace('rule c2_connection', 'rule untested'),
    });
    assert.equal(run(['test', 'rules'], dir).code, 0);
    const min = run(['test', '--minimum-tests', '2', 'rules'], dir);
    assert.equal(min.code, 1);
    assert.match(min.stdout, /FAIL rules\/c2\.test\.yaml: 1 test case, fewer than --minimum-tests 2/);
    assert.equal(run(['test', '--minimum-tests', '1', 'rules/c2.yaral'], dir).code, 0);
    const both = run(['test', '--require-fire-and-no-fire', 'rules/c2.yaral'], dir);
    assert.equal(both.code, 1);
    assert.match(both.stdout, /no case one that expects none/);
    const quiet = run(['test', 'rules'], dir);
    assert.match(quiet.stdout, /note rules\/untested\.yaral: no test file: write untested\.test\.yaml beside the rule/);
    const missing = run(['test', '--fail-on-missing', '--format', 'json', 'rules'], dir);
    assert.equal(missing.code, 1);
    const json = JSON.parse(missing.stdout);
    assert.deepEqual(
      json.rules.map((r: { rule: string; problems: Array<{ code: string; fails: boolean }> }) => [
        r.rule,
        r.problems.map((p) => `${p.code}:${p.fails}`),
      ]),
      [
        ['rules/c2.yaral', []],
        ['rules/untested.yaral', ['missing:true']],
      ],
    );
  });

  it('refuses a bad command line and an empty folder with exit code 2', () => {
    const dir = workspace({ 'q/a.udm': 'metadata.event_type = "X"\n' });
    assert.equal(run(['test', 'q'], dir).code, 2);
    assert.equal(run(['test', '--minimum-tests', 'two', 'q'], dir).code, 2);
    assert.equal(run(['test', '--format', 'xml', 'q'], dir).code, 2);
    assert.equal(run(['test', 'nowhere'], dir).code, 2);
  });

  it('writes SARIF that the SARIF 2.1.0 schema accepts, a failure on the case line', () => {
    const dir = workspace({
      'rules/c2.yaral': C2_RULE.replace('90, 75', '70, 75'),
      'rules/c2.test.yaml': c2Test('fires'),
    });
    const r = run(['test', '--format', 'sarif', '--sarif-root', '.', 'rules'], dir);
    // --sarif-root is check's; test places paths under the repository root it finds.
    assert.equal(r.code, 2);
    const s = run(['test', '--format', 'sarif', 'rules'], dir);
    assert.equal(s.code, 1);
    const log = JSON.parse(s.stdout);
    assertValidSarif(log);
    const result = log.runs[0].results[0];
    assert.equal(result.ruleId, 'rule-test/failed');
    assert.equal(result.locations[0].physicalLocation.artifactLocation.uri, 'rules/c2.test.yaml');
    assert.equal(result.locations[0].physicalLocation.region.startLine, 2);
  });

  it('keeps a test file inside the repository: .. paths, absolute paths and links out are refused, never read', () => {
    const dir = workspace({
      'secret/creds.ndjson': `{"udm":{"metadata":{"id":"${SECRET}","eventTimestamp":"2026-11-01T09:00:00Z","eventType":"NETWORK_CONNECTION"},"target":{"ip":["198.51.100.23"]}}}\n`,
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/rules/c2.yaral': C2_RULE,
      'repo/rules/c2.test.yaml': `cases:
  - name: dot dot
    events: ../../secret/creds.ndjson
    expect: { fires: true }
  - name: absolute
    events: ${JSON.stringify(join('/tmp', 'x.ndjson'))}
    expect: { fires: true }
`,
      'repo/rules/link.yaral': C2_RULE.replace('rule c2_connection', 'rule link'),
      'repo/rules/link.test.yaml': `cases:
  - name: through a link
    events: events/leak.ndjson
    expect: { fires: true }
  - name: list through a link
    events: []
    lists: { watched: events/leak.ndjson }
    expect: { fires: false }
`,
    });
    mkdirSync(join(dir, 'repo/rules/events'));
    symlinkSync(join(dir, 'secret/creds.ndjson'), join(dir, 'repo/rules/events/leak.ndjson'));
    const repo = join(dir, 'repo');
    for (const format of ['text', 'json', 'junit', 'sarif']) {
      const r = run(['test', '--format', format, 'rules'], repo);
      assert.equal(r.code, 1, format);
      assert.ok(!(r.stdout + r.stderr).includes(SECRET), `${format} printed the file a link points at`);
    }
    const text = run(['test', 'rules'], repo).stdout;
    assert.match(text, /rules\/c2\.test\.yaml:3:13: cases\[0\]\.events: a path relative to this file's folder/);
    assert.match(text, /rules\/c2\.test\.yaml:6:13: cases\[1\]\.events: a path relative/);
    assert.match(
      text,
      /ERR {2}through a link .*\n.*events\/leak\.ndjson: a symbolic link to a place outside the repository; not followed/,
    );
  });

  it('reports huge test and events files without reading them', () => {
    const dir = workspace({
      'rules/big.yaral': C2_RULE,
      'rules/big.test.yaml': '',
      'rules/ev.yaral': C2_RULE.replace('rule c2_connection', 'rule ev'),
      'rules/ev.test.yaml': 'cases:\n  - { name: huge events, events: huge.ndjson, expect: { fires: true } }\n',
      'rules/huge.ndjson': '',
    });
    truncateSync(join(dir, 'rules/big.test.yaml'), 11 * 1024 * 1024);
    truncateSync(join(dir, 'rules/huge.ndjson'), 65 * 1024 * 1024);
    const r = run(['test', 'rules'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /FAIL rules\/big\.test\.yaml: 11 MB, larger than the 10 MB read at most/);
    assert.match(r.stdout, /ERR {2}huge events .*\n.*huge\.ndjson: 65 MB, larger than the 64 MB read at most/);
  });

  it('prints names with line breaks, ::error and markup as text, and JUnit keeps them as data', async () => {
    const name = 'x\n::error file=a.yaral::forged\r##[error]old <b>&"\' \u202e';
    const dir = workspace({
      'rules/c2.yaral': C2_RULE.replace('90, 75', '70, 75'),
      'rules/c2.test.yaml': c2Test(name, `  - name: "\\u0000nul"\n    events: []\n    expect: { fires: false }\n`),
    });
    for (const format of ['text', 'json', 'junit', 'sarif']) {
      const r = run(['test', '--format', format, 'rules'], dir);
      assert.equal(r.code, 1, format);
      assertNoWorkflowCommand(r.stdout);
      assertNoWorkflowCommand(r.stderr);
      assert.ok(!r.stdout.includes('\u202e'), format);
    }
    const doc = await junit(run(['test', '--format', 'junit', 'rules'], dir).stdout);
    const names = (doc.testsuites.testsuite?.[0].testcase ?? []).map((c) => c.$.name);
    assert.deepEqual(names, ['x\\n::error file=a.yaral::forged\\r#\\u0023[error]old <b>&"\' \\u202E', '\\u0000nul']);
    const text = run(['test', 'rules'], dir).stdout;
    assert.match(
      text,
      /FAIL x\\n::error file=a\.yaral::forged\\r#\\u0023\[error\]old <b>&"' \\u202E {2}\(rules\/c2\.test\.yaml:2\)/,
    );
  });

  it('shows a test file that is not valid with its lines and columns', () => {
    const dir = workspace({
      'rules/c2.yaral': C2_RULE,
      'rules/c2.test.yaml': 'cases:\n  - name: a\n    events: []\n    expect: { firez: true }\n',
    });
    const r = run(['test', 'rules'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /FAIL rules\/c2\.test\.yaml:4:15: cases\[0\]\.expect: unknown key "firez"/);
    writeFileSync(join(dir, 'rules/c2.test.yaml'), 'cases: [\n');
    assert.equal(run(['test', 'rules'], dir).code, 1);
  });
});
