import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspClient } from './lsp-client';

interface Range {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface Symbol {
  name: string;
  children?: Symbol[];
}

const RULE = readFileSync(
  join(__dirname, '..', '..', 'e2e', 'fixtures', 'workspace', 'rules', 'ioc_lookup_then_web_request.yaral'),
  'utf8',
);

/** Line and character of the `nth` occurrence of `needle` (plus `delta` characters). */
function at(text: string, needle: string, delta = 0, nth = 0): { line: number; character: number } {
  // Past the header comment, which names some of the rule's variables in prose.
  let i = text.indexOf('rule ') - 1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  const before = text.slice(0, i + delta);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

describe('UDM language server: YARA-L rule files', function () {
  this.timeout(60000);
  let client: LspClient;
  let capabilities: Record<string, unknown>;
  const uri = 'file:///work/rules/ioc.yaral';

  before(async () => {
    const started = await LspClient.start({}, {});
    client = started.client;
    capabilities = started.initializeResult.capabilities;
  });

  after(async () => {
    await client?.stop();
  });

  it('announces definition and references', () => {
    assert.ok(capabilities.definitionProvider);
    assert.ok(capabilities.referencesProvider);
  });

  it('reads a valid rule as a rule: no problems', async () => {
    const published = client.nextDiagnostics(uri);
    await client.open(uri, RULE, 1, 'yaral');
    assert.deepEqual((await published).diagnostics, []);
  });

  it('reports a misspelt field and an unknown variable in condition:', async () => {
    const broken = RULE.replace('$http.target.ip', '$http.target.ipp').replace('$dns and $http', '$dns and $htp');
    const published = client.nextDiagnostics(uri);
    await client.change(uri, broken, 2);
    const p = await published;
    const codes = p.diagnostics.map((d) => d.code).sort();
    assert.deepEqual(codes, ['unknown-field', 'unknown-variable'], JSON.stringify(p.diagnostics));
    const unknown = p.diagnostics.find((d) => d.code === 'unknown-variable');
    assert.deepEqual(unknown?.range.start, at(broken, '$htp'));
    assert.match(unknown?.message ?? '', /did you mean \$http\?/);
    // The Problems panel names the language of the file: YARA-L problems are "yaral", not "udm".
    assert.deepEqual(
      p.diagnostics.map((d) => d.source),
      ['yaral', 'yaral'],
    );
    const again = client.nextDiagnostics(uri);
    await client.change(uri, RULE, 3);
    assert.deepEqual((await again).diagnostics, []);
  });

  it('completes the rule’s variables at $', async () => {
    const text = RULE.replace('  condition:\n    $dns and $http', '  condition:\n    $dns and $');
    await client.change(uri, text, 4);
    const items = await client.request<Array<{ label: string; detail?: string }>>('textDocument/completion', {
      textDocument: { uri },
      position: at(text, '$dns and $', 10),
    });
    const labels = items.map((i) => i.label);
    for (const l of ['$dns', '$http', '$host', '$risk_score']) assert.ok(labels.includes(l), labels.join(' '));
    assert.equal(items.find((i) => i.label === '$host')?.detail, 'placeholder');
    await client.change(uri, RULE, 5);
  });

  it('completes fields after $e.', async () => {
    const text = RULE.replace(
      '    $http.target.ip = "198.51.100.23"\n',
      '    $http.target.ip = "198.51.100.23"\n    $http.princ\n',
    );
    await client.change(uri, text, 6);
    const items = await client.request<Array<{ label: string }>>('textDocument/completion', {
      textDocument: { uri },
      position: at(text, '$http.princ', 11),
    });
    assert.ok(items.some((i) => i.label === 'principal'));
    await client.change(uri, RULE, 7);
  });

  it('goes to a placeholder’s definition and finds its references', async () => {
    const use = at(RULE, '$host over');
    const defs = await client.request<Array<{ uri: string; range: Range }>>('textDocument/definition', {
      textDocument: { uri },
      position: { line: use.line, character: use.character + 2 },
    });
    assert.deepEqual(defs, [{ uri, range: { start: at(RULE, '$host'), end: at(RULE, '$host', 5) } }]);
    const refs = await client.request<Array<{ range: Range }>>('textDocument/references', {
      textDocument: { uri },
      position: { line: use.line, character: use.character + 2 },
      context: { includeDeclaration: true },
    });
    assert.deepEqual(
      refs.map((r) => r.range.start),
      [at(RULE, '$host'), at(RULE, '$host', 0, 1), at(RULE, '$host', 0, 2)],
    );
  });

  it('hovers a variable with where it is declared', async () => {
    const h = await client.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: at(RULE, '$dns and', 1),
    });
    // Declared where events: first uses it (1-based line).
    const declared = at(RULE, '$dns.').line + 1;
    assert.match(
      h.contents.value,
      new RegExp(`\\$dns\\*\\* \\(event variable\\) — declared in events: on line ${declared}\\b`),
    );
  });

  it('outlines the rule: rule → sections → variables', async () => {
    const symbols = await client.request<Symbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(symbols.length, 1);
    assert.equal(symbols[0].name, 'ioc_lookup_then_web_request');
    assert.deepEqual(
      symbols[0].children?.map((c) => c.name),
      ['meta', 'events', 'match', 'outcome', 'condition'],
    );
    const events = symbols[0].children?.find((c) => c.name === 'events');
    assert.deepEqual(
      events?.children?.map((c) => c.name),
      ['$dns', '$host', '$http'],
    );
  });

  it('folds the rule and each section, formats to Google’s layout, colours the rule', async () => {
    const folds = await client.request<Array<{ startLine: number; endLine: number }>>('textDocument/foldingRange', {
      textDocument: { uri },
    });
    assert.ok(folds.some((f) => f.startLine === at(RULE, 'rule ').line));
    for (const s of ['meta:', 'events:', 'match:', 'outcome:', 'condition:'])
      assert.ok(
        folds.some((f) => f.startLine === at(RULE, s).line),
        s,
      );
    const messy = RULE.replace('    $dns.metadata', '$dns.metadata').replace('  match:', '      match:');
    await client.change(uri, messy, 8);
    const edits = await client.request<Array<{ newText: string }>>('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(edits.length, 1);
    assert.equal(edits[0].newText, RULE);
    await client.change(uri, RULE, 9);
    const tokens = await client.request<{ data: number[] }>('textDocument/semanticTokens/full', {
      textDocument: { uri },
    });
    // Decoded to absolute places: the `rule` word is a keyword, the name a function, `#`/`$` variables.
    const abs: Array<{ line: number; character: number; length: number; type: number }> = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < tokens.data.length; i += 5) {
      const [dl, dc, length, type] = tokens.data.slice(i, i + 4);
      line += dl;
      character = dl === 0 ? character + dc : dc;
      abs.push({ line, character, length, type });
    }
    const ruleAt = at(RULE, 'rule ');
    const kinds = abs.filter((t) => t.line === ruleAt.line).map((t) => [t.character, t.length, t.type]);
    assert.deepEqual(kinds, [
      [0, 4, 0],
      [5, 'ioc_lookup_then_web_request'.length, 7],
    ]);
    const cond = at(RULE, 'condition:');
    assert.deepEqual(abs.find((t) => t.line === cond.line)?.type, 0);
  });
});

