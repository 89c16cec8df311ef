// Computes a statistical query over fetched events: groups by the match: keys (and a time bucket),
// aggregates the outcome: expressions, then applies condition:, order: and limit:. Per-event values
// (fields, placeholders, functions of them) come from the same Compiler that filters events in the
// sandbox's udmSearch, so a field reads the same here as everywhere else.
import type { Operand } from '../ast';
import type { Compiler } from '../evaluate';
import { findFunction, groupFunctionOf, timestampSeconds } from '../functions';
import { createAccumulator, distinctKey } from '../functions/aggregates';
import { ZoneOffsets } from './buckets';
import {
  type AggregateSlot,
  argumentKey,
  type Ctx,
  type EachValue,
  Grouper,
  type GroupExpr,
  KeyReader,
  type Values,
} from './grouping';
import { type AggregateName, type ColumnType, isAggregateName, type StatsColumn, type StatsPlan } from './plan';
import { AGGREGATE_TYPES, arithmetic, asArith, compareValues, compileCondition, typeOfValues } from './rows';

export { arithmetic, compareValues } from './rows';

export type { ColumnRole, ColumnType, StatsColumn } from './plan';

export interface StatsResult {
  columns: StatsColumn[];
  /** One array of values per row, in column order. Timestamps are epoch seconds. */
  rows: unknown[][];
  /** Indices (into the events given) of the events behind each row, for drill-down. */
  members: number[][];
  /** Events given, and events left after dedup: (those the table is computed from). */
  eventsIn: number;
  eventsUsed: number;
  /** Groups before condition: and limit: dropped some. */
  groupsTotal: number;
  /** The IANA time zone buckets were computed in. */
  timeZone: string;
  /** Things the user should know about the table (an order: name that is no column, …). */
  warnings: string[];
}

export interface StatsOptions {
  /** IANA time zone for time buckets; the machine's own when absent. */
  timeZone?: string;
  /** Only events this accepts are counted (the filter part, when the events are not filtered already). */
  filter?: (event: unknown) => boolean;
  /** Stops between events when aborted (throws the signal's reason). */
  signal?: AbortSignal;
}

/** A table computed from events added batch by batch (see StatsEngine.start). */
export interface StatsRun {
  /** Counts the next events (their indices in `members` follow those added before). */
  add(events: readonly unknown[]): void;
  /** The table over every event added; the run takes no more events after it. */
  finish(): StatsResult;
  /** Events added so far. */
  readonly eventsIn: number;
}

/** Events a grouped run makes room for at first (it grows as more come). */
const GROUPER_CAPACITY = 1024;

/** A bucket column's name in the table. */
export const BUCKET_COLUMN = 'time_bucket';
/** Combinations of repeated-field values one event may add itself to. */
export class StatsEngine {
  private readonly aggregates: AggregateSlot[] = [];
  private readonly outcomeExprs: Array<{ name: string; expr: GroupExpr; aggregate?: AggregateName }> = [];
  private readonly keyReaders: KeyReader[];
  private readonly dedupValues: Values[];
  private readonly warnings: string[] = [];
  readonly grouped: boolean;
  readonly columns: StatsColumn[];

