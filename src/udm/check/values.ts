import type { CompareExpr, Operand } from '../ast';
import type { ArgType } from '../functions';
import { childFields, enumHas, enumValues, suggest, typeLabel } from '../schema';
import type { CheckContext, FieldFacts } from './context';
import { enumOfType, FLIP, isLiteral, literalKind, type LiteralKind } from './describe';
import { operand } from './filter';
import { checkCall } from './functions';
import { checkValueVariable } from './variables';

export function checkCompare(c: CheckContext, e: CompareExpr): void {
  let leftRet: ArgType | undefined;
  let rightRet: ArgType | undefined;
  const leftFacts = e.left.type === 'call' ? ((leftRet = checkCall(c, e.left)), undefined) : operand(c, e.left);
  const rightFacts = !e.right
    ? undefined
    : e.right.type === 'call'
      ? ((rightRet = checkCall(c, e.right)), undefined)
      : operand(c, e.right);
  const leftLit = isLiteral(e.left);
  if (leftLit && e.right && isLiteral(e.right)) {
    c.report(
      'error',
      'Both sides are literal values; compare a field, a placeholder or a function result with a value',
      e.start,
      e.end,
      'literal-compare',
    );
    return;
  }
  if (leftLit && e.right && (rightFacts || rightRet)) {
    // `1024 < target.port`, `"google.com" = re.capture(...)`: check it the other way round.
    const flipped: CompareExpr = { ...e, left: e.right, right: e.left, op: FLIP[e.op] };
    if (rightFacts && !rightFacts.unknown) checkValueAgainst(c, rightFacts, flipped, e.left);
    else if (rightRet) checkReturnAgainst(c, rightRet, e.left);
    return;
  }
  if (e.left.type === 'variable')
    checkValueVariable(c, e.left, (v) =>
      c.report(
        'error',
        `Placeholder $${v.name} is not defined; define it with $${v.name} = <field>`,
        v.start,
        v.end,
        'undefined-placeholder',
      ),
    );
  if (e.right?.type === 'variable')
    checkValueVariable(c, e.right, (v) =>
      c.report('error', `Placeholder $${v.name} is not defined`, v.start, v.end, 'undefined-placeholder'),
    );
  if (e.quantifier && leftFacts && !leftFacts.repeated && !leftFacts.unknown) {
    c.report(
      'error',
      `'${e.quantifier.kind}' applies to repeated fields; ${leftFacts.key} holds one value: remove '${e.quantifier.kind}'`,
      e.quantifier.start,
      e.quantifier.end,
      'quantifier',
    );
  }
  const right = e.right;
  if (!right) return;
  if (e.nocase && right.type !== 'string' && right.type !== 'regex') {
    c.report('error', "'nocase' applies to strings and regular expressions", e.nocase.start, e.nocase.end, 'nocase');
  }
  if (leftFacts && !leftFacts.unknown) checkValueAgainst(c, leftFacts, e, right);
  else if (leftRet) checkReturnAgainst(c, leftRet, right);
  if (rightFacts && rightFacts.kind === 'message') {
    c.report(
      'error',
      `${rightFacts.key} is a ${typeLabel(rightFacts.type)} message; compare one of its fields`,
      right.start,
      right.end,
      'message-compare',
    );
  }
}

export function checkReturnAgainst(c: CheckContext, ret: ArgType, right: Operand): void {
  const lit = literalKind(right);
  // a field or placeholder on the other side is compared value by value
  if (!lit || lit === 'field' || ret === 'any') return;
  const okay =
    (ret === 'string' && (lit === 'string' || lit === 'regex')) ||
    (ret === 'number' && lit === 'number') ||
    (ret === 'bool' && lit === 'bool') ||
    (ret === 'timestamp' && lit === 'number');
  if (!okay)
    c.report(
      'error',
      `Type mismatch: the function returns a ${ret} but is compared with a ${lit}`,
      right.start,
      right.end,
      'type-mismatch',
    );
}

export function checkValueAgainst(c: CheckContext, f: FieldFacts, e: CompareExpr, right: Operand): void {
  const name = f.key;
  const op = e.op;
  const lit = literalKind(right);
  switch (f.kind) {
    case 'message':
      c.report(
        'error',
        `${name} is a ${typeLabel(f.type)} message; compare one of its fields, e.g. ${name}.${[...(childFields(f.type)?.keys() ?? ['...'])][0]}`,
        e.left.start,
        e.left.end,
        'message-compare',
      );
      return;
    case 'timestamp':
    case 'duration':
      if (lit === 'number' || lit === 'string') {
        c.report(
          'error',
          `${name} is a ${f.kind}; compare ${name}.seconds with epoch seconds`,
          e.left.start,
          e.left.end,
          'timestamp-seconds',
          { replacements: [`${name}.seconds`], replaceRange: { start: e.left.start, end: e.left.end } },
        );
      }
      return;
    case 'enum':
      checkEnumValue(c, f, e, right, lit);
      return;
    case 'number':
      checkNumberValue(c, f, e, right, lit);
      return;
    case 'bool':
      if (lit && lit !== 'bool' && lit !== 'field') {
        c.report(
          'error',
          `Type mismatch: ${name} is a bool; compare it with true or false`,
          right.start,
          right.end,
          'type-mismatch',
        );
      } else if (op !== '=' && op !== '!=') {
        c.report('error', `Only = and != compare bool values`, e.opSpan.start, e.opSpan.end, 'type-mismatch');
      }
      return;
    case 'string':
    case 'bytes':
      checkStringValue(c, f, right, lit);
      return;
    default:
      return;
  }
}

