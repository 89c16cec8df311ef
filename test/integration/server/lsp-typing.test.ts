// Typing in a large document over the LSP wire: diagnostics are computed once a burst of changes
// ends (the pulls and pushes it made stale are dropped), an unchanged answer says so, and
// semantic tokens come as edits that add up to the full tokens.
import * as assert from 'node:assert/strict';
import { CancellationTokenSource, ResponseError } from 'vscode-jsonrpc/node';
import { analyze } from '../../../src/udm/index';
import { semanticTokens, toLspDiagnostics } from '../../../src/udm/service';
import { applyTokenEdits } from '../../../src/udm/ide/semantic-tokens-delta';
import { LspClient } from './lsp-client';

const PULL = { textDocument: { diagnostic: { dynamicRegistration: false } } };

/** A search of `lines` lines, large enough to be checked only once typing pauses. */
function bigQuery(lines: number): string {
  const out = ['// one long hunt'];
  for (let i = 1; out.length < lines - 1; i++)
    out.push(`(principal.hostname = "host-${i}" and metadata.event_type = "USER_LOGIN") or`);
  out.push('principal.ip = "10.0.0.1"');
  return `${out.join('\n')}\n`;
}

type Report = { kind: 'full'; resultId?: string; items: unknown[] } | { kind: 'unchanged'; resultId: string };

const expected = (text: string): unknown => JSON.parse(JSON.stringify(toLspDiagnostics(analyze(text))));

/** The text after typing `typed` at the end of 0-based `line`, and the incremental change that does it. */
function typeAt(text: string, line: number, typed: string): { text: string; change: unknown } {
  const lines = text.split('\n');
  const character = lines[line].length;
  lines[line] += typed;
  return {
    text: lines.join('\n'),
    change: { range: { start: { line, character }, end: { line, character } }, text: typed },
  };
}