  constructor(
    private readonly plan: StatsPlan,
    private readonly compiler: Compiler,
  ) {
    for (const section of plan.ignoredSections ?? [])
      this.warnings.push(
        `${section}: is not applied: Google names it for statistical search without saying what it does; the table shows every match: and outcome: column.`,
      );
    const hasAggregate = plan.outcomes.some((o) => containsAggregate(o.value));
    this.grouped = plan.grouped || plan.keys.length > 0 || !!plan.bucket || hasAggregate;
    this.keyReaders = plan.keys.map((k) => new KeyReader(compiler.eachValue(k.operand)));
    this.dedupValues = plan.dedup.map((d) => compiler.values(d));
    const known = new Set<string>(plan.keys.map((k) => k.name));
    if (plan.bucket) known.add(BUCKET_COLUMN);
    for (const o of plan.outcomes) {
      this.outcomeExprs.push({
        name: o.name,
        expr: this.compileOutcome(o.value, known),
        ...(o.value.type === 'call' && isAggregateName(o.value.name)
          ? { aggregate: o.value.name.toLowerCase() as AggregateName }
          : {}),
      });
      known.add(o.name);
    }
    this.columns = [
      ...plan.keys.map((k): StatsColumn => ({ name: k.name, role: 'key', type: 'string' })),
      ...(plan.bucket ? [{ name: BUCKET_COLUMN, role: 'bucket', type: 'timestamp' } satisfies StatsColumn] : []),
      ...plan.outcomes.map((o): StatsColumn => ({ name: o.name, role: 'outcome', type: 'mixed' })),
    ];
  }

  // ---- outcome expressions ----------------------------------------------------------------------

  private compileOutcome(op: Operand, known: Set<string>): GroupExpr {
    if (!needsGroupContext(op, known)) {
      if (this.grouped && dependsOnEvent(op)) {
        this.warnings.push(
          `An outcome uses an event value outside an aggregate in a grouped query; wrap it in one (for example array_distinct(...)).`,
        );
        return () => [];
      }
      const values = this.compiler.values(op);
      return (ctx) => (ctx.event !== undefined ? values(ctx.event) : values(undefined));
    }
    switch (op.type) {
      case 'variable':
        return (ctx) => (ctx.vars.has(op.name) ? [ctx.vars.get(op.name)] : []);
      case 'call': {
        const overGroup = groupFunctionOf(op)?.overGroup;
        if (isAggregateName(op.name) || overGroup) {
          const slot = this.aggregates.length;
          const arg = op.args[0];
          const source = arg ? this.eventValues(arg, known) : undefined;
          const key = arg ? argumentKey(arg) : undefined;
          const name = op.name.toLowerCase() as AggregateName;
          const others = op.args.slice(1).map((a) => first(this.compiler.values(a)(undefined)));
          this.aggregates.push({
            create: overGroup ? () => overGroup(others) : () => createAccumulator(name),
            values: source?.values ?? (() => []),
            ...(source ? { each: source.each } : {}),
            ...(source && key !== undefined ? { argumentKey: key } : {}),
          });
          return (ctx) => (ctx.accs ? [ctx.accs[slot].result()] : []);
        }
        const fn = findFunction(op.name);
        const args = op.args.map((a) => this.compileOutcome(a, known));
        if (!fn) return () => [];
        return (ctx) => {
          const r = fn.impl(args.map((a) => first(a(ctx))));
          return r === undefined ? [] : [r];
        };
      }
      default: {
        const arith = asArith(op);
        if (!arith) return () => [];
        const left = this.compileOutcome(arith.left, known);
        const right = arith.right ? this.compileOutcome(arith.right, known) : () => [];
        return (ctx) => {
          const r = arithmetic(arith.op, first(left(ctx)), first(right(ctx)));
          return r === null ? [] : [r];
        };
      }
    }
  }

  /** Per-event values of an aggregate's argument; a match key used inside reads the event's own value. */
  private eventValues(op: Operand, known: Set<string>): { values: Values; each: EachValue } | undefined {
    if (op.type === 'variable' && known.has(op.name) && !this.plan.keys.some((k) => k.name === op.name)) {
      this.warnings.push(`$${op.name} is an outcome; an aggregate takes event values, not another outcome.`);
      return undefined;
    }
    return { values: this.compiler.values(op), each: this.compiler.eachValue(op) };
  }

  private columnType(index: number, rows: unknown[][]): ColumnType {
    const column = this.columns[index];
    if (column.role === 'bucket') return 'timestamp';
    if (column.role === 'outcome') {
      const o = this.outcomeExprs.find((x) => x.name === column.name);
      const fixed = o?.aggregate ? AGGREGATE_TYPES[o.aggregate] : undefined;
      if (fixed) return fixed;
    }
    return typeOfValues(rows, index);
  }

