// outcome: and condition: over one candidate detection: its rows (joined events), the distinct
// events of each variable, and the match values. Aggregates run over the events of the variable
// their argument reads (over the rows when it reads several, or none); the rest is arithmetic,
// functions and comparisons of those results.
import { isAggregateCall, isIfCall, type AggregateName, type CompareOp, type Expr, type Operand } from '../ast';
import { findFunction, toNum, toStr } from '../functions';
import { createAccumulator } from '../functions/aggregates';
import type { RowCompiler, RowEnv } from './compile';
import type { Row } from './join';
import { refsOf, uncomputedCall, type RuleModel } from './model';
import type { PreparedEvent } from './prepare';

export interface Candidate {
  rows: Row[];
  /** variable → its distinct events in the rows, in time order */
  events: Map<string, PreparedEvent[]>;
  match: Record<string, unknown>;
}

export interface Evaluation {
  outcomes: Record<string, unknown>;
  /** outcome variables and condition parts left out, said plainly (entity data) */
  notComputed: Set<string>;
}

/** Rows and events of a candidate, read by outcome: and condition:. */
export class DetectionEvaluator {
  private readonly readers = new Map<Operand, (env: RowEnv) => unknown[]>();
  private readonly graph: Set<string>;
  /** outcome variables the test does not compute (entity data, metrics) */
  private readonly skipped = new Set<string>();

  constructor(
    private readonly model: RuleModel,
    private readonly compiler: RowCompiler,
    private readonly order: string[],
  ) {
    this.graph = new Set(model.graphVars);
  }

  private reader(op: Operand): (env: RowEnv) => unknown[] {
    let r = this.readers.get(op);
    if (!r) this.readers.set(op, (r = this.compiler.values(op)));
    return r;
  }

  private rowEnv(row: Row | undefined, names: Record<string, unknown>): RowEnv {
    const env: RowEnv = { events: {}, ph: {} };
    for (const [k, v] of Object.entries(names)) env.ph[k] = v === undefined || v === null ? [] : [v];
    if (!row) return env;
    row.events.forEach((e, i) => {
      if (e) env.events[this.order[i]] = e.udm;
    });
    for (const [k, v] of Object.entries(row.ph)) env.ph[k] = [v];
    return env;
  }

  /** The outcome: variables in order (each may read the ones before it). */
  outcomes(c: Candidate, ev: Evaluation): Record<string, unknown> {
    const names: Record<string, unknown> = { ...c.match };
    for (const item of this.model.outcomes) {
      if (!item.value) continue;
      const refs = refsOf(item.value);
      if ([...refs.vars].some((v) => this.graph.has(v))) {
        ev.notComputed.add(`$${item.variable.name} reads entity data and is not computed.`);
        this.skipped.add(item.variable.name);
        continue;
      }
      const uncomputed = uncomputedCall(item.value);
      if (uncomputed) {
        ev.notComputed.add(`$${item.variable.name} uses ${uncomputed} and is not computed.`);
        this.skipped.add(item.variable.name);
        continue;
      }
      const value = this.value(item.value, c, names);
      ev.outcomes[item.variable.name] = value;
      names[item.variable.name] = value;
    }
    return ev.outcomes;
  }

  private value(op: Operand, c: Candidate, names: Record<string, unknown>): unknown {
    if (isAggregateCall(op) && op.type === 'call') return this.aggregate(op.name, op.args[0], c, names);
    switch (op.type) {
      case 'number':
      case 'bool':
        return op.value;
      case 'string':
        return op.value;
      case 'variable':
        return op.name in names ? names[op.name] : c.rows[0]?.ph[op.name];
      case 'count':
        return this.count(op.name, c);
      case 'arith': {
        const a = toNum(this.value(op.left, c, names));
        const b = op.right ? toNum(this.value(op.right, c, names)) : NaN;
        return arith(op.op, a, b);
      }
      case 'condition':
        return this.holds(op.expr, c, names);
      case 'call':
        if (hasAggregate(op)) return this.callOverAggregates(op, c, names);
        break;
      default:
        break;
    }
    // No aggregate: a value of the row (a rule without match: has one row per detection).
    const read = this.reader(op)(this.rowEnv(c.rows[0], names));
    return read.length === 0 ? null : read.length === 1 ? read[0] : read;
  }

  private callOverAggregates(
    op: Extract<Operand, { type: 'call' }>,
    c: Candidate,
    names: Record<string, unknown>,
  ): unknown {
    if (isIfCall(op)) {
      const [cond, then, otherwise] = op.args;
      const ok = cond?.type === 'condition' ? this.holds(cond.expr, c, names) : toNum(this.value(cond, c, names)) !== 0;
      if (op.args.length === 1) return ok;
      return ok ? this.value(then, c, names) : otherwise ? this.value(otherwise, c, names) : null;
    }
    const fn = findFunction(op.name);
    if (!fn) return null;
    try {
      return fn.impl(op.args.map((a) => this.value(a, c, names))) ?? null;
    } catch {
      return null;
    }
  }

