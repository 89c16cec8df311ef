import type { ArithOp, FieldNode, Operand, Quantifier, Segment, VariableNode } from '../ast';
import type { Token } from '../lexer';
import { MAX_DEPTH, RESERVED, shortLower, type ParseCursor } from './cursor';
import { parseCall } from './calls';
import { findAggregate, findFunction } from '../functions';

/** `any` / `all` before a field (not before `in`, `=`...: then it is a field named any/all). */
export function parseQuantifier(s: ParseCursor): Quantifier | undefined {
  const t = s.peek();
  if (!(s.isWord(t, 'any') || s.isWord(t, 'all'))) return undefined;
  const n = s.peek(1);
  if (n.newlineBefore) return undefined;
  if ((n.kind === 'ident' && !RESERVED.has(shortLower(n))) || n.kind === 'variable') {
    s.next();
    return { kind: t.value.toLowerCase() as 'any' | 'all', start: t.start, end: t.end };
  }
  return undefined;
}

/**
 * Whether the current token can begin a value (after an operator, as an argument, an outcome).
 * Inside a call's arguments or an array (`inList`) a line break ends nothing: `re.replace(` may
 * put each argument on a line of its own.
 */
export function atValueStart(s: ParseCursor, inList = false): boolean {
  const t = s.peek();
  switch (t.kind) {
    case 'string':
    case 'number':
    case 'regex':
    case 'variable':
    case 'count':
    case 'minus':
    case 'lbracket':
    case 'bytes':
    case 'duration':
      return true;
    case 'lparen':
      return !t.newlineBefore;
    case 'ident':
      if (s.atSectionStart() || RESERVED.has(shortLower(t))) return false;
      // A path that starts a new line and is followed by '.' or an operator begins the next condition.
      if (!inList && t.newlineBefore && (s.peek(1).kind === 'dot' || s.peek(1).kind === 'op')) return false;
      return true;
    default:
      return false;
  }
}

/** An operand with arithmetic: `*` `/` `%` bind tighter than `+` `-`; operators must be on the same line. */
export function parseOperand(s: ParseCursor, side: 'left' | 'right'): Operand | null {
  const left = parseTerm(s, side);
  if (!left) return null;
  return parseArithTail(s, left, false);
}

function parseTerm(s: ParseCursor, side: 'left' | 'right'): Operand | null {
  const left = parsePrimary(s, side);
  if (!left) return null;
  return parseArithTail(s, left, true);
}

function arithOpAhead(s: ParseCursor, multiplicative: boolean): boolean {
  const t = s.peek();
  if (t.newlineBefore) return false;
  if (t.kind === 'minus') return !multiplicative;
  if (t.kind !== 'arith') return false;
  const mul = t.value !== '+';
  return mul === multiplicative;
}

