// Parses a YARA-L rule file: the `rule name { … }` frames, meta: and options:, and hands each
// rule's events: … condition: tokens to the search parser with the rule syntax switched on.
import { RULE_SECTION_ORDER } from '../vocabulary';
import type { Operand, Query, Span } from '../ast';
import { lex, type Token } from '../lexer';
import { parseTokens, type RawDiagnostic } from '../parser';
import type {
  MetaItem,
  MetaSection,
  Name,
  OptionItem,
  OptionsSection,
  RuleFile,
  RuleNode,
  RuleSectionKind,
} from './ast';

const RULE_SECTIONS = new Set<RuleSectionKind>(RULE_SECTION_ORDER);

export function parseRuleFile(text: string): RuleFile {
  const lexed = lex(text, { rule: true });
  const reader = new FrameReader(text, lexed.tokens);
  const rules: RuleNode[] = [];
  while (!reader.atEnd()) {
    const rule = reader.readRule();
    if (rule) rules.push(rule);
  }
  // The lexer's errors, for the whole file (the search parser is told not to report them again).
  const names = reader.diagnostics.filter((d) => d.code === 'rule-name');
  const inBadName = (t: Token): boolean => names.some((d) => t.start >= d.start && t.end <= d.end);
  for (const t of lexed.tokens) if (t.error && !inBadName(t)) reader.diagnostics.push(diag(t.error, t, 'lex'));
  for (const c of lexed.comments) if (c.error) reader.diagnostics.push(diag(c.error, c, 'lex'));
  return { rules, tokens: lexed.tokens, comments: lexed.comments, diagnostics: reader.diagnostics };
}

function diag(
  message: string,
  span: Span,
  code?: string,
  severity: RawDiagnostic['severity'] = 'error',
): RawDiagnostic {
  return { message, severity, start: span.start, end: Math.max(span.end, span.start + 1), ...(code ? { code } : {}) };
}

function sectionKind(t: Token, next: Token): RuleSectionKind | undefined {
  if (t.kind !== 'ident' || next.kind !== 'colon') return undefined;
  const word = t.value.toLowerCase() as RuleSectionKind;
  return RULE_SECTIONS.has(word) ? word : undefined;
}

class FrameReader {
  readonly diagnostics: RawDiagnostic[] = [];
  private p = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  atEnd(): boolean {
    return this.peek().kind === 'eof';
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.p + offset, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.tokens[this.p];
    if (t.kind !== 'eof') this.p++;
    return t;
  }

  private isRuleStart(): boolean {
    const t = this.peek();
    return t.kind === 'ident' && t.value === 'rule';
  }

  /** Skips to the next `rule` at the top level, reporting what it skipped once. */
  private skipToRule(message: string): void {
    const first = this.peek();
    let last = first;
    while (!this.atEnd() && !this.isRuleStart()) last = this.next();
    if (first.kind !== 'eof') this.diagnostics.push(diag(message, { start: first.start, end: last.end }, 'rule-frame'));
  }

  readRule(): RuleNode | undefined {
    if (!this.isRuleStart()) {
      this.skipToRule("Expected a rule: 'rule name {'");
      if (this.atEnd()) return undefined;
    }
    const keyword = this.next();
    const name = this.readName();
    const open = this.peek();
    if (open.kind !== 'lbrace') {
      this.diagnostics.push(
        diag("Expected '{' after the rule name", open.kind === 'eof' ? keyword : open, 'rule-frame'),
      );
      // Read the body anyway when the brace is only missing (sections follow).
      if (!sectionKind(open, this.peek(1))) {
        this.skipToRule("Expected '{' after the rule name");
        return undefined;
      }
    } else this.next();
    const bodyStart = this.p;
    let depth = 0;
    while (!this.atEnd()) {
      const t = this.peek();
      if (t.kind === 'lbrace') depth++;
      if (t.kind === 'rbrace') {
        if (depth === 0) break;
        depth--;
      }
      // A new rule at the start of a line ends an unclosed one.
      if (t.newlineBefore && t.kind === 'ident' && t.value === 'rule' && this.peek(1).kind === 'ident') break;
      this.next();
    }
    const bodyEnd = this.p;
    let close: Token | undefined;
    if (this.peek().kind === 'rbrace') close = this.next();
    else
      this.diagnostics.push(
        diag(
          `Missing '}' to close rule ${name?.name ?? ''}`.trim(),
          open.kind === 'lbrace' ? open : keyword,
          'unclosed-rule',
        ),
      );
    const rule = this.readBody(bodyStart, bodyEnd, keyword, name, open, close);
    return rule;
  }

