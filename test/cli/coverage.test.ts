// `cloudbench coverage` as CI runs it: the built dist/cli.js on the demo workspace's rules and on
// hostile repositories.
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTERPRISE_SHORT_NAMES, assertValidLayer } from '../support/navigator-layer';
import { ROOT, cliPath, removeWorkspaces, runCli, workspace } from './cli-support';

const DEMO_RULES = join(ROOT, 'test/e2e/fixtures/workspace/rules');

interface LayerShape {
  versions: { layer: string };
  domain: string;
  techniques: Array<{ techniqueID: string; tactic?: string; score: number; metadata: Array<{ value: string }> }>;
}

function rule(name: string, meta: string): string {
  return `rule ${name} {\n  meta:\n${meta}\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n`;
}

/** GitHub Actions reads a line whose trimmed text starts with `::`, or holding `##[`, as a command. */
function assertNoWorkflowCommand(text: string): void {
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    assert.ok(!line.trim().startsWith('::'), `a line starts a workflow command: ${JSON.stringify(line)}`);
    assert.ok(!line.includes('##['), `a line holds an old-style workflow command: ${JSON.stringify(line)}`);
  }
}

describe('cloudbench coverage (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('writes a Navigator layer of the demo rules that the layer format describes', () => {
    const out = workspace({});
    const r = runCli(cli, ['coverage', '--layer', 'layer.json', DEMO_RULES], out);
    assert.equal(r.code, 0, r.stderr);
    const layer = JSON.parse(readFileSync(join(out, 'layer.json'), 'utf8')) as LayerShape;
    assertValidLayer(layer);
    assert.equal(layer.versions.layer, '4.5');
    assert.equal(layer.domain, 'enterprise-attack');
    assert.ok(layer.techniques.length >= 4, `${layer.techniques.length} techniques`);
    for (const t of layer.techniques) {
      assert.ok(typeof t.score === 'number' && t.score >= 1, `${t.techniqueID} score ${t.score}`);
      assert.ok(t.tactic !== undefined && ENTERPRISE_SHORT_NAMES.includes(t.tactic), String(t.tactic));
    }
    const entry = (id: string, tactic: string): LayerShape['techniques'][number] | undefined =>
      layer.techniques.find((t) => t.techniqueID === id && t.tactic === tactic);
    assert.equal(entry('T1110.001', 'credential-access')?.score, 1);
    // Three demo rules look for DNS look-ups of watched domains (T1071.004).
    assert.equal(entry('T1071.004', 'command-and-control')?.score, 3);
    // Every demo rule is in the layer.
    const named = layer.techniques.flatMap((t) => t.metadata.map((m) => m.value)).join('\n');
    for (const name of ['c2_connection', 'critical_server_ioc_lookup', 'ioc_lookup_then_web_request'])
      assert.ok(named.includes(name), name);
    assert.match(r.stdout, /5 rules, 5 with ATT&CK meta/);
  });

  it('writes the layer to stdout with --layer -, and the table as JSON or Markdown with --format', () => {
    const cwd = workspace({});
    const layer = runCli(cli, ['coverage', '--layer', '-', DEMO_RULES], cwd);
    assert.equal(layer.code, 0, layer.stderr);
    assertValidLayer(JSON.parse(layer.stdout));
    const json = runCli(cli, ['coverage', '--format', 'json', DEMO_RULES], cwd);
    const table = JSON.parse(json.stdout) as { rules: number; techniques: string[]; tactics: Array<{ id: string }> };
    assert.equal(table.rules, 5);
    assert.ok(table.techniques.includes('T1110.001'));
    assert.deepEqual(
      table.tactics.map((t) => t.id),
      ['TA0006', 'TA0011'],
    );
    const md = runCli(cli, ['coverage', '--format', 'markdown', DEMO_RULES], cwd);
    assert.match(md.stdout, /^\| Tactic \| Technique \| Rules \| Tested \|\n\| --- \| --- \| --- \| --- \|\n/);
    assert.match(md.stdout, /\| TA0006 Credential Access \| T1110\.001 \(Brute Force: Password Guessing\) \|/);
    assert.equal(runCli(cli, ['coverage', '--layer', '-', '--format', 'json', DEMO_RULES], cwd).code, 2);
  });

  it('exits 1 naming the required techniques no rule covers (--fail-on-gaps), 0 when all are', () => {
    const cwd = workspace({
      'covered.txt': '# the demo must cover these\nT1110\nT1071.004, T1071\n',
      'gaps.txt': 'T1071\nT1566 T1059.001\n',
      'bad.txt': 'T1110\nT1059.1\n',
    });
    const ok = runCli(cli, ['coverage', '--fail-on-gaps', 'covered.txt', DEMO_RULES], cwd);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /All 3 required techniques covered/);
    const gaps = runCli(cli, ['coverage', '--fail-on-gaps', 'gaps.txt', DEMO_RULES], cwd);
    assert.equal(gaps.code, 1);
    assert.match(gaps.stderr, /2 of 3 required techniques not covered: T1566, T1059\.001/);
    assert.doesNotMatch(gaps.stderr, /T1071\b/);
    const json = JSON.parse(
      runCli(cli, ['coverage', '--format', 'json', '--fail-on-gaps', 'gaps.txt', DEMO_RULES], cwd).stdout,
    );
    assert.deepEqual(json.missing, ['T1566', 'T1059.001']);
    const bad = runCli(cli, ['coverage', '--fail-on-gaps', 'bad.txt', DEMO_RULES], cwd);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /line 2: "T1059\.1"/);
    assert.equal(runCli(cli, ['coverage', '--fail-on-gaps', 'nope.txt', DEMO_RULES], cwd).code, 2);
  });

  it('shows which rules have tests (a <rule>.test.yaml beside them) and warns on malformed IDs', () => {
    const cwd = workspace({
      'rules/a.yaral': rule('a', '    tactic = "TA0006"\n    technique = "T1110"'),
      'rules/a.test.yaml': 'cases: []\n',
      'rules/b.yaral': rule('b', '    tactic = "TA01"\n    technique = "T1110.1, T1110"'),
    });
    const r = runCli(cli, ['coverage', '--format', 'json', 'rules'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as {
      rulesWithTests: number;
      tactics: Array<{ techniques: Array<{ rules: Array<{ name: string; hasTests: boolean }> }> }>;
    };
    assert.equal(json.rulesWithTests, 1);
    assert.deepEqual(
      json.tactics[0].techniques[0].rules.map((x) => [x.name, x.hasTests]),
      [['a', true]],
    );
    assert.match(r.stderr, /rules\/b\.yaral:3:15: warning: Malformed tactic ID 'TA01'/);
    assert.match(r.stderr, /rules\/b\.yaral:4:18: warning: Malformed technique ID 'T1110\.1'/);
    // b's only tactic is malformed: its technique counts under no tactic.
    assert.match(
      runCli(cli, ['coverage', 'rules'], cwd).stdout,
      /^TA0006 Credential Access\n {2}T1110 {2}1 rule, 1\/1 tested: a\nNo tactic named\n {2}T1110 {2}1 rule, 0\/1 tested: b\n/,
    );
  });

  it('names at most 20 rules without ATT&CK meta in the table, counting the rest; JSON lists them all', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 25; i++)
      files[`rules/r${String(i).padStart(2, '0')}.yaral`] = rule(`r${i}`, '    author = "x"');
    const cwd = workspace(files);
    assert.match(runCli(cli, ['coverage', 'rules'], cwd).stdout, /Rules without ATT&CK meta \(25\): .* and 5 more\n/);
    assert.match(runCli(cli, ['coverage', '--format', 'markdown', 'rules'], cwd).stdout, / and 5 more\n/);
    assert.equal(JSON.parse(runCli(cli, ['coverage', '--format', 'json', 'rules'], cwd).stdout).untagged.length, 25);
  });

  it('exits 2 for bad usage: unknown flag, missing path, a file that is not a rule, no rule at all', () => {
    const cwd = workspace({ 'q.udm': 'metadata.event_type = "USER_LOGIN"\n', 'empty/readme.md': '' });
    for (const args of [
      ['coverage', '--nope', '.'],
      ['coverage', 'missing'],
      ['coverage', 'q.udm'],
      ['coverage', 'empty'],
      ['coverage', '--format', 'sarif', '.'],
    ]) {
      const r = runCli(cli, args, cwd);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /usage: cloudbench coverage/);
    }
  });
});

