// The search evaluator (../evaluate.ts) over a rule's joined events: a row is one event per
// variable and one value per placeholder, and `$e.field` reads the field on `$e`'s event. The same
// comparisons, functions and reference lists as udmSearch, so Test Rule filters as the search does.
import type { AssignExpr, FieldNode } from '../ast';
import type { CheckResult } from '../check';
import { check } from '../check';
import { Compiler } from '../evaluate';
import type { RuleNode } from './ast';

/** One joined row: the events by variable (absent for a missing one) and the placeholders' values. */
export interface RowEnv {
  events: Record<string, unknown>;
  ph: Record<string, unknown[]>;
}

type Visitor = ReturnType<Compiler['visitor']>;

const PLACEHOLDER_SEGMENT = '\u0000placeholder';

/** A Compiler whose "event" is a RowEnv. */
export class RowCompiler extends Compiler {
  private readonly rowVisitors = new Map<FieldNode, Visitor>();

  constructor(
    checked: CheckResult,
    referenceLists: Record<string, string[]> | undefined,
    private readonly slots: Map<FieldNode, string>,
  ) {
    super({ check: checked, referenceLists });
  }

  override visitor(node: FieldNode): Visitor {
    let v = this.rowVisitors.get(node);
    if (v) return v;
    const slot = this.slots.get(node);
    if (slot !== undefined) {
      v = (env, pred) => {
        const vals = (env as RowEnv).ph[slot];
        if (!vals || vals.length === 0) return pred(undefined);
        for (const x of vals) if (pred(x)) return true;
        return false;
      };
    } else if (node.eventVar) {
      const name = node.eventVar.name;
      const base = super.visitor(node);
      v = (env, pred) => base((env as RowEnv).events[name], pred);
    } else {
      v = (_env, pred) => pred(undefined);
    }
    this.rowVisitors.set(node, v);
    return v;
  }
}

/**
 * A compiler for the rule: fields read their variable's event, and every `$name` (placeholder,
 * match or outcome variable) reads the row's `ph[name]`.
 */
export function ruleCompiler(
  rule: RuleNode,
  text: string,
  names: Iterable<string>,
  referenceLists: Record<string, string[]> | undefined,
): RowCompiler {
  const checked = check(rule.query, { text, ...(referenceLists ? { referenceLists } : {}) });
  const placeholders = new Map<string, AssignExpr>();
  const slots = new Map<FieldNode, string>();
  for (const name of names) {
    const field: FieldNode = {
      type: 'field',
      segments: [{ name: PLACEHOLDER_SEGMENT, start: 0, end: 0 }],
      start: 0,
      end: 0,
    };
    slots.set(field, name);
    placeholders.set(name, {
      type: 'assign',
      variable: { type: 'variable', name, start: 0, end: 0 },
      value: field,
      start: 0,
      end: 0,
    });
  }
  return new RowCompiler({ ...checked, placeholders }, referenceLists, slots);
}
