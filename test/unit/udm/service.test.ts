import * as assert from 'node:assert/strict';
import { analyze } from '../../../src/udm/index';
import {
  codeActions,
  complete,
  documentSymbols,
  foldingRanges,
  format,
  formatText,
  hover,
  SEMANTIC_TOKEN_TYPES,
  semanticTokens,
  signatureHelp,
  toLspDiagnostics,
} from '../../../src/udm/service';

/** `|` marks the cursor. */
function at(textWithCursor: string): { a: ReturnType<typeof analyze>; pos: { line: number; character: number } } {
  const i = textWithCursor.indexOf('|');
  const text = textWithCursor.slice(0, i) + textWithCursor.slice(i + 1);
  const a = analyze(text);
  return { a, pos: a.lines.position(i) };
}

function labels(textWithCursor: string, lists: string[] = []): string[] {
  const { a, pos } = at(textWithCursor);
  return complete(a, pos, lists).map((i) => i.label);
}

describe('UDM completion', () => {
  it('offers root fields, function namespaces and NOT at the start', () => {
    const l = labels('|');
    for (const x of ['metadata', 'principal', 'target', 'network', 'security_result', 'net', 'strings', 'NOT'])
      assert.ok(l.includes(x), x);
  });

  it('offers the fields of the type reached so far, replacing the partial segment', () => {
    const { a, pos } = at('principal.user.us|');
    const items = complete(a, pos);
    const userid = items.find((i) => i.label === 'userid');
    assert.ok(userid);
    assert.deepEqual((userid.textEdit as { range: unknown }).range, {
      start: { line: 0, character: 15 },
      end: { line: 0, character: 17 },
    });
    assert.ok(!items.some((i) => i.label === 'hostname'));
    assert.deepEqual(labels('metadata.event_timestamp.|'), ['seconds', 'nanos']);
  });

  it('offers operators valid for the field type', () => {
    assert.deepEqual(labels('metadata.event_type |'), ['=', '!=', '>', '>=', '<', '<=']);
    assert.deepEqual(labels('network.dns.response |'), ['=', '!=']);
    assert.deepEqual(labels('target.port |'), ['=', '!=', '>', '>=', '<', '<=']);
    const s = labels('principal.hostname |');
    assert.ok(s.includes('=') && s.includes('in %list') && s.includes('in cidr %list') && !s.includes('>'));
  });

  it('offers quoted enum values, booleans and string/regex snippets after the operator', () => {
    const e = labels('network.ip_protocol = |');
    assert.ok(e.includes('"TCP"') && e.includes('"UDP"'));
    assert.deepEqual(labels('network.dns.response = |'), ['true', 'false']);
    assert.deepEqual(labels('principal.hostname = |'), ['"…"', '/…/']);
    const inside = at('security_result.action = "BL|"');
    const items = complete(inside.a, inside.pos);
    const block = items.find((i) => i.label === '"BLOCK"');
    assert.ok(block);
    assert.deepEqual((block.textEdit as { range: unknown }).range, {
      start: { line: 0, character: 25 },
      end: { line: 0, character: 29 },
    });
  });

  it('offers AND/OR and nocase after a complete condition', () => {
    const l = labels('principal.hostname = "x" |');
    assert.ok(l.includes('AND') && l.includes('OR') && l.includes('nocase'));
    assert.ok(!labels('target.port = 1 |').includes('nocase'));
  });

  it('offers function names with signatures in a namespace', () => {
    const { a, pos } = at('net.|');
    const items = complete(a, pos);
    assert.deepEqual(
      items.map((i) => i.label),
      ['ip_in_range_cidr'],
    );
    assert.match(items[0].detail!, /ip_in_range_cidr\(ipAddress: string, subnetworkRange: string\): bool/);
  });

  it('offers each function once, its optional parameters in the detail and the signature help', () => {
    const { a, pos } = at('timestamp.|');
    const items = complete(a, pos);
    const labels = items.map((i) => i.label);
    assert.equal(new Set(labels).size, labels.length, labels.join(', '));
    assert.ok(!labels.some((l) => l.endsWith('(…)')), labels.join(', '));
    const hour = items.find((i) => i.label === 'get_hour')!;
    assert.equal(
      hour.textEdit && 'newText' in hour.textEdit ? hour.textEdit.newText : '',
      'get_hour(${1:unix_seconds})$0',
    );
    assert.match(hour.detail!, /get_hour\(unix_seconds: number, time_zone\?: string\)/);
    assert.equal(hour.command?.command, 'editor.action.triggerParameterHints');
    const math = at('math.|');
    assert.deepEqual(
      complete(math.a, math.pos)
        .map((i) => i.label)
        .filter((l) => l.startsWith('round')),
      ['round'],
    );
  });

  it('offers nothing glued to a closed value, so Enter after it starts a new line', () => {
    assert.deepEqual(labels('principal.hostname = "lt-ana-01"|'), []);
    assert.deepEqual(labels('target.port = 80|'), []);
    assert.deepEqual(labels('re.regex(target.hostname, "x")|'), []);
    const spaced = labels('principal.hostname = "lt-ana-01" |');
    assert.ok(spaced.includes('AND') && spaced.includes('nocase'), spaced.join());
  });

  it('offers placeholders, reference lists and section keywords in order', () => {
    assert.deepEqual(labels('$host = principal.hostname\nmatch:\n  $|'), ['$host']);
    assert.deepEqual(labels('principal.hostname in %|', ['admins', 'servers']), ['%admins', '%servers']);
    assert.deepEqual(labels('principal.hostname in |', ['admins']), ['regex', 'cidr', '%admins']);
    const afterMatch = labels('$h = principal.hostname\nmatch:\n  $h\n|');
    assert.ok(afterMatch.includes('outcome:') && afterMatch.includes('limit:') && !afterMatch.includes('match:'));
    const agg = labels('$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = |');
    assert.ok(agg.includes('count') && agg.includes('count_distinct') && agg.includes('max'));
    const ord = labels('$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\norder:\n  $c |');
    assert.ok(ord.includes('asc') && ord.includes('desc'));
  });

  it('offers fields for a placeholder definition and no operator after a timestamp or message', () => {
    const l = labels('$h = |');
    assert.ok(l.includes('principal') && l.includes('strings'));
    assert.deepEqual(labels('metadata.event_timestamp |'), []);
    assert.deepEqual(labels('principal |'), []);
  });

  it('offers nothing inside comments', () => {
    assert.deepEqual(labels('// metadata.|'), []);
  });
});