  private aggregate(name: string, arg: Operand | undefined, c: Candidate, names: Record<string, unknown>): unknown {
    const acc = createAccumulator(name.toLowerCase() as AggregateName);
    if (!arg) {
      for (let i = 0; i < c.rows.length; i++) acc.add(1);
      return acc.result();
    }
    const refs = refsOf(arg);
    const read = this.reader(arg);
    const add = (env: RowEnv): void => {
      for (const v of read(env)) if (v !== undefined && v !== null) acc.add(v);
    };
    if (refs.vars.size === 1 && refs.placeholders.size === 0) {
      // Over the variable's events, each once, however many rows it joins.
      const v = [...refs.vars][0];
      const env: RowEnv = { events: {}, ph: {} };
      for (const e of c.events.get(v) ?? []) {
        env.events[v] = e.udm;
        add(env);
      }
    } else {
      for (const row of c.rows) add(this.rowEnv(row, names));
    }
    return acc.result();
  }

  /** `#e`: the variable's distinct events; `#p` for a placeholder: its distinct values. */
  private count(name: string, c: Candidate): number {
    const events = c.events.get(name);
    if (events) return events.length;
    if (this.order.includes(name)) return 0;
    const seen = new Set<string>();
    for (const r of c.rows) if (name in r.keys) seen.add(r.keys[name]);
    return seen.size;
  }

  /** condition: (and the conditions inside outcome's `if`). */
  holds(e: Expr | null, c: Candidate, names: Record<string, unknown>, ev?: Evaluation): boolean {
    if (!e) return true;
    switch (e.type) {
      case 'and':
        return e.items.every((i) => this.holds(i, c, names, ev));
      case 'or':
        return e.items.some((i) => this.holds(i, c, names, ev));
      case 'not':
        if (e.expr.type === 'exists' && this.graph.has(e.expr.variable.name)) {
          ev?.notComputed.add(`'!$${e.expr.variable.name}' in condition: needs entity data and is taken as met.`);
          return true;
        }
        return !this.holds(e.expr, c, names, ev);
      case 'exists':
        if (this.graph.has(e.variable.name)) {
          ev?.notComputed.add(`'$${e.variable.name}' in condition: needs entity data and is taken as met.`);
          return true;
        }
        return this.count(e.variable.name, c) > 0;
      case 'compare': {
        if (!e.right) return false;
        const graphCount = [e.left, e.right].find((o) => o.type === 'count' && this.graph.has(o.name));
        if (graphCount?.type === 'count') {
          ev?.notComputed.add(`'#${graphCount.name}' in condition: needs entity data and is taken as met.`);
          return true;
        }
        const skipped = [e.left, e.right].find((o) => o.type === 'variable' && this.skipped.has(o.name));
        if (skipped?.type === 'variable') {
          ev?.notComputed.add(`'$${skipped.name}' in condition: not computed, so the comparison is taken as met.`);
          return true;
        }
        return compare(this.value(e.left, c, names), e.op, this.value(e.right, c, names), !!e.nocase);
      }
      default:
        return false;
    }
  }
}

function hasAggregate(op: Operand | null | undefined): boolean {
  if (!op) return false;
  if (isAggregateCall(op)) return true;
  switch (op.type) {
    case 'call':
      return op.args.some(hasAggregate);
    case 'arith':
      return hasAggregate(op.left) || hasAggregate(op.right);
    case 'condition':
      return exprHasAggregate(op.expr);
    default:
      return false;
  }
}

function exprHasAggregate(e: Expr): boolean {
  switch (e.type) {
    case 'compare':
      return hasAggregate(e.left) || hasAggregate(e.right);
    case 'and':
    case 'or':
      return e.items.some(exprHasAggregate);
    case 'not':
      return exprHasAggregate(e.expr);
    default:
      return false;
  }
}

function arith(op: string, a: number, b: number): number | null {
  let r: number;
  switch (op) {
    case '+':
      r = a + b;
      break;
    case '-':
      r = a - b;
      break;
    case '*':
      r = a * b;
      break;
    case '/':
      r = a / b;
      break;
    default:
      r = a % b;
  }
  return Number.isFinite(r) ? r : null;
}

function isNumeric(v: unknown): boolean {
  return typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
}

/** `x op y` for two numbers or two strings. */
function holds<T extends number | string>(x: T, op: CompareOp, y: T): boolean {
  switch (op) {
    case '=':
      return x === y;
    case '!=':
      return x !== y;
    case '>':
      return x > y;
    case '>=':
      return x >= y;
    case '<':
      return x < y;
    default:
      return x <= y;
  }
}

export function compare(a: unknown, op: CompareOp, b: unknown, nocase = false): boolean {
  if (Array.isArray(a)) return a.some((x) => compare(x, op, b, nocase));
  if ((typeof a === 'number' || typeof b === 'number') && isNumeric(a) && isNumeric(b))
    return holds(Number(a), op, Number(b));
  if (a === null || a === undefined || b === null || b === undefined) {
    if (op === '=') return (a ?? null) === (b ?? null);
    if (op === '!=') return (a ?? null) !== (b ?? null);
    return false;
  }
  const x = toStr(a);
  const y = toStr(b);
  return nocase ? holds(x.toLowerCase(), op, y.toLowerCase()) : holds(x, op, y);
}
