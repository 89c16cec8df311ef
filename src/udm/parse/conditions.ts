import type { CompareOp, Expr, Operand, Quantifier, Span } from '../ast';
import type { Token } from '../lexer';
import { MAX_DEPTH, type ParseCursor } from './cursor';
import { atValueStart, parseOperand, parseQuantifier } from './operands';

/** The filtering statements up to the next section or the end of the range; lines are ANDed. */
export function parseFilter(s: ParseCursor): Expr | null {
  return parseSequence(s, false);
}

/**
 * Conditions one after another (lines, or side by side) are ANDed. Inside parentheses
 * (`inParens`) the sequence ends at the closing ')'.
 */
function parseSequence(s: ParseCursor, inParens: boolean): Expr | null {
  const items: Expr[] = [];
  while (!s.atFilterEnd() && !(inParens && s.peek().kind === 'rparen')) {
    const before = s.p;
    const e = parseOr(s);
    if (e) items.push(e);
    if (s.p === before) {
      if (inParens && s.peek().kind !== 'rparen' && !canStartCondition(s, s.peek())) break;
      const t = s.next();
      s.error(t.kind === 'rparen' ? "Unmatched ')'" : `Unexpected '${s.tokenText(t)}'`, t.start, t.end);
    }
  }
  if (items.length === 0) return null;
  if (items.length === 1) return items[0];
  return { type: 'and', items, start: items[0].start, end: items[items.length - 1].end };
}

function canStartCondition(s: ParseCursor, t: Token): boolean {
  switch (t.kind) {
    case 'ident':
      if (s.isWord(t, 'and') || s.isWord(t, 'or')) return false;
      if (s.isWord(t, 'nocase') || s.isWord(t, 'in')) return false;
      // Only ever called on the current token.
      return !s.atSectionStart();
    case 'string':
    case 'number':
    case 'regex':
    case 'variable':
    case 'lparen':
    case 'minus':
    case 'reflist':
    case 'invalid':
    case 'duration':
    case 'count':
    case 'bang':
      return true;
    default:
      return false;
  }
}

/** Conditions joined by `or` (also the first argument of `if(...)`). */
export function parseOr(s: ParseCursor): Expr | null {
  const first = parseAnd(s);
  // Most conditions have no `or`: the items array is made only when one comes.
  let items: Expr[] | undefined;
  let only: Expr | null = first;
  while (s.isWord(s.peek(), 'or')) {
    const orTok = s.next();
    const rhs = parseAnd(s);
    if (!rhs) s.errorHere(`Expected a condition after '${orTok.value}'`);
    else if (only) {
      items = [only, rhs];
      only = null;
    } else if (items) items.push(rhs);
    else only = rhs;
    if (!first && !items && only === rhs && rhs)
      s.error(`Expected a condition before '${orTok.value}'`, orTok.start, orTok.end);
  }
  if (!items) return only;
  return { type: 'or', items, start: items[0].start, end: items[items.length - 1].end };
}

function parseAnd(s: ParseCursor): Expr | null {
  // As in parseOr, the array is made only for a second condition.
  let items: Expr[] | undefined;
  let only: Expr | null = null;
  let joined = false;
  for (;;) {
    const t = s.peek();
    if (s.isWord(t, 'and')) {
      s.next();
      if (!items && !only) s.error(`Expected a condition before '${t.value}'`, t.start, t.end);
      if (!canStartCondition(s, s.peek()) || s.atFilterEnd()) {
        s.error(`Expected a condition after '${t.value}'`, t.start, t.end);
        break;
      }
      joined = true;
      continue;
    }
    if (s.atFilterEnd() || !canStartCondition(s, t)) break;
    // A condition on a new line without an explicit AND starts the next line's group: lines are
    // ANDed after an `or` between lines has joined its neighbours (`a` / `or b` / `c` = `(a or b) and c`).
    if ((items || only) && !joined && t.newlineBefore) break;
    joined = false;
    const before = s.p;
    const e = parseUnary(s);
    if (e) {
      if (items) items.push(e);
      else if (only) {
        items = [only, e];
        only = null;
      } else only = e;
    }
    if (s.p === before) break;
  }
  if (!items) return only;
  return { type: 'and', items, start: items[0].start, end: items[items.length - 1].end };
}

function parseUnary(s: ParseCursor): Expr | null {
  const t = s.peek();
  if (s.depth > MAX_DEPTH) {
    // Skip the rest of a pathological nest instead of overflowing the stack.
    s.error('Query is nested too deeply', t.start, t.end);
    while (!s.atFilterEnd()) s.next();
    return null;
  }
  if (s.isWord(t, 'not') || t.kind === 'bang') {
    s.next();
    s.depth++;
    const inner = parseUnary(s);
    s.depth--;
    if (!inner) {
      s.errorHere(`Expected a condition after '${t.value}'`);
      return { type: 'error', start: t.start, end: t.end };
    }
    return { type: 'not', expr: inner, keyword: { start: t.start, end: t.end }, start: t.start, end: inner.end };
  }
  if (t.kind === 'lparen') return parseParenthesized(s, t);
  return parseCondition(s);
}

