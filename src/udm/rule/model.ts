// What Test Rule needs to know of a rule, read from its tree: the event and entity variables, each
// event variable's own filter statements, the placeholder bindings that join variables, the
// statements that compare several variables, the match keys and window, outcome:, condition: and
// the options that change detections. Shared by the plan (plan.ts) and the engine (engine.ts).
import {
  childrenOf,
  sectionsByKind,
  type Expr,
  type FieldNode,
  type MatchWindow,
  type Operand,
  type OutcomeItem,
  type VariableNode,
} from '../ast';
import { RULES_ONLY_NAMESPACES } from '../functions';
import type { RuleNode } from './ast';

/** `$p = $e.field` or `$e.field = $p` (either way round): placeholder `p` takes the operand's values on `$e`. */
export interface Binding {
  placeholder: string;
  variable: string;
  value: Operand;
}

/** A statement of events: that reads several variables, or placeholders: computed on joined events. */
export interface CrossCondition {
  expr: Expr;
  /** event variables the statement reads directly */
  vars: Set<string>;
  /** placeholders it reads */
  placeholders: Set<string>;
}

export interface WindowSpec {
  kind: 'hop' | 'sliding' | 'tumbling';
  /** milliseconds */
  duration: number;
  pivot?: { variable: string; kind: 'after' | 'before' };
}

export interface MatchKey {
  /** the name a detection's `match` uses: the placeholder without `$`, or a field as written */
  name: string;
  /** the placeholder whose value is the key (a synthetic one for a field key) */
  placeholder: string;
}

export interface RuleModel {
  rule: RuleNode;
  name: string;
  /** event variables in the order the events: section first names them */
  eventVars: string[];
  /** entity (`graph.`) variables */
  graphVars: string[];
  /** each event variable's own statements (no placeholder, no other variable) */
  filters: Map<string, Expr[]>;
  bindings: Binding[];
  cross: CrossCondition[];
  /** placeholders bound only through entity variables: their values are unknown */
  graphPlaceholders: Set<string>;
  match: MatchKey[];
  hasMatch: boolean;
  window: WindowSpec | undefined;
  outcomes: OutcomeItem[];
  condition: Expr | null;
  allowZeroValues: boolean;
  /** options: suppression_window, ms */
  suppressionWindow?: number;
  /** what the test leaves out, in plain sentences */
  untestable: string[];
}

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 } as const;

/** Event variables (`$e.` prefixes) and placeholders (`$p`) an expression or operand reads. */
export interface Refs {
  vars: Set<string>;
  placeholders: Set<string>;
  fields: FieldNode[];
  aggregates: number;
}

export function refsOf(node: Expr | Operand | null | undefined, into?: Refs): Refs {
  const r = into ?? { vars: new Set(), placeholders: new Set(), fields: [], aggregates: 0 };
  if (!node) return r;
  if (node.type === 'field') {
    if (node.eventVar) r.vars.add(node.eventVar.name);
    r.fields.push(node);
  } else if (node.type === 'variable') r.placeholders.add(node.name);
  else if (node.type === 'assign') r.placeholders.add(node.variable.name);
  for (const child of childrenOf(node)) refsOf(child, r);
  return r;
}

/**
 * The first call to a rules-only function (metrics.*, hash.*, optimization.*) in a node: they need
 * SecOps' precomputed metrics or are not evaluated in the editor, so what uses them is not computed.
 */
export function uncomputedCall(node: Expr | Operand | null | undefined): string | undefined {
  const calls: string[] = [];
  const visit = (n: Expr | Operand | null | undefined): void => {
    if (!n) return;
    if (n.type === 'call') {
      calls.push(n.name);
      n.args.forEach(visit);
    } else if (n.type === 'callExpr') visit(n.call);
    else if (n.type === 'arith') {
      visit(n.left);
      visit(n.right);
    } else if (n.type === 'condition') visit(n.expr);
    else if (n.type === 'compare') {
      visit(n.left);
      visit(n.right);
    } else if (n.type === 'in') visit(n.left);
    else if (n.type === 'assign') visit(n.value);
    else if (n.type === 'and' || n.type === 'or') n.items.forEach(visit);
    else if (n.type === 'not') visit(n.expr);
  };
  visit(node);
  return calls.find((c) => RULES_ONLY_NAMESPACES.includes(c.split('.')[0].toLowerCase()));
}