  private readName(): Name | null {
    const t = this.peek();
    if (t.kind === 'lbrace' || t.kind === 'eof' || sectionKind(t, this.peek(1))) {
      this.diagnostics.push(
        diag("Expected the rule's name after 'rule'", t.kind === 'eof' ? this.tokens[this.p - 1] : t, 'rule-name'),
      );
      return null;
    }
    // The name is everything up to '{' on the same line, so a bad one (2nd-stage) is reported once.
    let last = this.next();
    while (this.peek().kind !== 'lbrace' && this.peek().kind !== 'eof' && !this.peek().newlineBefore)
      last = this.next();
    const written = this.text.slice(t.start, last.end);
    if (t !== last || t.kind !== 'ident' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(written)) {
      this.diagnostics.push(
        diag(
          `'${written}' is not a rule name: use letters, digits and underscores, not starting with a digit`,
          { start: t.start, end: last.end },
          'rule-name',
        ),
      );
      return null;
    }
    return { name: t.value, start: t.start, end: t.end };
  }

  private readBody(
    from: number,
    to: number,
    keyword: Token,
    name: Name | null,
    open: Token,
    close: Token | undefined,
  ): RuleNode {
    // Where each section starts, in source order.
    const starts: Array<{ kind: RuleSectionKind; at: number }> = [];
    for (let i = from; i < to; i++) {
      const kind = sectionKind(this.tokens[i], this.tokens[i + 1] ?? this.tokens[this.tokens.length - 1]);
      if (kind) starts.push({ kind, at: i });
    }
    if (starts.length === 0 || starts[0].at > from) {
      const first = this.tokens[from];
      if (from < to)
        this.diagnostics.push(
          diag('Expected a section (meta:, events:, match:, outcome:, condition:, options:)', {
            start: first.start,
            end: this.tokens[(starts[0]?.at ?? to) - 1].end,
          }),
        );
    }
    let meta: MetaSection | null = null;
    let options: OptionsSection | null = null;
    // events: … condition: go to the search parser as one run of tokens.
    let queryFrom = -1;
    let queryTo = -1;
    for (let s = 0; s < starts.length; s++) {
      const { kind, at } = starts[s];
      const end = s + 1 < starts.length ? starts[s + 1].at : to;
      if (kind === 'meta') {
        if (meta) this.diagnostics.push(diag('meta: is written once', this.tokens[at], 'duplicate-section'));
        else meta = this.readItems(at, end, 'meta');
      } else if (kind === 'options') {
        if (options) this.diagnostics.push(diag('options: is written once', this.tokens[at], 'duplicate-section'));
        else options = this.readItems(at, end, 'options');
      } else {
        if (queryFrom < 0) queryFrom = at;
        queryTo = end;
      }
    }
    const query = this.readQuery(queryFrom, queryTo, starts);
    const ruleEnd = close ? close.end : (this.tokens[Math.max(to - 1, from)]?.end ?? open.end);
    return {
      keyword: { start: keyword.start, end: keyword.end },
      name,
      open: { start: open.start, end: open.end },
      ...(close ? { close: { start: close.start, end: close.end } } : {}),
      meta,
      query,
      options,
      sectionOrder: starts.map(({ kind, at }) => ({
        kind,
        keyword: { start: this.tokens[at].start, end: this.tokens[at + 1].end },
      })),
      start: keyword.start,
      end: ruleEnd,
    };
  }

