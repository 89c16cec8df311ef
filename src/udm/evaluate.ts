import {
  isIfCall,
  type CallNode,
  type CompareExpr,
  type Expr,
  type FieldNode,
  type InListExpr,
  type Operand,
} from './ast';
import { fieldPathOf, type CheckResult, type FieldFacts } from './check';
import { bytesOfLiteral, cidrMatcher, findFunction, parseCidr, timestampSeconds, toNum, toStr } from './functions';
import { compileRegex, type UdmRegex } from './regex';
import { enumName, enumValues, snakeToCamel } from './schema';

import { compareValues, literalPred, numericOp, type Pred } from './predicates';

/** Calls `pred` on every value the path reaches (a missing value counts as one `undefined`); true as soon as one passes. */
type Visitor = (event: unknown, pred: Pred) => boolean;
export type EventPredicate = (event: unknown) => boolean;

export interface EvalContext {
  check: CheckResult;
  referenceLists: Record<string, string[]> | undefined;
}

// ---- field access ------------------------------------------------------------------------------

function fieldKeys(
  node: FieldNode,
  facts: FieldFacts | undefined,
): { keys: string[]; alt: (string | undefined)[]; skippable: boolean[]; indexes: (number | undefined)[] } {
  const path = fieldPathOf(node);
  const offset = node.segments.length - path.length;
  const indexes = path.map((_, i) => node.segments[i + offset].index?.value);
  const keys: string[] = [];
  const alt: (string | undefined)[] = [];
  const skippable: boolean[] = [];
  const resolved = facts?.fields ?? [];
  let freeForm = false;
  for (let i = 0; i < path.length; i++) {
    const name = path[i];
    const f = resolved[i];
    if (f && !freeForm) {
      keys.push(f.jsonName);
      alt.push(f.jsonName !== f.name ? f.name : undefined);
      skippable.push(false);
      if (f.type === 'struct') freeForm = true;
    } else if (freeForm) {
      // Struct keys are free-form: keep them verbatim. `additional.fields.x` names the Struct's
      // fields map, which the JSON rendering flattens away.
      keys.push(name);
      alt.push(undefined);
      skippable.push(name === 'fields');
    } else {
      const camel = snakeToCamel(name);
      keys.push(camel);
      alt.push(camel !== name ? name : undefined);
      skippable.push(false);
    }
  }
  return { keys, alt, skippable, indexes };
}

function makeVisitor(node: FieldNode, facts: FieldFacts | undefined): Visitor {
  const { keys, alt, skippable, indexes } = fieldKeys(node, facts);
  const n = keys.length;
  const mapKey = node.key?.value;
  const finish = (v: unknown, pred: Pred): boolean => {
    if (mapKey === undefined) {
      if (Array.isArray(v)) {
        if (v.length === 0) return pred(undefined);
        for (let k = 0; k < v.length; k++) if (pred(v[k])) return true;
        return false;
      }
      return pred(v);
    }
    if (Array.isArray(v)) {
      // repeated Label: match the entries whose key is the one asked for
      let found = false;
      for (const el of v) {
        if (el && typeof el === 'object' && (el as { key?: unknown }).key === mapKey) {
          found = true;
          if (pred((el as { value?: unknown }).value)) return true;
        }
      }
      return found ? false : pred(undefined);
    }
    if (v && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      const x =
        obj[mapKey] ??
        (obj.fields && typeof obj.fields === 'object' ? (obj.fields as Record<string, unknown>)[mapKey] : undefined);
      return finish2(x, pred);
    }
    return pred(undefined);
  };
  const finish2 = (x: unknown, pred: Pred): boolean => {
    if (Array.isArray(x)) {
      if (x.length === 0) return pred(undefined);
      for (const el of x) if (pred(el)) return true;
      return false;
    }
    return pred(x);
  };
  const walk = (v: unknown, i: number, pred: Pred): boolean => {
    for (;;) {
      if (i === n) return finish(v, pred);
      if (Array.isArray(v)) {
        if (v.length === 0) return pred(undefined);
        for (let k = 0; k < v.length; k++) if (walk(v[k], i, pred)) return true;
        return false;
      }
      if (v === null || typeof v !== 'object') {
        if (typeof v === 'string' && i === n - 1) {
          // Timestamps and durations are strings in the JSON; `.seconds` / `.nanos` read into them.
          if (keys[i] === 'seconds') return pred(timestampSeconds(v));
          if (keys[i] === 'nanos') return pred(nanosOf(v));
        }
        return pred(undefined);
      }
      const obj = v as Record<string, unknown>;
      let next = obj[keys[i]];
      if (next === undefined) {
        const a = alt[i];
        if (a !== undefined) next = obj[a];
        if (next === undefined && skippable[i]) {
          i++;
          continue;
        }
      }
      v = next;
      const ix = indexes[i];
      // `principal.ip[0]`, `about[1].hostname`: one element of a repeated field
      if (ix !== undefined) v = Array.isArray(v) ? v[ix] : ix === 0 ? v : undefined;
      i++;
    }
  };
  return (event, pred) => walk(event, 0, pred);
}

