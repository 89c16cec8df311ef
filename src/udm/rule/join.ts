// Joins the variables' events into rows: one event per variable (or none for a variable the
// condition lets be missing, `!$e`), one value per placeholder, every binding and cross-variable
// statement holding. Placeholders are hash joins; the match window bounds how far apart in time a
// row's events may be. Every step, every combination of placeholder values and every statement
// tested spends the run's one work budget (work.ts), so a large or hostile test cannot hang the
// editor.
import type { EventPredicate } from '../evaluate';
import type { RowCompiler, RowEnv } from './compile';
import type { RuleModel, WindowSpec } from './model';
import type { PreparedEvent, PreparedVariable } from './prepare';
import { lowerBound } from './sorted';
import type { WorkBudget } from './work';

export interface Row {
  /** per variable, in JoinResult.order; undefined for a missing one */
  events: Array<PreparedEvent | undefined>;
  /** placeholder → its value in this row */
  ph: Record<string, unknown>;
  keys: Record<string, string>;
  minT: number;
  maxT: number;
}

export interface JoinResult {
  order: string[];
  rows: Row[];
  /** where the join stopped, when the budget (or the row cap) stopped it: "The join stopped …" */
  cut?: string;
}

interface Ready {
  test: EventPredicate;
  vars: string[];
}

/** Variables in join order: the pivot first, then each one sharing a placeholder with those before, optional last. */
function joinOrder(vars: PreparedVariable[], optional: Set<string>, pivot: string | undefined): PreparedVariable[] {
  const rest = [...vars];
  const out: PreparedVariable[] = [];
  const take = (v: PreparedVariable): void => {
    out.push(v);
    rest.splice(rest.indexOf(v), 1);
  };
  const start = rest.find((v) => v.name === pivot) ?? rest.find((v) => !optional.has(v.name)) ?? rest[0];
  if (start) take(start);
  while (rest.length) {
    const bound = new Set(out.flatMap((v) => v.placeholders));
    const shares = (v: PreparedVariable): boolean => v.placeholders.some((p) => bound.has(p));
    const next =
      rest.find((v) => !optional.has(v.name) && shares(v)) ??
      rest.find((v) => !optional.has(v.name)) ??
      rest.find(shares) ??
      rest[0];
    take(next);
  }
  return out;
}

/**
 * The time range a row's next event may fall in, given the events so far: a row fits in one
 * window, so its events lie at most the window's duration apart (within one bucket for `by`).
 */
function timeBounds(window: WindowSpec | undefined, minT: number, maxT: number): [number, number] {
  if (!window || minT > maxT) return [-Infinity, Infinity];
  const d = window.duration;
  if (window.kind === 'tumbling') {
    const start = Math.floor(minT / d) * d;
    return [start, start + d - 1];
  }
  return [maxT - d, minT + d];
}

/** Each cross statement, at the depth of the join where its variables and placeholders are all in the row. */
function crossTestsByDepth(model: RuleModel, compiler: RowCompiler, ordered: PreparedVariable[]): Ready[][] {
  const order = ordered.map((v) => v.name);
  const firstBinder = new Map<string, number>();
  ordered.forEach((v, d) => v.placeholders.forEach((p) => firstBinder.has(p) || firstBinder.set(p, d)));
  const readyAt: Ready[][] = ordered.map(() => []);
  for (const c of model.cross) {
    if ([...c.vars].some((v) => !order.includes(v))) continue;
    let at = 0;
    for (const v of c.vars) at = Math.max(at, order.indexOf(v));
    for (const p of c.placeholders) at = Math.max(at, firstBinder.get(p) ?? ordered.length - 1);
    readyAt[at].push({ test: compiler.compileExpr(c.expr), vars: [...c.vars] });
  }
  return readyAt;
}

