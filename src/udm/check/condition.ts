import type { Expr, Operand } from '../ast';
import type { CheckContext } from './context';
import { checkConditionCall } from './functions';
import { checkRegexLiteral } from './regex';

/** condition: tests match:/outcome: variables. */
export function checkCondition(c: CheckContext, e: Expr, groupNames: Set<string>, outcomeNames: Set<string>): void {
  const variable = (op: Operand | null): void => {
    if (!op) return;
    if (op.type === 'variable') {
      if (!outcomeNames.has(op.name) && !groupNames.has(op.name))
        c.report(
          'error',
          `condition: tests outcome: or match: variables; $${op.name} is neither`,
          op.start,
          op.end,
          'condition-unknown',
        );
    } else if (op.type === 'field') {
      c.report(
        'error',
        'condition: tests outcome: variables, not event fields; define one in outcome: first',
        op.start,
        op.end,
        'condition-field',
      );
    } else if (op.type === 'arith') {
      variable(op.left);
      variable(op.right);
    } else if (op.type === 'call') {
      for (const a of op.args) variable(a);
      checkConditionCall(c, op);
    } else if (op.type === 'regex') checkRegexLiteral(c, op);
  };
  switch (e.type) {
    case 'and':
    case 'or':
      for (const i of e.items) checkCondition(c, i, groupNames, outcomeNames);
      return;
    case 'not':
      checkCondition(c, e.expr, groupNames, outcomeNames);
      return;
    case 'compare':
      variable(e.left);
      variable(e.right);
      return;
    case 'assign':
      c.report(
        'error',
        'condition: compares values; it cannot define a placeholder',
        e.start,
        e.end,
        'condition-assign',
      );
      return;
    case 'in':
      variable(e.left);
      return;
    case 'callExpr':
      for (const a of e.call.args) variable(a);
      checkConditionCall(c, e.call);
      return;
    case 'error':
      return;
  }
}
