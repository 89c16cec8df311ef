import type {
  CallNode,
  CompareOp,
  Expr,
  FieldNode,
  NumberNode,
  Operand,
  OrderItem,
  OutcomeItem,
  Query,
  Section,
  SectionKind,
  Segment,
  VariableNode,
} from './ast';
import { lex, type Token } from './lexer';

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

const SECTION_NAMES = new Set<string>(['match', 'outcome', 'order', 'limit']);
/** Words that end a condition or join conditions; never field names. */
const RESERVED = new Set(['and', 'or', 'not', 'in', 'nocase']);

/** Lower-cased identifier when it is short enough to be a keyword, else ''. Avoids allocating per token. */
function shortLower(t: Token): string {
  return t.value.length <= 7 ? t.value.toLowerCase() : '';
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
    for (const t of this.tokens) {
      if (t.error) {
        this.error(t.error, t.start, Math.max(t.end, t.start + 1), 'lex');
        const fix = lexFix(this.text, t);
        if (fix !== undefined) this.diagnostics[this.diagnostics.length - 1].data = { replacements: [fix] };
      }
    }
    for (const c of this.comments) {
      if (c.error) this.error(c.error, c.start, c.end, 'lex');
    }
    const filter = this.parseFilter();
    const sections: Section[] = [];
    while (this.peek().kind !== 'eof') {
      if (this.atSectionStart()) {
        sections.push(this.parseSection());
      } else {
        // parseFilter stops only at a section or the end; anything else here is stray text after sections
        const t = this.next();
        this.error(`Unexpected '${this.tokenText(t)}'`, t.start, t.end);
      }
    }
    return { query: { filter, sections }, tokens: this.tokens, comments: this.comments, diagnostics: this.diagnostics };
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
    return t.kind === 'ident' && t.value.length === word.length && t.value.toLowerCase() === word;
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
    const items: Expr[] = [];
    while (!this.atFilterEnd()) {
      const before = this.p;
      const e = this.parseOr();
      if (e) items.push(e);
      if (this.p === before) {
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
        return true;
      default:
        return false;
    }
  }

  private parseOr(): Expr | null {
    const first = this.parseAnd();
    const items: Expr[] = first ? [first] : [];
    while (this.isWord(this.peek(), 'or')) {
      const orTok = this.next();
      const rhs = this.parseAnd();
      if (!rhs) this.errorHere(`Expected a condition after '${orTok.value}'`);
      else items.push(rhs);
      if (!first && items.length === 1 && rhs)
        this.error(`Expected a condition before '${orTok.value}'`, orTok.start, orTok.end);
    }
    if (items.length === 0) return null;
    if (items.length === 1) return items[0];
    return { type: 'or', items, start: items[0].start, end: items[items.length - 1].end };
  }

  private parseAnd(): Expr | null {
    const items: Expr[] = [];
    for (;;) {
      const t = this.peek();
      if (this.isWord(t, 'and')) {
        this.next();
        if (items.length === 0) this.error(`Expected a condition before '${t.value}'`, t.start, t.end);
        if (!this.canStartCondition(this.peek()) || this.atFilterEnd()) {
          this.error(`Expected a condition after '${t.value}'`, t.start, t.end);
          break;
        }
        continue;
      }
      if (this.atFilterEnd() || !this.canStartCondition(t)) break;
      const before = this.p;
      const e = this.parseUnary();
      if (e) items.push(e);
      if (this.p === before) break;
    }
    if (items.length === 0) return null;
    if (items.length === 1) return items[0];
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
      const inner = this.parseOr();
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

  private parseCondition(): Expr | null {
    const first = this.peek();
    let quantifier: ({ kind: 'any' | 'all' } & { start: number; end: number }) | undefined;
    if (
      (this.isWord(first, 'any') || this.isWord(first, 'all')) &&
      this.peek(1).kind === 'ident' &&
      !RESERVED.has(shortLower(this.peek(1)))
    ) {
      this.next();
      quantifier = { kind: first.value.toLowerCase() as 'any' | 'all', start: first.start, end: first.end };
    }
    const left = this.parseOperand('left');
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
      let nocase: { start: number; end: number } | undefined;
      if (this.isWord(this.peek(), 'nocase')) {
        const nc = this.next();
        nocase = { start: nc.start, end: nc.end };
        end = nc.end;
      }
      if (
        left.type === 'variable' &&
        op === '=' &&
        right &&
        (right.type === 'field' || right.type === 'call') &&
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
      let list: ({ name: string } & { start: number; end: number }) | null = null;
      let end = this.tokens[this.p - 1].end;
      if (lt.kind === 'reflist') {
        this.next();
        list = { name: lt.value, start: lt.start, end: lt.end };
        end = lt.end;
      } else {
        this.errorHere("Expected a reference list such as %my_list after 'in'");
      }
      const kwStart = notTok ? notTok.start : inTok.start;
      return {
        type: 'in',
        left,
        mode,
        list,
        negated: !!notTok,
        keyword: { start: kwStart, end: inTok.end },
        start,
        end,
      };
    }
    if (left.type === 'call') {
      return { type: 'callExpr', call: left, start, end: left.end };
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

  private atValueStart(): boolean {
    const t = this.peek();
    switch (t.kind) {
      case 'string':
      case 'number':
      case 'regex':
      case 'variable':
      case 'minus':
        return true;
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

  private parseOperand(side: 'left' | 'right'): Operand | null {
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
      case 'number':
        this.next();
        return { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
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
      case 'variable':
        this.next();
        return { type: 'variable', name: t.value, start: t.start, end: t.end };
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

  private parsePathOrCall(side: 'left' | 'right'): Operand {
    const first = this.next();
    const segments: Segment[] = [{ name: first.value, start: first.start, end: first.end }];
    while (this.peek().kind === 'dot') {
      const dot = this.next();
      const seg = this.peek();
      if (seg.kind === 'ident' && seg.start === dot.end) {
        this.next();
        segments.push({ name: seg.value, start: seg.start, end: seg.end });
      } else {
        // Keep an empty segment so completion knows a field name is expected here.
        segments.push({ name: '', start: dot.end, end: dot.end });
        this.error("Expected a field name after '.'", dot.start, dot.end, 'empty-segment');
        break;
      }
    }
    const last = segments[segments.length - 1];
    if (this.peek().kind === 'lparen' && last.name !== '') {
      return this.parseCall(segments);
    }
    if (side === 'right' && segments.length === 1) {
      return { type: 'enum', name: first.value, start: first.start, end: first.end };
    }
    const field: FieldNode = { type: 'field', segments, start: first.start, end: last.end };
    if (this.peek().kind === 'lbracket') {
      const open = this.next();
      const key = this.peek();
      if (key.kind === 'string') {
        this.next();
        field.key = { type: 'string', value: key.value, quoted: true, start: key.start, end: key.end };
      } else {
        this.errorHere('Expected a quoted key, e.g. ["key"]');
      }
      if (this.peek().kind === 'rbracket') {
        field.end = this.next().end;
      } else {
        this.error("Missing ']'", open.start, open.end);
        field.end = this.tokens[this.p - 1].end;
      }
    }
    return field;
  }

  private parseCall(segments: Segment[]): CallNode {
    const open = this.next();
    const name = segments.map((s) => s.name).join('.');
    const call: CallNode = {
      type: 'call',
      name,
      nameSpan: { start: segments[0].start, end: segments[segments.length - 1].end },
      args: [],
      open: { start: open.start, end: open.end },
      commas: [],
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
      const arg = this.atValueStart() ? this.parseOperand('right') : null;
      if (arg) {
        // `re.regex(field, ...)`: a lone identifier in argument position is a field, not an enum value.
        if (arg.type === 'enum')
          call.args.push({
            type: 'field',
            segments: [{ name: arg.name, start: arg.start, end: arg.end }],
            start: arg.start,
            end: arg.end,
          });
        else call.args.push(arg);
        call.end = arg.end;
      } else {
        this.errorHere('Expected an argument');
      }
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
    this.depth--;
    return call;
  }

  // ---- sections ------------------------------------------------------------------------------

  private parseSection(): Section {
    const kw = this.next();
    const colon = this.next();
    const kind = kw.value.toLowerCase() as SectionKind;
    const section: Section = {
      kind,
      keyword: { start: kw.start, end: colon.end },
      keys: [],
      outcomes: [],
      order: [],
      start: kw.start,
      end: colon.end,
    };
    const atEnd = (): boolean => this.peek().kind === 'eof' || this.atSectionStart();
    const skipJunk = (what: string): void => {
      const t = this.next();
      this.error(`Unexpected '${this.tokenText(t)}' in ${kind}: section; expected ${what}`, t.start, t.end);
      section.end = t.end;
    };
    switch (kind) {
      case 'match':
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            this.next();
            continue;
          }
          if (t.kind === 'variable') {
            this.next();
            section.keys.push({ type: 'variable', name: t.value, start: t.start, end: t.end });
            section.end = t.end;
          } else if (t.kind === 'ident' && !RESERVED.has(shortLower(t))) {
            const op = this.parsePathOrCall('left');
            if (op.type === 'field') section.keys.push(op);
            else this.error('Expected a placeholder or field to group by', op.start, op.end);
            section.end = op.end;
          } else skipJunk('placeholders such as $host');
        }
        break;
      case 'outcome':
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
          section.outcomes.push(item);
          section.end = item.end;
        }
        break;
      case 'order':
        while (!atEnd()) {
          const t = this.peek();
          if (t.kind === 'comma') {
            this.next();
            continue;
          }
          let variable: VariableNode | FieldNode;
          if (t.kind === 'variable') {
            this.next();
            variable = { type: 'variable', name: t.value, start: t.start, end: t.end };
          } else if (t.kind === 'ident' && !this.isWord(t, 'asc') && !this.isWord(t, 'desc')) {
            const op = this.parsePathOrCall('left');
            if (op.type !== 'field') {
              this.error('Expected a placeholder to order by', op.start, op.end);
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
          section.order.push(item);
          section.end = item.end;
        }
        break;
      case 'limit': {
        const t = this.peek();
        if (t.kind === 'number') {
          this.next();
          const num: NumberNode = { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
          section.limit = num;
          section.end = t.end;
        } else if (!atEnd()) {
          skipJunk('a number');
        } else {
          this.error('Expected the number of rows after limit:', kw.start, colon.end);
        }
        while (!atEnd()) skipJunk('nothing more');
        break;
      }
    }
    return section;
  }
}