/** The top-level statements of events: (lines and `and` are the same conjunction). */
export function statementsOf(filter: Expr | null): Expr[] {
  if (!filter) return [];
  return filter.type === 'and' ? filter.items : [filter];
}

function isGraphField(f: FieldNode): boolean {
  const first = f.segments[0]?.name === 'udm' ? f.segments[1] : f.segments[0];
  return !!f.eventVar && first?.name === 'graph';
}

/** One variable, no placeholder: the operand can define a placeholder on that variable. */
function singleVar(op: Operand | null): string | undefined {
  if (!op) return undefined;
  const r = refsOf(op);
  return r.vars.size === 1 && r.placeholders.size === 0 ? [...r.vars][0] : undefined;
}

/** The bindings a statement makes, or undefined when it is not a binding. */
function bindingsOf(stmt: Expr, joinName: () => string): Binding[] | undefined {
  if (stmt.type === 'assign') {
    const v = singleVar(stmt.value);
    return v ? [{ placeholder: stmt.variable.name, variable: v, value: stmt.value }] : undefined;
  }
  if (stmt.type !== 'compare' || stmt.op !== '=' || stmt.nocase || stmt.quantifier || !stmt.right) return undefined;
  const { left, right } = stmt;
  if (left.type === 'variable' || right.type === 'variable') {
    const ph = (left.type === 'variable' ? left : right) as VariableNode;
    const other = left.type === 'variable' ? right : left;
    const v = singleVar(other);
    return v ? [{ placeholder: ph.name, variable: v, value: other }] : undefined;
  }
  // `$e1.principal.ip = $e2.target.ip`: a join on an unnamed placeholder.
  const a = singleVar(left);
  const b = singleVar(right);
  if (!a || !b || a === b) return undefined;
  const name = joinName();
  return [
    { placeholder: name, variable: a, value: left },
    { placeholder: name, variable: b, value: right },
  ];
}

function windowOf(w: MatchWindow | undefined, untestable: string[]): WindowSpec | undefined {
  if (!w) return undefined;
  if (!w.unit || w.unit === 'month') {
    untestable.push(
      `The match window '${w.raw}' is not computed: the test groups each match value over the whole range.`,
    );
    return undefined;
  }
  const duration = w.size * UNIT_MS[w.unit];
  if (w.kind === 'by') return { kind: 'tumbling', duration };
  if (w.pivot) return { kind: 'sliding', duration, pivot: { variable: w.pivot.variable.name, kind: w.pivot.kind } };
  return { kind: 'hop', duration };
}

const DURATION_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function optionsOf(rule: RuleNode, untestable: string[]): { allowZeroValues: boolean; suppressionWindow?: number } {
  let allowZeroValues = false;
  let suppressionWindow: number | undefined;
  for (const item of rule.options?.items ?? []) {
    const key = item.key.name.toLowerCase();
    if (key === 'allow_zero_values') allowZeroValues = item.value?.type === 'bool' && item.value.value;
    else if (key === 'suppression_window') {
      const m = item.value?.type === 'enum' ? /^(\d+)([smhd])$/i.exec(item.value.name) : null;
      if (m) suppressionWindow = Number(m[1]) * DURATION_MS[m[2].toLowerCase()];
      else untestable.push('options: suppression_window is not a duration the test reads: every detection is listed.');
    }
  }
  return { allowZeroValues, ...(suppressionWindow ? { suppressionWindow } : {}) };
}