function nanosOf(v: string): number | undefined {
  const m = /\.(\d{1,9})/.exec(v);
  if (!m) return Number.isNaN(Date.parse(v)) ? undefined : 0;
  return Number(m[1].padEnd(9, '0'));
}

const MAX_COMBINATIONS = 256;
/** What an arithmetic operand without a value reads as. */
const UNSET: readonly unknown[] = [0];

// ---- compilation -------------------------------------------------------------------------------

export class Compiler {
  private readonly visitors = new Map<FieldNode, Visitor>();

  constructor(private readonly ctx: EvalContext) {}

  visitor(node: FieldNode): Visitor {
    let v = this.visitors.get(node);
    if (!v) {
      v = makeVisitor(node, this.ctx.check.facts.get(node));
      this.visitors.set(node, v);
    }
    return v;
  }

  /** True for a numeric or timestamp field of the schema: unset, it reads as 0 in arithmetic. */
  private unsetIsZero(op: Operand): boolean {
    if (op.type !== 'field') return false;
    const facts = this.ctx.check.facts.get(op);
    return !!facts && !facts.unknown && (facts.kind === 'number' || facts.kind === 'timestamp');
  }

  /** All values an operand takes for an event (fields: every element of repeated fields). */
  values(op: Operand, depth = 0): (event: unknown) => unknown[] {
    switch (op.type) {
      case 'field': {
        const visit = this.visitor(op);
        return (ev) => {
          const out: unknown[] = [];
          visit(ev, (v) => {
            if (v !== undefined) out.push(v);
            return false;
          });
          return out;
        };
      }
      case 'string':
        return () => [op.value];
      case 'number':
        return () => [op.value];
      case 'bool':
        return () => [op.value];
      case 'enum':
        return () => [op.name];
      case 'regex':
        return () => [op.pattern];
      case 'variable': {
        const def = this.ctx.check.placeholders.get(op.name);
        if (!def || depth > 20) return () => [];
        return this.values(def.value, depth + 1);
      }
      case 'call':
        return this.callValues(op, depth);
      case 'bytes': {
        const bytes = bytesOfLiteral(op.value);
        return () => [bytes];
      }
      case 'array': {
        const items = op.items.map((i) => this.values(i, depth + 1));
        return (ev) => [items.flatMap((f) => f(ev))];
      }
      case 'condition': {
        const holds = this.compileExpr(op.expr);
        return (ev) => [holds(ev)];
      }
      case 'count':
        // `#e` counts a detection's events; one event alone has no count (rules are computed per detection).
        return () => [];
      case 'arith': {
        const left = this.values(op.left, depth + 1);
        const right = op.right ? this.values(op.right, depth + 1) : () => [];
        const f = ARITH[op.op];
        const leftZero = this.unsetIsZero(op.left);
        const rightZero = !!op.right && this.unsetIsZero(op.right);
        return (ev) => {
          const out: unknown[] = [];
          // A numeric field the event does not set counts as 0, as it reads as its proto3 default
          // in comparisons (`network.received_bytes + network.sent_bytes > 100` holds on sent_bytes
          // alone). A path the schema lacks still reads no value (README, "Field paths ...").
          const l = left(ev);
          const r = right(ev);
          const ls = l.length || !leftZero ? l : UNSET;
          const rs = r.length || !rightZero ? r : UNSET;
          for (const a of ls) for (const b of rs) if (out.length < MAX_COMBINATIONS) out.push(f(toNum(a), toNum(b)));
          return out;
        };
      }
    }
  }

