import { PIVOT_WORDS } from '../vocabulary';
import type {
  FieldNode,
  GroupKey,
  MatchWindow,
  NumberNode,
  OrderItem,
  OutcomeItem,
  Section,
  SectionKind,
  Span,
  VariableNode,
} from '../ast';
import { TIME_UNITS, type Token } from '../lexer';
import { parseFilter } from './conditions';
import { RESERVED, shortLower, type ParseCursor } from './cursor';
import { atValueStart, parseOperand, parsePrimary } from './operands';

/** A section's keyword as read, and how far the section reaches so far. */
export interface SectionHead {
  /** lower-cased section name */
  kind: string;
  /** `name:` with its colon */
  keyword: Span;
  start: number;
  end: number;
}

/** Reads a section's body, the cursor just after its `name:`. */
export type SectionParser = (s: ParseCursor, head: SectionHead) => Section;

/** At the end of a section's body: the end of the range or the next section keyword. */
export function atSectionEnd(s: ParseCursor): boolean {
  return s.peek().kind === 'eof' || s.atSectionStart();
}

/** Consumes a token a section has no use for, reporting what the section expects instead. */
export function skipJunk(s: ParseCursor, head: SectionHead, what: string): void {
  const t = s.next();
  s.error(`Unexpected '${s.tokenText(t)}' in ${head.kind}: section; expected ${what}`, t.start, t.end);
  head.end = t.end;
}

/** Reads `name:` (the cursor on the name, which `atSectionStart` accepted). */
export function parseSectionHead(s: ParseCursor): SectionHead {
  const kw = s.next();
  const colon = s.next();
  return {
    kind: kw.value.toLowerCase(),
    keyword: { start: kw.start, end: colon.end },
    start: kw.start,
    end: colon.end,
  };
}

/**
 * Reads a section of comma-separated items to its end: `item` reads the one that starts at the
 * token it is given. With `commasInSpan`, the commas count in the section's span.
 */
function readItems(s: ParseCursor, head: SectionHead, commasInSpan: boolean, item: (t: Token) => void): void {
  while (!atSectionEnd(s)) {
    const t = s.peek();
    if (t.kind !== 'comma') item(t);
    else if (commasInSpan) head.end = s.next().end;
    else s.next();
  }
}

function parseMatchSection(s: ParseCursor, head: SectionHead): Section {
  const keys: GroupKey[] = [];
  let window: MatchWindow | undefined;
  readItems(s, head, true, (t) => {
    if (s.isWord(t, 'by') || s.isWord(t, 'over')) {
      if (window) s.error('match: has one time window', t.start, t.end, 'duplicate-window');
      window = parseWindow(s);
      head.end = window.end;
      return;
    }
    const key = parseGroupKey(s);
    if (key) {
      if (window) s.error('Grouping keys come before the time window', key.start, key.end, 'window-order');
      keys.push(key);
      head.end = key.end;
    } else skipJunk(s, head, 'fields or placeholders such as $host, then optionally by 1h or over every day');
  });
  const section: Section = { kind: 'match', keyword: head.keyword, keys, start: head.start, end: head.end };
  if (window) section.window = window;
  return section;
}

/** `dedup:`, `select:`, `unselect:`: fields or placeholders. */
function parseKeysSection(s: ParseCursor, head: SectionHead): Section {
  const keys: GroupKey[] = [];
  readItems(s, head, true, () => {
    const key = parseGroupKey(s);
    if (key) {
      keys.push(key);
      head.end = key.end;
    } else skipJunk(s, head, 'fields or placeholders');
  });
  const kind = head.kind as 'dedup' | 'select' | 'unselect';
  return { kind, keyword: head.keyword, keys, start: head.start, end: head.end };
}

