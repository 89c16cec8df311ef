/**
 * Hostile inputs for the UDM engine: a ReDoS corpus (nested quantifiers, overlapping
 * alternation, the OWASP examples), each with 40-character inputs that make a backtracking engine
 * take exponential time and the answer RE2 gives, and the documents that flood a language server.
 * Shared by the reliability tests and scripts/fuzz-udm.mjs.
 */
export interface RedosCase {
  /** RE2 syntax, as written between `/` and `/` */
  pattern: string;
  /** 40 characters that a backtracking engine chews on, and that do not match */
  attack: string;
  /** 40 characters that match */
  match: string;
}

const a39 = 'a'.repeat(39);

export const REDOS_CORPUS: readonly RedosCase[] = [
  { pattern: '(a+)+$', attack: `${a39}!`, match: 'a'.repeat(40) },
  { pattern: '^([a-zA-Z]+)*$', attack: `${a39}!`, match: 'aB'.repeat(20) },
  { pattern: '(a|aa)+$', attack: `${a39}!`, match: 'a'.repeat(40) },
  { pattern: '^(a|a?)+$', attack: `${a39}!`, match: 'a'.repeat(40) },
  { pattern: '(.*a){12}$', attack: `${a39}!`, match: 'a'.repeat(40) },
  { pattern: '^(([a-z])+.)+[A-Z]([a-z])+$', attack: `${a39}!`, match: `${'abcdefghij'.repeat(3)}Xyzxyzxyzq` },
  {
    pattern:
      '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
    attack: `${a39}!`,
    match: 'alice.smith.jones.brown.green@example.co',
  },
  { pattern: "^[a-zA-Z]+(([',.\\-][a-zA-Z ])?[a-zA-Z]*)*$", attack: `${a39}!`, match: "O'Neil-Smith".padEnd(40, 'x') },
  { pattern: '^(\\d+)+$', attack: `${'1'.repeat(39)}x`, match: '1'.repeat(40) },
  { pattern: '(x+x+)+y', attack: 'x'.repeat(40), match: `${'x'.repeat(39)}y` },
  { pattern: '^(\\w+\\s?)*$', attack: `${a39}!`, match: 'word '.repeat(8) },
  { pattern: '^(\\w|\\d)+$', attack: `${'a1'.repeat(19)}a!`, match: '1'.repeat(40) },
];

/** Patterns JavaScript takes and RE2 refuses, with the part the diagnostic must point at. */
export const NOT_RE2: ReadonlyArray<{ pattern: string; at: string; says: RegExp }> = [
  { pattern: '(', at: '(', says: /missing closing \)/ },
  { pattern: '[a-', at: '[a-', says: /missing closing \]/ },
  { pattern: 'end\\Z', at: '\\Z', says: /no \\Z/ },
  { pattern: 'a++b', at: '++', says: /possessive/ },
  { pattern: 'x(?=y)', at: '(?=', says: /lookahead/ },
  { pattern: 'x(?<!y)z', at: '(?<!', says: /lookbehind/ },
  { pattern: '(a)\\1', at: '\\1', says: /backreferences/ },
];

/** The floods: documents built to make a language server produce or do unbounded work. */
export const FLOODS = {
  /** a megabyte of `"`: half a million empty strings, each an error */
  quotes: (size = 1_000_000): string => '"'.repeat(size),
  /** `strings.lower(` nested without end */
  nestedCalls: (depth = 100_000): string => 'strings.lower('.repeat(depth),
  /** parentheses nested `depth` deep around one condition */
  nestedParens: (depth = 20_000): string => `${'('.repeat(depth)}principal.hostname = "a"${')'.repeat(depth)}`,
  /** a left-deep arithmetic chain */
  arithmetic: (terms = 100_000): string => `target.port = ${Array(terms).fill('1').join(' + ')}`,
};