  // ---- running ----------------------------------------------------------------------------------

  run(events: readonly unknown[], options: StatsOptions = {}): StatsResult {
    const run = this.start(options);
    run.add(events);
    return run.finish();
  }

  /**
   * A run that takes the events as they come: each batch is filtered, deduplicated and counted into
   * its groups when added, so a table over an answer still arriving is mostly counted by its last
   * byte. `finish` makes the table; the result is run()'s over every event added, in order.
   */
  start(options: StatsOptions = {}): StatsRun {
    const zone = new ZoneOffsets(options.timeZone);
    const compileWarnings = this.warnings.length;
    const { filter, signal } = options;
    const seen = this.dedupValues.length ? new Set<string>() : undefined;
    const grouper = this.grouped
      ? new Grouper(this.keyReaders, this.plan.bucket, zone, this.aggregates, GROUPER_CAPACITY)
      : undefined;
    const plain = { rows: [] as unknown[][], members: [] as number[][] };
    let eventsIn = 0;
    let eventsUsed = 0;
    let finished = false;
    const add = (events: readonly unknown[]): void => {
      if (finished) throw new Error('the statistics run has finished');
      for (let i = 0; i < events.length; i++) {
        const index = eventsIn++;
        const ev = events[i];
        // An event that does not count: refused by the filter, or not first of its dedup: value.
        if (filter && !filter(ev)) continue;
        if (seen) {
          const key = this.dedupValues.map((v) => v(ev).map(distinctKey).sort().join('\u001e')).join('\u001f');
          if (seen.has(key)) continue;
          seen.add(key);
        }
        if (grouper) {
          if ((eventsUsed & 4095) === 0 && signal?.aborted) throw signal.reason;
          grouper.add(ev, index);
        } else {
          this.addPlain(ev, index, plain);
        }
        eventsUsed++;
      }
    };
    const finish = (): StatsResult => {
      if (finished) throw new Error('the statistics run has finished');
      finished = true;
      const result = grouper ? this.groupedRows(grouper) : plain;
      const filtered = this.applyCondition(result.rows, result.members);
      const ordered = this.applyOrder(filtered.rows, filtered.members);
      const limit = this.plan.limit;
      const rows = limit !== undefined && limit >= 0 ? ordered.rows.slice(0, limit) : ordered.rows;
      const members = limit !== undefined && limit >= 0 ? ordered.members.slice(0, limit) : ordered.members;
      return {
        columns: this.columns.map((c, i) => ({ ...c, type: this.columnType(i, rows) })),
        rows,
        members,
        eventsIn,
        eventsUsed,
        groupsTotal: result.rows.length,
        timeZone: zone.timeZone,
        warnings: [...new Set(this.warnings.concat(this.warnings.splice(compileWarnings)))],
      };
    };
    return {
      add,
      finish,
      get eventsIn() {
        return eventsIn;
      },
    };
  }

  /** The row of an event in a query without match: (each event is a row of its outcomes). */
  private addPlain(event: unknown, index: number, into: { rows: unknown[][]; members: number[][] }): void {
    const ctx: Ctx = { event, vars: new Map() };
    const row: unknown[] = [];
    for (const o of this.outcomeExprs) {
      const v = collapse(o.expr(ctx));
      ctx.vars.set(o.name, v);
      row.push(v);
    }
    into.rows.push(row);
    into.members.push([index]);
  }

