// `cloudbench check` and `cloudbench format` over YARA-L rule files (`.yaral`), run as a process: the
// rule corpus (valid rules pass, each invalid one fails with the defect its first line names) in the
// three reports, reference lists from a folder, and the same diagnostics and formatting as the
// language server gives the editor for a rule file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { NO_LISTS_REASON } from '../../src/cli/languages';
import { LspClient } from '../integration/server/lsp-client';
import { CORPUS_DIR, DEMO_RULES_DIR, expectation, INVALID_DIR, yaralFiles } from '../support/yaral-corpus';
import { assertValidSarif, cliPath, positionOf, removeWorkspaces, runCli, workspace } from './cli-support';

interface JsonProblem {
  file: string;
  line: number;
  column: number;
  severity: string;
  rule: string;
  message: string;
}

const read = (f: string): string => readFileSync(f, 'utf8');
const filesOf = (paths: readonly string[], folder = ''): Record<string, string> =>
  Object.fromEntries(paths.map((f) => [`${folder}${basename(f)}`, read(f)]));

const VALID = [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR)];
const INVALID = yaralFiles(INVALID_DIR);

describe('cloudbench check and format on YARA-L rules (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('passes every valid rule of the corpus and the demo workspace: exit 0, no error', () => {
    assert.ok(VALID.length >= 30, `${VALID.length} rules`);
    const dir = workspace(filesOf(VALID, 'rules/'));
    const r = runCli(cli, ['check', '--format', 'json', 'rules'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.filesChecked, VALID.length);
    assert.equal(report.errors, 0, JSON.stringify(report.problems, null, 2));
    // Without --lists the rules' %lists are unknown: warnings, under the rule language's id.
    const problems = report.problems as JsonProblem[];
    assert.ok(problems.some((p) => p.rule === 'yaral/unknown-list'));
    for (const p of problems) assert.match(`${p.severity} ${p.rule}`, /^warning yaral\/[a-z-]+$/, p.message);
    assert.equal(runCli(cli, ['check', 'rules'], dir).code, 0);
  });

  it('fails every invalid rule with the defect its first line names, in the JSON report', () => {
    const dir = workspace(filesOf(INVALID));
    const r = runCli(cli, ['check', '--format', 'json', '.'], dir);
    assert.equal(r.code, 1);
    const problems = JSON.parse(r.stdout).problems as JsonProblem[];
    for (const f of INVALID) {
      const { kind, severity } = expectation(f);
      const own = problems.filter((p) => p.file === basename(f));
      assert.ok(
        own.some((p) => p.rule === `yaral/${kind}` && p.severity === severity),
        `${basename(f)}: no ${severity} yaral/${kind} in ${JSON.stringify(own)}`,
      );
      // A file of its own: an error exits 1; the rule that only warns fails with --max-warnings 0.
      const alone = runCli(cli, ['check', basename(f)], dir);
      if (severity === 'error') assert.equal(alone.code, 1, basename(f));
      else {
        assert.equal(alone.code, 0, basename(f));
        assert.equal(runCli(cli, ['check', '--max-warnings', '0', basename(f)], dir).code, 1, basename(f));
      }
    }
  });

  it('prints each invalid rule’s defect as file:line:col: severity: message [yaral/code] with a caret', () => {
    const dir = workspace(filesOf(INVALID));
    const r = runCli(cli, ['check', '.'], dir);
    assert.equal(r.code, 1);
    const lines = r.stdout.split('\n');
    for (const f of INVALID) {
      const { kind, severity } = expectation(f);
      const head = lines.findIndex(
        (l) => l.startsWith(`${basename(f)}:`) && l.includes(`: ${severity}: `) && l.endsWith(`[yaral/${kind}]`),
      );
      assert.ok(head >= 0, `${basename(f)}: ${r.stdout}`);
      const [, line, column] = /^[^:]+:(\d+):(\d+):/.exec(lines[head])!;
      // The quoted line is the file's own line, the caret under the column reported.
      assert.equal(lines[head + 1], `  ${read(f).split('\n')[Number(line) - 1]}`);
      assert.match(lines[head + 2], new RegExp(`^  ${' '.repeat(Number(column) - 1)}\\^+$`));
    }
    assert.match(r.stdout, new RegExp(`\\d+ errors? and 1 warning in ${INVALID.length} files checked\\.\\n$`));
  });

  it('--format sarif: every defect of the invalid rules, and the log validates against SARIF 2.1.0', () => {
    const dir = workspace({ ...filesOf(INVALID, 'invalid/'), ...filesOf(VALID.slice(0, 5), 'valid/') });
    const r = runCli(cli, ['check', '--format', 'sarif'], dir);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    const run = log.runs[0];
    for (const f of INVALID) {
      const { kind, severity } = expectation(f);
      const hit = run.results.find(
        (res: any) =>
          res.locations[0].physicalLocation.artifactLocation.uri === `invalid/${basename(f)}` &&
          res.ruleId === `yaral/${kind}`,
      );
      assert.ok(hit, `${basename(f)}: no yaral/${kind}`);
      assert.equal(hit.level, severity);
      assert.equal(run.tool.driver.rules[hit.ruleIndex].id, `yaral/${kind}`);
    }
    // The valid rules bring warnings only (their unknown lists), never an error.
    const valid = run.results.filter((res: any) =>
      res.locations[0].physicalLocation.artifactLocation.uri.startsWith('valid/'),
    );
    assert.ok(valid.every((res: any) => res.level === 'warning'));
  });

  it('--lists DIR applies to rules: listed names pass, a missing list is an error, a wrong list type is reported', () => {
    const rule = read(join(CORPUS_DIR, 'reference_lists.yaral'));
    const lists = {
      'lists/admin_users.txt': 'root\nalice\n',
      'lists/corp_networks.cidr': '10.0.0.0/8\n',
      'lists/build_agents.regex': '^build-\\d+$\n',
      'lists/critical_servers': 'db-1\n',
    };
    const dir = workspace({ 'r.yaral': rule, ...lists });
    const clean = runCli(cli, ['check', '--format', 'json', '--lists', 'lists', 'r.yaral'], dir);
    assert.equal(clean.code, 0, clean.stdout);
    assert.deepEqual(JSON.parse(clean.stdout).problems, []);

    const without = (file: string): Record<string, string> =>
      Object.fromEntries(Object.entries(lists).filter(([k]) => k !== file));
    const missing = workspace({ 'r.yaral': rule, ...without('lists/critical_servers') });
    const r = runCli(cli, ['check', '--format', 'json', '--lists', 'lists', 'r.yaral'], missing);
    assert.equal(r.code, 1);
    const at = positionOf(rule, '%critical_servers');
    assert.deepEqual(
      (JSON.parse(r.stdout).problems as JsonProblem[]).map((p) => [p.line, p.column, p.severity, p.rule]),
      [[at.line, at.column, 'error', 'yaral/unknown-list']],
    );

    // `in cidr` over a list of strings: the editor's content-type check.
    const strings = workspace({
      'r.yaral': rule,
      ...without('lists/corp_networks.cidr'),
      'lists/corp_networks.txt': '10.0.0.0/8\n',
    });
    const t = JSON.parse(runCli(cli, ['check', '--format', 'json', '--lists', 'lists', 'r.yaral'], strings).stdout);
    const cidr = positionOf(rule, '%corp_networks');
    assert.deepEqual(
      (t.problems as JsonProblem[]).map((p) => [p.line, p.column, p.rule]),
      [[cidr.line, cidr.column, 'yaral/list-type']],
    );
  });

  it('reports what the language server reports to the editor for each rule file, problem for problem', async () => {
    const files = filesOf([...VALID, ...INVALID]);
    const dir = workspace(files);
    const report = JSON.parse(runCli(cli, ['check', '--format', 'json', '.'], dir).stdout);
    const { client } = await LspClient.start(
      {},
      { knownReferenceLists: [], knownReferenceListsError: NO_LISTS_REASON },
    );
    try {
      let compared = 0;
      for (const [name, text] of Object.entries(files)) {
        const uri = `file:///work/${name}`;
        await client.open(uri, text, 1, 'yaral');
        const answer = await client.request<{
          items: Array<{ range: any; message: string; severity: number; code?: string }>;
        }>('textDocument/diagnostic', { textDocument: { uri } });
        const fromServer = answer.items.map((d) => [
          d.range.start.line + 1,
          d.range.start.character + 1,
          ['', 'error', 'warning', 'info', 'info'][d.severity],
          `yaral/${d.code ?? 'syntax-error'}`,
          d.message,
        ]);
        const fromCli = report.problems
          .filter((p: JsonProblem) => p.file === name)
          .map((p: JsonProblem) => [p.line, p.column, p.severity, p.rule, p.message]);
        assert.deepEqual(fromCli, fromServer, name);
        compared += fromServer.length;
      }
      assert.ok(compared >= INVALID.length, `only ${compared} diagnostics compared`);
    } finally {
      await client.stop();
    }
  });

  // The demo workspace's rules are laid out as Google's public rules are, which is the formatter's
  // layout; the same rules with every indentation removed and trailing spaces added are mis-indented.
  const DEMO = yaralFiles(DEMO_RULES_DIR);
  const misindent = (text: string): string =>
    text
      .split('\n')
      .map((l) => (l.trim() ? `${l.trimStart()}  ` : l))
      .join('\n');

  it('format --check passes well-laid-out rules and fails a mis-indented one, changing nothing', () => {
    const messy = misindent(read(DEMO[0]));
    const dir = workspace({ ...filesOf(DEMO, 'rules/'), 'messy/r.yaral': messy });
    const clean = runCli(cli, ['format', '--check', 'rules'], dir);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.equal(clean.stdout, '');
    const r = runCli(cli, ['format', '--check', '.'], dir);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, 'messy/r.yaral\n');
    assert.match(r.stderr, new RegExp(`1 of ${DEMO.length + 1} files would change`));
    assert.equal(read(join(dir, 'messy/r.yaral')), messy);
  });

  it('format re-indents mis-indented rules to their layout, and a second run changes nothing', () => {
    const dir = workspace(Object.fromEntries(DEMO.map((f) => [basename(f), misindent(read(f))])));
    const r = runCli(cli, ['format', '.'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('formatted ')).length, DEMO.length);
    for (const f of DEMO) assert.equal(read(join(dir, basename(f))), read(f), basename(f));
    const again = runCli(cli, ['format', '.'], dir);
    assert.equal(again.code, 0);
    assert.equal(again.stdout, '');
    assert.equal(runCli(cli, ['format', '--check', '.'], dir).code, 0);
  });

  it('refuses to format a rule with a lexical error: says why, exits 1 and leaves it alone', () => {
    const broken = `${misindent(read(DEMO[0])).replace(/"([^"\n]*)"/, '"$1')}`;
    const dir = workspace({ 'broken.yaral': broken });
    const r = runCli(cli, ['format', 'broken.yaral'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^broken\.yaral: not formatted: (?!Not formatted).+ \(line \d+\)$/m);
    assert.equal(read(join(dir, 'broken.yaral')), broken);
  });

  it('gives each rule file the text the language server gives the editor', async () => {
    const texts: Array<[string, string]> = [
      ...DEMO.map((f): [string, string] => [basename(f), misindent(read(f))]),
      ...VALID.filter((f) => basename(f).startsWith('doc_')).map((f): [string, string] => [basename(f), read(f)]),
    ];
    const files: Record<string, string> = Object.fromEntries(texts);
    const dir = workspace(files);
    assert.equal(runCli(cli, ['format', '.'], dir).code, 0);
    const { client } = await LspClient.start();
    try {
      let changed = 0;
      for (const [name, text] of Object.entries(files)) {
        const uri = `file:///work/${name}`;
        await client.open(uri, text, 1, 'yaral');
        const edits = await client.request<Array<{ newText: string }>>('textDocument/formatting', {
          textDocument: { uri },
          options: { tabSize: 2, insertSpaces: true },
        });
        const expected = edits.length ? edits[0].newText : text;
        if (edits.length) changed++;
        assert.equal(read(join(dir, name)), expected, name);
      }
      assert.ok(changed >= DEMO.length + 2, `the server changed only ${changed} files`);
    } finally {
      await client.stop();
    }
  });
});