/** Sorts the statements of events: into each variable's filters, bindings and cross-variable statements. */
function classify(
  statements: Expr[],
  eventVars: string[],
  graph: Set<string>,
  text: string,
  untestable: string[],
): { filters: Map<string, Expr[]>; bindings: Binding[]; cross: CrossCondition[] } {
  const filters = new Map<string, Expr[]>(eventVars.map((v) => [v, []]));
  const bindings: Binding[] = [];
  const cross: CrossCondition[] = [];
  let joins = 0;
  const joinName = (): string => `__join${++joins}`;
  const dropped: string[] = [];
  for (const s of statements) {
    const refs = refsOf(s);
    const uncomputed = uncomputedCall(s);
    if (uncomputed) {
      untestable.push(
        `'${text.slice(s.start, s.end)}' uses ${uncomputed}, which the test does not compute: it is left out.`,
      );
      continue;
    }
    const touchesGraph = [...refs.vars].some((v) => graph.has(v));
    const bs = bindingsOf(s, joinName);
    if (bs) {
      const kept = bs.filter((b) => !graph.has(b.variable));
      // `$e.f = $g.graph.f` joins nothing the test can read: it compares with entity data.
      if (kept.length < bs.length && bs.length === 2) dropped.push(text.slice(s.start, s.end).replace(/\s+/g, ' '));
      else bindings.push(...kept);
      continue;
    }
    if (touchesGraph) {
      if ([...refs.vars].some((v) => !graph.has(v)) || refs.placeholders.size > 0)
        dropped.push(text.slice(s.start, s.end).replace(/\s+/g, ' '));
      continue;
    }
    if (refs.vars.size === 0 && refs.placeholders.size === 0) {
      untestable.push(`'${text.slice(s.start, s.end)}' names no event variable and is not computed.`);
      continue;
    }
    if (refs.vars.size === 1 && refs.placeholders.size === 0) filters.get([...refs.vars][0])!.push(s);
    else cross.push({ expr: s, vars: refs.vars, placeholders: refs.placeholders });
  }
  for (const d of dropped) untestable.push(`'${d}' compares events with entity data and is not computed.`);
  return { filters, bindings, cross };
}

/** Reads a parsed rule into what Test Rule computes. */
export function ruleModel(rule: RuleNode, text: string): RuleModel {
  const untestable: string[] = [];
  const statements = statementsOf(rule.query.filter);
  const order: string[] = [];
  const graph = new Set<string>();
  for (const s of statements)
    for (const f of refsOf(s).fields) {
      if (!f.eventVar) continue;
      const v = f.eventVar.name;
      if (!order.includes(v)) order.push(v);
      if (isGraphField(f)) graph.add(v);
    }
  const eventVars = order.filter((v) => !graph.has(v));
  const graphVars = order.filter((v) => graph.has(v));
  for (const g of graphVars)
    untestable.push(
      `$${g} reads entity data (graph.…), which the Search API does not return: the rule is tested without it, and what needs $${g} is not computed.`,
    );

  const { filters, bindings, cross } = classify(statements, eventVars, graph, text, untestable);

  const bound = new Set(bindings.map((b) => b.placeholder));
  const graphPlaceholders = new Set<string>();
  for (const s of statements) {
    const bs = bindingsOf(s, () => '__unused');
    for (const b of bs ?? [])
      if (graph.has(b.variable) && !bound.has(b.placeholder)) graphPlaceholders.add(b.placeholder);
  }
  // Cross statements reading a placeholder only entity data defines cannot be computed.
  for (let i = cross.length - 1; i >= 0; i--) {
    const c = cross[i];
    if ([...c.placeholders].some((p) => graphPlaceholders.has(p))) {
      untestable.push(
        `'${text.slice(c.expr.start, c.expr.end)}' reads a placeholder only entity data defines and is not computed.`,
      );
      cross.splice(i, 1);
    }
  }

  const sections = sectionsByKind(rule.query.sections);
  const match: MatchKey[] = [];
  let fieldKeys = 0;
  for (const key of sections.match?.keys ?? []) {
    if (key.type === 'variable') {
      if (graphPlaceholders.has(key.name))
        untestable.push(
          `The match placeholder $${key.name} takes its value from entity data only: the test groups without it.`,
        );
      else match.push({ name: key.name, placeholder: key.name });
      continue;
    }
    const v = singleVar(key);
    if (!v || graph.has(v)) {
      untestable.push(`The match key '${text.slice(key.start, key.end)}' is not computed.`);
      continue;
    }
    const placeholder = `__match${++fieldKeys}`;
    bindings.push({ placeholder, variable: v, value: key });
    match.push({ name: text.slice(key.start, key.end).replace(/^\$/, ''), placeholder });
  }
  const window = windowOf(sections.match?.window, untestable);
  if (window?.pivot && !eventVars.includes(window.pivot.variable)) {
    untestable.push(`The window's pivot $${window.pivot.variable} is not an event variable the test can read.`);
  }
  const { allowZeroValues, suppressionWindow } = optionsOf(rule, untestable);
  return {
    rule,
    name: rule.name?.name ?? 'rule',
    eventVars,
    graphVars,
    filters,
    bindings,
    cross,
    graphPlaceholders,
    match,
    hasMatch: !!sections.match,
    window,
    outcomes: sections.outcome?.outcomes ?? [],
    condition: sections.condition?.expr ?? null,
    allowZeroValues,
    ...(suppressionWindow ? { suppressionWindow } : {}),
    untestable,
  };
}
