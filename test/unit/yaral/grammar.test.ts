import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { CORPUS_DIR, DEMO_RULES_DIR, INVALID_DIR, yaralFiles } from '../../support/yaral-corpus';

const ROOT = join(__dirname, '..', '..', '..');
const GRAMMAR_PATH = join(ROOT, 'syntaxes/yaral.tmLanguage.json');

interface Token {
  text: string;
  scopes: string[];
  line: number;
  start: number;
  end: number;
}

interface Tokenized {
  lines: string[];
  tokens: Token[];
}

/** The grammar as VS Code runs it: vscode-textmate over the Oniguruma regex engine. */
async function loadGrammar(): Promise<textmate.IGrammar> {
  const wasm = readFileSync(join(ROOT, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s: string) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName: string) =>
      scopeName === 'source.yaral' ? textmate.parseRawGrammar(readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null,
  });
  const grammar = await registry.loadGrammar('source.yaral');
  if (!grammar) throw new Error('source.yaral did not load');
  return grammar;
}

function tokenize(grammar: textmate.IGrammar, text: string): Tokenized {
  const lines = text.split('\n');
  const tokens: Token[] = [];
  let stack = textmate.INITIAL;
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens)
      tokens.push({
        text: line.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
        line: i,
        start: t.startIndex,
        end: t.endIndex,
      });
    stack = r.ruleStack;
  });
  return { lines, tokens };
}

/**
 * Every occurrence of `text` (not inside a longer word) must be covered only by tokens carrying
 * `scope`; a capture such as the `$` of a variable splits one word into several tokens.
 */
