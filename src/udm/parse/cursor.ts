import type { Token } from '../lexer';
import { CONDITION_WORDS, SEARCH_SECTION_NAMES as SECTION_WORDS } from '../vocabulary';

export interface RawDiagnostic {
  message: string;
  severity: 'error' | 'warning' | 'info';
  start: number;
  end: number;
  code?: string;
  data?: unknown;
}

/** Section names of a search query (`events` is read by the query level, the rest by sections.ts). */
export const SEARCH_SECTION_NAMES: ReadonlySet<string> = new Set<string>(SECTION_WORDS);

/** Words that end a condition or join conditions; never field names. */
export const RESERVED: ReadonlySet<string> = new Set(CONDITION_WORDS);

/** Deepest nesting of parentheses / NOT accepted before bailing out (keeps the stack safe). */
export const MAX_DEPTH = 200;

/** Lower-cased identifier when it is short enough to be a keyword, else ''. Avoids allocating per token. */
export function shortLower(t: Token): string {
  const v = t.value;
  if (v.length > 9) return '';
  // Most identifiers are already lower case; toLowerCase() would copy them anyway.
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 65 && c <= 90) return v.toLowerCase();
  }
  return v;
}

/** `value` equals the lower-case ASCII `word`, ignoring case, without allocating. */
export function sameWord(value: string, word: string): boolean {
  if (value.length !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(i)) return false;
  }
  return true;
}

export interface CursorOptions {
  /** First token to read (default 0). */
  from?: number;
  /**
   * Index of the token that ends the range (default: the lexer's eof). Reading stops there as at
   * the end of the text, so a caller can run the filter or a section over part of a document (the
   * body between a rule's braces).
   */
  to?: number;
  /**
   * Words that start a section when followed by ':' (lower case). Filters stop at them, so a
   * language with more sections passes its own set.
   */
  sectionNames?: ReadonlySet<string>;
  /** A YARA-L rule's sections: `#e` counts, `$e` and `!$e` in condition:, sliding windows. */
  rule?: boolean;
}

/**
 * The shared state of one parse: the token position, the nesting depth and the diagnostics. The
 * grammar lives in module-level functions over it (conditions.ts, operands.ts, sections.ts), so a
 * parser for a larger language can call them over its own range of tokens.
 */
export class ParseCursor {
  // Every field starts with a value of its final type: a field first defined as undefined and then
  // set to a number is stored boxed, and the token loop reads `p` and `last` on every step.
  p = 0;
  depth = 0;
  readonly diagnostics: RawDiagnostic[] = [];
  readonly sectionNames: ReadonlySet<string>;
  readonly rule: boolean = false;
  /** Index of the range's end token; peek and next never go past it. */
  private readonly last: number = 0;
  private readonly eof: Token;

  constructor(
    readonly text: string,
    readonly tokens: Token[],
    readonly comments: Token[],
    options?: CursorOptions,
  ) {
    this.p = options?.from ?? 0;
    this.sectionNames = options?.sectionNames ?? SEARCH_SECTION_NAMES;
    this.rule = options?.rule === true;
    const last = options?.to ?? tokens.length - 1;
    this.last = last;
    const end = tokens[last];
    this.eof =
      end === undefined || end.kind === 'eof'
        ? (end ?? { kind: 'eof', start: text.length, end: text.length, value: '' })
        : { kind: 'eof', start: end.start, end: end.start, value: '' };
  }

  peek(offset = 0): Token {
    const i = this.p + offset;
    return i < this.last ? this.tokens[i] : this.eof;
  }

  next(): Token {
    if (this.p >= this.last) return this.eof;
    return this.tokens[this.p++];
  }

  /** The token before the current one (undefined at the start of the range). */
  previous(): Token | undefined {
    return this.tokens[this.p - 1];
  }

  isWord(t: Token, word: string): boolean {
    return t.kind === 'ident' && sameWord(t.value, word);
  }

  atSectionStart(offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'ident' && this.peek(offset + 1).kind === 'colon' && this.sectionNames.has(shortLower(t));
  }

  /** At the end of the filtering statements: the end of the range or a section keyword. */
  atFilterEnd(): boolean {
    return this.peek().kind === 'eof' || this.atSectionStart();
  }

  tokenText(t: Token): string {
    const s = this.text.slice(t.start, t.end);
    return s.length > 40 ? `${s.slice(0, 37)}...` : s;
  }

  error(message: string, start: number, end: number, code?: string): void {
    const d: RawDiagnostic = { message, severity: 'error', start, end: Math.max(end, start) };
    if (code) d.code = code;
    this.diagnostics.push(d);
  }

  /** Reports at the current token, or just after the previous one when at the end. */
  errorHere(message: string): void {
    const t = this.peek();
    if (t.kind === 'eof' || t.newlineBefore) {
      const prev = this.previous();
      const at = prev ? prev.end : t.start;
      this.error(message, at, at);
    } else this.error(message, t.start, t.end);
  }

  /** Withdraws the lexer's error for a token the grammar accepts where it stands (`2h` in a window). */
  dropLexError(t: Token): void {
    const i = this.diagnostics.findIndex((d) => d.code === 'lex' && d.start === t.start);
    if (i >= 0) this.diagnostics.splice(i, 1);
  }
}

/**
 * V8 gives cursor instances their hidden class through one transition per field, and forgets that
 * class when the last instance is collected; the optimized code of every grammar function depends
 * on it, so each parse after a major GC would start unoptimized again. One idle instance keeps it.
 */
export const keepCursorShape = new ParseCursor('', [{ kind: 'eof', start: 0, end: 0, value: '' }], []);
