// One vocabulary for YARA-L: the rule words of src/udm/vocabulary.ts are the ones the TextMate
// grammar (syntaxes/yaral.tmLanguage.json, written by hand), the rule parser and the rule checks use.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULE_SECTION_ORDER as AST_SECTION_ORDER } from '../../../../src/udm/rule/ast';
import { RULE_OPTIONS } from '../../../../src/udm/rule/check-frame';
import { parseRuleFile } from '../../../../src/udm/rule/parse';
import {
  BOOLEAN_LITERALS,
  CONDITIONAL_WORDS,
  LIST_KEYWORDS,
  LOGICAL_OPERATORS,
  NOCASE,
  NULL_CHECK,
  NULL_LITERAL,
  PIVOT_WORDS,
  QUANTIFIERS,
  RULE_KEYWORD,
  RULE_ONLY_VOCABULARY,
  RULE_OPTION_NAMES,
  RULE_SECTION_ORDER,
  SEARCH_SECTION_NAMES,
  WINDOW_BOUNDS,
  WINDOW_WORDS,
} from '../../../../src/udm/vocabulary';

const ROOT = join(__dirname, '..', '..', '..', '..');
type Rule = { match?: string; name?: string; patterns?: Rule[] };
const grammar = JSON.parse(readFileSync(join(ROOT, 'syntaxes/yaral.tmLanguage.json'), 'utf8')) as {
  repository: Record<string, Rule>;
};

/** The words of a grammar rule's word group, `(?i:a|b)` or `(?:a|b)`. */
function words(match: string | undefined): string[] {
  const m = /\(\?i?:([a-z_|]+)\)/.exec(match ?? '');
  assert.ok(m, match);
  return m[1].split('|').sort();
}

function named(group: string, name: string): string[] {
  const rule = grammar.repository[group].patterns?.find((p) => p.name === name);
  assert.ok(rule, `${group} ${name}`);
  return words(rule.match);
}

const sorted = (list: readonly string[]): string[] => [...list].sort();

describe('YARA-L vocabulary', () => {
  it('the TextMate grammar colours exactly the vocabulary’s sections and keywords', () => {
    assert.deepEqual(words(grammar.repository.sections.match), sorted(RULE_SECTION_ORDER));
    assert.match(grammar.repository['rule-header'].match ?? '', new RegExp(`^\\^\\\\s\\*\\(${RULE_KEYWORD}\\)`));
    assert.deepEqual(named('keywords', 'keyword.operator.logical.yaral'), sorted(LOGICAL_OPERATORS));
    assert.deepEqual(named('keywords', 'keyword.other.window.yaral'), sorted([...WINDOW_WORDS, ...PIVOT_WORDS]));
    assert.deepEqual(named('keywords', 'keyword.control.conditional.yaral'), sorted(CONDITIONAL_WORDS));
    assert.deepEqual(
      named('keywords', 'keyword.other.yaral'),
      sorted([NOCASE, ...LIST_KEYWORDS, ...QUANTIFIERS, NULL_CHECK]),
    );
    assert.deepEqual(named('keywords', 'variable.language.window.yaral'), sorted(WINDOW_BOUNDS));
    assert.deepEqual(named('constants', 'constant.language.boolean.yaral'), sorted(BOOLEAN_LITERALS));
    assert.deepEqual(named('constants', 'constant.language.null.yaral'), [NULL_LITERAL]);
  });

  it('the rule-only words are the rule’s sections and keywords the search language lacks', () => {
    assert.deepEqual(sorted(RULE_ONLY_VOCABULARY.sectionNames), ['meta', 'options']);
    for (const name of RULE_ONLY_VOCABULARY.sectionNames) assert.ok(!SEARCH_SECTION_NAMES.includes(name), name);
    assert.ok(RULE_ONLY_VOCABULARY.keywords.includes(RULE_KEYWORD));
  });

  it('the rule parser reads every section of the vocabulary, in any case, in its order', () => {
    assert.deepEqual(AST_SECTION_ORDER, RULE_SECTION_ORDER);
    const body = RULE_SECTION_ORDER.map((k) => `  ${k.toUpperCase()}:\n`).join('');
    const file = parseRuleFile(`rule r {\n${body}}\n`);
    assert.deepEqual(
      file.rules[0]?.sectionOrder.map((s) => s.kind),
      [...RULE_SECTION_ORDER],
    );
  });

  it('the options check knows exactly the vocabulary’s options', () => {
    assert.deepEqual(sorted(Object.keys(RULE_OPTIONS)), sorted(RULE_OPTION_NAMES));
  });
});