describe('UDM language server: reference lists in a rule opened first', function () {
  this.timeout(60000);
  const LISTS_RULE = readFileSync(
    join(__dirname, '..', '..', 'e2e', 'fixtures', 'workspace', 'rules', 'suspicious_domain_lookups.yaral'),
    'utf8',
  );
  // What the Reference Lists view hands over (src/server/protocol.ts, KNOWN_REFERENCE_LISTS_NOTIFICATION).
  const LISTS = [
    {
      name: 'suspicious_domains',
      contentType: 'CONTENT_TYPE_DEFAULT_STRING',
      size: 12,
      description: 'Domains the security team watches',
      preview: ['cdn-update-check.test'],
    },
    { name: 'corp_networks', contentType: 'CIDR', size: 2, description: 'Internal address ranges', preview: [] },
    { name: 'threat_ip_ranges', contentType: 'CIDR', size: 3, preview: [] },
    { name: 'bad_process_paths', contentType: 'REGEX', size: 2, preview: [] },
  ];
  const uri = 'file:///work/rules/suspicious_domain_lookups.yaral';
  const withLine = (line: string): string =>
    LISTS_RULE.replace('in %suspicious_domains\n', `in %suspicious_domains\n    ${line}\n`);

  it('flags an unknown list as an error once the lists arrive, with no query open', async () => {
    const { client } = await LspClient.start({}, undefined, true);
    try {
      const text = withLine('$e.principal.ip in cidr %nope');
      const first = client.nextDiagnostics(uri);
      await client.open(uri, text, 1, 'yaral');
      assert.deepEqual((await first).diagnostics, [], 'the names are not known yet: nothing is flagged');
      const second = client.nextDiagnostics(uri);
      await client.connection.sendNotification('cloudbench/referenceLists', { lists: LISTS });
      const p = await second;
      assert.equal(p.diagnostics.length, 1, JSON.stringify(p.diagnostics));
      assert.equal(p.diagnostics[0].code, 'unknown-list');
      assert.equal(p.diagnostics[0].severity, 1, 'the server listed the lists: an unknown name is an error');
      assert.match(p.diagnostics[0].message, /^Unknown reference list %nope/);
      assert.deepEqual(p.diagnostics[0].range.start, at(text, '%nope'));

      // `in cidr %`: the CIDR lists only, each with its type and description on its row.
      const typed = withLine('$e.principal.ip in cidr %');
      await client.change(uri, typed, 2);
      const items = await client.request<
        Array<{ label: string; detail?: string; labelDetails?: { description?: string } }>
      >('textDocument/completion', { textDocument: { uri }, position: at(typed, 'cidr %', 6) });
      assert.deepEqual(items.map((i) => i.label).sort(), ['%corp_networks', '%threat_ip_ranges']);
      const corp = items.find((i) => i.label === '%corp_networks');
      assert.equal(corp?.labelDetails?.description, 'CIDR list: Internal address ranges');
      assert.equal(corp?.detail, 'CIDR list, 2 entries');
      // `in regex %`: the regex list; a plain `in %`: the string list.
      const regex = withLine('$e.principal.process.file.full_path in regex %');
      await client.change(uri, regex, 3);
      const regexItems = await client.request<Array<{ label: string }>>('textDocument/completion', {
        textDocument: { uri },
        position: at(regex, 'regex %', 7),
      });
      assert.deepEqual(
        regexItems.map((i) => i.label),
        ['%bad_process_paths'],
      );
      const plain = withLine('$e.principal.hostname in %');
      await client.change(uri, plain, 4);
      const plainItems = await client.request<Array<{ label: string }>>('textDocument/completion', {
        textDocument: { uri },
        position: at(plain, 'hostname in %', 13),
      });
      assert.deepEqual(
        plainItems.map((i) => i.label),
        ['%suspicious_domains'],
      );

      // Hover on the rule's own %suspicious_domains: type, size, description.
      await client.change(uri, LISTS_RULE, 5);
      const h = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri },
        position: at(LISTS_RULE, '%suspicious_domains', 3),
      });
      assert.match(h.contents.value, /\*\*%suspicious_domains\*\*: string reference list, 12 entries/);
      assert.match(h.contents.value, /Domains the security team watches/);
    } finally {
      await client.stop();
    }
  });

  it('when the lists could not be loaded, an unknown list in a rule is a warning that says why', async () => {
    const { client } = await LspClient.start({}, undefined, true);
    try {
      const text = withLine('$e.principal.ip in cidr %nope');
      const first = client.nextDiagnostics(uri);
      await client.open(uri, text, 1, 'yaral');
      await first;
      const second = client.nextDiagnostics(uri);
      await client.connection.sendNotification('cloudbench/referenceLists', {
        lists: [LISTS[0]],
        loadError: 'UNAVAILABLE: connect ECONNREFUSED',
      });
      const p = await second;
      assert.equal(p.diagnostics.length, 1, JSON.stringify(p.diagnostics));
      assert.equal(p.diagnostics[0].code, 'unknown-list');
      assert.equal(p.diagnostics[0].severity, 2);
      assert.match(p.diagnostics[0].message, /could not be loaded: UNAVAILABLE: connect ECONNREFUSED/);
    } finally {
      await client.stop();
    }
  });

  it('takes the lists from the initialization options for a rule that is the first document', async () => {
    const { client } = await LspClient.start({}, { knownReferenceLists: LISTS }, true);
    try {
      const text = withLine('$e.principal.ip in cidr %corp_network');
      const first = client.nextDiagnostics(uri);
      await client.open(uri, text, 1, 'yaral');
      const p = await first;
      assert.equal(p.diagnostics[0]?.code, 'unknown-list');
      assert.match(p.diagnostics[0].message, /Did you mean %corp_networks\?/);
    } finally {
      await client.stop();
    }
  });
});
