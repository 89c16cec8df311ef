// Predicates on one value: a field's value against a literal, the building blocks of compiled
// comparisons. Each operator's closure is chosen once, when the query is compiled, not per event.
import type { CompareOp, Operand } from './ast';
import { toNum, toStr } from './functions';
import { compileRegex } from './regex';

export type Pred = (v: unknown) => boolean;

export function numericOp(op: CompareOp, b: number): Pred {
  switch (op) {
    case '=':
      return (v) => toNum(v) === b;
    case '!=':
      return (v) => toNum(v) !== b;
    default:
      return ordered(op, b, toNum);
  }
}

function stringOp(op: CompareOp, b: string, nocase: boolean): Pred {
  if (nocase) {
    const lb = b.toLowerCase();
    const inner = stringOp(op, lb, false);
    return (v) => inner(toStr(v).toLowerCase());
  }
  switch (op) {
    case '=':
      return (v) => (v === undefined || v === null ? b === '' : typeof v === 'string' ? v === b : toStr(v) === b);
    case '!=':
      return (v) => (v === undefined || v === null ? b !== '' : typeof v === 'string' ? v !== b : toStr(v) !== b);
    default:
      return ordered(op, b, toStr);
  }
}

/** `>`, `>=`, `<`, `<=` against `b`, on values read as `b`'s kind. */
function ordered<T extends number | string>(op: '>' | '>=' | '<' | '<=', b: T, read: (v: unknown) => T): Pred {
  switch (op) {
    case '>':
      return (v) => read(v) > b;
    case '>=':
      return (v) => read(v) >= b;
    case '<':
      return (v) => read(v) < b;
    case '<=':
      return (v) => read(v) <= b;
  }
}

export function compareValues(a: unknown, b: unknown, op: CompareOp, nocase: boolean): boolean {
  const numeric =
    (typeof a === 'number' || typeof b === 'number') && !Number.isNaN(toNum(a)) && !Number.isNaN(toNum(b));
  if (numeric) return numericOp(op, toNum(b))(a);
  return stringOp(op, toStr(b), nocase)(a);
}

export function literalPred(
  op: CompareOp,
  right: Operand,
  nocase: boolean,
  kind: string | undefined,
): Pred | undefined {
  switch (right.type) {
    case 'string':
    case 'enum': {
      const value = right.type === 'string' ? right.value : right.name;
      if (kind === 'number' && value.trim() !== '' && !Number.isNaN(Number(value))) return numericOp(op, Number(value));
      if (kind === 'bool') {
        const b = value.toLowerCase() === 'true';
        return boolPred(op, b);
      }
      return stringOp(op, value, nocase);
    }
    case 'number':
      if (kind === 'string' || kind === 'bytes') return stringOp(op, right.raw, false);
      return numericOp(op, right.value);
    case 'bool':
      return boolPred(op, right.value);
    case 'regex': {
      const { regex } = compileRegex(right.pattern, nocase);
      if (!regex) return () => false;
      if (op === '!=') return (v) => !regex.test(toStr(v));
      if (op === '=') return (v) => regex.test(toStr(v));
      return () => false;
    }
    default:
      return undefined;
  }
}

function boolPred(op: CompareOp, b: boolean): Pred {
  const truthy = (v: unknown): boolean => v === true || v === 'true';
  if (op === '!=') return (v) => truthy(v) !== b;
  if (op === '=') return (v) => truthy(v) === b;
  return () => false;
}