function parseOutcomeSection(s: ParseCursor, head: SectionHead): Section {
  const outcomes: OutcomeItem[] = [];
  readItems(s, head, false, (t) => {
    if (t.kind !== 'variable') {
      skipJunk(s, head, '$name = aggregate(...)');
      return;
    }
    s.next();
    const variable: VariableNode = { type: 'variable', name: t.value, start: t.start, end: t.end };
    const item: OutcomeItem = { variable, value: null, start: t.start, end: t.end };
    if (s.peek().kind === 'op' && s.peek().value === '=') {
      const eq = s.next();
      item.end = eq.end;
      const value = atValueStart(s) ? parseOperand(s, 'right') : null;
      if (value) {
        item.value = value;
        item.end = value.end;
      } else s.errorHere(`Expected an aggregate such as count(metadata.id) after '$${t.value} ='`);
    } else {
      s.errorHere(`Expected '=' after $${t.value}`);
    }
    outcomes.push(item);
    head.end = item.end;
  });
  return { kind: 'outcome', keyword: head.keyword, outcomes, start: head.start, end: head.end };
}

function parseConditionSection(s: ParseCursor, head: SectionHead): Section {
  const expr = parseFilter(s);
  if (expr) head.end = expr.end;
  return { kind: 'condition', keyword: head.keyword, expr, start: head.start, end: head.end };
}

function parseOrderSection(s: ParseCursor, head: SectionHead): Section {
  const order: OrderItem[] = [];
  readItems(s, head, false, (t) => {
    let variable: VariableNode | FieldNode;
    if (t.kind === 'variable' && s.peek(1).kind !== 'dot') {
      s.next();
      variable = { type: 'variable', name: t.value, start: t.start, end: t.end };
    } else if ((t.kind === 'ident' || t.kind === 'variable') && !s.isWord(t, 'asc') && !s.isWord(t, 'desc')) {
      const op = parsePrimary(s, 'left');
      if (!op || op.type !== 'field') {
        if (op) s.error('Expected a placeholder to order by', op.start, op.end);
        else skipJunk(s, head, '$name asc|desc');
        return;
      }
      variable = op;
    } else {
      skipJunk(s, head, '$name asc|desc');
      return;
    }
    const item: OrderItem = { variable, start: variable.start, end: variable.end };
    const d = s.peek();
    if (s.isWord(d, 'asc') || s.isWord(d, 'desc')) {
      s.next();
      item.direction = { value: d.value.toLowerCase() as 'asc' | 'desc', start: d.start, end: d.end };
      item.end = d.end;
    }
    order.push(item);
    head.end = item.end;
  });
  return { kind: 'order', keyword: head.keyword, order, start: head.start, end: head.end };
}