describe('cloudbench coverage against a hostile repository (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  const SECRET = 'hunter2-do-not-print';

  it('never follows a link out of the folder and never writes a layer through a link', () => {
    const base = workspace({
      'secret/leak.yaral': rule('leak', `    description = "${SECRET}"\n    tactic = "TA0006"`),
      'repo/rules/ok.yaral': rule('ok', '    tactic = "TA0011"'),
      'repo/target.json': 'keep me',
    });
    symlinkSync(join(base, 'secret/leak.yaral'), join(base, 'repo/rules/leak.yaral'));
    symlinkSync(join(base, 'repo/target.json'), join(base, 'repo/layer.json'));
    const repo = join(base, 'repo');
    const r = runCli(cli, ['coverage', '--format', 'json', 'rules'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!`${r.stdout}${r.stderr}`.includes(SECRET));
    assert.match(r.stderr, /rules\/leak\.yaral: warning: Skipped: a symbolic link to a place outside/);
    assert.equal(JSON.parse(r.stdout).rules, 1);
    const w = runCli(cli, ['coverage', '--layer', 'layer.json', 'rules'], repo);
    assert.equal(w.code, 2);
    assert.match(w.stderr, /is a symbolic link; not written through/);
    assert.equal(readFileSync(join(repo, 'target.json'), 'utf8'), 'keep me');
  });

  it('escapes control characters and defuses workflow commands from meta and file names', () => {
    const forged = '\\n::error file=x.yaral::forged\\n##[error]old style\\u001b[31m';
    const cwd = workspace({
      'rules/forge.yaral': rule(
        'forge',
        `    mitre_attack_tactic = "Execution"\n    mitre_attack_technique = "${forged}"\n    mitre_attack_url = "https://attack.mitre.org/techniques/T1059/"\n    tactic = "::error::x"`,
      ),
    });
    writeFileSync(join(cwd, 'rules', '\u001b[2J::warning::name.yaral'), rule('plain', '    author = "x"'));
    for (const args of [
      ['coverage', 'rules'],
      ['coverage', '--format', 'json', 'rules'],
      ['coverage', '--format', 'markdown', 'rules'],
      ['coverage', '--layer', '-', 'rules'],
    ]) {
      const r = runCli(cli, args, cwd);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assertNoWorkflowCommand(r.stdout);
      assertNoWorkflowCommand(r.stderr);
      assert.ok(!(r.stdout + r.stderr).includes('\u001b'), `${args.join(' ')}: a raw escape character`);
    }
    const text = runCli(cli, ['coverage', 'rules'], cwd).stdout;
    assert.match(text, /T1059 \(::error file=x\.yaral::forged\\n#\\u0023\[error\]old style\\u001B\[31m\)/);
    assert.match(text, /\\u001B\[2J::warning::name\.yaral/);
  });

  it('keeps Markdown in names inside their cell: no extra column, link, image or HTML', () => {
    const name = 'Brute | Force <img src=x onerror=alert(1)> [click](javascript:alert(1)) ![i](https://x.test/i.png)';
    const cwd = workspace({
      'rules/md.yaral': rule(
        'md',
        `    mitre_attack_tactic = "Credential Access"\n    mitre_attack_technique = "${name}"\n    mitre_attack_url = "https://attack.mitre.org/techniques/T1110/"`,
      ),
    });
    const r = runCli(cli, ['coverage', '--format', 'markdown', 'rules'], cwd);
    assert.equal(r.code, 0, r.stderr);
    const row = r.stdout.split('\n').find((l) => l.includes('T1110'));
    assert.ok(row);
    // Four cells: five unescaped pipes.
    assert.equal(row.match(/(?<!\\)\|/g)?.length, 5, row);
    assert.ok(!row.includes('<img'), row);
    // No link: a `](` only behind an escaped bracket.
    assert.ok(!/(?<!\\)\]\(/.test(row), row);
  });

  it('reports a rule file too large to read, and reads the others', () => {
    const cwd = workspace({
      'rules/big.yaral': '',
      'rules/ok.yaral': rule('ok', '    tactic = "TA0006"\n    technique = "T1110"'),
    });
    truncateSync(join(cwd, 'rules/big.yaral'), 11 * 1024 * 1024);
    const r = runCli(cli, ['coverage', '--format', 'json', 'rules'], cwd);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /rules\/big\.yaral: error: Not read: .*larger than the 10 MB/);
    assert.equal(JSON.parse(r.stdout).rules, 1);
  });
});