  /**
   * The values `values(op)` gives, handed one by one to `each` without building a list: for a
   * field, the walk itself (statistics feed 200,000 events through this). `each` may also see
   * `undefined` for a missing value, which `values` leaves out, and must return false.
   */
  eachValue(op: Operand, depth = 0): (event: unknown, each: (v: unknown) => boolean) => void {
    if (op.type === 'field') return this.visitor(op);
    if (op.type === 'variable') {
      const def = this.ctx.check.placeholders.get(op.name);
      if (def && depth <= 20) return this.eachValue(def.value, depth + 1);
    }
    const values = this.values(op, depth);
    return (ev, each) => {
      const list = values(ev);
      for (let i = 0; i < list.length; i++) each(list[i]);
    };
  }

  private callValues(call: CallNode, depth: number): (event: unknown) => unknown[] {
    if (isIfCall(call)) return this.ifValues(call, depth);
    const fn = findFunction(call.name);
    if (!fn) return () => [];
    const args = call.args.map((a) => this.values(a, depth + 1));
    if (fn.name === 'group') {
      // `$ip = group(principal.ip, about.ip)`: the placeholder takes every value of every field
      return (ev) => args.flatMap((a) => a(ev));
    }
    // A repeated field passed where an array is expected is passed whole (`arrays.length(principal.ip)`).
    const whole = call.args.map((a, i) => {
      const p = fn.params[Math.min(i, fn.params.length - 1)];
      return !!p && p.type === 'array' && (a.type === 'field' || a.type === 'variable');
    });
    const every = call.args.some((a) => a.type === 'field' && a.quantifier?.kind === 'all');
    const inner = this.combine(fn.impl, args, whole);
    if (!every) return inner;
    // `f(all principal.ip, ...)`: true only when the call holds for every element
    return (ev) => {
      const results = inner(ev);
      return [results.length > 0 && results.every((r) => r === true)];
    };
  }

  /** `if(condition)` is the condition's truth; `if(condition, then, else)` the value of one branch. */
  private ifValues(call: CallNode, depth: number): (event: unknown) => unknown[] {
    const [cond, then, otherwise] = call.args;
    if (cond?.type !== 'condition') return () => [];
    const holds = this.compileExpr(cond.expr);
    if (call.args.length === 1) return (ev) => [holds(ev)];
    if (call.args.length !== 3) return () => [];
    const a = this.values(then, depth + 1);
    const b = this.values(otherwise, depth + 1);
    return (ev) => (holds(ev) ? a(ev) : b(ev));
  }

  private combine(
    impl: (args: unknown[]) => unknown,
    args: ((event: unknown) => unknown[])[],
    whole: boolean[],
  ): (event: unknown) => unknown[] {
    const fn = { impl };
    return (ev) => {
      const lists = args.map((a, i) => {
        const vals = a(ev);
        if (whole[i]) return [vals];
        return vals.length ? vals : [undefined];
      });
      const out: unknown[] = [];
      const current: unknown[] = new Array(lists.length);
      let budget = MAX_COMBINATIONS;
      const rec = (i: number): void => {
        if (budget <= 0) return;
        if (i === lists.length) {
          budget--;
          const r = fn.impl(current.slice());
          if (r !== undefined) out.push(r);
          return;
        }
        for (const v of lists[i]) {
          current[i] = v;
          rec(i + 1);
        }
      };
      rec(0);
      return out;
    };
  }

