// `cloudbench format` run as a process: --check lists what would change and writes nothing, a run
// without it writes only the files that change (notebooks cell by cell), and the result is what the
// language server's Format Document gives the editor.
import assert from 'node:assert/strict';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from '../integration/server/lsp-client';
import { cliPath, removeWorkspaces, runCli, workspace } from './cli-support';

const MESSY = 'metadata.event_type="USER_LOGIN"   and principal.hostname="web-1"\n';
const TIDY = 'metadata.event_type = "USER_LOGIN" AND principal.hostname = "web-1"\n';
const UNCLOSED = 'principal.hostname = "web-1\n';

function notebookWith(source: string[]): string {
  const output = {
    kind: 'error',
    ranAt: '2026-11-01T10:00:00Z',
    message: 'kept  as  written',
    note: 'a field this version does not know is kept as it is',
  };
  return `${JSON.stringify(
    {
      format: 'cloudbench-udm-notebook',
      version: 1,
      cells: [
        { kind: 'markdown', source: ['a   note   stays'] },
        { kind: 'udm', source, executionOrder: 2, output },
      ],
    },
    null,
    2,
  )}\n`;
}

describe('cloudbench format (the built CLI)', function () {
  this.timeout(120_000);
  let cli: string;

  before(async () => {
    cli = await cliPath();
  });
  after(removeWorkspaces);

  it('--check lists the files that would change, exits 1 and writes nothing', () => {
    const dir = workspace({ 'messy.udm': MESSY, 'tidy.udm': TIDY, 'n.udmnb': notebookWith(MESSY.trim().split('\n')) });
    const before = ['messy.udm', 'tidy.udm', 'n.udmnb'].map((f) => readFileSync(join(dir, f), 'utf8'));
    const r = runCli(cli, ['format', '--check', '.'], dir);
    assert.equal(r.code, 1);
    assert.deepEqual(r.stdout.trim().split('\n').sort(), ['messy.udm', 'n.udmnb']);
    assert.match(r.stderr, /2 of 3 files would change/);
    const after = ['messy.udm', 'tidy.udm', 'n.udmnb'].map((f) => readFileSync(join(dir, f), 'utf8'));
    assert.deepEqual(after, before);
  });

  it('--check exits 0 when nothing would change', () => {
    const dir = workspace({ 'tidy.udm': TIDY });
    const r = runCli(cli, ['format', '--check'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, '');
  });

  it('writes the files that change and leaves the others untouched', () => {
    const dir = workspace({ 'messy.udm': MESSY, 'tidy.udm': TIDY });
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(join(dir, 'tidy.udm'), past, past);
    const r = runCli(cli, ['format', '.'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'formatted messy.udm\n');
    assert.equal(readFileSync(join(dir, 'messy.udm'), 'utf8'), TIDY);
    assert.equal(statSync(join(dir, 'tidy.udm')).mtimeMs, past.getTime());
    assert.equal(runCli(cli, ['format', '--check'], dir).code, 0);
  });

  it('keeps Windows line ends as the editor does', () => {
    const dir = workspace({ 'crlf.udm': MESSY.replace(/\n/g, '\r\n') + 'principal.ip="10.0.0.1"\r\n' });
    assert.equal(runCli(cli, ['format', 'crlf.udm'], dir).code, 0);
    assert.equal(
      readFileSync(join(dir, 'crlf.udm'), 'utf8'),
      TIDY.replace(/\n/g, '\r\n') + 'principal.ip = "10.0.0.1"\r\n',
    );
    assert.equal(runCli(cli, ['format', '--check', 'crlf.udm'], dir).code, 0);
  });

  it('formats a notebook cell by cell, keeping every other byte of the file', () => {
    const messy = notebookWith(MESSY.trim().split('\n'));
    const dir = workspace({ 'n.udmnb': messy });
    assert.equal(runCli(cli, ['format', 'n.udmnb'], dir).code, 0);
    const written = readFileSync(join(dir, 'n.udmnb'), 'utf8');
    assert.equal(written, notebookWith(TIDY.trim().split('\n')));
    assert.match(written, /a {3}note {3}stays/);
    assert.match(written, /"note": "a field this version does not know is kept as it is"/);
  });

  it('refuses a file with a lexical error: says why, exits 1 and leaves it alone', () => {
    const dir = workspace({ 'bad.udm': UNCLOSED, 'messy.udm': MESSY });
    const r = runCli(cli, ['format'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^bad\.udm: not formatted: line 1 has /m);
    assert.equal(readFileSync(join(dir, 'bad.udm'), 'utf8'), UNCLOSED);
    assert.equal(readFileSync(join(dir, 'messy.udm'), 'utf8'), TIDY);
  });

  it('gives the text the language server gives the editor', async () => {
    const queries = [
      MESSY,
      'principal.ip="10.0.0.1"  or  (target.port=443 and not target.hostname="x")\nmatch:\n principal.hostname\noutcome:\n   $n=count(metadata.id)\n',
      `${'principal.hostname = "a" or '.repeat(8)}principal.hostname = "z"\n`,
    ];
    const files = Object.fromEntries(queries.map((q, i) => [`q${i}.udm`, q]));
    const dir = workspace(files);
    assert.equal(runCli(cli, ['format'], dir).code, 0);
    const { client } = await LspClient.start();
    try {
      for (const [name, text] of Object.entries(files)) {
        const uri = `file:///work/${name}`;
        await client.open(uri, text);
        const edits = await client.request<Array<{ newText: string }>>('textDocument/formatting', {
          textDocument: { uri },
          options: { tabSize: 2, insertSpaces: true },
        });
        assert.equal(edits.length, 1, `${name}: the server changes nothing`);
        assert.equal(readFileSync(join(dir, name), 'utf8'), edits[0].newText, name);
      }
    } finally {
      await client.stop();
    }
  });
});