function parseLimitSection(s: ParseCursor, head: SectionHead): Section {
  const t = s.peek();
  let limit: NumberNode | undefined;
  if (t.kind === 'number') {
    s.next();
    limit = { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
    head.end = t.end;
  } else if (!atSectionEnd(s)) {
    skipJunk(s, head, 'a number');
  } else {
    s.error('Expected the number of rows after limit:', head.keyword.start, head.keyword.end);
  }
  while (!atSectionEnd(s)) skipJunk(s, head, 'nothing more');
  const section: Section = { kind: 'limit', keyword: head.keyword, start: head.start, end: head.end };
  if (limit) section.limit = limit;
  return section;
}

/** The body reader of each statistical section of a search. */
export const SEARCH_SECTION_PARSERS: Readonly<Record<SectionKind, SectionParser>> = {
  match: parseMatchSection,
  outcome: parseOutcomeSection,
  condition: parseConditionSection,
  dedup: parseKeysSection,
  select: parseKeysSection,
  unselect: parseKeysSection,
  order: parseOrderSection,
  limit: parseLimitSection,
};

/**
 * One section, from its keyword to the next section or the end of the range. A language with more
 * sections passes its own table (spread over SEARCH_SECTION_PARSERS) and a cursor whose
 * `sectionNames` holds them.
 */
export function parseSection(
  s: ParseCursor,
  parsers: Readonly<Record<string, SectionParser>> = SEARCH_SECTION_PARSERS,
): Section {
  const head = parseSectionHead(s);
  const parser = Object.prototype.hasOwnProperty.call(parsers, head.kind) ? parsers[head.kind] : undefined;
  // 'events' is read at the query level; a name without a reader keeps its span as an empty section.
  if (!parser) return { kind: 'dedup', keyword: head.keyword, keys: [], start: head.start, end: head.end };
  return parser(s, head);
}

/** A field or placeholder in match:, dedup:, select:. */
export function parseGroupKey(s: ParseCursor): GroupKey | null {
  const t = s.peek();
  if (t.kind === 'variable' || (t.kind === 'ident' && !RESERVED.has(shortLower(t)))) {
    const op = parsePrimary(s, 'left');
    if (!op) return null;
    if (op.type === 'field' || op.type === 'variable') return op;
    s.error('Expected a field or placeholder', op.start, op.end);
    return null;
  }
  return null;
}

/** `by 2h`, `by minute`, `over every day`, `by first hour`, `over 5m` (a rule window; the checker reports it in search). */
export function parseWindow(s: ParseCursor): MatchWindow {
  const kwTok = s.next();
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
  if (kind === 'over' && s.isWord(s.peek(), 'every')) w.end = s.next().end;
  if (kind === 'over') w.every = w.end !== kwTok.end;
  if (s.isWord(s.peek(), 'first')) {
    w.first = true;
    w.end = s.next().end;
  }
  const rawStart = s.peek().start;
  readWindowSize(s, w);
  w.raw = s.text.slice(rawStart, w.end);
  if (!w.unit) {
    s.error(
      `Expected a time unit after '${s.text.slice(kwTok.start, w.end)}': minute (m), hour (h), day (d), week (w) or month (mo), e.g. by 1h`,
      kwTok.start,
      Math.max(w.end, s.peek().end),
      'bad-window',
    );
  }
  if (w.size <= 0 || !Number.isInteger(w.size))
    s.error('The window size must be a whole number of at least 1', w.start, w.end, 'bad-window');
  if (s.rule && kind === 'over') readPivot(s, w);
  return w;
}

/** `before $e` / `after $e` after a rule's window: a sliding window on the pivot event variable. */
function readPivot(s: ParseCursor, w: MatchWindow): void {
  const t = s.peek();
  if (!PIVOT_WORDS.some((w) => s.isWord(t, w)) || t.newlineBefore) return;
  s.next();
  const v = s.peek();
  if (v.kind !== 'variable' || v.newlineBefore) {
    s.errorHere(`Expected the pivot event variable after '${t.value}', as in over 10m ${t.value.toLowerCase()} $login`);
    w.end = t.end;
    return;
  }
  s.next();
  w.pivot = {
    kind: t.value.toLowerCase() as (typeof PIVOT_WORDS)[number],
    keyword: { start: t.start, end: t.end },
    variable: { type: 'variable', name: v.value, start: v.start, end: v.end },
  };
  w.end = v.end;
}

/** `2 h`, `2h` (a duration token, or a number glued to letters that name no unit), or a bare unit. */
function readWindowSize(s: ParseCursor, w: MatchWindow): void {
  const t = s.peek();
  if (t.kind === 'number' && !t.newlineBefore) {
    s.next();
    w.size = Number(t.value);
    w.end = t.end;
    const u = s.peek();
    if (u.kind === 'ident' && !u.newlineBefore && TIME_UNITS[u.value.toLowerCase()]) {
      s.next();
      w.unit = TIME_UNITS[u.value.toLowerCase()];
      w.end = u.end;
    }
  } else if ((t.kind === 'duration' || (t.kind === 'invalid' && /^\d+[a-zA-Z]+$/.test(t.value))) && !t.newlineBefore) {
    s.next();
    const m = /^(\d+)([a-zA-Z]+)$/.exec(t.value)!;
    w.size = Number(m[1]);
    w.unit = TIME_UNITS[m[2].toLowerCase()] ?? null;
    w.end = t.end;
    if (w.unit) s.dropLexError(t);
  } else if (t.kind === 'ident' && !t.newlineBefore && TIME_UNITS[t.value.toLowerCase()]) {
    s.next();
    w.unit = TIME_UNITS[t.value.toLowerCase()];
    w.end = t.end;
  }
}