function parseArithTail(s: ParseCursor, first: Operand, multiplicative: boolean): Operand {
  let left = first;
  let operators = 0;
  while (arithOpAhead(s, multiplicative)) {
    if (s.depth > MAX_DEPTH) break;
    // A chain builds a tree as deep as it is long, and everything after the parser walks it.
    if (++operators > MAX_DEPTH) {
      const t = s.peek();
      s.error(`Arithmetic chains have at most ${MAX_DEPTH} operators in a row`, t.start, t.end, 'too-deep');
      break;
    }
    const opTok = s.next();
    s.depth++;
    const right = multiplicative ? parsePrimary(s, 'right') : parseTerm(s, 'right');
    s.depth--;
    if (!right) s.errorHere(`Expected a value after '${opTok.value}'`);
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

/** One value without arithmetic around it: a literal, a placeholder, a field, a call, an array. */
export function parsePrimary(s: ParseCursor, side: 'left' | 'right'): Operand | null {
  const t = s.peek();
  switch (t.kind) {
    case 'string':
      s.next();
      return { type: 'string', value: t.value, quoted: s.text.charCodeAt(t.start) === 34, start: t.start, end: t.end };
    case 'regex':
      s.next();
      return { type: 'regex', pattern: t.value, start: t.start, end: t.end };
    case 'bytes':
      s.next();
      return { type: 'bytes', value: t.value, start: t.start, end: t.end };
    case 'number':
      s.next();
      return { type: 'number', value: Number(t.value), raw: t.value, start: t.start, end: t.end };
    case 'duration': {
      s.next();
      s.error(
        `'${t.value}' is a duration: it sets the time window of match: (by ${t.value}), it is not a value`,
        t.start,
        t.end,
        'misplaced-duration',
      );
      return { type: 'number', value: parseInt(t.value, 10), raw: t.value, start: t.start, end: t.end };
    }
    case 'minus':
      return parseNegativeNumber(s, t);
    case 'count':
      s.next();
      return { type: 'count', name: t.value, start: t.start, end: t.end };
    case 'variable':
      return parseVariableOrPrefixedField(s, t);
    case 'lbracket':
      return parseArrayLiteral(s);
    case 'lparen':
      // Parentheses inside a value group arithmetic: `(a + b) * 2`.
      return side === 'left' ? null : parseGroupedValue(s, t);
    case 'ident': {
      const lower = shortLower(t);
      if (RESERVED.has(lower)) return null;
      if ((lower === 'true' || lower === 'false') && s.peek(1).kind !== 'dot') {
        s.next();
        return { type: 'bool', value: lower === 'true', start: t.start, end: t.end };
      }
      return parsePathOrCall(s, side);
    }
    default:
      return null;
  }
}

function parseNegativeNumber(s: ParseCursor, t: Token): Operand | null {
  const num = s.peek(1);
  s.next();
  if (num.kind === 'number' && num.start === t.end) {
    s.next();
    return { type: 'number', value: -Number(num.value), raw: `-${num.value}`, start: t.start, end: num.end };
  }
  s.error("Expected a number after '-'", t.start, t.end);
  return null;
}

/** `$name`, or `$e.principal.hostname` (the event variable prefix, optional in search). */
function parseVariableOrPrefixedField(s: ParseCursor, t: Token): Operand {
  s.next();
  const v: VariableNode = { type: 'variable', name: t.value, start: t.start, end: t.end };
  const dot = s.peek();
  const seg = s.peek(1);
  if (!(dot.kind === 'dot' && dot.start === t.end && seg.kind === 'ident' && seg.start === dot.end)) return v;
  s.next();
  const field = parsePathOrCall(s, 'left');
  if (field.type === 'field') {
    field.eventVar = v;
    field.start = v.start;
  } else {
    s.error(
      `'$${v.name}.' prefixes a field, not a function`,
      v.start,
      field.type === 'call' ? field.nameSpan.end : field.end,
    );
  }
  return field;
}

function parseGroupedValue(s: ParseCursor, open: Token): Operand | null {
  s.next();
  s.depth++;
  const inner = s.depth > MAX_DEPTH ? null : parseOperand(s, 'right');
  s.depth--;
  if (!inner) s.errorHere('Expected a value');
  if (s.peek().kind === 'rparen') {
    const close = s.next();
    return inner ? { ...inner, start: open.start, end: close.end } : null;
  }
  s.error("Missing ')' to close this '('", open.start, open.end, 'unclosed-paren');
  return inner;
}

function parseArrayLiteral(s: ParseCursor): Operand {
  const open = s.next();
  const items: Operand[] = [];
  let end = open.end;
  s.depth++;
  while (s.depth <= MAX_DEPTH) {
    const t = s.peek();
    if (t.kind === 'rbracket') {
      end = s.next().end;
      break;
    }
    const item = atValueStart(s, true) ? parseOperand(s, 'right') : null;
    if (!item) {
      s.error("Missing ']' to close this array", open.start, open.end, 'unclosed-bracket');
      break;
    }
    items.push(item);
    end = item.end;
    if (s.peek().kind === 'comma') {
      end = s.next().end;
      continue;
    }
    if (s.peek().kind !== 'rbracket') {
      s.error("Missing ']' to close this array", open.start, open.end, 'unclosed-bracket');
      break;
    }
  }
  s.depth--;
  return { type: 'array', items, start: open.start, end };
}

/** Segments of the field path being read (parsePathOrCall never nests); copied out at its end. */
const SEGMENT_SCRATCH: Segment[] = [];

/** A dotted field path (with `[n]` / `["key"]`), a function call, or (on the right) an enum value. */
export function parsePathOrCall(s: ParseCursor, side: 'left' | 'right'): Operand {
  const first = s.next();
  // Segments are gathered in a shared scratch array and copied once at the end: an array that
  // grows by push keeps room for 16 or more elements, and the tree keeps every one of them.
  const scratch = SEGMENT_SCRATCH;
  let count = 0;
  let indexed = false;
  scratch[count++] = { name: first.value, start: first.start, end: first.end };
  let key: FieldNode['key'];
  let end = first.end;
  for (;;) {
    const t = s.peek();
    if (t.kind === 'lbracket' && t.start === end && !key) {
      const open = s.next();
      const inner = s.peek();
      const seg = scratch[count - 1];
      const negative = inner.kind === 'minus' && s.peek(1).kind === 'number' && s.peek(1).start === inner.end;
      if (inner.kind === 'number' || negative) {
        // `[-1]` is read whole so the checker can say an index counts from 0
        if (negative) s.next();
        const num = s.next();
        indexed = true;
        seg.index = {
          type: 'number',
          value: negative ? -Number(num.value) : Number(num.value),
          raw: negative ? `-${num.value}` : num.value,
          start: inner.start,
          end: num.end,
        };
      } else if (inner.kind === 'string') {
        s.next();
        key = {
          type: 'string',
          value: inner.value,
          quoted: s.text.charCodeAt(inner.start) === 34,
          start: inner.start,
          end: inner.end,
        };
      } else {
        s.errorHere('Expected an index such as [0] or a quoted key such as ["key"]');
      }
      if (s.peek().kind === 'rbracket') {
        end = s.next().end;
      } else {
        s.error("Missing ']'", open.start, open.end, 'unclosed-bracket');
        end = s.previous()!.end;
      }
      continue;
    }
    if (t.kind !== 'dot' || key) break;
    const dot = s.next();
    const seg = s.peek();
    if (seg.kind === 'ident' && seg.start === dot.end) {
      s.next();
      scratch[count++] = { name: seg.value, start: seg.start, end: seg.end };
      end = seg.end;
    } else {
      // Keep an empty segment so completion knows a field name is expected here.
      scratch[count++] = { name: '', start: dot.end, end: dot.end };
      s.error("Expected a field name after '.'", dot.start, dot.end, 'empty-segment');
      end = dot.end;
      break;
    }
  }
  const last = scratch[count - 1];
  // A statement that is complete at the end of its line ends there (Google's rules write
  // `$a.x < $b.y` and start the next statement with '(' on the following line): a '(' opens a
  // call only on the name's own line.
  const open = s.peek();
  const callOpen = open.kind === 'lparen' && !open.newlineBefore;
  if (side === 'right' && count === 1 && !key && !indexed && !callOpen) {
    return { type: 'enum', name: first.value, start: first.start, end: first.end };
  }
  const segments = scratch.slice(0, count);
  if (open.kind === 'lparen' && last.name !== '' && !key && !indexed) {
    if (callOpen) return parseCall(s, segments);
    const name = segments.map((g) => g.name).join('.');
    if (isCallName(name)) {
      s.error(
        `${name} is a function, and its '(' is on the next line, where a new statement starts: write '(' on the same line as ${name}`,
        first.start,
        open.end,
        'call-newline',
      );
      return parseCall(s, segments);
    }
  }
  const field: FieldNode = { type: 'field', segments, start: first.start, end };
  if (key) field.key = key;
  return field;
}

/** A function, an aggregate or `if`: a name that a '(' on the next line most likely meant to call. */
function isCallName(name: string): boolean {
  return name.toLowerCase() === 'if' || !!findFunction(name) || !!findAggregate(name);
}
