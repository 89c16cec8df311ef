import type { Query, Section, Span } from './ast';
import { lex, type Token } from './lexer';
import { ParseCursor, type RawDiagnostic } from './parse/cursor';
import { parseFilter } from './parse/conditions';
import { parseSection } from './parse/sections';
import { EVENTS_HEADER } from './vocabulary';

export type { RawDiagnostic } from './parse/cursor';

export interface ParseResult {
  query: Query;
  tokens: Token[];
  comments: Token[];
  diagnostics: RawDiagnostic[];
}

/** A replacement that repairs a malformed token, when there is an obvious one. */
function lexFix(text: string, t: Token): string | undefined {
  if (t.kind === 'op' && text.slice(t.start, t.end) === '==') return '=';
  if (
    t.kind === 'string' &&
    text.charCodeAt(t.start) === 39 &&
    text.charCodeAt(t.end - 1) === 39 &&
    t.end - t.start >= 2
  ) {
    return JSON.stringify(t.value);
  }
  return undefined;
}

export function parse(text: string): ParseResult {
  return parseTokens(text, lex(text));
}

/** Parses tokens that were already lexed from `text`. */
export function parseTokens(
  text: string,
  lexed: { tokens: Token[]; comments: Token[] },
  options?: { rule?: boolean },
): ParseResult {
  const rule = options?.rule === true;
  const s = new ParseCursor(text, lexed.tokens, lexed.comments, rule ? { rule } : undefined);
  // A rule file's parser reports the lexer's errors for the whole file itself.
  if (!rule) reportLexErrors(s);
  const query = parseQuery(s);
  return { query, tokens: s.tokens, comments: s.comments, diagnostics: s.diagnostics };
}

/** The lexer's errors, first, as the parser's diagnostics. */
export function reportLexErrors(s: ParseCursor): void {
  // Indexed loops: this runs once per document, before the optimizing compiler has seen it, and
  // for-of would allocate an iterator result per token there.
  const tokens = s.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.error) {
      s.error(t.error, t.start, Math.max(t.end, t.start + 1), 'lex');
      const fix = lexFix(s.text, t);
      if (fix !== undefined) s.diagnostics[s.diagnostics.length - 1].data = { replacements: [fix] };
    }
  }
  for (let i = 0; i < s.comments.length; i++) {
    const c = s.comments[i];
    if (c.error) s.error(c.error, c.start, c.end, 'lex');
  }
}

/** A search: the optional `events:` header, the filtering statements, then the sections. */
function parseQuery(s: ParseCursor): Query {
  let events: Span | undefined;
  if (s.isWord(s.peek(), EVENTS_HEADER) && s.peek(1).kind === 'colon') {
    const kw = s.next();
    events = { start: kw.start, end: s.next().end };
  }
  const filter = parseFilter(s);
  const sections: Section[] = [];
  while (s.peek().kind !== 'eof') {
    if (s.isWord(s.peek(), EVENTS_HEADER) && s.peek(1).kind === 'colon') {
      const kw = s.next();
      const colon = s.next();
      s.error(
        'events: comes first, before the filtering statements and the other sections',
        kw.start,
        colon.end,
        'section-order',
      );
      // Its statements are still read, so nothing after it is reported twice.
      parseFilter(s);
    } else if (s.atSectionStart()) {
      sections.push(parseSection(s));
    } else {
      // parseFilter stops only at a section or the end; anything else here is stray text after sections
      const t = s.next();
      s.error(`Unexpected '${s.tokenText(t)}'`, t.start, t.end);
    }
  }
  const query: Query = { filter, sections };
  if (events) query.events = events;
  return query;
}
