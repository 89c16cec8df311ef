// One vocabulary for the UDM language: every place that knows its words agrees with
// src/udm/vocabulary.ts, and the TextMate grammar (JSON, written by hand) names the same words.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, parse } from '../../../src/udm/index';
import { lex } from '../../../src/udm/lexer';
import { classify, complete, formatText, hover, KEYWORD_DOCS } from '../../../src/udm/service';
import {
  BOOLEAN_LITERALS,
  COMPLETED_SECTIONS,
  CONDITION_WORDS,
  DOCUMENTED_KEYWORDS,
  EVENTS_HEADER,
  KEYWORDS,
  LOGICAL_OPERATORS,
  LOWER_CASE_KEYWORDS,
  RULE_ONLY_VOCABULARY,
  SEARCH_SECTION_NAMES,
  SECTION_ORDER,
  VALUE_LEADING_WORDS,
  WINDOW_WORDS,
} from '../../../src/udm/vocabulary';
import { MONARCH_KEYWORDS, SECTION_LINE } from '../../../src/webview/querybar/language';

const ROOT = join(__dirname, '..', '..', '..');
const grammar = JSON.parse(readFileSync(join(ROOT, 'syntaxes/udm.tmLanguage.json'), 'utf8')) as {
  repository: Record<string, { match?: string; name?: string; patterns?: Array<{ name: string; match: string }> }>;
};

/** The words of a grammar rule written `(?i:a|b|c)`. */
function grammarWords(match: string): string[] {
  const m = /\(\?i:([a-z_|]+)\)/.exec(match);
  assert.ok(m, match);
  return m[1].split('|');
}

function keywordRule(name: string): string[] {
  const rule = grammar.repository.keywords.patterns?.find((p) => p.name === name);
  assert.ok(rule, name);
  return grammarWords(rule.match);
}

const sorted = (words: readonly string[]): string[] => [...words].sort();
const cases = (w: string): string[] => [w, w.toUpperCase(), w[0].toUpperCase() + w.slice(1)];