function assertScope(t: Tokenized, text: string, scope: string, line?: number): void {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?<![\\w$#%])${escaped}(?![\\w])`, 'g');
  let seen = 0;
  t.lines.forEach((l, i) => {
    if (line !== undefined && i !== line) return;
    for (const m of l.matchAll(re)) {
      const from = m.index;
      const to = from + text.length;
      const covering = t.tokens.filter((k) => k.line === i && k.start < to && k.end > from);
      seen++;
      for (const k of covering)
        assert.ok(
          k.scopes.some((s) => s.startsWith(scope)),
          `${JSON.stringify(text)} on line ${i}: expected ${scope}, token ${JSON.stringify(k.text)} has ${k.scopes.join(' ')}`,
        );
    }
  });
  assert.ok(seen > 0, `no ${JSON.stringify(text)}${line === undefined ? '' : ` on line ${line}`}`);
}

const SAMPLE = `/*
 * Licensed under the Apache License, Version 2.0 (the "License");
 */

rule brute_force_then_success {

  meta:
    author = "Security Team"
    severity = "HIGH"

  events:
    // failed sign-ins, then one that works
    $fail.metadata.event_type = "USER_LOGIN"
    $fail.security_result.action = "BLOCK"
    $fail.target.user.userid = $user
    $fail.principal.hostname = /^lt-.*$/ nocase
    $ok.metadata.event_type = "USER_LOGIN"
    $ok.target.user.userid = $user
    $ok.principal.ip in cidr %corp_networks
    not $ok.principal.hostname in %critical_servers
    re.regex($ok.target.hostname, \`srv-.*\`) nocase
    $ok.metadata.event_timestamp.seconds > $fail.metadata.event_timestamp.seconds

  match:
    $user over 30m after $fail

  outcome:
    $risk_score = max(if($ok.target.user.userid = "hugo.silva", 90, 60) + 5)
    $fails = count_distinct($fail.metadata.id)
    $note = if($fail.principal.hostname = "", "none", "some")
    $empty = null

  condition:
    #fail > 3 and $ok and !$missing or $risk_score >= 60

  options:
    allow_zero_values = true
    suppression_window = 1h
}
`;

describe('YARA-L TextMate grammar (vscode-textmate + Oniguruma)', () => {
  let grammar: textmate.IGrammar;
  let tokens: Tokenized;
  before(async () => {
    grammar = await loadGrammar();
    tokens = tokenize(grammar, SAMPLE);
  });

  it('scopes the rule header, section names and meta keys', () => {
    assertScope(tokens, 'rule', 'storage.type.rule.yaral');
    assertScope(tokens, 'brute_force_then_success', 'entity.name.type.rule.yaral');
    for (const section of ['meta', 'events', 'match', 'outcome', 'condition', 'options'])
      assertScope(tokens, section, 'keyword.control.section.yaral');
    assertScope(tokens, 'author', 'entity.other.attribute-name.meta-key.yaral');
    assertScope(tokens, 'severity', 'entity.other.attribute-name.meta-key.yaral');
    assertScope(tokens, 'allow_zero_values', 'support.constant.option.yaral');
    assertScope(tokens, 'suppression_window', 'support.constant.option.yaral');
  });

  it('tells event variables, placeholders, counts and reference lists apart', () => {
    assertScope(tokens, '$fail', 'variable.other.event.yaral', 12);
    assertScope(tokens, '$user', 'variable.other.placeholder.yaral', 14);
    assertScope(tokens, '$risk_score', 'variable.other.placeholder.yaral');
    assertScope(tokens, '#fail', 'variable.other.count.yaral');
    assertScope(tokens, '%corp_networks', 'variable.parameter.reference-list.yaral');
    assertScope(tokens, '%critical_servers', 'variable.parameter.reference-list.yaral');
    assertScope(tokens, 'metadata', 'variable.other.property.yaral', 12);
    assertScope(tokens, '!', 'keyword.operator.logical.yaral');
  });

  it('scopes strings, regular expressions, numbers and durations', () => {
    assertScope(tokens, 'Security Team', 'string.quoted.double.yaral');
    assertScope(tokens, 'USER_LOGIN', 'string.quoted.double.yaral');
    assertScope(tokens, '^lt-.*$', 'string.regexp.yaral');
    assertScope(tokens, 'srv-.*', 'string.quoted.other.raw.yaral');
    assertScope(tokens, '30m', 'constant.numeric.duration.yaral');
    assertScope(tokens, '1h', 'constant.numeric.duration.yaral');
    assertScope(tokens, '90', 'constant.numeric.yaral');
    assertScope(tokens, '3', 'constant.numeric.yaral');
  });

  it('scopes keywords, functions, the conditional and constants', () => {
    for (const kw of ['over', 'after']) assertScope(tokens, kw, 'keyword.other.window.yaral');
    for (const kw of ['and', 'or', 'not']) assertScope(tokens, kw, 'keyword.operator.logical.yaral');
    for (const kw of ['nocase', 'in', 'cidr']) assertScope(tokens, kw, 'keyword.other');
    assertScope(tokens, 'if', 'keyword.control.conditional.yaral');
    assertScope(tokens, 'regex', 'entity.name.function.yaral');
    assertScope(tokens, 're', 'entity.name.namespace.yaral');
    assertScope(tokens, 'max', 'entity.name.function.yaral');
    assertScope(tokens, 'count_distinct', 'entity.name.function.yaral');
    assertScope(tokens, 'true', 'constant.language.boolean.yaral');
    assertScope(tokens, 'null', 'constant.language.null.yaral');
    assertScope(tokens, '>=', 'keyword.operator.comparison.yaral');
  });

  it('scopes line comments and the licence block, and a regex-looking comment stays a comment', () => {
    assertScope(tokens, 'Licensed under the Apache License, Version 2.0 (the "License");', 'comment.block.yaral');
    assertScope(tokens, 'failed sign-ins, then one that works', 'comment.line.double-slash.yaral');
    const t = tokenize(grammar, 'rule r {\n  events:\n    $e.a = "x" // note /not a regex/\n}');
    assert.ok(!t.tokens.some((x) => x.scopes.some((s) => s.startsWith('string.regexp'))));
  });

  it('scopes sliding windows, before, every and by', () => {
    const t = tokenize(
      grammar,
      'rule r {\n  match:\n    $host, $ip over 5m before $e2\n    $u by 2h\n    $u over every 1d\n}',
    );
    for (const kw of ['before', 'by', 'every']) assertScope(t, kw, 'keyword.other.window.yaral');
    assertScope(t, '5m', 'constant.numeric.duration.yaral');
    assertScope(t, '$e2', 'variable.other.placeholder.yaral');
  });
});

describe('YARA-L TextMate grammar on the rule corpus', () => {
  it('scopes every rule header, section, variable and comment of the corpus and the demo rules', async () => {
    const grammar = await loadGrammar();
    const files = [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR), ...yaralFiles(INVALID_DIR)];
    let variables = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const t = tokenize(grammar, text);
      const where = file.slice(ROOT.length + 1);
      const illegal = t.tokens.filter((k) => k.scopes.some((s) => s.startsWith('invalid.')));
      assert.deepEqual(
        illegal.map((k) => k.text),
        [],
        where,
      );
      t.lines.forEach((line, i) => {
        const header = /^\s*rule\s+(\S+?)\s*\{?\s*(?:\/\/.*)?$/.exec(line);
        if (header) assertScope(t, header[1], 'entity.name.type.rule.yaral', i);
        const section = /^\s*(meta|events|match|outcome|condition|options)\s*:/i.exec(line);
        if (section) assertScope(t, section[1], 'keyword.control.section.yaral', i);
      });
      // Outside comments and strings, every `$name`, `#name` and `%name` is a variable of some kind.
      t.lines.forEach((line, i) => {
        for (const m of line.matchAll(/(?<![\w$#%])[$#%][A-Za-z_]\w*/g)) {
          const covering = t.tokens.filter((k) => k.line === i && k.start < m.index + m[0].length && k.end > m.index);
          if (covering.some((k) => k.scopes.some((s) => /^(comment|string)\./.test(s)))) continue;
          variables++;
          for (const k of covering)
            assert.ok(
              k.scopes.some((s) => s.startsWith('variable.')),
              `${where}:${i + 1} ${m[0]}: ${JSON.stringify(k.text)} has ${k.scopes.join(' ')}`,
            );
        }
      });
    }
    assert.ok(variables > 300, `${variables} variables`);
  });
});

describe('YARA-L snippets', () => {
  const snippets = JSON.parse(readFileSync(join(ROOT, 'syntaxes/yaral.snippets.json'), 'utf8')) as Record<
    string,
    { prefix: string; body: string[]; description: string }
  >;

  it('offer a whole rule and each section', () => {
    const prefixes = Object.values(snippets).map((s) => s.prefix);
    for (const p of ['rule', 'meta', 'events', 'match', 'outcome', 'condition', 'options'])
      assert.ok(prefixes.includes(p), p);
    for (const [name, s] of Object.entries(snippets)) assert.ok(s.description && s.body.length > 0, name);
  });

  it('expand to text whose sections and keywords the grammar highlights', async () => {
    const grammar = await loadGrammar();
    const rule = snippets.Rule.body.join('\n');
    // Expand the snippet as VS Code does with default values: `${1:x}` → x, `${1|a,b|}` → a,
    // a mirror `$1` → the value of 1, `\$` → $.
    const expand = (body: string): string => {
      const values = new Map<string, string>();
      let out = body;
      for (let i = 0; i < 5; i++)
        out = out
          .replace(/\$\{(\d+):([^{}]*)\}/g, (_, n: string, d: string) => (values.set(n, d), d))
          .replace(/\$\{(\d+)\|([^,|]*)[^|]*\|\}/g, (_, n: string, d: string) => (values.set(n, d), d));
      return out.replace(/(?<!\\)\$\{?(\d+)\}?/g, (_, n: string) => values.get(n) ?? '').replace(/\\\$/g, '$');
    };
    const text = expand(rule);
    assert.match(text, /^rule rule_name \{/);
    const t = tokenize(grammar, text);
    for (const section of ['meta', 'events', 'match', 'outcome', 'condition'])
      assertScope(t, section, 'keyword.control.section.yaral');
    assertScope(t, 'over', 'keyword.other.window.yaral');
    assertScope(t, '10m', 'constant.numeric.duration.yaral');
    assertScope(t, '#e', 'variable.other.count.yaral');
    assertScope(t, '$risk_score', 'variable.other.placeholder.yaral');
    assertScope(t, 'count_distinct', 'entity.name.function.yaral');
    const sections = Object.entries(snippets).filter(([name]) => name.endsWith('section'));
    assert.ok(sections.length >= 6);
    for (const [name, s] of sections) {
      const body = expand(s.body.join('\n'));
      const wrapped = `rule r {\n${body
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n}`;
      const st = tokenize(grammar, wrapped);
      const header = body.split('\n')[0].replace(':', '');
      assertScope(st, header, 'keyword.control.section.yaral');
      // Nothing in a section snippet is left unscoped except whitespace and punctuation.
      const bare = st.tokens.filter(
        (x) => x.scopes.length === 1 && x.text.trim() !== '' && !/^[{}:=,()]+$/.test(x.text.trim()),
      );
      assert.deepEqual(
        bare.map((x) => x.text),
        [],
        name,
      );
    }
  });
});

describe('YARA-L language contribution', () => {
  interface Contributes {
    languages: Array<{
      id: string;
      extensions?: string[];
      aliases?: string[];
      configuration?: string;
      icon?: Record<string, string>;
    }>;
    grammars: Array<{ language: string; scopeName: string; path: string }>;
    snippets: Array<{ language: string; path: string }>;
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: Contributes };
  const lang = pkg.contributes.languages.find((l) => l.id === 'yaral');

  it('declares .yaral files with a configuration, an icon, the grammar and the snippets, all present', () => {
    assert.ok(lang, 'no yaral language');
    assert.deepEqual(lang.extensions, ['.yaral']);
    assert.equal(lang.aliases?.[0], 'YARA-L');
    for (const file of [lang.configuration!, lang.icon!.light, lang.icon!.dark])
      assert.ok(readFileSync(join(ROOT, file), 'utf8').length > 0, file);
    assert.match(readFileSync(join(ROOT, lang.icon!.light), 'utf8'), /^<svg [^>]*viewBox="0 0 16 16"/);
    const grammar = pkg.contributes.grammars.find((g) => g.language === 'yaral');
    assert.equal(grammar?.scopeName, 'source.yaral');
    assert.equal(
      (JSON.parse(readFileSync(join(ROOT, grammar.path), 'utf8')) as { scopeName: string }).scopeName,
      'source.yaral',
    );
    const snippets = pkg.contributes.snippets.find((s) => s.language === 'yaral');
    assert.ok(snippets && JSON.parse(readFileSync(join(ROOT, snippets.path), 'utf8')));
  });

  it('treats $, # and % as part of a word, pairs braces and knows both comment forms', () => {
    const config = JSON.parse(readFileSync(join(ROOT, lang!.configuration!), 'utf8')) as {
      comments: { lineComment: string; blockComment: [string, string] };
      brackets: Array<[string, string]>;
      wordPattern: string;
      autoClosingPairs: Array<{ open: string; close: string }>;
    };
    assert.equal(config.comments.lineComment, '//');
    assert.deepEqual(config.comments.blockComment, ['/*', '*/']);
    assert.ok(config.brackets.some(([o, c]) => o === '{' && c === '}'));
    assert.ok(
      config.autoClosingPairs.some((p) => p.open === '"') && config.autoClosingPairs.some((p) => p.open === '`'),
    );
    const word = new RegExp(`^(?:${config.wordPattern})$`);
    for (const w of ['$e1', '#fail', '%admin_users', '$risk_score', 'principal', '10m', '42']) assert.match(w, word, w);
    assert.doesNotMatch('$e.principal', word);
  });
});
