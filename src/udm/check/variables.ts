import type { Expr, VariableNode } from '../ast';
import { suggest } from '../schema';
import { DOCUMENTED_KEYWORDS } from '../vocabulary';
import type { CheckContext } from './context';

/** The keywords udm-syntax.md lists; none may name a variable. */
export const VARIABLE_KEYWORDS: ReadonlySet<string> = new Set(DOCUMENTED_KEYWORDS);

/**
 * `target.user.userid = $userid` defines $userid as `$userid = target.user.userid` does (a
 * placeholder may stand on either side), unless it is defined elsewhere: then it compares.
 */
export function collectRightPlaceholders(c: CheckContext, e: Expr): void {
  if (e.type === 'and' || e.type === 'or') {
    for (const i of e.items) collectRightPlaceholders(c, i);
  } else if (e.type === 'not') collectRightPlaceholders(c, e.expr);
  else if (
    e.type === 'compare' &&
    e.op === '=' &&
    e.right?.type === 'variable' &&
    !e.nocase &&
    !e.quantifier &&
    (e.left.type === 'field' || e.left.type === 'call' || e.left.type === 'arith') &&
    !c.placeholders.has(e.right.name)
  ) {
    checkVariableName(c, e.right);
    c.placeholders.set(e.right.name, {
      type: 'assign',
      variable: e.right,
      value: e.left,
      start: e.start,
      end: e.end,
    });
  }
}

export function collectPlaceholders(c: CheckContext, e: Expr): void {
  switch (e.type) {
    case 'assign':
      if (!c.placeholders.has(e.variable.name)) c.placeholders.set(e.variable.name, e);
      break;
    case 'and':
    case 'or':
      for (let i = 0; i < e.items.length; i++) collectPlaceholders(c, e.items[i]);
      break;
    case 'not':
      collectPlaceholders(c, e.expr);
      break;
    default:
      break;
  }
}

/** Keywords of the language may not name a variable (`$outcome`, `$max`; `$count` is allowed, see VARIABLE_KEYWORDS). */
export function checkVariableName(c: CheckContext, v: VariableNode): void {
  const lower = v.name.toLowerCase();
  if (VARIABLE_KEYWORDS.has(lower))
    c.report(
      'error',
      `$${v.name} is not a valid name: ${lower} is a keyword of the language; choose another, e.g. $${lower}_value`,
      v.start,
      v.end,
      'keyword-variable',
      { replacements: [`$${lower}_value`] },
    );
}

/**
 * A `$name` read as a value: a placeholder of the filter, or in outcome: an outcome variable
 * assigned above. One assigned below (or the item itself) is reported as such; otherwise the name
 * is undefined. Returns false when it reported.
 */
export function checkValueVariable(
  c: CheckContext,
  v: VariableNode,
  onUndefined: (v: VariableNode) => void = (u) => undefinedPlaceholder(c, u),
): boolean {
  if (c.placeholders.has(v.name) || c.outcomesAbove.has(v.name)) return true;
  const later = c.outcomeItems.get(v.name);
  if (later) {
    const self = v.start >= later.start && v.end <= later.end;
    c.report(
      'error',
      self
        ? `$${v.name} cannot use its own value; an outcome reads the outcome variables assigned above it`
        : `$${v.name} is assigned further down in outcome:; an outcome reads only the outcome variables assigned above it: move $${v.name} = … above this line`,
      v.start,
      v.end,
      'outcome-order',
    );
    return false;
  }
  onUndefined(v);
  return false;
}

export function undefinedPlaceholder(c: CheckContext, v: VariableNode): void {
  const s = suggest(v.name, c.placeholders.keys());
  c.report(
    'error',
    `Placeholder $${v.name} is not defined; define it in the filter with $${v.name} = <field>${s.length ? `. Did you mean $${s[0]}?` : ''}`,
    v.start,
    v.end,
    'undefined-placeholder',
    s.length ? { replacements: s.map((x) => `$${x}`) } : undefined,
  );
}