describe('UDM hover, signature help and quick fixes', () => {
  it('describes fields with type, repetition and enum values', () => {
    const { a } = at('|principal.ip = "1"');
    const h = hover(a, { line: 0, character: 11 })!;
    assert.match((h.contents as { value: string }).value, /repeated string/);
    assert.match((h.contents as { value: string }).value, /any element matches/);
    const e = hover(analyze('network.direction = "INBOUND"'), { line: 0, character: 10 })!;
    assert.match((e.contents as { value: string }).value, /`INBOUND`/);
  });

  it('describes functions and keywords', () => {
    const f = hover(analyze('re.regex(target.url, "x")'), { line: 0, character: 4 })!;
    assert.match((f.contents as { value: string }).value, /re\.regex\(field: STRING, regex: STRING\) → BOOL/);
    const k = hover(analyze('a.b = 1 AND c.d = 2'), { line: 0, character: 9 })!;
    assert.match((k.contents as { value: string }).value, /Both conditions/);
  });

  it('tracks the active parameter of a call', () => {
    const { a, pos } = at('re.replace(principal.hostname, "-", |');
    const s = signatureHelp(a, pos)!;
    assert.match(s.signatures[0].label, /^re\.replace/);
    assert.equal(s.activeParameter, 2);
    const variadic = at('strings.concat(principal.hostname, "-", |');
    assert.equal(signatureHelp(variadic.a, variadic.pos)!.activeParameter, 0, 'the repeated parameter');
    const first = at('re.regex(|');
    assert.equal(signatureHelp(first.a, first.pos)!.activeParameter, 0);
    const outside = at('re.regex(a.b, "x") |');
    assert.equal(signatureHelp(outside.a, outside.pos), null);
  });

  it('turns "did you mean" diagnostics into quick fixes', () => {
    const a = analyze('metadata.event_type = "USER_LOGON"\nmetadata.event_timestamp > 5');
    const actions = codeActions(a, 'file:///q.udm', {
      start: { line: 0, character: 0 },
      end: { line: 1, character: 30 },
    });
    assert.deepEqual(
      actions.map((x) => x.title),
      ['Change to "USER_LOGIN"', 'Change to "USER_LOGOUT"', 'Compare metadata.event_timestamp.seconds'],
    );
    const edit = actions[2].edit!.changes!['file:///q.udm'][0];
    assert.deepEqual(edit.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 24 } });
    assert.equal(actions[0].isPreferred, true);
  });

  it('repairs == and single-quoted strings', () => {
    const a = analyze("principal.hostname == 'ws-1'");
    const actions = codeActions(a, 'file:///q.udm', {
      start: { line: 0, character: 0 },
      end: { line: 0, character: 28 },
    });
    assert.deepEqual(
      actions.map((x) => x.title),
      ['Change to =', 'Change to "ws-1"'],
    );
  });

  it('maps severities and tags deprecated fields', () => {
    const d = toLspDiagnostics(analyze('principal.labels["a"] = "b"'));
    assert.equal(d[0].severity, 2);
    assert.deepEqual(d[0].tags, [2]);
  });
});

