// The command line itself, run as a process: --help, --version, and bad usage (exit code 2 with a
// usage line on stderr, nothing on stdout).
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cliPath, removeWorkspaces, ROOT, runCli, workspace } from './cli-support';

describe('cloudbench command line (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;
  let dir: string;

  before(async () => {
    cli = await cliPath();
    dir = workspace({ 'a.udm': 'metadata.event_type = "USER_LOGIN"\n', 'notes.txt': 'not a query\n' });
  });
  after(removeWorkspaces);

  it('runs by itself: a Node shebang and the executable bit', () => {
    assert.ok(readFileSync(cli, 'utf8').startsWith('#!/usr/bin/env node\n'));
    assert.ok((statSync(cli).mode & 0o111) !== 0, 'not executable');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.bin.cloudbench, 'dist/cli.js');
  });

  it('--version prints the package version', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const r = runCli(cli, ['--version'], dir);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `${pkg.version}\n`);
  });

  it('--help names every command and the exit codes', () => {
    const r = runCli(cli, ['--help'], dir);
    assert.equal(r.code, 0);
    for (const command of ['cloudbench check', 'cloudbench format', 'cloudbench stats', 'cloudbench test-rule'])
      assert.ok(r.stdout.includes(command), command);
    assert.match(r.stdout, /Exit codes: 0 clean, 1 problems found, 2 bad usage/);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['no command', [], /no command given/],
    ['an unknown command', ['lint'], /unknown command lint/],
    ['an unknown flag', ['check', '--strict'], /check: unknown option --strict/],
    ['a missing path', ['check', 'missing.udm'], /no such file or folder: missing\.udm/],
    ['a file no language claims', ['check', 'notes.txt'], /notes\.txt is not a \.udm, \.yaral, \.udmnb file/],
    ['an unknown output format', ['check', '--format', 'xml'], /--format must be human, json, sarif/],
    ['a flag without its value', ['check', '--format'], /--format needs a value/],
    ['a negative --max-warnings', ['check', '--max-warnings', '-1'], /whole number/],
    ['a --max-warnings that is no number', ['check', '--max-warnings', 'many'], /whole number/],
    ['a missing --lists folder', ['check', '--lists', 'nowhere'], /--lists nowhere: ENOENT/],
    ['format with an unknown flag', ['format', '--write'], /format: unknown option --write/],
    ['stats without --events', ['stats', '--query', 'a.udm'], /--events FILE is required/],
    [
      'stats with a missing query file',
      ['stats', '--query', 'b.udm', '--events', 'a.udm'],
      /--query b\.udm: no such file/,
    ],
    [
      'stats with an unknown time zone',
      ['stats', '--query', 'a.udm', '--events', 'x', '--tz', 'Mars/Olympus'],
      /not an IANA time zone/,
    ],
    ['test-rule without a rule', ['test-rule', '--events', 'x.ndjson'], /the RULE file \(\.yaral\) is required/],
    ['test-rule without --events', ['test-rule', 'r.yaral'], /test-rule: --events FILE is required/],
    ['test-rule with two rules', ['test-rule', 'r.yaral', 'r.yaral', '--events', 'x'], /one RULE file at a time/],
    ['test-rule on a query file', ['test-rule', 'a.udm', '--events', 'x'], /a\.udm is not a \.yaral rule file/],
    [
      'test-rule with a missing rule file',
      ['test-rule', 'gone.yaral', '--events', 'x'],
      /test-rule: gone\.yaral: no such file/,
    ],
    [
      'test-rule with an unknown output format',
      ['test-rule', 'r.yaral', '--events', 'x', '--format', 'csv'],
      /--format must be json, text/,
    ],
  ];
  for (const [what, args, message] of bad) {
    it(`exits 2 with a usage line on ${what}`, () => {
      const r = runCli(cli, args, dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message);
      assert.match(r.stderr, /\nusage: cloudbench /);
    });
  }
});
