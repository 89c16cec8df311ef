// `cloudbench check` run as a process: exit codes, the human, JSON and SARIF reports, notebooks,
// reference lists from a folder, and the same diagnostics as the language server gives the editor.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { NO_LISTS_REASON } from '../../src/cli/languages';
import { DOCUMENTED_SYNTAX_EXAMPLES } from '../../src/udm/documented-examples';
import { LspClient } from '../integration/server/lsp-client';
import { assertValidSarif, cliPath, positionOf, removeWorkspaces, runCli, workspace } from './cli-support';

const LOGIN = 'metadata.event_type = "USER_LOGIN"\n';
const TYPO = `${LOGIN}principal.hostnme = "alice"\n`;
const UNKNOWN_LIST = `${LOGIN}principal.user.userid in %admins\n`;

interface JsonProblem {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: string;
  rule: string;
  message: string;
  where?: string;
}

function notebook(cells: Array<{ kind: 'udm' | 'markdown'; source: string[] }>): string {
  // The layout the editor writes (serializeNotebook): two-space JSON, one line per source line.
  return `${JSON.stringify({ format: 'cloudbench-udm-notebook', version: 1, cells }, null, 2)}\n`;
}

describe('cloudbench check (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('exits 0 and says so when every file is clean', () => {
    const dir = workspace({ 'a.udm': LOGIN, 'sub/b.udm': 'principal.hostname = "web-1"\n' });
    const r = runCli(cli, ['check', '.'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, '2 files checked, no problems.\n');
  });

  it('prints file:line:col, severity, message, the line and a caret under the problem, and exits 1', () => {
    const dir = workspace({ 'queries/typo.udm': TYPO, 'queries/ok.udm': LOGIN });
    const r = runCli(cli, ['check', 'queries'], dir);
    assert.equal(r.code, 1);
    const at = positionOf(TYPO, 'hostnme');
    const lines = r.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith(`queries/typo.udm:${at.line}:${at.column}: error: `));
    assert.ok(head >= 0, r.stdout);
    assert.match(lines[head], /Unknown field 'hostnme'.*Did you mean 'hostname'\? \[udm\/unknown-field\]$/);
    assert.equal(lines[head + 1], '  principal.hostnme = "alice"');
    assert.equal(lines[head + 2], `  ${' '.repeat(at.column - 1)}${'^'.repeat('hostnme'.length)}`);
    assert.match(r.stdout, /1 error and 0 warnings in 2 files checked\.\n$/);
  });

  it('checks the current folder by default, skipping node_modules, hidden folders and other files', () => {
    const dir = workspace({
      'a.udm': TYPO,
      'node_modules/pkg/b.udm': TYPO,
      '.git/c.udm': TYPO,
      'notes.txt': TYPO,
    });
    const r = runCli(cli, ['check', '--format', 'json'], dir);
    const report = JSON.parse(r.stdout);
    assert.equal(report.filesChecked, 1);
    assert.deepEqual([...new Set(report.problems.map((p: JsonProblem) => p.file))], ['a.udm']);
  });

  it('--format json: every problem with 1-based positions, rule and severity', () => {
    const dir = workspace({ 'typo.udm': TYPO, 'lists.udm': UNKNOWN_LIST });
    const r = runCli(cli, ['check', '--format', 'json', '.'], dir);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    assert.equal(report.errors, 1);
    assert.equal(report.warnings, 1);
    const typo = report.problems.find((p: JsonProblem) => p.file === 'typo.udm');
    const at = positionOf(TYPO, 'hostnme');
    assert.deepEqual(
      [typo.line, typo.column, typo.endLine, typo.endColumn, typo.severity, typo.rule],
      [at.line, at.column, at.line, at.column + 'hostnme'.length, 'error', 'udm/unknown-field'],
    );
    const list = report.problems.find((p: JsonProblem) => p.file === 'lists.udm');
    const listAt = positionOf(UNKNOWN_LIST, '%admins');
    assert.deepEqual(
      [list.line, list.column, list.severity, list.rule],
      [listAt.line, listAt.column, 'warning', 'udm/unknown-list'],
    );
  });

  it('--max-warnings N: warnings alone pass, more than N fail', () => {
    const dir = workspace({ 'a.udm': UNKNOWN_LIST, 'b.udm': UNKNOWN_LIST });
    assert.equal(runCli(cli, ['check'], dir).code, 0);
    assert.equal(runCli(cli, ['check', '--max-warnings', '2'], dir).code, 0);
    const over = runCli(cli, ['check', '--max-warnings=1'], dir);
    assert.equal(over.code, 1);
    assert.match(over.stdout, /More warnings than --max-warnings 1\./);
    assert.equal(runCli(cli, ['check', '--max-warnings', '0', 'a.udm'], dir).code, 1);
  });

  it('--lists DIR: known lists pass, unknown ones are errors, wrong list types and bad entries are reported', () => {
    const query = [
      LOGIN.trim(),
      'principal.user.userid in %admins',
      'principal.ip in cidr %corp_ranges',
      'target.hostname in %missing',
      'target.ip in %corp_ranges',
    ].join('\n');
    const dir = workspace({
      'q.udm': `${query}\n`,
      'lists/admins.txt': '// who may log in anywhere\nroot\nalice\n',
      'lists/corp_ranges.cidr': '10.0.0.0/8\n192.168.0.0/33\n',
      'lists/.hidden': 'ignored\n',
    });
    const without = JSON.parse(runCli(cli, ['check', '--format', 'json', 'q.udm'], dir).stdout);
    assert.deepEqual(
      without.problems.map((p: JsonProblem) => [p.severity, p.rule]),
      [
        ['warning', 'udm/unknown-list'],
        ['warning', 'udm/unknown-list'],
        ['warning', 'udm/unknown-list'],
        ['warning', 'udm/unknown-list'],
      ],
    );
    const r = runCli(cli, ['check', '--format', 'json', '--lists', 'lists', 'q.udm'], dir);
    assert.equal(r.code, 1);
    const report = JSON.parse(r.stdout);
    const inQuery = report.problems.filter((p: JsonProblem) => p.file === 'q.udm');
    const cidr = positionOf(query, '%corp_ranges');
    const missing = positionOf(query, '%missing');
    const exactOnCidr = positionOf(query, '%corp_ranges', query.indexOf('target.ip'));
    assert.deepEqual(
      inQuery.map((p: JsonProblem) => [p.line, p.column, p.severity, p.rule]),
      [
        // The list's entries are read: one is no CIDR range.
        [cidr.line, cidr.column, 'warning', 'udm/bad-list-entry'],
        [missing.line, missing.column, 'error', 'udm/unknown-list'],
        [exactOnCidr.line, exactOnCidr.column, 'warning', 'udm/list-type'],
      ],
    );
    // The list file itself is checked as the list editor checks it: the bad prefix length.
    const inList = report.problems.filter((p: JsonProblem) => p.file === 'lists/corp_ranges.cidr');
    assert.deepEqual(
      inList.map((p: JsonProblem) => [p.line, p.column, p.severity]),
      [[2, 13, 'error']],
    );
    assert.match(inList[0].message, /prefix length "33"/);
  });

  it('checks the query cells of .udmnb notebooks, positioned in the notebook file', () => {
    const text = notebook([
      { kind: 'markdown', source: ['# Logins', 'principal.hostnme is fine in notes'] },
      { kind: 'udm', source: ['metadata.event_type = "USER_LOGIN"'] },
      {
        kind: 'udm',
        source: [
          'metadata.event_type = "USER_LOGIN" and',
          '  target.hostname = "a\\"b\\\\c" and principal.hostnme = "x"',
        ],
      },
    ]);
    const dir = workspace({ 'n.udmnb': text, 'broken.udmnb': '{"format": "something-else"}' });
    const r = runCli(cli, ['check', '--format', 'json', '.'], dir);
    assert.equal(r.code, 1);
    const problems = JSON.parse(r.stdout).problems as JsonProblem[];
    const inNotebook = problems.filter((p) => p.file === 'n.udmnb');
    assert.equal(inNotebook.length, 1, JSON.stringify(problems));
    // Independently: the line of the file holding the cell's second source line, and the column of
    // the field inside that JSON string, after the escapes that come before it on the line.
    const at = positionOf(text, 'principal.hostnme', text.indexOf('"  target.hostname'));
    at.column += 'principal.'.length;
    assert.deepEqual(
      [inNotebook[0].line, inNotebook[0].column, inNotebook[0].endColumn, inNotebook[0].where],
      [at.line, at.column, at.column + 'hostnme'.length, 'cell 3'],
    );
    const broken = problems.find((p) => p.file === 'broken.udmnb');
    assert.ok(broken, 'a notebook the editor refuses is an error');
    assert.equal(broken.severity, 'error');
    assert.match(broken.message, /not a UDM notebook/);
  });

  it('reports what the language server reports to the editor, problem for problem', async () => {
    const queries = [
      TYPO,
      UNKNOWN_LIST,
      'metadata.event_type = "USER_LOGIN" and (\n',
      'target.port = "80"\n',
      'principal.ip = "10.0.0.1"\nmatch:\n  principal.hostname\noutcome:\n  $max = max(network.sent_bytes)\n',
      ...DOCUMENTED_SYNTAX_EXAMPLES.map(([, q]) => q),
    ];
    const files = Object.fromEntries(queries.map((q, i) => [`q${String(i).padStart(3, '0')}.udm`, q]));
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
        await client.open(uri, text);
        const answer = await client.request<{
          items: Array<{ range: any; message: string; severity: number; code?: string }>;
        }>('textDocument/diagnostic', { textDocument: { uri } });
        const fromServer = answer.items.map((d) => [
          d.range.start.line + 1,
          d.range.start.character + 1,
          ['', 'error', 'warning', 'info', 'info'][d.severity],
          `udm/${d.code ?? 'syntax-error'}`,
          d.message,
        ]);
        const fromCli = report.problems
          .filter((p: JsonProblem) => p.file === name)
          .map((p: JsonProblem) => [p.line, p.column, p.severity, p.rule, p.message]);
        assert.deepEqual(fromCli, fromServer, name);
        compared += fromServer.length;
      }
      assert.ok(compared >= 5, `only ${compared} diagnostics compared`);
    } finally {
      await client.stop();
    }
  });

  it('--format sarif: a SARIF 2.1.0 log that validates against the OASIS schema, with 1-based regions', () => {
    const nb = notebook([{ kind: 'udm', source: ['principal.hostnme = "x"'] }]);
    const dir = workspace({ 'rules/typo.udm': TYPO, 'rules/list.udm': UNKNOWN_LIST, 'n.udmnb': nb });
    const r = runCli(cli, ['check', '--format', 'sarif'], dir);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    assert.equal(log.version, '2.1.0');
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'cloudbench');
    const ruleIds = run.tool.driver.rules.map((rule: { id: string }) => rule.id);
    assert.deepEqual(ruleIds.sort(), ['udm/unknown-field', 'udm/unknown-list']);
    const byFile = new Map<string, any>(
      run.results.map((res: any) => [res.locations[0].physicalLocation.artifactLocation.uri, res]),
    );
    const typo = byFile.get('rules/typo.udm');
    const at = positionOf(TYPO, 'hostnme');
    assert.equal(typo.level, 'error');
    assert.equal(typo.ruleId, 'udm/unknown-field');
    assert.equal(run.tool.driver.rules[typo.ruleIndex].id, 'udm/unknown-field');
    assert.deepEqual(typo.locations[0].physicalLocation.region, {
      startLine: at.line,
      startColumn: at.column,
      endLine: at.line,
      endColumn: at.column + 'hostnme'.length,
    });
    assert.equal(byFile.get('rules/list.udm').level, 'warning');
    const inNotebook = byFile.get('n.udmnb').locations[0].physicalLocation.region;
    const nbAt = positionOf(nb, 'hostnme');
    assert.deepEqual([inNotebook.startLine, inNotebook.startColumn], [nbAt.line, nbAt.column]);
    assert.equal(typo.locations[0].physicalLocation.artifactLocation.uriBaseId, '%SRCROOT%');
  });

  it('a clean SARIF log still validates and exits 0', () => {
    const dir = workspace({ 'ok.udm': LOGIN });
    const r = runCli(cli, ['check', '--format', 'sarif'], dir);
    assert.equal(r.code, 0);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    assert.deepEqual(log.runs[0].results, []);
  });

  it('--format sarif: URIs relative to the repository root (never ../), readable rule names, a rule id for parse errors', () => {
    const base = workspace({
      'repo/.git/HEAD': 'ref: refs/heads/main\n',
      'repo/queries/list.udm': UNKNOWN_LIST,
      'repo/rules/bad.yaral':
        'rule bad {\n  meta:\n  events:\n    $e.metadata.event_type = "USER_LOGIN" )\n  condition:\n    $e\n}\n',
      'outside/o.udm': TYPO,
    });
    const cwd = join(base, 'repo', 'queries');
    const uris = (log: any): string[] =>
      log.runs[0].results.map((res: any) => res.locations[0].physicalLocation.artifactLocation.uri).sort();
    const r = runCli(cli, ['check', '--format', 'sarif', '.', '../rules', '../../outside'], cwd);
    assert.equal(r.code, 1, r.stderr);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    const run = log.runs[0];
    assert.equal(run.originalUriBaseIds['%SRCROOT%'].uri, pathToFileURL(join(base, 'repo') + '/').href);
    // A file outside the repository is named by its absolute file: URI, without the base.
    assert.deepEqual(
      uris(log),
      [pathToFileURL(join(base, 'outside/o.udm')).href, 'queries/list.udm', 'rules/bad.yaral'].sort(),
    );
    for (const u of uris(log)) assert.ok(!u.startsWith('..'), u);
    const rules = new Map<string, any>(run.tool.driver.rules.map((x: any) => [x.id, x]));
    assert.equal(rules.get('udm/unknown-list').name, 'UnknownList');
    assert.equal(rules.get('udm/unknown-list').shortDescription.text, 'Unknown list');
    assert.equal(rules.get('udm/unknown-field').name, 'UnknownField');
    assert.equal(rules.get('yaral/syntax-error').name, 'SyntaxError');
    assert.ok(!rules.has('yaral') && !rules.has('udm'), [...rules.keys()].join(', '));
    // --sarif-root: the paths are relative to that folder instead.
    const rooted = JSON.parse(
      runCli(cli, ['check', '--format', 'sarif', '--sarif-root', '../..', '.', '../../outside'], cwd).stdout,
    );
    assertValidSarif(rooted);
    assert.deepEqual(uris(rooted), ['outside/o.udm', 'repo/queries/list.udm']);
    const badRoot = runCli(cli, ['check', '--format', 'sarif', '--sarif-root', 'nowhere', '.'], cwd);
    assert.equal(badRoot.code, 2);
  });
});
