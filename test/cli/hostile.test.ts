// The built `cloudbench` command against a hostile repository, as CI runs it on someone else's pull
// request: links out of the repository, forged workflow commands, link markup for code scanning,
// huge and malformed files, and a failure of the tool itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '../integration/server/lsp-client';
import { placeholderBombRule } from '../support/rule-texts';
import { assertValidSarif, cliPath, removeWorkspaces, workspace, type CliResult } from './cli-support';

const SECRET = 'hunter2-do-not-print';
const TOKEN = 'tok-7f3a9c1e-never-in-output';

interface Run extends CliResult {
  readonly ms: number;
}

/** The CLI as a process in `cwd`, with extra environment variables. */
function run(cli: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout = 120_000): Run {
  const started = Date.now();
  const r = spawnSync(cli, args, {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, ...env },
    encoding: 'utf8',
    timeout,
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** GitHub Actions reads a line whose trimmed text starts with `::`, or holding `##[`, as a command. */
function assertNoWorkflowCommand(text: string): void {
  for (const line of text.split(/\r\n|\r|\n|\u2028|\u2029/)) {
    assert.ok(!line.trim().startsWith('::'), `a line starts a workflow command: ${JSON.stringify(line)}`);
    assert.ok(!line.includes('##['), `a line holds an old-style workflow command: ${JSON.stringify(line)}`);
  }
}

describe('cloudbench against a hostile repository (the built CLI)', function () {
  this.timeout(180_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('never follows a link out of the folder: leak.udm -> ../secret/creds.env is reported, never read', () => {
    const base = workspace({
      'secret/creds.env': `principal.hostname = "${SECRET}" and API_KEY=${SECRET}\n`,
      'repo/ok.udm': 'metadata.event_type = "USER_LOGIN"\n',
    });
    const repo = join(base, 'repo');
    symlinkSync('../secret/creds.env', join(repo, 'leak.udm'));
    for (const args of [
      ['check'],
      ['check', '--format', 'json'],
      ['check', '--format', 'sarif'],
      ['check', 'leak.udm'],
      ['format', '--check'],
    ]) {
      const r = run(cli, args, repo);
      assert.ok(!(r.stdout + r.stderr).includes(SECRET), `${args.join(' ')} printed the secret`);
      assert.match(r.stdout + r.stderr, /leak\.udm/, `${args.join(' ')} does not say it skipped leak.udm`);
      assert.notEqual(r.code, 3, r.stderr);
    }
    const human = run(cli, ['check'], repo);
    assert.match(human.stdout, /^leak\.udm:1:1: warning: Skipped: a symbolic link .* \[file\/outside-root\]$/m);
    const sarif = JSON.parse(run(cli, ['check', '--format', 'sarif'], repo).stdout);
    assertValidSarif(sarif);
  });

  it('--lists: lists/env.cidr -> /proc/self/environ never puts the environment into any output', () => {
    const dir = workspace({
      'q.udm': 'metadata.event_type = "USER_LOGIN"\nprincipal.ip in cidr %env\n',
      'lists/admins.txt': 'alice\n',
    });
    symlinkSync('/proc/self/environ', join(dir, 'lists', 'env.cidr'));
    for (const format of ['human', 'json', 'sarif']) {
      const r = run(cli, ['check', '--lists', 'lists', '--format', format, '.'], dir, { MY_SECRET_TOKEN: TOKEN });
      assert.ok(!(r.stdout + r.stderr).includes(TOKEN), `--format ${format} printed the environment`);
      assert.ok(!(r.stdout + r.stderr).includes('MY_SECRET_TOKEN'), `--format ${format} named the variable`);
      assert.match(r.stdout, /env\.cidr/);
      assert.equal(r.code, 1, r.stderr);
    }
  });

  it('format never replaces a link (in or out of the folder) and never writes through one', () => {
    const messy = 'metadata.event_type="USER_LOGIN"   and principal.hostname="web"\n';
    const base = workspace({ 'outside/q.udm': messy, 'repo/real.udm': messy });
    const repo = join(base, 'repo');
    symlinkSync('../outside/q.udm', join(repo, 'out.udm'));
    symlinkSync('real.udm', join(repo, 'in.udm'));
    const r = run(cli, ['format', '.'], repo);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    for (const link of ['out.udm', 'in.udm']) {
      assert.ok(lstatSync(join(repo, link)).isSymbolicLink(), `${link} is no longer a link`);
      assert.match(r.stderr, new RegExp(`^${link.replace('.', '\\.')}: not formatted: `, 'm'));
    }
    assert.equal(readlinkSync(join(repo, 'out.udm')), '../outside/q.udm');
    assert.equal(readFileSync(join(base, 'outside/q.udm'), 'utf8'), messy);
    // The real file in the folder is formatted, through a temporary file, keeping its mode.
    assert.notEqual(readFileSync(join(repo, 'real.udm'), 'utf8'), messy);
  });

  it('format keeps the mode of the file it rewrites and leaves no temporary file', () => {
    const dir = workspace({ 'q.udm': 'metadata.event_type="USER_LOGIN"   and principal.hostname="web"\n' });
    chmodSync(join(dir, 'q.udm'), 0o751);
    assert.equal(run(cli, ['format'], dir).code, 0);
    assert.equal(statSync(join(dir, 'q.udm')).mode & 0o777, 0o751);
    assert.deepEqual(readdirSync(dir), ['q.udm']);
  });

  it('no output line can start a workflow command: a value and a file name with ::error', () => {
    const dir = workspace({
      'value.udm': 'metadata.event_type = "USER_LOGI\n::error file=README.md::fake"\n##[error]old style\n',
      'unformatted.udm': 'metadata.event_type="USER_LOGIN"   and principal.hostname="web"\n',
    });
    const named = 'x\n::error file=README.md::forged\u2028::warning::also.udm';
    writeFileSync(join(dir, named), 'principal.hostnme = "a"\n');
    writeFileSync(join(dir, 'bidi\u202Eexe.udm'), 'principal.hostnme = "\u001b[31mred"\n');
    const runs = [
      run(cli, ['check'], dir),
      run(cli, ['check', '--format', 'json'], dir),
      run(cli, ['check', '--format', 'sarif'], dir),
      run(cli, ['format', '--check'], dir),
      run(cli, ['check', named], dir),
      run(cli, ['check', 'missing\n::error::x.udm'], dir),
    ];
    for (const r of runs) {
      assertNoWorkflowCommand(r.stdout);
      assertNoWorkflowCommand(r.stderr);
      const out = r.stdout + r.stderr;
      assert.ok(!out.includes('\u001b') && !out.includes('\u202E'), 'an escape or bidi character reached the output');
      assert.notEqual(r.code, 3, r.stderr);
    }
    // The human report names the file with its line breaks escaped, and JSON keeps the name.
    assert.ok(runs[0].stdout.includes('x\\n::error file=README.md::forged\\u2028::warning::also.udm:1:11: error:'));
    const json = JSON.parse(runs[1].stdout);
    assert.ok(json.problems.some((p: { file: string }) => p.file === named));
    assert.ok(json.problems.some((p: { file: string }) => p.file === 'bidi\u202Eexe.udm'));
  });

  it('SARIF message text escapes [link](…) markup and HTML', () => {
    const dir = workspace({
      'q.udm': 'metadata.event_type = "[Reset your password](https://evil.example/login)"\nprincipal.hostname = "a"\n',
    });
    const r = run(cli, ['check', '--format', 'sarif'], dir);
    assert.equal(r.code, 1);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    const texts: string[] = log.runs[0].results.map((x: { message: { text: string } }) => x.message.text);
    assert.ok(
      texts.some((t) => t.includes('\\[Reset your password\\](https://evil.example/login)')),
      texts.join('\n'),
    );
    for (const t of texts) assert.ok(!/(^|[^\\])\[[^\]]*\]\(/.test(t), `an unescaped link: ${t}`);
  });

  it('a 50 KB one-line file gives a bounded report in every format', () => {
    const line = `metadata.event_type = "USER_LOGIN" and ${'principal.hostnme = "a" and '.repeat(1850)}principal.hostname = "b"\n`;
    assert.ok(line.length > 50_000);
    const dir = workspace({ 'long.udm': line });
    for (const format of ['human', 'json', 'sarif']) {
      const r = run(cli, ['check', '--format', format], dir);
      assert.equal(r.code, 1, r.stderr);
      assert.ok(r.stdout.length < 200_000, `--format ${format}: ${r.stdout.length} characters`);
      if (format === 'human') {
        for (const l of r.stdout.split('\n')) assert.ok(l.length < 400, `a line of ${l.length} characters`);
        const summary = /([\d,]+) errors and 0 warnings in 1 file checked\. ([\d,]+) problems not listed\.\n$/.exec(
          r.stdout,
        );
        assert.ok(summary, r.stdout.slice(-300));
        const listed = r.stdout
          .split('\n')
          .filter((l) => l.startsWith('long.udm:1:') && l.includes(': error: ')).length;
        assert.equal(listed, 100);
        assert.equal(Number(summary[1].replace(/,/g, '')) - listed, Number(summary[2].replace(/,/g, '')));
        assert.match(
          r.stdout,
          /^long\.udm:1:1: info: [\d,]+ more problems in this file are not listed \[file\/more-problems\]$/m,
        );
      }
    }
  });

  it('1 MB of " does not crash: exit 1 with a bounded report', () => {
    const dir = workspace({ 'quotes.udm': '"'.repeat(1 << 20) });
    const r = run(cli, ['check'], dir);
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.doesNotMatch(r.stderr, /RangeError|Invalid string length/);
    assert.ok(r.stdout.length < 200_000, `${r.stdout.length} characters`);
    assert.match(r.stdout, /errors? and 0 warnings in 1 file checked/);
  });

  it('130,000 stray ) in a rule: exit 1 with diagnostics and a SARIF log', () => {
    const rule = `rule stray {\n  events:\n    $e.metadata.event_type = "USER_LOGIN" ${')'.repeat(130_000)}\n  condition:\n    $e\n}\n`;
    const dir = workspace({ 'stray.yaral': rule });
    const r = run(cli, ['check', '--format', 'sarif'], dir);
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.doesNotMatch(r.stderr, /Maximum call stack/);
    const log = JSON.parse(r.stdout);
    assertValidSarif(log);
    assert.ok(log.runs[0].results.length > 0);
    assert.ok(r.stdout.length < 1_000_000, `${r.stdout.length} characters`);
  });

  it('130,000 stray ) in a rule: the language server still answers with diagnostics for the document', async () => {
    const rule = `rule stray {\n  events:\n    $e.metadata.event_type = "USER_LOGIN" ${')'.repeat(130_000)}\n  condition:\n    $e\n}\n`;
    const { client } = await LspClient.start();
    try {
      const uri = 'file:///work/stray.yaral';
      await client.open(uri, rule, 1, 'yaral');
      const answer = await client.request<{ items: Array<{ message: string }> }>('textDocument/diagnostic', {
        textDocument: { uri },
      });
      assert.ok(answer.items.length > 0);
      assert.ok(
        answer.items.some((d) => /\)/.test(d.message)),
        answer.items[0].message,
      );
    } finally {
      await client.stop();
    }
  });

  it('a 600 MB list file is refused by its size before it is read', () => {
    const dir = workspace({ 'q.udm': 'principal.user.userid in %big\n', 'lists/small.txt': 'alice\n' });
    writeFileSync(join(dir, 'lists/big.txt'), '');
    // Sparse: 600 MB of zeros that take no disk.
    truncateSync(join(dir, 'lists/big.txt'), 600 * 1024 * 1024);
    const r = run(cli, ['check', '--lists', 'lists', '.'], dir);
    assert.equal(r.code, 1, r.stderr.slice(0, 2000));
    assert.doesNotMatch(r.stderr, /ERR_STRING_TOO_LONG|RangeError/);
    assert.match(r.stdout, /^lists\/big\.txt:1:1: error: Not checked: 600 MB, larger than the 10 MB read at most/m);
    assert.ok(r.ms < 30_000, `${r.ms} ms`);
  });

  it('a Latin-1 file is reported as not UTF-8 and never rewritten by format', () => {
    const dir = workspace({});
    const bytes = Buffer.from('principal.hostname   =   "caf\xe9"\n', 'latin1');
    writeFileSync(join(dir, 'latin1.udm'), bytes);
    const check = run(cli, ['check'], dir);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /^latin1\.udm:1:1: error: Not checked: not UTF-8; not checked \[file\/not-utf8\]$/m);
    const format = run(cli, ['format'], dir);
    assert.equal(format.code, 1);
    assert.match(format.stderr, /^latin1\.udm: not formatted: not UTF-8/m);
    assert.deepEqual(readFileSync(join(dir, 'latin1.udm')), bytes);
  });

  it('a UTF-8 byte order mark is kept by format and not reported by check', () => {
    const dir = workspace({ 'bom.udm': '\uFEFFmetadata.event_type="USER_LOGIN"   and principal.hostname="web"\n' });
    assert.equal(run(cli, ['check'], dir).code, 0);
    assert.equal(run(cli, ['format'], dir).code, 0);
    const text = readFileSync(join(dir, 'bom.udm'), 'utf8');
    assert.ok(text.startsWith('\uFEFFmetadata.event_type = "USER_LOGIN"'), JSON.stringify(text.slice(0, 40)));
  });

  it('a folder with no file to check is exit code 2, not a pass', () => {
    const dir = workspace({ 'docs/readme.txt': 'nothing here\n' });
    for (const command of ['check', 'format']) {
      const r = run(cli, [command, 'docs'], dir);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, /nothing to/);
    }
  });

  it('a failure of the tool itself is exit code 3 with one short line, never 1', () => {
    const dir = workspace({ 'q.udm': 'metadata.event_type = "USER_LOGIN"\n' });
    // An honest internal failure: the runtime's JSON writer breaks under the tool.
    writeFileSync(join(dir, 'break.cjs'), 'JSON.stringify = () => { throw new Error("writer broke"); };\n');
    const r = run(cli, ['check', '--format', 'json', 'q.udm'], dir, {
      NODE_OPTIONS: `--require ${join(dir, 'break.cjs')}`,
    });
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stderr, /^cloudbench: internal error \(Error: writer broke\)/);
    assert.ok(r.stderr.split('\n').length <= 2, r.stderr);
  });

  it('test-rule over a rule whose placeholders multiply stops at the work limit and says so, exit 1', () => {
    // `$p1`…`$p7 = $e.principal.ip` over events with 16 addresses each, each placeholder equal to the
    // next: 16^7 combinations per event of which 16 hold, so no cap on rows stops it, only the
    // engine's one work limit counting every combination.
    const rule = placeholderBombRule(7);
    const events = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        metadata: {
          eventTimestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
          eventType: 'NETWORK_CONNECTION',
        },
        principal: { hostname: `h${i}`, ip: Array.from({ length: 16 }, (_, j) => `10.7.${i}.${j + 1}`) },
      }),
    );
    const dir = workspace({ 'bomb.yaral': rule, 'events.ndjson': `${events.join('\n')}\n` });
    // A hang guard, not a figure: without the bound this rule ran for minutes.
    const r = run(cli, ['test-rule', 'bomb.yaral', '--events', 'events.ndjson'], dir, {}, 60_000);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { cut?: { reason: string; message: string }; detections: unknown[] };
    assert.equal(out.cut?.reason, 'work-limit');
    assert.match(out.cut.message, /^The join stopped after [\d,]+ combinations of \$e's placeholder values/);
    assert.match(
      out.cut.message,
      /: (no detection was found before it|the [\d,]+ detections shown are those found before it)/,
    );
    assert.ok(out.detections.length <= 48, String(out.detections.length));
    assert.match(r.stderr, /^incomplete: The join stopped after [\d,]+ combinations/m);
    // The text report says so on its first line too.
    const text = run(
      cli,
      ['test-rule', 'bomb.yaral', '--events', 'events.ndjson', '--format', 'text'],
      dir,
      {},
      60_000,
    );
    assert.equal(text.code, 1, text.stderr);
    assert.match(text.stdout, /^placeholder_bomb: (no|[\d,]+) detections \(incomplete: the engine stopped early\)\n/);
  });
});
