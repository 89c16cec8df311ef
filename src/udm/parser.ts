import type {
  ArithOp,
  CallNode,
  CompareOp,
  Expr,
  FieldNode,
  GroupKey,
  MatchWindow,
  NumberNode,
  Operand,
  OrderItem,
  OutcomeItem,
  Quantifier,
  Query,
  Section,
  SectionKind,
  Segment,
  Span,
  VariableNode,
} from './ast';
import { lex, TIME_UNITS, type Token } from './lexer';

export interface RawDiagnostic {
  message: string;
  severity: 'error' | 'warning' | 'info';
  start: number;
  end: number;
  code?: string;
  data?: unknown;
}

export interface ParseResult {
  query: Query;
  tokens: Token[];
  comments: Token[];
  diagnostics: RawDiagnostic[];
}

const SECTION_NAMES = new Set<string>([
  'events',
  'match',
  'outcome',
  'condition',
  'dedup',
  'select',
  'unselect',
  'order',
  'limit',
]);
/** Words that end a condition or join conditions; never field names. */
const RESERVED = new Set(['and', 'or', 'not', 'in', 'nocase']);

/** Lower-cased identifier when it is short enough to be a keyword, else ''. Avoids allocating per token. */
function shortLower(t: Token): string {
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
function sameWord(value: string, word: string): boolean {
  if (value.length !== word.length) return false;
  for (let i = 0; i < word.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(i)) return false;
  }
  return true;
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

/** Segments of the field path being read (parsePathOrCall never nests); copied out at its end. */
const SEGMENT_SCRATCH: Segment[] = [];

/** `net.ip_in_range_cidr`: the segments joined by dots (a slice of the text when written so). */
function dottedName(text: string, segments: Segment[]): string {
  let contiguous = true;
  for (let k = 1; k < segments.length && contiguous; k++)
    contiguous = segments[k].start === segments[k - 1].end + 1 && segments[k].name !== '';
  if (contiguous) return text.slice(segments[0].start, segments[segments.length - 1].end);
  let name = segments[0].name;
  for (let k = 1; k < segments.length; k++) name += `.${segments[k].name}`;
  return name;
}

/** Deepest nesting of parentheses / NOT accepted before bailing out (keeps the stack safe). */
const MAX_DEPTH = 200;

export function parse(text: string): ParseResult {
  return parseTokens(text, lex(text));
}

/** Parses tokens that were already lexed from `text`. */
export function parseTokens(text: string, lexed: { tokens: Token[]; comments: Token[] }): ParseResult {
  return new Parser(text, lexed.tokens, lexed.comments).run();
}

class Parser {
  private p = 0;
  private readonly diagnostics: RawDiagnostic[] = [];
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
    private readonly comments: Token[],
  ) {}

  run(): ParseResult {
    // Indexed loops: this runs once per document, before the optimizing compiler has seen it, and
    // for-of would allocate an iterator result per token there.
    const tokens = this.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.error) {
        this.error(t.error, t.start, Math.max(t.end, t.start + 1), 'lex');
        const fix = lexFix(this.text, t);
        if (fix !== undefined) this.diagnostics[this.diagnostics.length - 1].data = { replacements: [fix] };
      }
    }
    for (let i = 0; i < this.comments.length; i++) {
      const c = this.comments[i];
      if (c.error) this.error(c.error, c.start, c.end, 'lex');
    }
    let events: Span | undefined;
    if (this.isWord(this.peek(), 'events') && this.peek(1).kind === 'colon') {
      const kw = this.next();
      events = { start: kw.start, end: this.next().end };
    }
    const filter = this.parseFilter();
    const sections: Section[] = [];
    while (this.peek().kind !== 'eof') {
      if (this.isWord(this.peek(), 'events') && this.peek(1).kind === 'colon') {
        const kw = this.next();
        const colon = this.next();
        this.error(
          'events: comes first, before the filtering statements and the other sections',
          kw.start,
          colon.end,
          'section-order',
        );
        // Its statements are still read, so nothing after it is reported twice.
        this.parseFilter();
      } else if (this.atSectionStart()) {
        sections.push(this.parseSection());
      } else {
        // parseFilter stops only at a section or the end; anything else here is stray text after sections
        const t = this.next();
        this.error(`Unexpected '${this.tokenText(t)}'`, t.start, t.end);
      }
    }
    const query: Query = { filter, sections };
    if (events) query.events = events;
    return { query, tokens: this.tokens, comments: this.comments, diagnostics: this.diagnostics };
  }

  // ---- token helpers -------------------------------------------------------------------------

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.p + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.tokens[this.p];
    if (t.kind !== 'eof') this.p++;
    return t;
  }

  private isWord(t: Token, word: string): boolean {
    return t.kind === 'ident' && sameWord(t.value, word);
  }

  private atSectionStart(offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === 'ident' && this.peek(offset + 1).kind === 'colon' && SECTION_NAMES.has(shortLower(t));
  }

  private tokenText(t: Token): string {
    const s = this.text.slice(t.start, t.end);
    return s.length > 40 ? `${s.slice(0, 37)}...` : s;
  }

  private error(message: string, start: number, end: number, code?: string): void {
    const d: RawDiagnostic = { message, severity: 'error', start, end: Math.max(end, start) };
    if (code) d.code = code;
    this.diagnostics.push(d);
  }

  /** Reports at the current token, or just after the previous one when at the end. */
  private errorHere(message: string): void {
    const t = this.peek();
    if (t.kind === 'eof' || t.newlineBefore) {
      const prev = this.tokens[this.p - 1];
      const at = prev ? prev.end : t.start;
      this.error(message, at, at);
    } else this.error(message, t.start, t.end);
  }

  // ---- filter --------------------------------------------------------------------------------

  private atFilterEnd(): boolean {
    return this.peek().kind === 'eof' || this.atSectionStart();
  }

  private parseFilter(): Expr | null {
    return this.parseSequence(false);
  }

  /**
   * Conditions one after another (lines, or side by side) are ANDed. Inside parentheses
   * (`inParens`) the sequence ends at the closing ')'.
   */
  private parseSequence(inParens: boolean): Expr | null {
    const items: Expr[] = [];
    while (!this.atFilterEnd() && !(inParens && this.peek().kind === 'rparen')) {
      const before = this.p;
      const e = this.parseOr();
      if (e) items.push(e);
      if (this.p === before) {
        if (inParens && this.peek().kind !== 'rparen' && !this.canStartCondition(this.peek())) break;
        const t = this.next();
        this.error(t.kind === 'rparen' ? "Unmatched ')'" : `Unexpected '${this.tokenText(t)}'`, t.start, t.end);
      }
    }
    if (items.length === 0) return null;
    if (items.length === 1) return items[0];
    return { type: 'and', items, start: items[0].start, end: items[items.length - 1].end };
  }

  private canStartCondition(t: Token): boolean {
    switch (t.kind) {
      case 'ident':
        if (this.isWord(t, 'and') || this.isWord(t, 'or')) return false;
        if (this.isWord(t, 'nocase') || this.isWord(t, 'in')) return false;
        // Only ever called on the current token.
        return !this.atSectionStart();
      case 'string':
      case 'number':
      case 'regex':
      case 'variable':
      case 'lparen':
      case 'minus':
      case 'reflist':
      case 'invalid':
      case 'duration':
        return true;
      default:
        return false;
    }
  }

  private parseOr(): Expr | null {
    const first = this.parseAnd();
    // Most conditions have no `or`: the items array is made only when one comes.
    let items: Expr[] | undefined;
    let only: Expr | null = first;
    while (this.isWord(this.peek(), 'or')) {
      const orTok = this.next();
      const rhs = this.parseAnd();
      if (!rhs) this.errorHere(`Expected a condition after '${orTok.value}'`);
      else if (only) {
        items = [only, rhs];
        only = null;
      } else if (items) items.push(rhs);
      else only = rhs;
      if (!first && !items && only === rhs && rhs)
        this.error(`Expected a condition before '${orTok.value}'`, orTok.start, orTok.end);
    }
    if (!items) return only;
    return { type: 'or', items, start: items[0].start, end: items[items.length - 1].end };
  }

  private parseAnd(): Expr | null {
    // As in parseOr, the array is made only for a second condition.
    let items: Expr[] | undefined;
    let only: Expr | null = null;
    let joined = false;
    for (;;) {
      const t = this.peek();
      if (this.isWord(t, 'and')) {
        this.next();
        if (!items && !only) this.error(`Expected a condition before '${t.value}'`, t.start, t.end);
        if (!this.canStartCondition(this.peek()) || this.atFilterEnd()) {
          this.error(`Expected a condition after '${t.value}'`, t.start, t.end);
          break;
        }
        joined = true;
        continue;
      }
      if (this.atFilterEnd() || !this.canStartCondition(t)) break;
      // A condition on a new line without an explicit AND starts the next line's group: lines are
      // ANDed after an `or` between lines has joined its neighbours (`a` / `or b` / `c` = `(a or b) and c`).
      if ((items || only) && !joined && t.newlineBefore) break;
      joined = false;
      const before = this.p;
      const e = this.parseUnary();
      if (e) {
        if (items) items.push(e);
        else if (only) {
          items = [only, e];
          only = null;
        } else only = e;
      }
      if (this.p === before) break;
    }
    if (!items) return only;
    return { type: 'and', items, start: items[0].start, end: items[items.length - 1].end };
  }

  private parseUnary(): Expr | null {
    const t = this.peek();
    if (this.depth > MAX_DEPTH) {
      // Skip the rest of a pathological nest instead of overflowing the stack.
      this.error('Query is nested too deeply', t.start, t.end);
      while (!this.atFilterEnd()) this.next();
      return null;
    }
    if (this.isWord(t, 'not')) {
      this.next();
      this.depth++;
      const inner = this.parseUnary();
      this.depth--;
      if (!inner) {
        this.errorHere(`Expected a condition after '${t.value}'`);
        return { type: 'error', start: t.start, end: t.end };
      }
      return { type: 'not', expr: inner, keyword: { start: t.start, end: t.end }, start: t.start, end: inner.end };
    }
    if (t.kind === 'lparen') {
      this.next();
      this.depth++;
      const inner = this.parseSequence(true);
      this.depth--;
      const close = this.peek();
      if (close.kind === 'rparen') {
        this.next();
      } else {
        this.error("Missing ')' to close this '('", t.start, t.end, 'unclosed-paren');
      }
      if (!inner) {
        if (close.kind === 'rparen') this.error('Empty parentheses: expected a condition', t.start, close.end);
        return { type: 'error', start: t.start, end: close.kind === 'rparen' ? close.end : t.end };
      }
      // Keep the parentheses in the span so formatting and folding see them.
      return { ...inner, start: t.start, end: close.kind === 'rparen' ? close.end : inner.end };
    }
    return this.parseCondition();
  }

  /** `any` / `all` before a field (not before `in`, `=`...: then it is a field named any/all). */
  private parseQuantifier(): Quantifier | undefined {
    const t = this.peek();
    if (!(this.isWord(t, 'any') || this.isWord(t, 'all'))) return undefined;
    const n = this.peek(1);
    if (n.newlineBefore) return undefined;
    if ((n.kind === 'ident' && !RESERVED.has(shortLower(n))) || n.kind === 'variable') {
      this.next();
      return { kind: t.value.toLowerCase() as 'any' | 'all', start: t.start, end: t.end };
    }
    return undefined;
  }

  private parseCondition(): Expr | null {
    const quantifier = this.parseQuantifier();
    const left = this.parseOperand('left');
    if (quantifier && left && left.type !== 'field') {
      this.error(
        left.type === 'call'
          ? `'${quantifier.kind}' cannot come before a function call; put it before the repeated field inside the call`
          : `'${quantifier.kind}' must be followed by a repeated field`,
        quantifier.start,
        quantifier.end,
        'bad-quantifier',
      );
    }
    if (!left) {
      const t = this.peek();
      if (t.kind === 'reflist') {
        this.next();
        this.error("Expected 'field in %list'", t.start, t.end);
        return { type: 'error', start: t.start, end: t.end };
      }
      if (t.kind === 'invalid') {
        this.next(); // already reported by the lexer
        return { type: 'error', start: t.start, end: t.end };
      }
      if (quantifier) return { type: 'error', start: quantifier.start, end: quantifier.end };
      return null;
    }
    const start = quantifier ? quantifier.start : left.start;
    const t = this.peek();
    if (t.kind === 'op') {
      this.next();
      const op = t.value as CompareOp;
      const right = this.atValueStart() ? this.parseOperand('right') : null;
      if (!right) {
        this.errorHere(`Expected a value after '${op}'`);
      }
      let end = right ? right.end : t.end;
      const nocase = this.parseNocase();
      if (nocase) end = nocase.end;
      if (
        left.type === 'variable' &&
        op === '=' &&
        right &&
        (right.type === 'field' || right.type === 'call' || right.type === 'arith') &&
        !nocase &&
        !quantifier
      ) {
        return { type: 'assign', variable: left, value: right, start, end };
      }
      const cmp: Expr = { type: 'compare', left, op, opSpan: { start: t.start, end: t.end }, right, start, end };
      if (nocase) cmp.nocase = nocase;
      if (quantifier) cmp.quantifier = quantifier;
      return cmp;
    }
    const notTok = this.isWord(t, 'not') && this.isWord(this.peek(1), 'in') ? t : undefined;
    if (notTok || this.isWord(t, 'in')) {
      if (notTok) this.next();
      const inTok = this.next();
      let mode: 'exact' | 'regex' | 'cidr' = 'exact';
      if (this.isWord(this.peek(), 'regex')) {
        this.next();
        mode = 'regex';
      } else if (this.isWord(this.peek(), 'cidr')) {
        this.next();
        mode = 'cidr';
      }
      const lt = this.peek();
      let list: ({ name: string } & Span) | null = null;
      let end = this.tokens[this.p - 1].end;
      if (lt.kind === 'reflist') {
        this.next();
        list = { name: lt.value, start: lt.start, end: lt.end };
        end = lt.end;
      } else {
        this.errorHere("Expected a reference list such as %my_list after 'in'");
      }
      const nocase = this.parseNocase();
      if (nocase) end = nocase.end;
      const kwStart = notTok ? notTok.start : inTok.start;
      if (quantifier)
        this.error(
          `'${quantifier.kind}' cannot be used with a reference list`,
          quantifier.start,
          quantifier.end,
          'bad-quantifier',
        );
      const inExpr: Expr = {
        type: 'in',
        left,
        mode,
        list,
        negated: !!notTok,
        keyword: { start: kwStart, end: inTok.end },
        start,
        end,
      };
      if (nocase) inExpr.nocase = nocase;
      return inExpr;
    }
    if (left.type === 'call') {
      const nocase = this.parseNocase();
      const callExpr: Expr = { type: 'callExpr', call: left, start, end: nocase ? nocase.end : left.end };
      if (nocase) callExpr.nocase = nocase;
      return callExpr;
    }
    if (this.isWord(t, 'nocase')) {
      this.next();
      this.error("'nocase' must follow a string or regular expression value", t.start, t.end);
      return { type: 'error', operand: left, start, end: t.end };
    }
    if (left.type === 'field') {
      const last = left.segments[left.segments.length - 1];
      if (!(last && last.name === '')) {
        // A trailing empty segment (`metadata.`) was already reported.
        this.error(
          'Expected an operator (=, !=, >, >=, <, <=, in) after the field',
          left.start,
          left.end,
          'missing-operator',
        );
      }
    } else if (left.type === 'string' || left.type === 'regex') {
      this.error(
        'A value needs a field to compare with, e.g. principal.hostname = "..."',
        left.start,
        left.end,
        'bare-value',
      );
    } else {
      this.error('Expected a condition', left.start, left.end);
    }
    return { type: 'error', operand: left, start, end: left.end };
  }

  private parseNocase(): Span | undefined {
    const t = this.peek();
    if (!this.isWord(t, 'nocase')) return undefined;
    this.next();
    return { start: t.start, end: t.end };
  }

  private atValueStart(): boolean {
    const t = this.peek();
    switch (t.kind) {
      case 'string':
      case 'number':
      case 'regex':
      case 'variable':
      case 'minus':
      case 'lbracket':
      case 'bytes':
      case 'duration':
        return true;
      case 'lparen':
        return !t.newlineBefore;
      case 'ident':
        if (this.atSectionStart() || RESERVED.has(shortLower(t))) return false;
        // A path that starts a new line and is followed by '.' or an operator begins the next condition.
        if (t.newlineBefore && (this.peek(1).kind === 'dot' || this.peek(1).kind === 'op')) return false;
        return true;
      default:
        return false;
    }
  }

  // ---- operands ------------------------------------------------------------------------------

  /** An operand with arithmetic: `*` `/` `%` bind tighter than `+` `-`; operators must be on the same line. */
  private parseOperand(side: 'left' | 'right'): Operand | null {
    const left = this.parseTerm(side);
    if (!left) return null;
    return this.parseArithTail(left, false);
  }

  private parseTerm(side: 'left' | 'right'): Operand | null {
    const left = this.parsePrimary(side);
    if (!left) return null;
    return this.parseArithTail(left, true);
  }

  private arithOpAhead(multiplicative: boolean): boolean {
    const t = this.peek();
    if (t.newlineBefore) return false;
    if (t.kind === 'minus') return !multiplicative;
    if (t.kind !== 'arith') return false;
    const mul = t.value !== '+';
    return mul === multiplicative;
  }

  private parseArithTail(first: Operand, multiplicative: boolean): Operand {
    let left = first;
    let operators = 0;
    while (this.arithOpAhead(multiplicative)) {
      if (this.depth > MAX_DEPTH) break;
      // A chain builds a tree as deep as it is long, and everything after the parser walks it.
      if (++operators > MAX_DEPTH) {
        const t = this.peek();
        this.error(`Arithmetic chains have at most ${MAX_DEPTH} operators in a row`, t.start, t.end, 'too-deep');
        break;
      }
      const opTok = this.next();
      this.depth++;
      const right = multiplicative ? this.parsePrimary('right') : this.parseTerm('right');
      this.depth--;
      if (!right) this.errorHere(`Expected a value after '${opTok.value}'`);
      left = {
        type: 'arith',
        op: opTok.value as ArithOp,
        opSpan: { start: opTok.start, end: opTok.end },
        left,
        right,
        start: left.start,
        end: right ? right.end : opTok.end,
      };
    }
    return left;
  }

  private parsePrimary(side: 'left' | 'right'): Operand | null {
    const t = this.peek();
    switch (t.kind) {
      case 'string':
        this.next();
        return {
          type: 'string',
          value: t.value,
          quoted: this.text.charCodeAt(t.start) === 34,
          start: t.start,
          end: t.end,
        };
      case 'regex':
        this.next();
        return { type: 'regex', pattern: t.value, start: t.start, end: t.end };
      case 'bytes':
        this.next();
        return { type: 'bytes', value: t.value, start: t.start, end: t.end };
      case 'number':
        this.next();
        return { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
      case 'duration': {
        this.next();
        this.error(
          `'${t.value}' is a duration: it sets the time window of match: (by ${t.value}), it is not a value`,
          t.start,
          t.end,
          'misplaced-duration',
        );
        return { type: 'number', value: parseInt(t.value, 10), raw: t.value, start: t.start, end: t.end };
      }
      case 'minus': {
        const num = this.peek(1);
        this.next();
        if (num.kind === 'number' && num.start === t.end) {
          this.next();
          return { type: 'number', value: -Number(num.value), raw: `-${num.value}`, start: t.start, end: num.end };
        }
        this.error("Expected a number after '-'", t.start, t.end);
        return null;
      }
      case 'variable': {
        this.next();
        const v: VariableNode = { type: 'variable', name: t.value, start: t.start, end: t.end };
        const dot = this.peek();
        const seg = this.peek(1);
        if (dot.kind === 'dot' && dot.start === t.end && seg.kind === 'ident' && seg.start === dot.end) {
          // `$e.principal.hostname`: the event variable prefix, optional in search
          this.next();
          const field = this.parsePathOrCall('left');
          if (field.type === 'field') {
            field.eventVar = v;
            field.start = v.start;
          } else {
            this.error(
              `'$${v.name}.' prefixes a field, not a function`,
              v.start,
              field.type === 'call' ? field.nameSpan.end : field.end,
            );
          }
          return field;
        }
        return v;
      }
      case 'lbracket':
        return this.parseArrayLiteral();
      case 'lparen': {
        // Parentheses inside a value group arithmetic: `(a + b) * 2`.
        if (side === 'left') return null;
        this.next();
        this.depth++;
        const inner = this.depth > MAX_DEPTH ? null : this.parseOperand('right');
        this.depth--;
        if (!inner) this.errorHere('Expected a value');
        if (this.peek().kind === 'rparen') {
          const close = this.next();
          return inner ? { ...inner, start: t.start, end: close.end } : null;
        }
        this.error("Missing ')' to close this '('", t.start, t.end, 'unclosed-paren');
        return inner;
      }
      case 'ident': {
        const lower = shortLower(t);
        if (RESERVED.has(lower)) return null;
        if (lower === 'true' || lower === 'false') {
          if (this.peek(1).kind !== 'dot') {
            this.next();
            return { type: 'bool', value: lower === 'true', start: t.start, end: t.end };
          }
        }
        return this.parsePathOrCall(side);
      }
      default:
        return null;
    }
  }

  private parseArrayLiteral(): Operand {
    const open = this.next();
    const items: Operand[] = [];
    let end = open.end;
    this.depth++;
    while (this.depth <= MAX_DEPTH) {
      const t = this.peek();
      if (t.kind === 'rbracket') {
        end = this.next().end;
        break;
      }
      const item = this.atValueStart() ? this.parseOperand('right') : null;
      if (!item) {
        this.error("Missing ']' to close this array", open.start, open.end, 'unclosed-bracket');
        break;
      }
      items.push(item);
      end = item.end;
      if (this.peek().kind === 'comma') {
        end = this.next().end;
        continue;
      }
      if (this.peek().kind !== 'rbracket') {
        this.error("Missing ']' to close this array", open.start, open.end, 'unclosed-bracket');
        break;
      }
    }
    this.depth--;
    return { type: 'array', items, start: open.start, end };
  }

  private parsePathOrCall(side: 'left' | 'right'): Operand {
    const first = this.next();
    // Segments are gathered in a shared scratch array and copied once at the end: an array that
    // grows by push keeps room for 16 or more elements, and the tree keeps every one of them.
    const scratch = SEGMENT_SCRATCH;
    let count = 0;
    let indexed = false;
    scratch[count++] = { name: first.value, start: first.start, end: first.end };
    let key: FieldNode['key'];
    let end = first.end;
    for (;;) {
      const t = this.peek();
      if (t.kind === 'lbracket' && t.start === end && !key) {
        const open = this.next();
        const inner = this.peek();
        const seg = scratch[count - 1];
        const negative = inner.kind === 'minus' && this.peek(1).kind === 'number' && this.peek(1).start === inner.end;
        if (inner.kind === 'number' || negative) {
          // `[-1]` is read whole so the checker can say an index counts from 0
          if (negative) this.next();
          const num = this.next();
          indexed = true;
          seg.index = {
            type: 'number',
            value: negative ? -Number(num.value) : Number(num.value),
            raw: negative ? `-${num.value}` : num.value,
            start: inner.start,
            end: num.end,
          };
        } else if (inner.kind === 'string') {
          this.next();
          key = {
            type: 'string',
            value: inner.value,
            quoted: this.text.charCodeAt(inner.start) === 34,
            start: inner.start,
            end: inner.end,
          };
        } else {
          this.errorHere('Expected an index such as [0] or a quoted key such as ["key"]');
        }
        if (this.peek().kind === 'rbracket') {
          end = this.next().end;
        } else {
          this.error("Missing ']'", open.start, open.end, 'unclosed-bracket');
          end = this.tokens[this.p - 1].end;
        }
        continue;
      }
      if (t.kind !== 'dot' || key) break;
      const dot = this.next();
      const seg = this.peek();
      if (seg.kind === 'ident' && seg.start === dot.end) {
        this.next();
        scratch[count++] = { name: seg.value, start: seg.start, end: seg.end };
        end = seg.end;
      } else {
        // Keep an empty segment so completion knows a field name is expected here.
        scratch[count++] = { name: '', start: dot.end, end: dot.end };
        this.error("Expected a field name after '.'", dot.start, dot.end, 'empty-segment');
        end = dot.end;
        break;
      }
    }
    const last = scratch[count - 1];
    if (side === 'right' && count === 1 && !key && !indexed && this.peek().kind !== 'lparen') {
      return { type: 'enum', name: first.value, start: first.start, end: first.end };
    }
    const segments = scratch.slice(0, count);
    if (this.peek().kind === 'lparen' && last.name !== '' && !key && !indexed) {
      return this.parseCall(segments);
    }
    const field: FieldNode = { type: 'field', segments, start: first.start, end };
    if (key) field.key = key;
    return field;
  }

  private parseCall(segments: Segment[]): CallNode {
    const open = this.next();
    const name = segments.length === 1 ? segments[0].name : dottedName(this.text, segments);
    const args: Operand[] = [];
    const commas: number[] = [];
    const call: CallNode = {
      type: 'call',
      name,
      nameSpan: { start: segments[0].start, end: segments[segments.length - 1].end },
      args,
      open: { start: open.start, end: open.end },
      commas,
      start: segments[0].start,
      end: open.end,
    };
    if (this.peek().kind === 'rparen') {
      const close = this.next();
      call.close = { start: close.start, end: close.end };
      call.end = close.end;
      return call;
    }
    this.depth++;
    for (;;) {
      if (this.depth > MAX_DEPTH) {
        this.errorHere('Query is nested too deeply');
        break;
      }
      if (call.args.length === 0 && call.commas.length === 0 && sameWord(name, 'if')) {
        // `if(condition, ...)`: the first argument is a condition, not a value.
        const expr = this.parseOr();
        if (expr) {
          call.args.push({ type: 'condition', expr, start: expr.start, end: expr.end });
          call.end = expr.end;
        } else this.errorHere('Expected a condition');
        const t = this.peek();
        if (t.kind === 'comma') {
          this.next();
          call.commas.push(t.start);
          call.end = t.end;
          continue;
        }
        if (t.kind === 'rparen') {
          this.next();
          call.close = { start: t.start, end: t.end };
          call.end = t.end;
          break;
        }
        this.error(`Missing ')' to close the call of ${name}`, open.start, open.end, 'unclosed-paren');
        break;
      }
      const named = this.skipArgumentName();
      const quantifier = named ? undefined : this.parseQuantifier();
      let arg: Operand | null;
      const v = this.peek();
      if (named && (v.kind === 'duration' || (v.kind === 'invalid' && /^\d+[a-zA-Z]+$/.test(v.value)))) {
        // `period:1d`: a duration word as a named argument's value (detection rules' metrics)
        this.next();
        this.dropLexError(v);
        arg = { type: 'enum', name: v.value, start: v.start, end: v.end };
      } else arg = this.atValueStart() ? this.parseOperand('right') : null;
      // `re.regex(field, ...)`: a lone identifier in argument position is a field, not an enum value.
      if (arg && arg.type === 'enum' && !named)
        arg = {
          type: 'field',
          segments: [{ name: arg.name, start: arg.start, end: arg.end }],
          start: arg.start,
          end: arg.end,
        };
      if (quantifier) {
        if (arg && arg.type === 'field') {
          arg.quantifier = quantifier;
          arg.start = quantifier.start;
        } else
          this.error(
            arg?.type === 'call'
              ? `'${quantifier.kind}' cannot come before a function call`
              : `'${quantifier.kind}' must be followed by a repeated field`,
            quantifier.start,
            quantifier.end,
            'bad-quantifier',
          );
      }
      if (arg) {
        args.push(arg);
        call.end = arg.end;
      } else {
        this.errorHere('Expected an argument');
      }
      const t = this.peek();
      if (t.kind === 'comma') {
        this.next();
        commas.push(t.start);
        call.end = t.end;
        continue;
      }
      if (t.kind === 'rparen') {
        this.next();
        call.close = { start: t.start, end: t.end };
        call.end = t.end;
        break;
      }
      this.error(`Missing ')' to close the call of ${name}`, open.start, open.end, 'unclosed-paren');
      break;
    }
    this.depth--;
    // Exact-size copies: the tree keeps them (see SEGMENT_SCRATCH).
    if (args.length) call.args = args.slice();
    if (commas.length) call.commas = commas.slice();
    return call;
  }

  // ---- sections ------------------------------------------------------------------------------

  private parseSection(): Section {
    const kw = this.next();
    const colon = this.next();
    const kind = kw.value.toLowerCase() as SectionKind;
    const keyword = { start: kw.start, end: colon.end };
    const atEnd = (): boolean => this.peek().kind === 'eof' || this.atSectionStart();
    let end = colon.end;
    const skipJunk = (what: string): void => {
      const t = this.next();
      this.error(`Unexpected '${this.tokenText(t)}' in ${kind}: section; expected ${what}`, t.start, t.end);
      end = t.end;
    };
    switch (kind) {
      case 'match': {
        const keys: GroupKey[] = [];
        let window: MatchWindow | undefined;
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            end = this.next().end;
            continue;
          }
          if (this.isWord(t, 'by') || this.isWord(t, 'over')) {
            if (window) this.error('match: has one time window', t.start, t.end, 'duplicate-window');
            window = this.parseWindow();
            end = window.end;
            continue;
          }
          const key = this.parseGroupKey();
          if (key) {
            if (window) this.error('Grouping keys come before the time window', key.start, key.end, 'window-order');
            keys.push(key);
            end = key.end;
          } else skipJunk('fields or placeholders such as $host, then optionally by 1h or over every day');
        }
        const section: Section = { kind, keyword, keys, start: kw.start, end };
        if (window) section.window = window;
        return section;
      }
      case 'dedup':
      case 'select':
      case 'unselect': {
        const keys: GroupKey[] = [];
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            end = this.next().end;
            continue;
          }
          const key = this.parseGroupKey();
          if (key) {
            keys.push(key);
            end = key.end;
          } else skipJunk('fields or placeholders');
        }
        return { kind, keyword, keys, start: kw.start, end };
      }
      case 'outcome': {
        const outcomes: OutcomeItem[] = [];
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            this.next();
            continue;
          }
          if (t.kind !== 'variable') {
            skipJunk('$name = aggregate(...)');
            continue;
          }
          this.next();
          const variable: VariableNode = { type: 'variable', name: t.value, start: t.start, end: t.end };
          const item: OutcomeItem = { variable, value: null, start: t.start, end: t.end };
          if (this.peek().kind === 'op' && this.peek().value === '=') {
            const eq = this.next();
            item.end = eq.end;
            const value = this.atValueStart() ? this.parseOperand('right') : null;
            if (value) {
              item.value = value;
              item.end = value.end;
            } else this.errorHere(`Expected an aggregate such as count(metadata.id) after '$${t.value} ='`);
          } else {
            this.errorHere(`Expected '=' after $${t.value}`);
          }
          outcomes.push(item);
          end = item.end;
        }
        return { kind, keyword, outcomes, start: kw.start, end };
      }
      case 'condition': {
        const expr = this.parseFilter();
        if (expr) end = expr.end;
        return { kind, keyword, expr, start: kw.start, end };
      }
      case 'order': {
        const order: OrderItem[] = [];
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            this.next();
            continue;
          }
          let variable: VariableNode | FieldNode;
          if (t.kind === 'variable' && this.peek(1).kind !== 'dot') {
            this.next();
            variable = { type: 'variable', name: t.value, start: t.start, end: t.end };
          } else if (
            (t.kind === 'ident' || t.kind === 'variable') &&
            !this.isWord(t, 'asc') &&
            !this.isWord(t, 'desc')
          ) {
            const op = this.parsePrimary('left');
            if (!op || op.type !== 'field') {
              if (op) this.error('Expected a placeholder to order by', op.start, op.end);
              else skipJunk('$name asc|desc');
              continue;
            }
            variable = op;
          } else {
            skipJunk('$name asc|desc');
            continue;
          }
          const item: OrderItem = { variable, start: variable.start, end: variable.end };
          const d = this.peek();
          if (this.isWord(d, 'asc') || this.isWord(d, 'desc')) {
            this.next();
            item.direction = { value: d.value.toLowerCase() as 'asc' | 'desc', start: d.start, end: d.end };
            item.end = d.end;
          }
          order.push(item);
          end = item.end;
        }
        return { kind, keyword, order, start: kw.start, end };
      }
      case 'limit': {
        const t = this.peek();
        let limit: NumberNode | undefined;
        if (t.kind === 'number') {
          this.next();
          limit = { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
          end = t.end;
        } else if (!atEnd()) {
          skipJunk('a number');
        } else {
          this.error('Expected the number of rows after limit:', kw.start, colon.end);
        }
        while (!atEnd()) skipJunk('nothing more');
        const section: Section = { kind, keyword, start: kw.start, end };
        if (limit) section.limit = limit;
        return section;
      }
      default: {
        // 'events' is handled by run(); SECTION_NAMES holds no other name.
        const section: Section = { kind: 'dedup', keyword, keys: [], start: kw.start, end };
        return section;
      }
    }
  }

  /** A field or placeholder in match:, dedup:, select:. */
  private parseGroupKey(): GroupKey | null {
    const t = this.peek();
    if (t.kind === 'variable' || (t.kind === 'ident' && !RESERVED.has(shortLower(t)))) {
      const op = this.parsePrimary('left');
      if (!op) return null;
      if (op.type === 'field' || op.type === 'variable') return op;
      this.error('Expected a field or placeholder', op.start, op.end);
      return null;
    }
    return null;
  }

  /** `by 2h`, `by minute`, `over every day`, `by first hour`, `over 5m` (a rule window; check.ts reports it). */
  private parseWindow(): MatchWindow {
    const kwTok = this.next();
    const kind = kwTok.value.toLowerCase() as 'by' | 'over';
    const w: MatchWindow = {
      kind,
      every: false,
      first: false,
      size: 1,
      unit: null,
      raw: '',
      keyword: { start: kwTok.start, end: kwTok.end },
      start: kwTok.start,
      end: kwTok.end,
    };
    if (kind === 'over' && this.isWord(this.peek(), 'every')) w.end = this.next().end;
    if (kind === 'over') w.every = w.end !== kwTok.end;
    if (this.isWord(this.peek(), 'first')) {
      w.first = true;
      w.end = this.next().end;
    }
    const t = this.peek();
    let rawStart = t.start;
    if (t.kind === 'number' && !t.newlineBefore) {
      this.next();
      w.size = Number(t.value);
      w.end = t.end;
      rawStart = t.start;
      const u = this.peek();
      if (u.kind === 'ident' && u.start === t.end) {
        // `2 h` is not lexed glued; `2h` lexes as an invalid number token, handled below
      }
      if (u.kind === 'ident' && !u.newlineBefore && TIME_UNITS[u.value.toLowerCase()]) {
        this.next();
        w.unit = TIME_UNITS[u.value.toLowerCase()];
        w.end = u.end;
      }
    } else if (
      (t.kind === 'duration' || (t.kind === 'invalid' && /^\d+[a-zA-Z]+$/.test(t.value))) &&
      !t.newlineBefore
    ) {
      // `2h`, `30m`, `1d`: a duration token (or a number glued to letters that name no unit)
      this.next();
      const m = /^(\d+)([a-zA-Z]+)$/.exec(t.value)!;
      w.size = Number(m[1]);
      w.unit = TIME_UNITS[m[2].toLowerCase()] ?? null;
      w.end = t.end;
      if (w.unit) this.dropLexError(t);
    } else if (t.kind === 'ident' && !t.newlineBefore && TIME_UNITS[t.value.toLowerCase()]) {
      this.next();
      w.unit = TIME_UNITS[t.value.toLowerCase()];
      w.end = t.end;
    }
    w.raw = this.text.slice(rawStart, w.end);
    if (!w.unit) {
      this.error(
        `Expected a time unit after '${this.text.slice(kwTok.start, w.end)}': minute (m), hour (h), day (d), week (w) or month (mo), e.g. by 1h`,
        kwTok.start,
        Math.max(w.end, this.peek().end),
        'bad-window',
      );
    }
    if (w.size <= 0 || !Number.isInteger(w.size))
      this.error('The window size must be a whole number of at least 1', w.start, w.end, 'bad-window');
    return w;
  }

  /** `name:` or `a.b.c:` before an argument (named arguments of the rules' metrics functions). */
  private skipArgumentName(): boolean {
    let k = 0;
    if (this.peek(k).kind !== 'ident') return false;
    k++;
    while (this.peek(k).kind === 'dot' && this.peek(k + 1).kind === 'ident') k += 2;
    if (this.peek(k).kind !== 'colon') return false;
    for (let i = 0; i <= k; i++) this.next();
    return true;
  }

  /** A glued number and unit (`2h`) is valid inside a match: window. */
  private dropLexError(t: Token): void {
    const i = this.diagnostics.findIndex((d) => d.code === 'lex' && d.start === t.start);
    if (i >= 0) this.diagnostics.splice(i, 1);
  }
}

/**
 * V8 gives Parser instances their hidden class through one transition per field, and forgets that
 * class when the last instance is collected; the optimized code of every method depends on it, so
 * each parse after a major GC would start unoptimized again. One idle instance keeps the class.
 */
export const keepParserShape = new Parser('', [], []);
