import type { Expr, Operand } from '../ast';
import { typeLabel } from '../schema';
import type { CheckContext, FieldFacts } from './context';
import { article, readsEvent } from './describe';
import { resolveField } from './fields';
import { checkCall } from './functions';
import { checkInList } from './lists';
import { checkRegexLiteral } from './regex';
import { checkCompare } from './values';
import { checkVariableName } from './variables';

export function visit(c: CheckContext, e: Expr): void {
  switch (e.type) {
    case 'and':
    case 'or':
      // Indexed: the top-level AND of a long document has one item per line.
      for (let i = 0; i < e.items.length; i++) visit(c, e.items[i]);
      return;
    case 'not':
      visit(c, e.expr);
      return;
    case 'compare':
      checkCompare(c, e);
      return;
    case 'in':
      checkInList(c, e);
      return;
    case 'callExpr': {
      const ret = checkCall(c, e.call);
      if (ret && ret !== 'bool' && ret !== 'any') {
        c.report(
          'error',
          `${e.call.name} returns a ${ret}; compare it with a value, e.g. ${e.call.name}(...) = ...`,
          e.call.start,
          e.call.end,
          'not-a-condition',
        );
      }
      return;
    }
    case 'assign': {
      checkVariableName(c, e.variable);
      if (e.value.type !== 'field' && !readsEvent(e.value))
        c.report(
          'error',
          `$${e.variable.name} must take its value from an event field, e.g. $${e.variable.name} = strings.concat(principal.hostname, "x")`,
          e.value.start,
          e.value.end,
          'placeholder-constant',
        );
      if (e.value.type === 'field') {
        const f = operand(c, e.value);
        if (f && f.kind === 'message') {
          c.report(
            'error',
            `${f.key} is a ${typeLabel(f.type)} message; a placeholder needs a field that holds a value`,
            e.value.start,
            e.value.end,
            'message-compare',
          );
        }
      } else operand(c, e.value);
      return;
    }
    case 'error':
      if (e.operand) operand(c, e.operand);
      return;
  }
}

/** Resolves an operand; returns field facts for field paths (and placeholders bound to one). */
export function operand(c: CheckContext, op: Operand | null): FieldFacts | undefined {
  if (!op) return undefined;
  switch (op.type) {
    case 'field':
      return resolveField(c, op);
    case 'variable': {
      const def = c.placeholders.get(op.name);
      if (!def) return undefined;
      if (def.value.type === 'field') {
        return c.facts.get(def.value) ?? resolveField(c, def.value);
      }
      return undefined;
    }
    case 'call':
      checkCall(c, op);
      return undefined;
    case 'condition':
      if (op.expr.type === 'assign')
        c.report(
          'error',
          `if(...) needs a condition here; $${op.expr.variable.name} = ... defines a placeholder`,
          op.start,
          op.end,
          'not-a-condition',
        );
      else visit(c, op.expr);
      return undefined;
    case 'array':
      for (const item of op.items) operand(c, item);
      return undefined;
    case 'arith':
      for (const side of [op.left, op.right]) {
        const f = operand(c, side);
        if (side && f && !f.unknown && f.kind !== 'number' && f.kind !== 'unknown')
          c.report(
            'error',
            `Arithmetic needs numbers; ${f.key} is ${article(f)}`,
            side.start,
            side.end,
            'type-mismatch',
          );
        else if (side && (side.type === 'string' || side.type === 'regex' || side.type === 'bool'))
          c.report(
            'error',
            side.type === 'string'
              ? 'Arithmetic needs numbers, and a quoted or backquoted value is a string: write the number without quotes'
              : `Arithmetic needs numbers, and a ${side.type === 'regex' ? '/…/ pattern' : 'true/false value'} is none`,
            side.start,
            side.end,
            'type-mismatch',
          );
      }
      return undefined;
    case 'regex':
      checkRegexLiteral(c, op);
      return undefined;
    default:
      return undefined;
  }
}
