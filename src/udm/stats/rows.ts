// What the statistics engine does with finished rows: arithmetic between values, the column types,
// the row order, and condition: compiled to a predicate over a row.
import type { ArithNode, CompareOp, Expr, Operand } from '../ast';
import { findFunction, toStr } from '../functions';
import { numericValue } from '../functions/aggregates';
import { compileRegex } from '../regex';
import type { AggregateName, ColumnType } from './plan';

/** `+ - * / %` over two values; null when either is not a number or on division by zero. */
export function arithmetic(op: string, a: unknown, b: unknown): number | null {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x === undefined || y === undefined) return null;
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? null : x / y;
    case '%':
      return y === 0 ? null : x % y;
    default:
      return null;
  }
}

export const AGGREGATE_TYPES: Record<AggregateName, ColumnType | undefined> = {
  count: 'number',
  count_distinct: 'number',
  sum: 'number',
  min: 'number',
  max: 'number',
  avg: 'number',
  stddev: 'number',
  array: 'array',
  array_distinct: 'array',
  earliest: 'timestamp',
  latest: 'timestamp',
};

/** The type of a column from the values it holds (nulls say nothing). */
export function typeOfValues(rows: unknown[][], index: number): ColumnType {
  let type: ColumnType | undefined;
  for (const row of rows) {
    const v = row[index];
    if (v === null || v === undefined) continue;
    const t: ColumnType = Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? 'number'
        : typeof v === 'boolean'
          ? 'bool'
          : 'string';
    if (type === undefined) type = t;
    else if (type !== t) return 'mixed';
  }
  return type ?? 'string';
}

export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === undefined || a === null;
  const bNull = b === undefined || b === null;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1;
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  const sa = Array.isArray(a) ? a.join(', ') : toStr(a);
  const sb = Array.isArray(b) ? b.join(', ') : toStr(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

// ---- condition: --------------------------------------------------------------------------------

export type RowPred = (row: unknown[]) => boolean;
export type RowValue = (row: unknown[]) => unknown;

export function compileCondition(e: Expr, column: (name: string) => number, warnings: string[]): RowPred {
  switch (e.type) {
    case 'and': {
      const parts = e.items.map((i) => compileCondition(i, column, warnings));
      return (row) => parts.every((p) => p(row));
    }
    case 'or': {
      const parts = e.items.map((i) => compileCondition(i, column, warnings));
      return (row) => parts.some((p) => p(row));
    }
    case 'not': {
      const inner = compileCondition(e.expr, column, warnings);
      return (row) => !inner(row);
    }
    case 'compare': {
      if (!e.right) return () => false;
      const left = rowValue(e.left, column, warnings);
      const right = rowValue(e.right, column, warnings);
      const op = e.op;
      const nocase = !!e.nocase;
      if (e.right.type === 'regex') {
        const { regex: re, problem } = compileRegex(e.right.pattern, nocase);
        if (problem) warnings.push(`condition: /${e.right.pattern}/ matches nothing: ${problem.message}`);
        return (row) => {
          const hit = !!re && re.test(toStr(left(row)));
          return op === '!=' ? !hit : op === '=' ? hit : false;
        };
      }
      return (row) => compareOp(left(row), right(row), op, nocase);
    }
    case 'callExpr': {
      const v = rowValue(e.call, column, warnings);
      return (row) => v(row) === true;
    }
    case 'assign':
      return () => true;
    default:
      warnings.push('condition: holds a test that cannot apply to a table row; it filters nothing out.');
      return () => true;
  }
}

export function rowValue(op: Operand, column: (name: string) => number, warnings: string[]): RowValue {
  switch (op.type) {
    case 'variable': {
      const i = column(op.name);
      if (i < 0) {
        warnings.push(`condition: $${op.name} is neither a match: nor an outcome: variable.`);
        return () => null;
      }
      return (row) => row[i];
    }
    case 'field': {
      const name = op.segments.map((s) => s.name).join('.');
      const i = column(name);
      if (i < 0) {
        warnings.push(`condition: ${name} is not a column of the table.`);
        return () => null;
      }
      return (row) => row[i];
    }
    case 'string':
      return () => op.value;
    case 'number':
      return () => op.value;
    case 'bool':
      return () => op.value;
    case 'enum':
      return () => op.name;
    case 'regex':
      return () => op.pattern;
    case 'call': {
      const fn = findFunction(op.name);
      const args = op.args.map((a) => rowValue(a, column, warnings));
      if (!fn) {
        warnings.push(`condition: ${op.name} is not a function a condition can use.`);
        return () => null;
      }
      return (row) => fn.impl(args.map((a) => a(row))) ?? null;
    }
    default: {
      const arith = asArith(op);
      if (!arith) {
        warnings.push(`condition: a ${op.type} value cannot be compared on a table row.`);
        return () => null;
      }
      const left = rowValue(arith.left, column, warnings);
      const right = arith.right ? rowValue(arith.right, column, warnings) : () => null;
      return (row) => arithmetic(arith.op, left(row), right(row));
    }
  }
}

export function compareOp(a: unknown, b: unknown, op: CompareOp, nocase: boolean): boolean {
  const na = numericValue(a);
  const nb = numericValue(b);
  let c: number;
  if (na !== undefined && nb !== undefined && (typeof a === 'number' || typeof b === 'number')) c = na - nb;
  else {
    let sa = a === null || a === undefined ? '' : toStr(a);
    let sb = b === null || b === undefined ? '' : toStr(b);
    if (nocase) {
      sa = sa.toLowerCase();
      sb = sb.toLowerCase();
    }
    c = sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}

/** Arithmetic (`sum(a) / count(b)`, `$x * 2`). */
export function asArith(op: Operand): ArithNode | undefined {
  return op.type === 'arith' ? op : undefined;
}
