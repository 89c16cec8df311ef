import { childrenOf, type CompareExpr, type Expr, type Operand } from '../ast';
import { enumName, typeLabel, type ValueKind } from '../schema';

/** Enum names by field type (`e:Metadata.EventType` → `Metadata.EventType`), one string each. */
export const ENUM_OF_TYPE = new Map<string, string>();

export function enumOfType(type: string): string {
  let name = ENUM_OF_TYPE.get(type);
  if (name === undefined) {
    name = enumName(type) ?? type;
    ENUM_OF_TYPE.set(type, name);
  }
  return name;
}

export const FLIP: Record<CompareExpr['op'], CompareExpr['op']> = {
  '=': '=',
  '!=': '!=',
  '<': '>',
  '<=': '>=',
  '>': '<',
  '>=': '<=',
};

export function isLiteral(op: Operand): boolean {
  return (
    op.type === 'string' ||
    op.type === 'number' ||
    op.type === 'bool' ||
    op.type === 'regex' ||
    op.type === 'bytes' ||
    (op.type === 'array' && op.items.every(isLiteral))
  );
}

/** What a literal operand is; `field` for a field or placeholder (compared value by value). */
export type LiteralKind = 'string' | 'number' | 'bool' | 'regex' | 'enum' | 'field' | undefined;

export function literalKind(op: Operand): LiteralKind {
  switch (op.type) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'regex':
      return 'regex';
    case 'enum':
      return 'enum';
    case 'field':
    case 'variable':
      return 'field';
    default:
      return undefined;
  }
}

export function article(f: { kind: ValueKind; type: string }): string {
  switch (f.kind) {
    case 'message':
      return `a ${typeLabel(f.type)} message`;
    case 'enum':
      return `enum ${typeLabel(f.type)}`;
    case 'number':
      return `a number (${f.type})`;
    default:
      return `a ${f.kind}`;
  }
}

/** The operands a condition compares or reads (through and/or/not), `$e` of a rule's condition included. */
export function exprOperands(e: Expr): Operand[] {
  if (e.type === 'exists') return [e.variable];
  if (e.type === 'and' || e.type === 'or' || e.type === 'not')
    return childrenOf(e).flatMap((c) => exprOperands(c as Expr));
  // A comparison, a list test, a boolean call, an assignment or an error holds operands only.
  return childrenOf(e) as Operand[];
}

/** True when a value reads an event field or a placeholder somewhere inside. */
export function readsEvent(v: Operand | null): boolean {
  if (!v) return false;
  switch (v.type) {
    case 'field':
    case 'variable':
    case 'condition':
      return true;
    case 'call':
      return v.args.some(readsEvent);
    case 'arith':
      return readsEvent(v.left) || readsEvent(v.right);
    case 'array':
      return v.items.some(readsEvent);
    default:
      return false;
  }
}