describe('UDM vocabulary', () => {
  it('the TextMate grammar names the vocabulary’s sections and keywords', () => {
    assert.deepEqual(sorted(grammarWords(grammar.repository.sections.match!)), sorted(SEARCH_SECTION_NAMES));
    assert.deepEqual(sorted(keywordRule('keyword.operator.logical.udm')), sorted(LOGICAL_OPERATORS));
    assert.deepEqual(sorted(keywordRule('constant.language.boolean.udm')), sorted(BOOLEAN_LITERALS));
    assert.deepEqual(sorted(keywordRule('keyword.other.window.udm')), sorted(WINDOW_WORDS));
    assert.deepEqual(
      sorted([...keywordRule('keyword.other.udm'), ...LOGICAL_OPERATORS, ...BOOLEAN_LITERALS]),
      sorted(KEYWORDS),
    );
  });

  it('the query bar colours every keyword and window word, upper and lower case, and every section', () => {
    assert.deepEqual(
      sorted([...new Set(MONARCH_KEYWORDS.map((w) => w.toLowerCase()))]),
      sorted([...KEYWORDS, ...WINDOW_WORDS]),
    );
    for (const w of [...KEYWORDS, ...WINDOW_WORDS]) {
      assert.ok(MONARCH_KEYWORDS.includes(w) && MONARCH_KEYWORDS.includes(w.toUpperCase()), w);
    }
    for (const name of SEARCH_SECTION_NAMES) for (const w of cases(name)) assert.match(`  ${w} :`, SECTION_LINE, w);
    assert.doesNotMatch('metadata:', SECTION_LINE);
  });

  it('the parser reads every section name, in any case, as a section', () => {
    for (const name of SECTION_ORDER) {
      for (const w of cases(name)) {
        const { query } = parse(`principal.hostname = "a"\n${w}:`);
        assert.deepEqual(
          query.sections.map((s) => s.kind),
          [name],
          w,
        );
      }
    }
    assert.ok(parse(`${EVENTS_HEADER}:\nprincipal.hostname = "a"`).query.events);
  });

  it('semantic tokens call every keyword a keyword in any case (TRUE and FALSE included), and section names too', () => {
    for (const word of KEYWORDS) {
      for (const w of cases(word)) {
        const a = analyze(`principal.hostname = "a" ${w}`);
        const token = classify(a).find((t) => a.text.slice(t.start, t.end) === w);
        assert.equal(token?.type, 'keyword', w);
      }
    }
    for (const name of SEARCH_SECTION_NAMES) {
      const a = analyze(`${name}:`);
      assert.equal(classify(a)[0]?.type, 'keyword', name);
    }
  });

  it('the formatter writes the logical operators upper case and the other keywords lower case', () => {
    const a = analyze(
      'principal.hostname = "a" and target.hostname in Regex %l NoCase or NOT ANY principal.ip = "1.2.3.4"',
    );
    const out = formatText(a);
    for (const w of LOGICAL_OPERATORS)
      if (a.text.toLowerCase().includes(` ${w} `)) assert.ok(out.includes(` ${w.toUpperCase()} `), out);
    for (const w of LOWER_CASE_KEYWORDS) {
      if (!a.text.toLowerCase().includes(` ${w} `)) continue;
      assert.ok(out.includes(` ${w} `), `${w}: ${out}`);
      assert.ok(!out.includes(` ${w.toUpperCase()} `), `${w}: ${out}`);
    }
  });

  it('completion offers the completed sections in the documented order, each with its documentation', () => {
    const a = analyze('principal.hostname = "a"\n');
    const sections = complete(a, { line: 1, character: 0 }).filter((i) => i.label.endsWith(':'));
    assert.deepEqual(
      sections.map((i) => i.label),
      COMPLETED_SECTIONS.map((k) => `${k}:`),
    );
    for (const item of sections) assert.ok(item.documentation, item.label);
    assert.deepEqual(
      COMPLETED_SECTIONS,
      SECTION_ORDER.filter((k) => COMPLETED_SECTIONS.includes(k)),
    );
  });

  it('hover documents every keyword and every section completion offers', () => {
    for (const w of [...KEYWORDS, ...COMPLETED_SECTIONS, EVENTS_HEADER]) {
      assert.ok(KEYWORD_DOCS[w.toUpperCase()] ?? KEYWORD_DOCS[w], w);
    }
    const a = analyze('principal.hostname = "a"\ncondition:\n  $n > 1');
    const h = hover(a, a.lines.position(a.text.indexOf('condition') + 2));
    assert.match(JSON.stringify(h?.contents), /condition:/);
  });

  it('condition words are never values; after a value-leading word a slash starts a regular expression', () => {
    for (const w of CONDITION_WORDS) {
      const messages = parse(`principal.hostname = ${w}`).diagnostics.map((d) => d.message);
      assert.ok(messages.includes("Expected a value after '='"), `${w}: ${messages.join(', ')}`);
    }
    for (const w of VALUE_LEADING_WORDS) {
      const kinds = lex(`x ${w} /a/`).tokens.map((t) => t.kind);
      assert.ok(kinds.includes('regex'), `${w}: ${kinds.join(' ')}`);
    }
    assert.ok(!lex('x / 2').tokens.some((t) => t.kind === 'regex'));
  });

  it('the checker refuses every documented keyword as a variable name', () => {
    for (const w of DOCUMENTED_KEYWORDS) {
      const codes = analyze(`$${w} = principal.hostname`).diagnostics.map((d) => d.code);
      assert.ok(codes.includes('keyword-variable'), `${w}: ${codes.join(', ')}`);
    }
  });

  it('rule-only words are kept apart from the search vocabulary', () => {
    const search = new Set([...SEARCH_SECTION_NAMES, ...KEYWORDS, ...WINDOW_WORDS]);
    for (const w of [...RULE_ONLY_VOCABULARY.sectionNames, ...RULE_ONLY_VOCABULARY.keywords]) {
      assert.ok(!search.has(w), w);
    }
  });
});