export function joinRows(
  model: RuleModel,
  compiler: RowCompiler,
  vars: PreparedVariable[],
  optional: Set<string>,
  work: WorkBudget,
  maxRows: number,
): JoinResult {
  const pivot = model.window?.kind === 'sliding' ? model.window.pivot?.variable : undefined;
  const ordered = joinOrder(vars, optional, pivot);
  const order = ordered.map((v) => v.name);
  const n = ordered.length;
  const rows: Row[] = [];
  const result: JoinResult = { order, rows };
  if (n === 0 || ordered.some((v) => v.events.length === 0 && !optional.has(v.name))) return result;

  const readyAt = crossTestsByDepth(model, compiler, ordered);
  const assigned = new Array<PreparedEvent | undefined>(n).fill(undefined);
  // Maps, not objects: keys come and go on every step, which would turn an object into a slow dictionary.
  const phKey = new Map<string, string>();
  const phVal = new Map<string, unknown>();
  const env: RowEnv = { events: {}, ph: {} };
  let combinations = 0;
  let stopped = false;
  const stop = (where: string): void => {
    stopped = true;
    result.cut = where;
  };
  const fmt = (n: number): string => n.toLocaleString('en-US');

  const holds = (d: number): boolean => {
    if (readyAt[d].length === 0) return true;
    if (!work.spend(readyAt[d].length)) {
      stop(`The join stopped after ${fmt(combinations)} combinations of $${order[d]}'s placeholder values`);
      return false;
    }
    env.events = {};
    env.ph = {};
    for (let i = 0; i <= d; i++) if (assigned[i]) env.events[order[i]] = assigned[i]!.udm;
    for (const [k, v] of phVal) env.ph[k] = [v];
    for (const r of readyAt[d]) {
      // A statement about a missing variable does not apply.
      if (r.vars.some((v) => env.events[v] === undefined)) continue;
      try {
        if (!r.test(env)) return false;
      } catch {
        return false;
      }
    }
    return true;
  };

  const emit = (minT: number, maxT: number): void => {
    if (minT > maxT) return; // no event at all
    if (rows.length >= maxRows) {
      // A memory cap, not the budget: the windows still run over the rows found.
      stop(`The join stopped at its cap of ${fmt(maxRows)} rows of joined events`);
      return;
    }
    const ph: Record<string, unknown> = {};
    const keys: Record<string, string> = {};
    for (const [k, v] of phKey) {
      keys[k] = v;
      ph[k] = phVal.get(k);
    }
    rows.push({ events: assigned.slice(), ph, keys, minT, maxT });
  };

  /** Gives the event's placeholders not bound yet each of their values in turn, then goes on to the next variable. */
  const bindRest = (d: number, e: PreparedEvent, unbound: string[], u: number, minT: number, maxT: number): void => {
    if (stopped) return;
    if (!work.spend()) {
      stop(`The join stopped after ${fmt(combinations)} combinations of $${order[d]}'s placeholder values`);
      return;
    }
    if (u === unbound.length) {
      combinations++;
      if (holds(d)) rec(d + 1, Math.min(minT, e.t), Math.max(maxT, e.t));
      return;
    }
    const p = unbound[u];
    const { keys, values } = e.values.get(p)!;
    for (let k = 0; k < keys.length && !stopped; k++) {
      phKey.set(p, keys[k]);
      phVal.set(p, values[k]);
      bindRest(d, e, unbound, u + 1, minT, maxT);
    }
    phKey.delete(p);
    phVal.delete(p);
  };

  const rec = (d: number, minT: number, maxT: number): void => {
    if (stopped) return;
    if (d === n) return emit(minT, maxT);
    const v = ordered[d];
    const shared = v.placeholders.filter((p) => phKey.has(p));
    const unbound = v.placeholders.filter((p) => !phKey.has(p));
    let list = v.events;
    for (const p of shared) {
      const l = v.index.get(p)?.get(phKey.get(p)!) ?? [];
      if (l.length < list.length || p === shared[0]) list = l;
    }
    const [lo, hi] = timeBounds(model.window, minT, maxT);
    for (let i = lowerBound(list, lo, (e) => e.t); i < list.length && list[i].t <= hi; i++) {
      if (!work.spend()) {
        stop(`The join stopped after ${fmt(rows.length)} rows, at an event of $${v.name}`);
        return;
      }
      const e = list[i];
      if (!shared.every((p) => e.values.get(p)!.keys.includes(phKey.get(p)!))) continue;
      assigned[d] = e;
      bindRest(d, e, unbound, 0, minT, maxT);
      if (stopped) return;
    }
    assigned[d] = undefined;
    if (optional.has(v.name) && holds(d)) rec(d + 1, minT, maxT);
  };
  rec(0, Infinity, -Infinity);
  return result;
}