function parseParenthesized(s: ParseCursor, open: Token): Expr {
  s.next();
  s.depth++;
  const inner = parseSequence(s, true);
  s.depth--;
  const close = s.peek();
  if (close.kind === 'rparen') {
    s.next();
  } else {
    s.error("Missing ')' to close this '('", open.start, open.end, 'unclosed-paren');
  }
  if (!inner) {
    if (close.kind === 'rparen') s.error('Empty parentheses: expected a condition', open.start, close.end);
    return { type: 'error', start: open.start, end: close.kind === 'rparen' ? close.end : open.end };
  }
  // Keep the parentheses in the span so formatting and folding see them.
  return { ...inner, start: open.start, end: close.kind === 'rparen' ? close.end : inner.end };
}

function parseCondition(s: ParseCursor): Expr | null {
  const quantifier = parseQuantifier(s);
  const left = parseOperand(s, 'left');
  if (quantifier && left && left.type !== 'field') {
    s.error(
      left.type === 'call'
        ? `'${quantifier.kind}' cannot come before a function call; put it before the repeated field inside the call`
        : `'${quantifier.kind}' must be followed by a repeated field`,
      quantifier.start,
      quantifier.end,
      'bad-quantifier',
    );
  }
  if (!left) return parseConditionWithoutOperand(s, quantifier);
  const start = quantifier ? quantifier.start : left.start;
  const t = s.peek();
  if (t.kind === 'op') return parseComparison(s, left, t, start, quantifier);
  const notTok = s.isWord(t, 'not') && s.isWord(s.peek(1), 'in') ? t : undefined;
  if (notTok || s.isWord(t, 'in')) return parseInList(s, left, notTok, start, quantifier);
  if (left.type === 'call') {
    const nocase = parseNocase(s);
    const callExpr: Expr = { type: 'callExpr', call: left, start, end: nocase ? nocase.end : left.end };
    if (nocase) callExpr.nocase = nocase;
    return callExpr;
  }
  if (s.rule && left.type === 'variable' && !quantifier) {
    // A rule's condition names event variables as booleans: `$e1 and $e2`, `!$e2`.
    return { type: 'exists', variable: left, start: left.start, end: left.end };
  }
  if (s.isWord(t, 'nocase')) {
    s.next();
    s.error("'nocase' must follow a string or regular expression value", t.start, t.end);
    return { type: 'error', operand: left, start, end: t.end };
  }
  reportLoneOperand(s, left);
  return { type: 'error', operand: left, start, end: left.end };
}

function parseConditionWithoutOperand(s: ParseCursor, quantifier: Quantifier | undefined): Expr | null {
  const t = s.peek();
  if (t.kind === 'reflist') {
    s.next();
    s.error("Expected 'field in %list'", t.start, t.end);
    return { type: 'error', start: t.start, end: t.end };
  }
  if (t.kind === 'invalid') {
    s.next(); // already reported by the lexer
    return { type: 'error', start: t.start, end: t.end };
  }
  if (quantifier) return { type: 'error', start: quantifier.start, end: quantifier.end };
  return null;
}

/** `left op right [nocase]`, or `$p = value` (an assignment). */
function parseComparison(
  s: ParseCursor,
  left: Operand,
  t: Token,
  start: number,
  quantifier: Quantifier | undefined,
): Expr {
  s.next();
  const op = t.value as CompareOp;
  const right = atValueStart(s) ? parseOperand(s, 'right') : null;
  if (!right) {
    s.errorHere(`Expected a value after '${op}'`);
  }
  let end = right ? right.end : t.end;
  const nocase = parseNocase(s);
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

/** `left [not] in [regex|cidr] %list [nocase]`. */
function parseInList(
  s: ParseCursor,
  left: Operand,
  notTok: Token | undefined,
  start: number,
  quantifier: Quantifier | undefined,
): Expr {
  if (notTok) s.next();
  const inTok = s.next();
  let mode: 'exact' | 'regex' | 'cidr' = 'exact';
  if (s.isWord(s.peek(), 'regex')) {
    s.next();
    mode = 'regex';
  } else if (s.isWord(s.peek(), 'cidr')) {
    s.next();
    mode = 'cidr';
  }
  const lt = s.peek();
  let list: ({ name: string } & Span) | null = null;
  let end = s.previous()!.end;
  if (lt.kind === 'reflist') {
    s.next();
    list = { name: lt.value, start: lt.start, end: lt.end };
    end = lt.end;
  } else {
    s.errorHere("Expected a reference list such as %my_list after 'in'");
  }
  const nocase = parseNocase(s);
  if (nocase) end = nocase.end;
  const kwStart = notTok ? notTok.start : inTok.start;
  if (quantifier)
    s.error(
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

/** An operand with nothing after it that makes a condition. */
function reportLoneOperand(s: ParseCursor, left: Operand): void {
  if (left.type === 'field') {
    const last = left.segments[left.segments.length - 1];
    if (!(last && last.name === '')) {
      // A trailing empty segment (`metadata.`) was already reported.
      s.error(
        'Expected an operator (=, !=, >, >=, <, <=, in) after the field',
        left.start,
        left.end,
        'missing-operator',
      );
    }
  } else if (left.type === 'string' || left.type === 'regex') {
    s.error(
      'A value needs a field to compare with, e.g. principal.hostname = "..."',
      left.start,
      left.end,
      'bare-value',
    );
  } else {
    s.error('Expected a condition', left.start, left.end);
  }
}

function parseNocase(s: ParseCursor): Span | undefined {
  const t = s.peek();
  if (!s.isWord(t, 'nocase')) return undefined;
  s.next();
  return { start: t.start, end: t.end };
}