  compileExpr(e: Expr | null): EventPredicate {
    if (!e) return () => true;
    switch (e.type) {
      case 'and': {
        const parts = byCost(e.items).map((i) => this.compileExpr(i));
        if (parts.length === 2) {
          const [a, b] = parts as [EventPredicate, EventPredicate];
          return (ev) => a(ev) && b(ev);
        }
        return (ev) => {
          for (let i = 0; i < parts.length; i++) if (!parts[i](ev)) return false;
          return true;
        };
      }
      case 'or': {
        const parts = byCost(e.items).map((i) => this.compileExpr(i));
        return (ev) => {
          for (let i = 0; i < parts.length; i++) if (parts[i](ev)) return true;
          return false;
        };
      }
      case 'not': {
        const inner = this.compileExpr(e.expr);
        return (ev) => !inner(ev);
      }
      case 'assign':
      case 'exists':
        // Placeholders never filter; `$e` in a rule's condition holds for every event of $e.
        return () => true;
      case 'compare':
        return this.compileCompare(e);
      case 'in':
        return this.compileIn(e);
      case 'callExpr': {
        const call = e.nocase ? caseInsensitiveCall(e.call) : e.call;
        const hasAll = call.args.some((a) => a.type === 'field' && a.quantifier?.kind === 'all');
        const fast = hasAll ? undefined : this.fastCall(call);
        if (fast) return fast;
        const vals = this.values(call);
        return (ev) => vals(ev).some((v) => v === true);
      }
      case 'error':
        return () => false;
    }
  }

  /** Common boolean functions over one field and literal arguments, without building value lists. */
  private fastCall(call: CallNode): EventPredicate | undefined {
    const [a0, a1] = call.args;
    if (call.args.length !== 2 || a0?.type !== 'field' || a1?.type !== 'string') return undefined;
    const visit = this.visitor(a0);
    if (call.name === 'net.ip_in_range_cidr') {
      const range = parseCidr(a1.value);
      if (!range) return () => false;
      const m = cidrMatcher(range);
      return (ev) => visit(ev, m);
    }
    if (call.name === 're.regex') {
      const { regex } = compileRegex(a1.value, false);
      if (!regex) return () => false;
      return (ev) => visit(ev, (v) => regex.test(toStr(v)));
    }
    return undefined;
  }

  /** `metadata.event_type >= "USER_UNCATEGORIZED"`: enum values in order of their schema number. */
  private enumOrder(e: CompareExpr): Pred | undefined {
    const right = e.right;
    if (e.op === '=' || e.op === '!=' || e.left.type !== 'field') return undefined;
    if (right?.type !== 'string' && right?.type !== 'enum') return undefined;
    const facts = this.ctx.check.facts.get(e.left);
    const en = facts?.kind === 'enum' ? enumName(facts.type) : undefined;
    if (!en) return undefined;
    const numbers = new Map(enumValues(en));
    const b = numbers.get(right.type === 'string' ? right.value : right.name);
    if (b === undefined) return () => false;
    const p = numericOp(e.op, b);
    // a missing enum reads as its zero value
    return (v) => {
      const n = v === undefined || v === null ? 0 : typeof v === 'number' ? v : numbers.get(toStr(v));
      return n !== undefined && p(n);
    };
  }

  private leftAccess(left: Operand): { visit: Visitor; kind: string | undefined } {
    let target: Operand = left;
    let depth = 0;
    while (target.type === 'variable' && depth++ < 20) {
      const def = this.ctx.check.placeholders.get(target.name);
      if (!def) return { visit: () => false, kind: undefined };
      target = def.value;
    }
    if (target.type === 'field') {
      return { visit: this.visitor(target), kind: this.ctx.check.facts.get(target)?.kind };
    }
    const vals = this.values(target);
    return {
      visit: (ev, pred) => {
        const list = vals(ev);
        if (list.length === 0) return pred(undefined);
        for (const v of list) if (pred(v)) return true;
        return false;
      },
      kind: undefined,
    };
  }

