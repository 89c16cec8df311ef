import {
  AGGREGATE_NAMES,
  type AssignExpr,
  type CallNode,
  isAggregateCall,
  isIfCall,
  type MatchSection,
  type Operand,
  type OutcomeItem,
  type OutcomeSection,
} from '../ast';
import { findAggregate, findFunction, groupFunctionOf } from '../functions';
import { suggest } from '../schema';
import type { CheckContext, FieldFacts } from './context';
import { article, exprOperands } from './describe';
import { resolveField } from './fields';
import { operand } from './filter';
import { checkCall } from './functions';
import { checkValueVariable, checkVariableName } from './variables';

/** Checks an outcome value; returns how many aggregate calls it holds. */
export function outcomeValue(c: CheckContext, v: Operand, insideAggregate: boolean): number {
  switch (v.type) {
    case 'call': {
      if (v.name === 'group')
        c.report(
          'error',
          'group(...) belongs in the filter, assigned to a placeholder that match: then groups by: $ip = group(principal.ip, target.ip)',
          v.nameSpan.start,
          v.nameSpan.end,
          'group-placement',
        );
      if (isAggregateCall(v)) {
        if (insideAggregate)
          c.report('error', 'Aggregates cannot be nested', v.nameSpan.start, v.nameSpan.end, 'nested-aggregate');
        checkAggregate(c, v);
        return 1;
      }
      if (!findFunction(v.name) && !isIfCall(v)) {
        if (v.name.includes('.')) {
          let n = 0;
          for (const a of v.args) n += outcomeValue(c, a, insideAggregate);
          checkCall(c, v, false);
          // unknown: do not also ask for an aggregate around it
          return Math.max(n, 1);
        }
        // An undotted unknown name in outcome: is most likely a misspelt aggregate.
        const s = suggest(v.name, AGGREGATE_NAMES);
        c.report(
          'error',
          `Unknown aggregate ${v.name}${s.length ? `. Did you mean ${s[0]}?` : ''} (aggregates: ${AGGREGATE_NAMES.join(', ')})`,
          v.nameSpan.start,
          v.nameSpan.end,
          'bad-aggregate',
          s.length ? { replacements: s } : undefined,
        );
        for (const a of v.args) outcomeValue(c, a, true);
        return 1;
      }
      let n = 0;
      for (const a of v.args) n += outcomeValue(c, a, insideAggregate);
      // the arguments were visited above
      checkCall(c, v, false);
      // window.range(network.sent_bytes, false) is computed over the group, as an aggregate is
      return groupFunctionOf(v) ? Math.max(n, 1) : n;
    }
    case 'arith': {
      let n = outcomeValue(c, v.left, insideAggregate);
      if (v.right) n += outcomeValue(c, v.right, insideAggregate);
      return n;
    }
    case 'variable':
      outcomeArg(c, v, insideAggregate);
      return 0;
    default:
      operand(c, v);
      return 0;
  }
}

export function checkAggregate(c: CheckContext, call: CallNode): void {
  const agg = findAggregate(call.name)!;
  if (call.args.length !== 1) {
    c.report('error', `${agg.name} takes 1 argument, got ${call.args.length}`, call.start, call.end, 'arity');
  }
  for (const a of call.args) {
    if (a.type === 'call' && isAggregateCall(a)) {
      outcomeValue(c, a, true);
      continue;
    }
    const f = a.type === 'call' || a.type === 'arith' ? (outcomeValue(c, a, true), undefined) : outcomeArg(c, a, true);
    if (f && !f.unknown && agg.params[0].type === 'number' && f.kind !== 'number' && f.kind !== 'unknown') {
      c.report(
        'error',
        `${agg.name} needs a numeric field; ${f.key} is ${article(f)}`,
        a.start,
        a.end,
        'type-mismatch',
      );
    }
  }
}

export function outcomeArg(c: CheckContext, a: Operand, insideAggregate = false): FieldFacts | undefined {
  if (a.type === 'variable') {
    if (!checkValueVariable(c, a)) return undefined;
    if (insideAggregate && !c.placeholders.has(a.name)) {
      c.report(
        'error',
        `$${a.name} is an outcome variable, one value per detection; an aggregate takes event values: use $${a.name} outside the aggregate`,
        a.start,
        a.end,
        'outcome-in-aggregate',
      );
      return undefined;
    }
    return operand(c, a);
  }
  if (a.type === 'field') return resolveField(c, a);
  if (a.type === 'call') {
    checkCall(c, a);
    return undefined;
  }
  return undefined;
}

