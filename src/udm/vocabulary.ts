// The words of the UDM search language, in one place. The lexer, the parser, the checker, the
// editor features (completion, hover, semantic tokens, formatting) and the query bar's tokenizer
// read them from here; test/unit/udm/vocabulary.test.ts holds the TextMate grammar
// (syntaxes/udm.tmLanguage.json) and every consumer to these lists. Words are lower case: the
// language reads them case-insensitively.

/**
 * The statistical sections in their documented order (udm-search statistics pages): match:,
 * outcome:, condition:, dedup:, order:, limit:. select:/unselect: have no documented place (Google's
 * page writes select: after limit:); they sit after dedup: here, and completion does not offer them.
 */
export const SECTION_ORDER = [
  'match',
  'outcome',
  'condition',
  'dedup',
  'select',
  'unselect',
  'order',
  'limit',
] as const;

export type SectionKind = (typeof SECTION_ORDER)[number];

/** The optional header before the filtering statements: `events:`. */
export const EVENTS_HEADER = 'events';

/** Every word that starts a section of a search when followed by ':'. */
export const SEARCH_SECTION_NAMES: readonly string[] = [EVENTS_HEADER, ...SECTION_ORDER];

/** The sections completion offers, in order (the ones the statistics engine applies). */
export const COMPLETED_SECTIONS: readonly SectionKind[] = SECTION_ORDER.filter(
  (k) => k !== 'select' && k !== 'unselect',
);

/** Join and negate conditions; the formatter and completion write them upper case. */
export const LOGICAL_OPERATORS = ['and', 'or', 'not'] as const;

/** `field [not] in [regex|cidr] %list`. */
export const LIST_KEYWORDS = ['in', 'regex', 'cidr'] as const;

/** After a string or regular expression value: compare ignoring case. */
export const NOCASE = 'nocase';

/** Before a repeated field: `any` (the default) or `all` of its elements. */
export const QUANTIFIERS = ['any', 'all'] as const;

/** After an order: variable. */
export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;

/** Boolean values (`TRUE`, `true`, `True` alike). */
export const BOOLEAN_LITERALS = ['true', 'false'] as const;

/** The words of a match: time window: `by 1h`, `over every day`, `by first hour`. */
export const WINDOW_WORDS = ['by', 'over', 'every', 'first'] as const;

/** Words coloured as keywords wherever they stand alone (not inside a dotted path). */
export const KEYWORDS: readonly string[] = [
  ...LOGICAL_OPERATORS,
  'in',
  NOCASE,
  'regex',
  'cidr',
  ...QUANTIFIERS,
  ...ORDER_DIRECTIONS,
  ...BOOLEAN_LITERALS,
];

/** Keywords the formatter writes lower case (the logical operators it writes upper case). */
export const LOWER_CASE_KEYWORDS: readonly string[] = [NOCASE, ...LIST_KEYWORDS, ...ORDER_DIRECTIONS, ...QUANTIFIERS];

/** Words that end a condition or join conditions; never field names, never values. */
export const CONDITION_WORDS: readonly string[] = [...LOGICAL_OPERATORS, 'in', NOCASE];

/**
 * Words after which a value or a list comes, so they do not end one: a `/` after them starts a
 * regular expression (lexer), and completion offers values there.
 */
export const VALUE_LEADING_WORDS: readonly string[] = [...LOGICAL_OPERATORS, ...LIST_KEYWORDS];

/** Standalone words that are never a field name, so no field facts are looked up for them. */
export const NON_FIELD_WORDS: readonly string[] = [
  ...LOGICAL_OPERATORS,
  'in',
  NOCASE,
  'regex',
  'cidr',
  ...BOOLEAN_LITERALS,
];

/**
 * The keyword list of udm-syntax.md: none may name a variable. It names the detection rules'
 * words too (rule, meta, options, before, after), since a search and a rule share variables.
 */
export const DOCUMENTED_KEYWORDS: readonly string[] = [
  'rule',
  'meta',
  'match',
  'over',
  'events',
  'condition',
  'outcome',
  'options',
  'and',
  'or',
  'not',
  'nocase',
  'in',
  'regex',
  'cidr',
  'before',
  'after',
  'all',
  'any',
  'if',
  'max',
  'min',
  'sum',
  'array',
  'array_distinct',
  // `count` is on the keyword list of the syntax page, yet Google's own examples name an outcome
  // $count: the SPL-to-YARA-L page (`$count = count(metadata.id)`, `condition: $count > 5`) and the
  // group() page (`$count = count_distinct(metadata.id)`, `order: $count desc`). Users paste the
  // examples, so $count is accepted; the other keywords stay refused.
  'count_distinct',
  'is',
  'null',
];

// ---- YARA-L detection rules: the words a rule adds to the search's. The rule parser, the rule
// checks, the rule editor features and syntaxes/yaral.tmLanguage.json read them from here
// (test/unit/udm/rule/vocabulary.test.ts holds the grammar to them).

/** A rule's sections in their documented order (yaral-rules.md); meta, events and condition are required. */
export const RULE_SECTION_ORDER = ['meta', 'events', 'match', 'outcome', 'condition', 'options'] as const;

export type RuleSectionName = (typeof RULE_SECTION_ORDER)[number];

/** The sections every rule must have. */
export const RULE_REQUIRED_SECTIONS: readonly RuleSectionName[] = ['meta', 'events', 'condition'];

/** The word that opens a rule: `rule name {`. */
export const RULE_KEYWORD = 'rule';

/** A match: window's sliding pivot: `over 10m after $e`. */
export const PIVOT_WORDS = ['before', 'after'] as const;

/** The conditional expression's words: `if(cond, then, else)`. */
export const CONDITIONAL_WORDS = ['if', 'then', 'else'] as const;

/** `$x is null`. */
export const NULL_CHECK = 'is';
export const NULL_LITERAL = 'null';

/** The match window's bounds, read like fields in outcome: and condition:. */
export const WINDOW_BOUNDS = ['window_start', 'window_end'] as const;

/** The documented options of options:. */
export const RULE_OPTION_NAMES = ['allow_zero_values', 'suppression_window'] as const;

/** Words of detection rules only: section names and keywords the search language does not have. */
export const RULE_ONLY_VOCABULARY: { readonly sectionNames: readonly string[]; readonly keywords: readonly string[] } =
  {
    sectionNames: RULE_SECTION_ORDER.filter((k) => !SEARCH_SECTION_NAMES.includes(k)),
    keywords: [RULE_KEYWORD, ...PIVOT_WORDS, NULL_CHECK],
  };

/** `word` (any case) is one of `words` (lower case). */
export function isOneOf(words: readonly string[], word: string): boolean {
  return words.includes(word.toLowerCase());
}