  private compileCompare(e: CompareExpr): EventPredicate {
    if (!e.right) return () => false;
    const { visit, kind } = this.leftAccess(e.left);
    const nocase = !!e.nocase;
    const pred = this.enumOrder(e) ?? literalPred(e.op, e.right, nocase, kind);
    if (pred) {
      const p = pred;
      if (e.quantifier?.kind === 'all') return (ev) => !visit(ev, (v) => !p(v));
      return (ev) => visit(ev, p);
    }
    // Field (or placeholder, or function) on the right: compare every pair of values.
    const rightValues = this.values(e.right);
    const op = e.op;
    if (e.quantifier?.kind === 'all') {
      return (ev) => {
        const rs = rightValues(ev);
        return !visit(ev, (a) => !rs.some((b) => compareValues(a, b, op, nocase)));
      };
    }
    return (ev) => {
      const rs = rightValues(ev);
      if (rs.length === 0) rs.push(undefined);
      return visit(ev, (a) => rs.some((b) => compareValues(a, b, op, nocase)));
    };
  }

  private compileIn(e: InListExpr): EventPredicate {
    const { visit } = this.leftAccess(e.left);
    const list = e.list ? this.ctx.referenceLists?.[e.list.name] : undefined;
    let pred: Pred;
    const nocase = !!e.nocase;
    if (!list) pred = () => false;
    else if (e.mode === 'exact') {
      const set = new Set(nocase ? list.map((x) => x.toLowerCase()) : list);
      pred = nocase ? (v) => set.has(toStr(v).toLowerCase()) : (v) => set.has(toStr(v));
    } else if (e.mode === 'regex') {
      const res = list.map((p) => compileRegex(p, nocase).regex).filter((r): r is UdmRegex => !!r);
      pred = (v) => {
        const s = toStr(v);
        return res.some((r) => r.test(s));
      };
    } else {
      const ranges = list
        .map((c) => parseCidr(c))
        .filter((r): r is NonNullable<typeof r> => !!r)
        .map(cidrMatcher);
      pred = (v) => ranges.some((r) => r(v));
    }
    const positive: EventPredicate = (ev) => visit(ev, pred);
    return e.negated ? (ev) => !positive(ev) : positive;
  }
}

/** `re.regex(x, "p") nocase`: the same call with a case-insensitive pattern. */
function caseInsensitiveCall(call: CallNode): CallNode {
  const pattern = call.args[1];
  if (call.name !== 're.regex' || !pattern || pattern.type !== 'string') return call;
  return { ...call, args: [call.args[0], { ...pattern, value: `(?i)${pattern.value}` }, ...call.args.slice(2)] };
}

const ARITH: Record<string, (a: number, b: number) => number> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
  '/': (a, b) => a / b,
  '%': (a, b) => a % b,
};

/** Rough relative cost of evaluating a condition; conditions are pure, so cheap ones go first. */
function cost(e: Expr): number {
  switch (e.type) {
    case 'compare': {
      let c = e.left.type === 'field' ? 1 + (e.left.segments.length > 3 ? 1 : 0) : 6;
      const last = e.left.type === 'field' ? e.left.segments[e.left.segments.length - 1].name : '';
      if (last === 'seconds' || last === 'nanos') c += 2;
      if (e.right?.type === 'regex') c += 3;
      else if (
        e.right &&
        e.right.type !== 'string' &&
        e.right.type !== 'number' &&
        e.right.type !== 'enum' &&
        e.right.type !== 'bool'
      )
        c += 6;
      if (e.nocase) c += 1;
      return c;
    }
    case 'in':
      return e.mode === 'exact' ? 2 : 5;
    case 'callExpr':
      return 5;
    case 'assign':
    case 'exists':
      return 0;
    case 'not':
      return cost(e.expr);
    case 'and':
    case 'or':
      return e.items.reduce((s, i) => s + cost(i), 0);
    case 'error':
      return 0;
  }
}

function byCost(items: Expr[]): Expr[] {
  return items
    .map((e, i) => ({ e, i, c: cost(e) }))
    .sort((a, b) => a.c - b.c || a.i - b.i)
    .map((x) => x.e);
}