/** True when an outcome value reads event fields (directly or through a filter placeholder) outside any aggregate. */
export function eventValueOutsideAggregate(
  v: Operand,
  placeholders: Map<string, AssignExpr>,
  groupNames: Set<string>,
): boolean {
  const walk = (op: Operand | null): boolean => {
    if (!op) return false;
    switch (op.type) {
      case 'field':
        return true;
      case 'variable':
        return placeholders.has(op.name) && !groupNames.has(op.name);
      case 'call':
        return !isAggregateCall(op) && !groupFunctionOf(op) && op.args.some(walk);
      case 'arith':
        return walk(op.left) || walk(op.right);
      case 'array':
        return op.items.some(walk);
      case 'condition':
        return exprOperands(op.expr).some(walk);
      default:
        return false;
    }
  };
  return walk(v);
}

/**
 * outcome: names new variables; with match: each value aggregates its group, without it the values
 * are all per event or all aggregates. A value may read the outcome variables assigned above it.
 */
export function checkOutcomeSection(
  c: CheckContext,
  outcome: OutcomeSection,
  match: MatchSection | undefined,
  groupNames: Set<string>,
  outcomeNames: Set<string>,
): void {
  // Without match:, outcome: is one row per event (plain values) or one row for all events
  // (aggregates), never both.
  let aggregated: OutcomeItem | undefined;
  const plain: OutcomeItem[] = [];
  if (outcome.outcomes.length === 0)
    c.report(
      'error',
      'outcome: needs at least one $name = aggregate(...)',
      outcome.keyword.start,
      outcome.keyword.end,
      'empty-section',
    );
  c.outcomeItems.clear();
  c.outcomesAbove.clear();
  for (const o of outcome.outcomes) if (!c.outcomeItems.has(o.variable.name)) c.outcomeItems.set(o.variable.name, o);
  for (const o of outcome.outcomes) {
    const kind = checkOutcomeItem(c, o, match, groupNames, outcomeNames);
    if (kind.aggregates) aggregated ??= o;
    if (kind.perEvent) plain.push(o);
    c.outcomesAbove.add(o.variable.name);
  }
  c.outcomeItems.clear();
  c.outcomesAbove.clear();
  if (!match && aggregated) {
    const agg = aggregated;
    for (const o of plain)
      c.report(
        'error',
        o === agg
          ? `Without match:, an outcome is one value per event or one aggregate over all events, not both: $${o.variable.name} mixes a per-event value with an aggregate. Add a match: section to group by, or put the per-event value inside the aggregate`
          : `Without match:, outcome: gives one row per event (plain values) or one row for all events (aggregates), not both: $${o.variable.name} is a per-event value and $${agg.variable.name} an aggregate. Add a match: section to group by, or wrap the value of $${o.variable.name} in an aggregate such as max(...) or array_distinct(...)`,
        o.value!.start,
        o.value!.end,
        'mixed-outcome',
      );
  }
}

/** One `$name = value` of outcome:; says whether its value aggregates and whether it reads events outside an aggregate. */
function checkOutcomeItem(
  c: CheckContext,
  o: OutcomeItem,
  match: MatchSection | undefined,
  groupNames: Set<string>,
  outcomeNames: Set<string>,
): { aggregates: boolean; perEvent: boolean } {
  if (outcomeNames.has(o.variable.name) || groupNames.has(o.variable.name)) {
    c.report('error', `$${o.variable.name} is already defined`, o.variable.start, o.variable.end, 'duplicate-variable');
  } else if (c.placeholders.has(o.variable.name)) {
    c.report(
      'error',
      `$${o.variable.name} is already a placeholder of the filter; choose another name`,
      o.variable.start,
      o.variable.end,
      'duplicate-variable',
    );
  }
  outcomeNames.add(o.variable.name);
  checkVariableName(c, o.variable);
  if (!o.value) return { aggregates: false, perEvent: false };
  const aggregates = outcomeValue(c, o.value, false);
  const perEvent = eventValueOutsideAggregate(o.value, c.placeholders, groupNames);
  if (match && perEvent) {
    c.report(
      'error',
      `With match:, an outcome aggregates each group: wrap the value in an aggregate such as max(...) or array_distinct(...)`,
      o.value.start,
      o.value.end,
      'missing-aggregate',
    );
  }
  return { aggregates: aggregates > 0, perEvent };
}