describe('UDM formatting, folding and semantic tokens', () => {
  it('normalises spacing and keyword case and indents sections', () => {
    const a = analyze(
      'metadata.event_type="USER_LOGIN"   and  not(target.port=22 or target.port = 23)\n\n\n\n$h=principal.hostname\nMATCH:\n$h\noutcome:\n$c=count( metadata.id )\nORDER: $c DESC\n',
    );
    assert.equal(
      formatText(a),
      'metadata.event_type = "USER_LOGIN" AND NOT (target.port = 22 OR target.port = 23)\n\n$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\norder:\n  $c desc\n',
    );
  });

  it('starts every section keyword on its own line, so formatting twice changes nothing', () => {
    // Found by the property run: "udm. limit:" once became "udm.limit:", a field path.
    const once = formatText(analyze('udm. limit:\nmetadata'));
    assert.equal(once, 'udm.\nlimit:\n  metadata');
    assert.equal(formatText(analyze(once)), once);
  });

  it("indents with the editor's tab settings", () => {
    const edits = format(analyze('$h = a.b\nmatch:\n$h\n'), { tabSize: 4, insertSpaces: false });
    assert.equal(edits[0].newText, '$h = a.b\nmatch:\n\t$h\n');
    const spaces = format(analyze('$h = a.b\nmatch:\n$h\n'), { tabSize: 4, insertSpaces: true });
    assert.equal(spaces[0].newText, '$h = a.b\nmatch:\n    $h\n');
  });

  it('leaves documents with lexical errors alone', () => {
    assert.deepEqual(format(analyze('a.b = "unterminated'), { tabSize: 2, insertSpaces: true }), []);
  });

  it('folds sections and multi-line parentheses', () => {
    const folds = foldingRanges(
      analyze(
        '(a.b = 1\n OR a.b = 2\n)\n$h = a.b\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\n  $d = count(metadata.id)',
      ),
    );
    assert.deepEqual(folds, [
      { startLine: 4, endLine: 5 },
      { startLine: 6, endLine: 8 },
      { startLine: 0, endLine: 1 },
    ]);
  });

  it('encodes semantic tokens relative to the previous one', () => {
    const data = semanticTokens(analyze('metadata.event_type = "X"\n$h = %l'));
    const decoded: Array<[number, number, number, string]> = [];
    let line = 0;
    let ch = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i];
      ch = data[i] === 0 ? ch + data[i + 1] : data[i + 1];
      decoded.push([line, ch, data[i + 2], SEMANTIC_TOKEN_TYPES[data[i + 3]]]);
    }
    assert.deepEqual(decoded, [
      [0, 0, 8, 'property'],
      [0, 9, 10, 'property'],
      [0, 20, 1, 'operator'],
      [0, 22, 3, 'string'],
      [1, 0, 2, 'variable'],
      [1, 3, 1, 'operator'],
      [1, 5, 2, 'parameter'],
    ]);
  });
});

describe('UDM outline', () => {
  it('lists the filter with its placeholders and each section with its variables', () => {
    const symbols = documentSymbols(
      analyze(
        '$h = principal.hostname\nmetadata.event_type = "USER_LOGIN"\nmatch:\n  $h\noutcome:\n  $n = count(metadata.id)\nlimit:\n  5',
      ),
    );
    assert.deepEqual(
      symbols.map((s) => [s.name, s.detail, (s.children ?? []).map((c) => `${c.name} ${c.detail ?? ''}`.trim())]),
      [
        ['filter', undefined, ['$h = principal.hostname']],
        ['match:', undefined, ['$h group by']],
        ['outcome:', undefined, ['$n count(…)']],
        ['limit:', '5', []],
      ],
    );
    assert.deepEqual(symbols[2].range, { start: { line: 4, character: 0 }, end: { line: 5, character: 25 } });
  });
});