  private readQuery(from: number, to: number, starts: Array<{ kind: RuleSectionKind; at: number }>): Query {
    if (from < 0) return { filter: null, sections: [] };
    // meta:/options: between the search sections are out of place; their tokens are not the parser's.
    const inside = new Set(
      starts.filter((s) => s.at > from && s.at < to && (s.kind === 'meta' || s.kind === 'options')),
    );
    const tokens: Token[] = [];
    let skipUntil = -1;
    for (let i = from; i < to; i++) {
      const start = [...inside].find((s) => s.at === i);
      if (start) {
        this.diagnostics.push(
          diag(
            `${start.kind}: comes ${start.kind === 'meta' ? 'first' : 'last'} in a rule`,
            this.tokens[i],
            'section-order',
          ),
        );
        const next = starts.find((s) => s.at > i);
        skipUntil = next ? next.at : to;
      }
      if (i < skipUntil) continue;
      tokens.push(this.tokens[i]);
    }
    const last = tokens[tokens.length - 1] ?? this.tokens[from];
    tokens.push({ kind: 'eof', start: last.end, end: last.end, value: '' });
    const parsed = parseTokens(this.text, { tokens, comments: [] }, { rule: true });
    for (const d of parsed.diagnostics) this.diagnostics.push(d);
    return parsed.query;
  }

  /** meta: and options: hold `key = value` lines. */
  private readItems(at: number, end: number, kind: 'meta' | 'options'): MetaSection | OptionsSection {
    const kw = this.tokens[at];
    const colon = this.tokens[at + 1];
    const items: Array<MetaItem | OptionItem> = [];
    let i = at + 2;
    while (i < end) {
      const key = this.tokens[i];
      if (key.kind !== 'ident') {
        this.diagnostics.push(
          diag(`Expected a ${kind} key such as ${kind === 'meta' ? 'author' : 'allow_zero_values'}`, key),
        );
        i++;
        while (i < end && !this.tokens[i].newlineBefore) i++;
        continue;
      }
      const eq = this.tokens[i + 1];
      if (i + 1 >= end || eq.kind !== 'op' || eq.value !== '=') {
        this.diagnostics.push(diag(`Expected '=' after ${key.value}`, key, `${kind}-syntax`));
        i++;
        while (i < end && !this.tokens[i].newlineBefore) i++;
        continue;
      }
      // The value is the rest of the line: one token in every documented form.
      let j = i + 2;
      const valueTokens: Token[] = [];
      while (j < end && (j === i + 2 || !this.tokens[j].newlineBefore)) valueTokens.push(this.tokens[j++]);
      const value = this.valueOf(valueTokens, key, kind);
      const itemEnd = valueTokens.length ? valueTokens[valueTokens.length - 1].end : eq.end;
      items.push({ key: { name: key.value, start: key.start, end: key.end }, value, start: key.start, end: itemEnd });
      i = j;
    }
    const last = items[items.length - 1];
    return { keyword: { start: kw.start, end: colon.end }, items, start: kw.start, end: last ? last.end : colon.end };
  }

  private valueOf(tokens: Token[], key: Token, kind: 'meta' | 'options'): Operand | null {
    const t = tokens[0];
    if (!t) {
      this.diagnostics.push(diag(`Expected a value after '${key.value} ='`, key, `${kind}-syntax`));
      return null;
    }
    if (tokens.length > 1) {
      const extra = tokens[1];
      this.diagnostics.push(
        diag(
          kind === 'meta' ? 'A meta value is one quoted string' : 'An option value is one word, number or duration',
          { start: extra.start, end: tokens[tokens.length - 1].end },
          `${kind}-syntax`,
        ),
      );
    }
    const span = { start: t.start, end: t.end };
    switch (t.kind) {
      case 'string':
        return { type: 'string', value: t.value, quoted: this.text[t.start] === '"', ...span };
      case 'number':
        return { type: 'number', value: Number(t.value), raw: t.value, ...span };
      case 'duration':
        return { type: 'enum', name: t.value, ...span };
      case 'ident':
        if (/^(true|false)$/i.test(t.value)) return { type: 'bool', value: t.value.toLowerCase() === 'true', ...span };
        return { type: 'enum', name: t.value, ...span };
      case 'minus': {
        const n = tokens[1];
        if (n?.kind === 'number')
          return { type: 'number', value: -Number(n.value), raw: `-${n.value}`, start: t.start, end: n.end };
        break;
      }
      default:
        break;
    }
    this.diagnostics.push(
      diag(`Unexpected '${this.text.slice(t.start, t.end)}' as a ${kind} value`, t, `${kind}-syntax`),
    );
    return null;
  }
}
