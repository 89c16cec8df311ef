import * as assert from 'node:assert/strict';
import { LspClient } from './lsp-client';

interface CompletionItem {
  label: string;
  detail?: string;
  kind?: number;
}

describe('UDM language server over stdio', function () {
  this.timeout(60000);
  let client: LspClient;
  let capabilities: Record<string, unknown>;
  const uri = 'file:///work/query.udm';
  const text = 'metadata.event_type = "USER_LOGIN"\nprincipal.hostnme = "alice"\nmetadata.';

  before(async () => {
    const started = await LspClient.start({}, { referenceLists: { admins: ['root'] } });
    client = started.client;
    capabilities = started.initializeResult.capabilities;
  });

  after(async () => {
    await client?.stop();
  });

  it('announces its features', () => {
    for (const key of [
      'completionProvider',
      'hoverProvider',
      'signatureHelpProvider',
      'documentFormattingProvider',
      'codeActionProvider',
      'foldingRangeProvider',
      'semanticTokensProvider',
      'diagnosticProvider',
      'documentSymbolProvider',
    ]) {
      assert.ok(capabilities[key], `missing ${key}`);
    }
  });

  it('publishes diagnostics on open with exact ranges', async () => {
    const published = client.nextDiagnostics(uri);
    await client.open(uri, text);
    const p = await published;
    const misspelt = p.diagnostics.find((d) => d.code === 'unknown-field');
    assert.ok(misspelt, JSON.stringify(p.diagnostics));
    assert.deepEqual(misspelt.range, { start: { line: 1, character: 10 }, end: { line: 1, character: 17 } });
    assert.match(misspelt.message, /Did you mean 'hostname'/);
    assert.equal(misspelt.severity, 1);
    assert.ok(p.diagnostics.some((d) => d.range.start.line === 2 && /field name after/.test(d.message)));
  });

  it('re-publishes after a change', async () => {
    const published = client.nextDiagnostics(uri);
    await client.change(uri, 'principal.hostname = "alice"', 2);
    const p = await published;
    assert.equal(p.version, 2);
    assert.deepEqual(p.diagnostics, []);
    const again = client.nextDiagnostics(uri);
    await client.change(uri, text, 3);
    assert.equal((await again).diagnostics.length, 2);
  });

  it('answers pull diagnostics with the same findings', async () => {
    const report = await client.request<{ kind: string; items: Array<{ code?: string }> }>('textDocument/diagnostic', {
      textDocument: { uri },
    });
    assert.equal(report.kind, 'full');
    assert.deepEqual(report.items.map((d) => d.code).sort(), ['empty-segment', 'unknown-field']);
  });

  it('completes field paths segment by segment', async () => {
    const items = await client.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 9 },
    });
    const eventType = items.find((i) => i.label === 'event_type');
    assert.ok(eventType);
    assert.equal(eventType.detail, 'enum Metadata.EventType');
    assert.ok(items.some((i) => i.label === 'event_timestamp' && i.detail === 'timestamp'));
    assert.ok(!items.some((i) => i.label === 'hostname'), 'Noun fields must not appear under metadata');
  });

  it('completes enum values quoted after an operator', async () => {
    const items = await client.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 0, character: 22 },
    });
    assert.ok(items.some((i) => i.label === '"USER_LOGIN"'));
  });

  it('hovers fields and enum values', async () => {
    const h = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 12 },
    });
    assert.match(h.contents.value, /metadata\.event_type/);
    assert.match(h.contents.value, /enum Metadata\.EventType/);
    const e = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 26 },
    });
    assert.match(e.contents.value, /USER_LOGIN` = 15001/);
  });

  it('offers the "did you mean" quick fix', async () => {
    const actions = await client.request<
      Array<{ title: string; edit: { changes: Record<string, Array<{ newText: string }>> } }>
    >('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 1, character: 12 }, end: { line: 1, character: 12 } },
      context: { diagnostics: [] },
    });
    const fix = actions.find((a) => a.title === 'Change to hostname');
    assert.ok(fix);
    assert.equal(fix.edit.changes[uri][0].newText, 'hostname');
  });

  it('formats, folds and colours', async () => {
    const doc2 = 'file:///work/stats.udm';
    const published = client.nextDiagnostics(doc2);
    await client.open(doc2, '$h=principal.hostname\nmatch:\n$h\noutcome:\n$c = count( metadata.id )\n');
    assert.deepEqual((await published).diagnostics, []);
    const edits = await client.request<Array<{ newText: string }>>('textDocument/formatting', {
      textDocument: { uri: doc2 },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(edits[0].newText, '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\n');
    const folds = await client.request<Array<{ startLine: number; endLine: number }>>('textDocument/foldingRange', {
      textDocument: { uri: doc2 },
    });
    assert.deepEqual(folds, [
      { startLine: 1, endLine: 2 },
      { startLine: 3, endLine: 4 },
    ]);
    const tokens = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri: doc2 },
    });
    assert.equal(tokens.data.length % 5, 0);
    assert.ok(tokens.data.length >= 5 * 10);
  });

  it('gives signature help inside a function call', async () => {
    const doc3 = 'file:///work/fn.udm';
    await client.open(doc3, 'net.ip_in_range_cidr(principal.ip, ');
    const help = await client.request<{ signatures: Array<{ label: string }>; activeParameter: number }>(
      'textDocument/signatureHelp',
      { textDocument: { uri: doc3 }, position: { line: 0, character: 35 } },
    );
    assert.match(help.signatures[0].label, /^net\.ip_in_range_cidr\(ipAddress: string, subnetworkRange: string\)/);
    assert.equal(help.activeParameter, 1);
  });
});

describe('UDM language server over node IPC (as the extension starts it)', function () {
  this.timeout(60000);

  it('initializes, checks a document and honours reference lists sent later', async () => {
    const { client } = await LspClient.start({}, undefined, true);
    try {
      const uri = 'file:///work/ipc.udm';
      const first = client.nextDiagnostics(uri);
      await client.open(uri, 'principal.user.userid in %admins');
      assert.deepEqual((await first).diagnostics, []);
      const second = client.nextDiagnostics(uri);
      await client.connection.sendNotification('cloudbench/udm/referenceLists', { lists: { admin: ['root'] } });
      const p = await second;
      assert.equal(p.diagnostics[0]?.code, 'unknown-list');
      assert.match(p.diagnostics[0].message, /Did you mean %admin\?/);
      const items = await client.request<Array<{ label: string }>>('textDocument/completion', {
        textDocument: { uri },
        position: { line: 0, character: 32 },
      });
      assert.deepEqual(
        items.map((i) => i.label),
        ['%admin'],
      );
    } finally {
      await client.stop();
    }
  });
});

describe('UDM language server: what the Reference Lists view knows of the lists', function () {
  this.timeout(60000);
  const LISTS = [
    {
      name: 'corp_ranges',
      contentType: 'CIDR',
      size: 7,
      description: 'Corporate ranges',
      preview: ['10.0.0.0/8', '192.168.0.0/16'],
    },
    { name: 'admins', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['root'] },
  ];

  it('completes known names with type and size, flags unknown ones as errors, hovers the list', async () => {
    const { client } = await LspClient.start({}, undefined, true);
    try {
      const uri = 'file:///work/lists.udm';
      const first = client.nextDiagnostics(uri);
      await client.open(uri, 'principal.ip in cidr %corp');
      assert.deepEqual((await first).diagnostics, [], 'names are not known yet: nothing is flagged');

      const second = client.nextDiagnostics(uri);
      await client.connection.sendNotification('cloudbench/referenceLists', { lists: LISTS });
      const p = await second;
      assert.equal(p.diagnostics.length, 1);
      assert.equal(p.diagnostics[0].code, 'unknown-list');
      assert.equal(p.diagnostics[0].severity, 1, 'the server listed the lists: an unknown name is an error');
      assert.match(p.diagnostics[0].message, /Did you mean %corp_ranges\?/);

      const items = await client.request<CompletionItem[]>('textDocument/completion', {
        textDocument: { uri },
        position: { line: 0, character: 22 },
      });
      // After `in cidr` only the CIDR lists (Google's `field in cidr %list`): not the string list %admins.
      assert.deepEqual(
        items.map((i) => i.label),
        ['%corp_ranges'],
      );
      assert.equal(items.find((i) => i.label === '%corp_ranges')?.detail, 'CIDR list, 7 entries');

      // A malformed table is ignored; the known one stays.
      await client.connection.sendNotification('cloudbench/referenceLists', { lists: [{ name: 'x' }] });
      const third = client.nextDiagnostics(uri);
      await client.change(uri, 'principal.ip in cidr %corp_ranges', 2);
      assert.deepEqual((await third).diagnostics, []);
      const h = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character: 25 },
      });
      assert.match(h.contents.value, /CIDR reference list, 7 entries/);
      assert.match(h.contents.value, /Corporate ranges/);
      assert.match(h.contents.value, /10\.0\.0\.0\/8\n192\.168\.0\.0\/16\n… 5 more/);
    } finally {
      await client.stop();
    }
  });

  it('when the lists could not be loaded, an unknown name is a warning that says why', async () => {
    const { client } = await LspClient.start({}, undefined, true);
    try {
      const uri = 'file:///work/lists-stale.udm';
      const first = client.nextDiagnostics(uri);
      await client.open(uri, 'principal.ip in cidr %corp');
      await first;
      const second = client.nextDiagnostics(uri);
      await client.connection.sendNotification('cloudbench/referenceLists', {
        lists: LISTS,
        loadError: 'UNAVAILABLE: connect ECONNREFUSED',
      });
      const p = await second;
      assert.equal(p.diagnostics.length, 1);
      assert.equal(p.diagnostics[0].code, 'unknown-list');
      assert.equal(p.diagnostics[0].severity, 2);
      assert.match(p.diagnostics[0].message, /could not be loaded: UNAVAILABLE: connect ECONNREFUSED/);
    } finally {
      await client.stop();
    }
  });

  it('takes the known lists from the initialization options', async () => {
    const { client } = await LspClient.start({}, { knownReferenceLists: LISTS }, true);
    try {
      const uri = 'file:///work/lists2.udm';
      const first = client.nextDiagnostics(uri);
      await client.open(uri, 'principal.user.userid in %admin');
      const p = await first;
      assert.equal(p.diagnostics[0]?.code, 'unknown-list');
      assert.match(p.diagnostics[0].message, /Did you mean %admins\?/);
    } finally {
      await client.stop();
    }
  });
});
