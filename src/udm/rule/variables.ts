// Where a rule's variables stand: event variables (`$e.` before a field), placeholders (`$p`
// bound in events:), match: keys, outcome variables, and their uses in every section. The
// checks, go to definition, find references, hover and the outline read this one table.
import type { Query, Section, Span } from '../ast';

export type VariableRole = 'event' | 'placeholder' | 'outcome' | 'unknown';

/** One written occurrence of a variable name. */
export interface VariableUse extends Span {
  name: string;
  /** `$e.` before a field, `#e`, `$e` alone, or a placeholder/outcome value */
  form: 'field' | 'count' | 'exists' | 'value' | 'pivot';
  /** the section it stands in; `events` for the filter */
  section: 'events' | Section['kind'];
  /** true for an outcome definition (`$x =` at the start of an outcome item) */
  defines?: boolean;
  /** the span of the `!` when the use is `!$e` in condition: */
  negated?: boolean;
}

export interface RuleVariable {
  name: string;
  role: VariableRole;
  /** where it is declared: first use in events:, or the outcome item */
  declaration: VariableUse | undefined;
  uses: VariableUse[];
}

export interface RuleVariables {
  byName: Map<string, RuleVariable>;
  uses: VariableUse[];
  /** names used as `$e.field` in events: */
  events: Set<string>;
  /** names bound as values in events: (that are not event variables) */
  placeholders: Set<string>;
  outcomes: Set<string>;
}

type AnyNode = Record<string, unknown>;

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null;
}

/** Every variable occurrence below `node`, in source order of the walk. */
function collect(node: unknown, section: VariableUse['section'], out: VariableUse[], key = ''): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, section, out, key);
    return;
  }
  if (!isNode(node)) return;
  const type = node.type;
  if (type === 'variable') {
    const span = node as unknown as Span & { name: string };
    const form: VariableUse['form'] = key === 'eventVar' ? 'field' : key === 'pivotVar' ? 'pivot' : 'value';
    out.push({ name: span.name, start: span.start, end: span.end, form, section });
    return;
  }
  if (type === 'count') {
    const c = node as unknown as Span & { name: string };
    out.push({ name: c.name, start: c.start, end: c.end, form: 'count', section });
    return;
  }
  if (type === 'exists') {
    const v = (node as { variable: Span & { name: string } }).variable;
    out.push({ name: v.name, start: v.start, end: v.end, form: 'exists', section });
    return;
  }
  if (type === 'not' && isNode(node.expr) && node.expr.type === 'exists') {
    const v = (node.expr as { variable: Span & { name: string } }).variable;
    out.push({ name: v.name, start: v.start, end: v.end, form: 'exists', section, negated: true });
    return;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === 'keyword' || k === 'nameSpan' || k === 'opSpan' || k === 'open' || k === 'close') continue;
    if (k === 'pivot' && isNode(v)) {
      collect(v.variable, section, out, 'pivotVar');
      continue;
    }
    if (isNode(v) || Array.isArray(v)) collect(v, section, out, k);
  }
}

export function ruleVariables(query: Query): RuleVariables {
  const uses: VariableUse[] = [];
  collect(query.filter, 'events', uses);
  for (const s of query.sections) {
    if (s.kind === 'outcome') {
      for (const item of s.outcomes) {
        uses.push({
          name: item.variable.name,
          start: item.variable.start,
          end: item.variable.end,
          form: 'value',
          section: 'outcome',
          defines: true,
        });
        collect(item.value, 'outcome', uses);
      }
    } else collect(s, s.kind, uses);
  }
  uses.sort((a, b) => a.start - b.start);
  const events = new Set<string>();
  const placeholders = new Set<string>();
  const outcomes = new Set<string>();
  for (const u of uses) {
    if (u.section === 'events' && u.form === 'field') events.add(u.name);
    if (u.section === 'outcome' && u.defines) outcomes.add(u.name);
  }
  for (const u of uses)
    if (u.section === 'events' && u.form === 'value' && !events.has(u.name)) placeholders.add(u.name);
  const byName = new Map<string, RuleVariable>();
  for (const u of uses) {
    let v = byName.get(u.name);
    if (!v) {
      const role: VariableRole = events.has(u.name)
        ? 'event'
        : placeholders.has(u.name)
          ? 'placeholder'
          : outcomes.has(u.name)
            ? 'outcome'
            : 'unknown';
      v = { name: u.name, role, declaration: undefined, uses: [] };
      byName.set(u.name, v);
    }
    v.uses.push(u);
    if (!v.declaration) {
      if ((v.role === 'event' || v.role === 'placeholder') && u.section === 'events') v.declaration = u;
      if (v.role === 'outcome' && u.defines) v.declaration = u;
    }
  }
  return { byName, uses, events, placeholders, outcomes };
}

/** The variable written at `offset` (on its `$`/`#` or name), if any. */
export function variableAt(
  vars: RuleVariables,
  offset: number,
): { variable: RuleVariable; use: VariableUse } | undefined {
  for (const u of vars.uses) {
    if (offset >= u.start && offset <= u.end) {
      const variable = vars.byName.get(u.name);
      if (variable) return { variable, use: u };
    }
    if (u.start > offset) break;
  }
  return undefined;
}
