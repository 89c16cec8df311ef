import type { CallNode, Operand, Segment } from '../ast';
import type { Token } from '../lexer';
import { parseOr } from './conditions';
import { MAX_DEPTH, sameWord, type ParseCursor } from './cursor';
import { atValueStart, parseOperand, parseQuantifier } from './operands';

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

/** A call of the function named by `segments`, from its '(' (the current token). */
export function parseCall(s: ParseCursor, segments: Segment[]): CallNode {
  const open = s.next();
  const name = segments.length === 1 ? segments[0].name : dottedName(s.text, segments);
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
  if (s.peek().kind === 'rparen') {
    const close = s.next();
    call.close = { start: close.start, end: close.end };
    call.end = close.end;
    return call;
  }
  s.depth++;
  for (;;) {
    if (s.depth > MAX_DEPTH) {
      s.errorHere('Query is nested too deeply');
      break;
    }
    if (call.args.length === 0 && call.commas.length === 0 && sameWord(name, 'if')) parseConditionArgument(s, call);
    else parseArgument(s, call);
    if (!afterArgument(s, call, open)) break;
  }
  s.depth--;
  // Exact-size copies: the tree keeps them (see SEGMENT_SCRATCH in operands.ts).
  if (args.length) call.args = args.slice();
  if (commas.length) call.commas = commas.slice();
  return call;
}

/** `if(condition, ...)`: the first argument is a condition, not a value. */
function parseConditionArgument(s: ParseCursor, call: CallNode): void {
  const expr = parseOr(s);
  if (expr) {
    call.args.push({ type: 'condition', expr, start: expr.start, end: expr.end });
    call.end = expr.end;
  } else s.errorHere('Expected a condition');
}

function parseArgument(s: ParseCursor, call: CallNode): void {
  const named = skipArgumentName(s);
  const quantifier = named ? undefined : parseQuantifier(s);
  let arg: Operand | null;
  const v = s.peek();
  if (named && (v.kind === 'duration' || (v.kind === 'invalid' && /^\d+[a-zA-Z]+$/.test(v.value)))) {
    // `period:1d`: a duration word as a named argument's value (detection rules' metrics)
    s.next();
    s.dropLexError(v);
    arg = { type: 'enum', name: v.value, start: v.start, end: v.end };
  } else arg = atValueStart(s, true) ? parseOperand(s, 'right') : null;
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
      s.error(
        arg?.type === 'call'
          ? `'${quantifier.kind}' cannot come before a function call`
          : `'${quantifier.kind}' must be followed by a repeated field`,
        quantifier.start,
        quantifier.end,
        'bad-quantifier',
      );
  }
  if (arg) {
    call.args.push(arg);
    call.end = arg.end;
  } else {
    s.errorHere('Expected an argument');
  }
}

/** Reads the ',' or ')' after an argument; true when another argument follows. */
function afterArgument(s: ParseCursor, call: CallNode, open: Token): boolean {
  const t = s.peek();
  if (t.kind === 'comma') {
    s.next();
    call.commas.push(t.start);
    call.end = t.end;
    return true;
  }
  if (t.kind === 'rparen') {
    s.next();
    call.close = { start: t.start, end: t.end };
    call.end = t.end;
    return false;
  }
  s.error(`Missing ')' to close the call of ${call.name}`, open.start, open.end, 'unclosed-paren');
  return false;
}

/** `name:` or `a.b.c:` before an argument (named arguments of the rules' metrics functions). */
function skipArgumentName(s: ParseCursor): boolean {
  let k = 0;
  if (s.peek(k).kind !== 'ident') return false;
  k++;
  while (s.peek(k).kind === 'dot' && s.peek(k + 1).kind === 'ident') k += 2;
  if (s.peek(k).kind !== 'colon') return false;
  for (let i = 0; i <= k; i++) s.next();
  return true;
}