/** An enum field: a value name of its enum (quoted or not), never a regex, number or bool. */
function checkEnumValue(c: CheckContext, f: FieldFacts, e: CompareExpr, right: Operand, lit: LiteralKind): void {
  const name = f.key;
  const op = e.op;
  const en = enumOfType(f.type);
  if (lit === 'regex') {
    c.report(
      'error',
      `Regular expressions do not apply to enum field ${name}; compare with = and a value such as "${enumValues(en)[1]?.[0] ?? enumValues(en)[0]?.[0] ?? ''}"`,
      right.start,
      right.end,
      'regex-on-enum',
    );
    return;
  }
  if (e.nocase)
    c.report(
      'error',
      `'nocase' does not apply to enum field ${name}: enum values are upper-case names, compared exactly`,
      e.nocase.start,
      e.nocase.end,
      'bad-nocase',
    );
  // Ordering comparisons (`>=`, `<`...) compare enum values by their number in the schema.
  if (lit === 'number' || lit === 'bool') {
    c.report(
      'error',
      `Type mismatch: ${name} is enum ${en}; compare with a value name such as "${enumValues(en)[1]?.[0] ?? ''}"`,
      right.start,
      right.end,
      'type-mismatch',
    );
    return;
  }
  const value = right.type === 'string' ? right.value : right.type === 'enum' ? right.name : undefined;
  if (
    value !== undefined &&
    !(e.nocase ? enumValues(en).some(([n]) => n.toLowerCase() === value.toLowerCase()) : enumHas(en, value))
  ) {
    if (value === '' && op === '!=') return; // "is set" idiom
    const s = suggest(
      value,
      enumValues(en).map(([n]) => n),
    );
    const upper = enumValues(en).find(([n]) => n === value.toUpperCase());
    const cands = upper ? [upper[0]] : s;
    c.report(
      'error',
      `'${value}' is not a value of ${en}${cands.length ? `. Did you mean '${cands[0]}'?` : ''}`,
      right.start,
      right.end,
      'unknown-enum-value',
      cands.length ? { replacements: cands.map((v) => (right.type === 'string' ? `"${v}"` : v)) } : undefined,
    );
  }
}

/** A number field: an unquoted number that the field's type can hold. */
function checkNumberValue(c: CheckContext, f: FieldFacts, e: CompareExpr, right: Operand, lit: LiteralKind): void {
  const name = f.key;
  const op = e.op;
  if (lit === 'string') {
    const v = (right as { value: string }).value;
    if (v.trim() === '' || Number.isNaN(Number(v))) {
      c.report(
        'error',
        `Type mismatch: ${name} is a number (${typeLabel(f.type)}) but "${v}" is not a number`,
        right.start,
        right.end,
        'type-mismatch',
      );
    } else {
      c.report(
        'error',
        `Type mismatch: ${name} is a number (${typeLabel(f.type)}); write ${v.trim()} without quotes`,
        right.start,
        right.end,
        'type-mismatch',
        { replacements: [v.trim()] },
      );
    }
    return;
  }
  if (lit === 'regex' || lit === 'bool') {
    c.report(
      'error',
      `Type mismatch: ${name} is a number (${typeLabel(f.type)}); compare it with a number`,
      right.start,
      right.end,
      'type-mismatch',
    );
    return;
  }
  if (lit === 'number' && right.type === 'number') {
    const v = right.value;
    const unsigned = f.type.startsWith('uint') || f.type.startsWith('fixed');
    if (unsigned && ((op === '<' && v <= 0) || ((op === '=' || op === '<=') && v < 0))) {
      c.report(
        'warning',
        `This comparison can never match: ${name} is unsigned (${f.type})`,
        e.start,
        e.end,
        'never-matches',
      );
    }
    const int32 = f.type === 'int32' || f.type === 'uint32' || f.type === 'sint32';
    if (int32 && (op === '=' || op === '>' || op === '>=') && v > 4294967295) {
      c.report(
        'warning',
        `This comparison can never match: ${name} is a 32-bit field`,
        e.start,
        e.end,
        'never-matches',
      );
    }
    if (op === '=' && !Number.isInteger(v) && f.type !== 'double' && f.type !== 'float') {
      c.report(
        'warning',
        `This comparison can never match: ${name} holds whole numbers`,
        e.start,
        e.end,
        'never-matches',
      );
    }
  }
}

/** A string or bytes field: a quoted value. */
function checkStringValue(c: CheckContext, f: FieldFacts, right: Operand, lit: LiteralKind): void {
  const name = f.key;
  if (lit === 'bool') {
    c.report(
      'error',
      `Type mismatch: ${name} is a string; compare it with a quoted value`,
      right.start,
      right.end,
      'type-mismatch',
    );
    return;
  }
  // A number or an unquoted name: the same text in quotes is what was meant.
  const unquoted =
    lit === 'number' ? (right as { raw: string }).raw : lit === 'enum' ? (right as { name: string }).name : undefined;
  if (unquoted === undefined) return;
  c.report(
    'error',
    `Type mismatch: ${name} is a string; quote the value: "${unquoted}"`,
    right.start,
    right.end,
    'type-mismatch',
    { replacements: [`"${unquoted}"`] },
  );
}