  /** The rows of the groups counted, their outcomes computed from the aggregates. */
  private groupedRows(grouper: Grouper): { rows: unknown[][]; members: number[][] } {
    const bucket = this.plan.bucket;
    const table = grouper.table;
    // An ungrouped aggregate (outcome: $n = count(...) without match:) has one row even over no events.
    if (this.keyReaders.length === 0 && !bucket) table.single([]);
    grouper.collectMembers();

    const rows: unknown[][] = [];
    const members: number[][] = [];
    const names = [...this.plan.keys.map((k) => k.name), ...(bucket ? [BUCKET_COLUMN] : [])];
    for (const g of table.groups) {
      const ctx: Ctx = { vars: new Map(), accs: g.accs };
      names.forEach((name, i) => ctx.vars.set(name, g.key[i]));
      const row = g.key.slice();
      for (const o of this.outcomeExprs) {
        const v = collapse(o.expr(ctx));
        ctx.vars.set(o.name, v);
        row.push(v);
      }
      rows.push(row);
      members.push(g.members);
    }
    return { rows, members };
  }

  // ---- condition, order ---------------------------------------------------------------------------

  private applyCondition(rows: unknown[][], members: number[][]): { rows: unknown[][]; members: number[][] } {
    const cond = this.plan.condition;
    if (!cond) return { rows, members };
    const pred = compileCondition(cond, (name) => this.columns.findIndex((c) => c.name === name), this.warnings);
    const outRows: unknown[][] = [];
    const outMembers: number[][] = [];
    rows.forEach((row, i) => {
      if (pred(row)) {
        outRows.push(row);
        outMembers.push(members[i]);
      }
    });
    return { rows: outRows, members: outMembers };
  }

  private applyOrder(rows: unknown[][], members: number[][]): { rows: unknown[][]; members: number[][] } {
    if (this.plan.order.length === 0) return { rows, members };
    const spec = this.plan.order
      .map((o) => ({ index: this.columns.findIndex((c) => c.name === o.name), desc: o.descending, name: o.name }))
      .filter((s) => {
        if (s.index < 0) this.warnings.push(`order: ${s.name} is not a column of the table; it was ignored.`);
        return s.index >= 0;
      });
    const idx = rows.map((_, i) => i);
    idx.sort((a, b) => {
      for (const s of spec) {
        const c = compareValues(rows[a][s.index], rows[b][s.index]);
        if (c !== 0) return s.desc ? -c : c;
      }
      return a - b;
    });
    return { rows: idx.map((i) => rows[i]), members: idx.map((i) => members[i]) };
  }
}

/** Event time of a UDM event (the `udm` object), in epoch seconds. */
export function eventSeconds(udm: unknown): number | undefined {
  const md = (udm as { metadata?: { eventTimestamp?: unknown; event_timestamp?: unknown } } | null)?.metadata;
  const t = md?.eventTimestamp ?? md?.event_timestamp;
  return t === undefined ? undefined : timestampSeconds(t);
}

function first(values: unknown[]): unknown {
  return values.length ? values[0] : undefined;
}

function collapse(values: unknown[]): unknown {
  if (values.length === 0) return null;
  return values.length === 1 ? (values[0] ?? null) : values;
}

function containsAggregate(op: Operand): boolean {
  return op.type === 'call' && (isAggregateName(op.name) || !!groupFunctionOf(op) || op.args.some(containsAggregate));
}

function dependsOnEvent(op: Operand): boolean {
  switch (op.type) {
    case 'field':
    case 'variable':
      return true;
    case 'call':
      return op.args.some(dependsOnEvent) || op.name.startsWith('math.random');
    case 'condition':
      return true;
    default: {
      const arith = asArith(op);
      return !!arith && (dependsOnEvent(arith.left) || (!!arith.right && dependsOnEvent(arith.right)));
    }
  }
}

/** True when the operand holds an aggregate or names a key/outcome: it is evaluated per group, not per event. */
function needsGroupContext(op: Operand, known: Set<string>): boolean {
  if (op.type === 'variable') return known.has(op.name);
  if (op.type === 'call')
    return isAggregateName(op.name) || !!groupFunctionOf(op) || op.args.some((a) => needsGroupContext(a, known));
  const arith = asArith(op);
  if (arith) return needsGroupContext(arith.left, known) || (!!arith.right && needsGroupContext(arith.right, known));
  return false;
}
