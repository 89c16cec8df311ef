// Floods against the UDM language service and the language server process: a megabyte of `"`,
// 100,000 nested calls, 20,000 nested parentheses and a 100,000-term arithmetic chain get a bounded
// answer from every feature (at most 1,000 diagnostics and one summary, formatting refused with a
// message beyond the depth it lays out), and nothing overflows the stack.
import assert from 'node:assert/strict';
import { compileQuery } from '../../src/udm';
import {
  complete,
  format,
  formatRefusal,
  formatText,
  hover,
  MAX_FORMAT_DEPTH,
  semanticTokens,
  signatureHelp,
  toLspDiagnostics,
  UdmDocument,
} from '../../src/udm/service';
import { MAX_SEMANTIC_TOKENS } from '../../src/udm/ide/semantic-tokens';
import { LspClient } from '../integration/server/lsp-client';
import { FLOODS } from './hostile-inputs';

const FORMAT_OPTIONS = { tabSize: 2, insertSpaces: true };

function assertBoundedDiagnostics(text: string, hidden?: number): void {
  const doc = new UdmDocument(text, 1, {});
  const diagnostics = toLspDiagnostics(doc.analysis);
  assert.equal(diagnostics.length, 1001);
  const summary = diagnostics[1000];
  assert.equal(summary.code, 'too-many-problems');
  assert.equal(typeof summary.message, 'string');
  assert.match(summary.message as string, /^…and [\d,]+ more problems in this document/);
  if (hidden !== undefined) assert.deepEqual(summary.data, { hidden });
  assert.ok(diagnostics.slice(0, 1000).every((d) => d.code !== 'too-many-problems'));
  assert.equal(doc.analysis.hasErrors, true);
}

describe('hostile: language floods', function () {
  this.timeout(120_000);

  it('a megabyte of " gets 1,000 diagnostics and one summary of the other 499,000', () => {
    assertBoundedDiagnostics(FLOODS.quotes(), 499_000);
  });

  it('100,000 nested strings.lower( and a 100,000-term sum get bounded diagnostics, no stack overflow', () => {
    assertBoundedDiagnostics(FLOODS.nestedCalls());
    assertBoundedDiagnostics(FLOODS.arithmetic());
    const chain = compileQuery(FLOODS.arithmetic());
    assert.ok(chain.diagnostics.some((d) => d.code === 'too-deep'));
    assert.equal(chain.matches({ target: { port: 1 } }), false);
  });

  it('errors are listed before warnings when the list is cut, so a query with an error never runs', () => {
    const q = `${Array(1100).fill('network.sent_bytes < 0').join(' or ')} or principal.hostnme = "x"`;
    const c = compileQuery(q);
    assert.equal(c.diagnostics.length, 1001);
    assert.ok(c.diagnostics.some((d) => d.severity === 'error' && d.code === 'unknown-field'));
    assert.equal(c.hasErrors, true);
  });

  it('completion, hover, signature help and semantic tokens stay bounded on every flood', () => {
    for (const text of [FLOODS.quotes(), FLOODS.nestedCalls(), FLOODS.nestedParens(), FLOODS.arithmetic()]) {
      const doc = new UdmDocument(text, 1, {});
      const a = doc.analysis;
      for (const offset of [0, text.length >> 1, text.length]) {
        const at = a.lines.position(offset);
        const items = complete(a, at, []);
        assert.ok(Array.isArray(items) && items.length < 5000);
        const h = hover(a, at, {});
        assert.ok(h === null || JSON.stringify(h).length < 20_000);
        signatureHelp(a, at);
      }
      const data = semanticTokens(a);
      assert.equal(data.length % 5, 0);
      assert.ok(data.length <= MAX_SEMANTIC_TOKENS * 5, `${data.length}`);
    }
  });

  it('Format Document on 20,000 nested parentheses returns no edits and says why', () => {
    const doc = new UdmDocument(FLOODS.nestedParens(), 1, {});
    assert.deepEqual(format(doc.analysis, FORMAT_OPTIONS), []);
    assert.match(formatRefusal(doc.analysis)!, /nested 20,000 deep.*up to 200 levels/);
    assert.deepEqual(format(new UdmDocument(FLOODS.nestedCalls(), 1, {}).analysis, FORMAT_OPTIONS), []);
  });

  it('formats nesting up to the limit, and the result keeps its meaning', () => {
    const depth = MAX_FORMAT_DEPTH;
    const long = `principal.hostname = "${'h'.repeat(60)}" and target.port = 443`;
    const text = `${'('.repeat(depth)}${long}${')'.repeat(depth)}`;
    const doc = new UdmDocument(text, 1, {});
    assert.equal(formatRefusal(doc.analysis), undefined);
    const edits = format(doc.analysis, FORMAT_OPTIONS);
    assert.equal(edits.length, 1);
    const formatted = edits[0].newText;
    const again = new UdmDocument(formatted, 1, {});
    assert.equal(formatText(again.analysis), formatted, 'formatting is stable');
    const event = { principal: { hostname: 'h'.repeat(60) }, target: { port: 443 } };
    assert.equal(compileQuery(text).matches(event), true);
    assert.equal(compileQuery(formatted).matches(event), true);
  });

  describe('through the language server process', () => {
    let client: LspClient;
    let nextMessage: Promise<{ type: number; message: string }>;
    before(async () => {
      client = (await LspClient.start({})).client;
      nextMessage = new Promise((resolve) => client.connection.onNotification('window/showMessage', resolve));
    });
    after(async () => {
      await client?.stop();
    });

    it('publishes at most 1,001 diagnostics for a megabyte of "', async () => {
      const uri = 'file:///work/quotes.udm';
      const published = client.nextDiagnostics(uri);
      await client.open(uri, FLOODS.quotes());
      const p = await published;
      assert.equal(p.diagnostics.length, 1001);
      assert.equal(p.diagnostics[1000].code, 'too-many-problems');
    });

    it('answers Format Document on 20,000 nested parentheses with no edits and a message', async () => {
      const uri = 'file:///work/parens.udm';
      await client.open(uri, FLOODS.nestedParens());
      const edits = await client.request<unknown[]>('textDocument/formatting', {
        textDocument: { uri },
        options: FORMAT_OPTIONS,
      });
      assert.deepEqual(edits, []);
      const shown = await nextMessage;
      assert.equal(shown.type, 3);
      assert.match(shown.message, /Not formatted: parentheses are nested 20,000 deep/);
      // the server is still there and answers the next request
      const hovered = await client.request('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character: 20001 },
      });
      assert.ok(hovered === null || typeof hovered === 'object');
    });
  });
});