describe('UDM language server: typing in a large document', function () {
  this.timeout(60000);
  let client: LspClient;
  let capabilities: Record<string, unknown>;

  before(async () => {
    const started = await LspClient.start(PULL);
    client = started.client;
    capabilities = started.initializeResult.capabilities;
  });

  after(async () => {
    await client?.stop();
  });

  it('announces semantic tokens as edits of the previous answer', () => {
    assert.deepEqual((capabilities.semanticTokensProvider as { full: unknown }).full, { delta: true });
  });

  it('a burst of changes ends in one pull answered for the last text; the pulls it made stale end cancelled', async () => {
    const uri = 'file:///work/burst.udm';
    let text = bigQuery(2000);
    await client.open(uri, text);
    const first = await client.request<Report>('textDocument/diagnostic', { textDocument: { uri } });
    assert.equal(first.kind, 'full');
    assert.deepEqual(first.kind === 'full' && first.items, expected(text));

    // As the editor does: a change, a pull, and the next change cancels that pull.
    const pulls: Array<Promise<Report>> = [];
    let previous: CancellationTokenSource | undefined;
    const typed = ' or target.ip = "10.1.2.3" and (';
    for (let i = 0; i < typed.length; i++) {
      const step = typeAt(text, 1000, typed[i]);
      text = step.text;
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: i + 2 },
        contentChanges: [step.change],
      });
      previous?.cancel();
      previous = new CancellationTokenSource();
      pulls.push(
        client.connection.sendRequest<Report>(
          'textDocument/diagnostic',
          { textDocument: { uri }, previousResultId: first.resultId },
          previous.token,
        ),
      );
    }
    const settled = await Promise.allSettled(pulls);
    const last = settled.pop()!;
    for (const s of settled) {
      assert.equal(s.status, 'rejected', 'a stale pull is answered with no report');
      assert.ok(s.status === 'rejected' && s.reason instanceof ResponseError && s.reason.code === -32800);
    }
    assert.equal(last.status, 'fulfilled');
    const report = last.value;
    assert.equal(report.kind, 'full');
    // The unclosed `(` is an error on line 1001: the report is the final text's.
    assert.deepEqual(report.kind === 'full' && report.items, expected(text));
    assert.ok(report.kind === 'full' && report.items.length > 0);

    // Asked again with nothing changed: "unchanged", same id.
    const again = await client.request<Report>('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId: report.resultId,
    });
    assert.deepEqual(again, { kind: 'unchanged', resultId: report.resultId });

    // A line inserted above moves the error: a full report with the new ranges.
    const moved = `// a new first line\n${text}`;
    await client.change(uri, moved, 100);
    const after = await client.request<Report>('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId: report.resultId,
    });
    assert.equal(after.kind, 'full');
    assert.deepEqual(after.kind === 'full' && after.items, expected(moved));
  });

  it('semantic tokens asked as edits after each change add up to the full tokens, at the end and in the middle', async () => {
    const uri = 'file:///work/colours.udm';
    let text = bigQuery(600);
    await client.open(uri, text);
    const full = await client.request<{ resultId: string; data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri },
    });
    assert.deepEqual(full.data, semanticTokens(analyze(text)));
    let shown = full.data;
    let resultId = full.resultId;
    let version = 1;
    const edits: Array<[number, string]> = [
      [300, ' or target.ip = "10'],
      [300, '.1.2.3"'],
      [598, '\nand /* a comment'],
      [599, ' over */ principal.port = 22'],
      [0, ' more'],
      [150, ' re.regex(target.url, `x`)'],
    ];
    for (const [line, typed] of edits) {
      const step = typeAt(text, line, typed);
      text = step.text;
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [step.change],
      });
      const delta = await client.request<{
        resultId: string;
        edits: Array<{ start: number; deleteCount: number; data?: number[] }>;
      }>('textDocument/semanticTokens/full/delta', { textDocument: { uri }, previousResultId: resultId });
      assert.ok(Array.isArray(delta.edits), 'answered with edits');
      assert.ok(
        delta.edits.reduce((n, e) => n + (e.data?.length ?? 0), 0) < 200,
        'a typed word changes a few tokens, not the document',
      );
      shown = applyTokenEdits(shown, delta.edits);
      resultId = delta.resultId;
      assert.deepEqual(shown, semanticTokens(analyze(text)), `after typing ${JSON.stringify(typed)} on line ${line}`);
    }
  });

  it('semantic tokens asked while typing goes on are answered "content modified", and asked again once it stops', async () => {
    const uri = 'file:///work/busy.udm';
    let text = bigQuery(2000);
    await client.open(uri, text);
    const full = await client.request<{ resultId: string; data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri },
    });
    let version = 1;
    const type = async (typed: string): Promise<void> => {
      const step = typeAt(text, 1000, typed);
      text = step.text;
      await client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [step.change],
      });
    };
    await type(' or');
    const asked = client.request('textDocument/semanticTokens/full/delta', {
      textDocument: { uri },
      previousResultId: full.resultId,
    });
    await type(' target.ip = "10.1.2.3"');
    await assert.rejects(asked, (e: unknown) => e instanceof ResponseError && e.code === -32801);
    // The editor still shows the first answer: it asks relative to that one.
    const delta = await client.request<{
      resultId: string;
      edits: Array<{ start: number; deleteCount: number; data?: number[] }>;
    }>('textDocument/semanticTokens/full/delta', { textDocument: { uri }, previousResultId: full.resultId });
    assert.deepEqual(applyTokenEdits(full.data, delta.edits), semanticTokens(analyze(text)));
  });
});

describe('UDM language server: typing in a large document, pushed diagnostics', function () {
  this.timeout(60000);

  it('a burst of changes ends in one publish, for the last version', async () => {
    const { client } = await LspClient.start({});
    try {
      const uri = 'file:///work/pushed.udm';
      let text = bigQuery(2000);
      const opened = client.nextDiagnostics(uri);
      await client.open(uri, text);
      assert.deepEqual((await opened).diagnostics, expected(text));
      const published = client.nextDiagnostics(uri);
      const typed = ' and principal.hostnme = "x"';
      for (let i = 0; i < typed.length; i++) {
        const step = typeAt(text, 1999, typed[i]);
        text = step.text;
        await client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version: i + 2 },
          contentChanges: [step.change],
        });
      }
      const p = await published;
      assert.equal(p.version, typed.length + 1, 'the first publish after the burst is of its last version');
      assert.deepEqual(p.diagnostics, expected(text));
      assert.ok(p.diagnostics.some((d) => d.code === 'unknown-field'));
    } finally {
      await client.stop();
    }
  });
});
