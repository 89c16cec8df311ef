// Computes a statistical query over fetched events: groups by the match: keys (and a time bucket),
// aggregates the outcome: expressions, then applies condition:, order: and limit:. Per-event values
// (fields, placeholders, functions of them) come from the same Compiler that filters events in the
// sandbox's udmSearch, so a field reads the same here as everywhere else.
import type { ArithNode, CompareOp, Expr, Operand } from '../ast';
import type { Compiler } from '../evaluate';
import { findFunction, groupFunctionOf, timestampSeconds, toStr } from '../functions';
import { compileRegex } from '../regex';
import { createAccumulator, distinctKey, numericValue, type Accumulator } from '../functions/aggregates';
import { BucketNumbers, ZoneOffsets } from './buckets';
import {
  isAggregateName,
  type AggregateName,
  type ColumnType,
  type StatsColumn,
  type StatsPlan,
  type TimeBucketSpec,
} from './plan';

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

/** A bucket column's name in the table. */
export const BUCKET_COLUMN = 'time_bucket';
/** Combinations of repeated-field values one event may add itself to. */
const MAX_KEY_COMBINATIONS = 256;

type Values = (event: unknown) => unknown[];
type EachValue = (event: unknown, each: (v: unknown) => boolean) => void;

interface Ctx {
  event?: unknown;
  /** values of match keys and outcome variables computed so far, by name */
  vars: Map<string, unknown>;
  accs?: Accumulator[];
}
type GroupExpr = (ctx: Ctx) => unknown[];

interface AggregateSlot {
  /** A fresh accumulator for a group. */
  create: () => Accumulator;
  /** The argument's values for an event, as a list (for an event that joins several groups). */
  values: Values;
  /** The argument's values handed over one by one; absent for an aggregate without argument. */
  each?: EachValue;
  /** Aggregates whose arguments have the same key read the event once between them. */
  argumentKey?: string;
}

/** Adds an event's values to the accumulators of the aggregates that take them (one walk for all). */
type Feed = (event: unknown, accs: Accumulator[]) => void;

function feeder(each: EachValue, slots: number[]): Feed {
  let target: Accumulator[] = [];
  const one = slots[0];
  const add =
    slots.length === 1
      ? (v: unknown): boolean => {
          if (v !== undefined && v !== null) target[one].add(v);
          return false;
        }
      : (v: unknown): boolean => {
          if (v !== undefined && v !== null) for (let i = 0; i < slots.length; i++) target[slots[i]].add(v);
          return false;
        };
  return (event, accs) => {
    target = accs;
    each(event, add);
  };
}

/** One feed per distinct aggregate argument, in the order the arguments first appear. */
function feedsOf(slots: readonly AggregateSlot[]): Feed[] {
  const byKey = new Map<string, { each: EachValue; slots: number[] }>();
  const sources: Array<{ each: EachValue; slots: number[] }> = [];
  slots.forEach((slot, i) => {
    if (!slot.each) return;
    const shared = slot.argumentKey !== undefined ? byKey.get(slot.argumentKey) : undefined;
    if (shared) {
      shared.slots.push(i);
      return;
    }
    const source = { each: slot.each, slots: [i] };
    sources.push(source);
    if (slot.argumentKey !== undefined) byKey.set(slot.argumentKey, source);
  });
  return sources.map((src) => feeder(src.each, src.slots));
}

/** Identity of an aggregate argument that reads the event the same way wherever it is written. */
function argumentKey(op: Operand): string | undefined {
  if (op.type === 'variable') return `$${op.name}`;
  if (op.type !== 'field') return undefined;
  return JSON.stringify([
    op.eventVar?.name ?? null,
    op.segments.map((seg) => [seg.name, seg.index?.value ?? null]),
    op.key?.value ?? null,
    op.quantifier?.kind ?? null,
  ]);
}

function addAll(acc: Accumulator, values: unknown[]): void {
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    if (v !== undefined && v !== null) acc.add(v);
  }
}

/** The list of no values (never written to). */
const NO_VALUES: readonly unknown[] = [];

/**
 * The distinct non-zero values of one match key for an event, in the order the event holds them.
 * The list returned for a single value is reused from one event to the next. Values are collected
 * into a buffer that keeps its storage (emptying an array by its length would free it, and every
 * event would allocate a new one).
 */
class KeyReader {
  private readonly buffer: unknown[] = [];
  private size = 0;
  private readonly one: unknown[] = [undefined];
  private readonly collect = (v: unknown): boolean => {
    if (v !== undefined) this.buffer[this.size++] = v;
    return false;
  };
  constructor(private readonly each: EachValue) {}

  read(event: unknown): readonly unknown[] {
    this.size = 0;
    this.each(event, this.collect);
    const buffer = this.buffer;
    const size = this.size;
    if (size <= 1) {
      if (size === 0 || isZeroValue(buffer[0])) return NO_VALUES;
      this.one[0] = buffer[0];
      return this.one;
    }
    const seen = new Set<string>();
    const list: unknown[] = [];
    for (let i = 0; i < size; i++) {
      const v = buffer[i];
      if (isZeroValue(v)) continue;
      const id = distinctKey(v);
      if (!seen.has(id)) {
        seen.add(id);
        list.push(v);
      }
    }
    return list;
  }
}

/** Puts events into their groups and feeds their values to the groups' accumulators. */
class Grouper {
  readonly table: GroupTable;
  private readonly nKeys: number;
  /** The values of each key for the current event; the lists are reused from event to event. */
  private readonly keyLists: (readonly unknown[])[];
  private readonly bucketList: unknown[] = [0];
  private readonly buckets: BucketNumbers | undefined;
  private readonly argValues: unknown[][];
  private readonly feeds: Feed[];
  /**
   * The group of each event added, in the order added (-1: none; below -1: several, listed in
   * `several`), and the event's index. Member lists are built from these once all events are in,
   * each at its final size.
   */
  private readonly groupOf: Int32Array;
  private readonly eventOf: Int32Array;
  private readonly several = new Map<number, number[]>();
  private added = 0;

  constructor(
    private readonly keys: readonly KeyReader[],
    bucket: TimeBucketSpec | undefined,
    zone: ZoneOffsets,
    private readonly aggregates: readonly AggregateSlot[],
    capacity: number,
  ) {
    this.nKeys = keys.length;
    const width = this.nKeys + (bucket ? 1 : 0);
    this.table = new GroupTable(width, this.nKeys, aggregates);
    this.keyLists = new Array<readonly unknown[]>(width);
    this.argValues = new Array<unknown[]>(aggregates.length);
    this.feeds = feedsOf(aggregates);
    this.buckets = bucket ? new BucketNumbers(bucket, zone) : undefined;
    this.groupOf = new Int32Array(capacity);
    this.eventOf = new Int32Array(capacity);
  }

  add(event: unknown, index: number): void {
    const at = this.added++;
    this.eventOf[at] = index;
    this.groupOf[at] = -1;
    const keyLists = this.keyLists;
    const nKeys = this.nKeys;
    let combos = 1;
    for (let k = 0; k < nKeys; k++) {
      const list = this.keys[k].read(event);
      if (list.length === 0) return;
      combos *= list.length;
      keyLists[k] = list;
    }
    const buckets = this.buckets;
    if (buckets) {
      const t = eventSeconds(event);
      if (t === undefined) return;
      const n = buckets.of(t);
      this.table.bucket = n;
      this.bucketList[0] = buckets.starts[n];
      keyLists[nKeys] = this.bucketList;
    }
    const aggs = this.aggregates;
    const nAggs = aggs.length;
    if (combos === 1) {
      // The common case: one value per key. Values go straight from the event into the accumulators.
      const g = this.table.single(keyLists);
      this.groupOf[at] = g.id;
      g.size++;
      const feeds = this.feeds;
      for (let f = 0; f < feeds.length; f++) feeds[f](event, g.accs);
      return;
    }
    // A repeated field in match: adds the event to a group per combination of its values.
    const values = this.argValues;
    for (let a = 0; a < nAggs; a++) values[a] = aggs[a].values(event);
    const joined: number[] = [];
    this.table.combinations(keyLists, MAX_KEY_COMBINATIONS, (g) => {
      joined.push(g.id);
      g.size++;
      for (let a = 0; a < nAggs; a++) addAll(g.accs[a], values[a]);
    });
    if (joined.length === 0) return;
    this.groupOf[at] = -2;
    this.several.set(at, joined);
  }

  /** Fills each group's member list: the indices of its events, in the order they were added. */
  collectMembers(): void {
    const groups = this.table.groups;
    const lists = groups.map((g) => (g.members = new Array<number>(g.size)));
    const filled = new Int32Array(groups.length);
    const groupOf = this.groupOf;
    const eventOf = this.eventOf;
    for (let at = 0; at < this.added; at++) {
      const g = groupOf[at];
      if (g >= 0) lists[g][filled[g]++] = eventOf[at];
      else if (g < -1) for (const h of this.several.get(at)!) lists[h][filled[h]++] = eventOf[at];
    }
  }
}

interface Group {
  /** The group's position in the table. */
  id: number;
  /** The group's value of each key (the first value seen among those counted as one). */
  key: unknown[];
  accs: Accumulator[];
  /** Events in the group so far; their indices go to `members` once all events are grouped. */
  size: number;
  members: number[];
}

/**
 * Groups by key values, found through one map per key level (match keys by their distinct
 * identity, where 80 and "80" are one value; the time bucket by its number), so finding the
 * group of an event builds no key string. Groups come out in the order they were first seen.
 */
class GroupTable {
  readonly groups: Group[] = [];
  private readonly root = new Map<unknown, unknown>();
  private readonly scratch: unknown[];
  /** The number of the time bucket of the values looked up (BucketNumbers), the bucket level's key. */
  bucket = 0;
  private only: Group | undefined;

  constructor(
    private readonly width: number,
    /** Levels below this are match keys; the one at this index, when present, is the time bucket. */
    private readonly nKeys: number,
    private readonly aggregates: readonly AggregateSlot[],
  ) {
    this.scratch = new Array<unknown>(width);
  }

  /** The group of the first value of each list (every list holds one value). */
  single(lists: readonly (readonly unknown[])[]): Group {
    for (let k = 0; k < this.width; k++) this.scratch[k] = lists[k][0];
    return this.lookup(this.scratch);
  }

  /** Every combination of the lists' values, at most `max` of them, in order. */
  combinations(lists: readonly (readonly unknown[])[], max: number, visit: (g: Group) => void): void {
    const current = new Array<unknown>(this.width);
    let budget = max;
    const rec = (k: number): void => {
      if (budget <= 0) return;
      if (k === this.width) {
        budget--;
        visit(this.lookup(current));
        return;
      }
      for (const v of lists[k]) {
        current[k] = v;
        rec(k + 1);
      }
    };
    rec(0);
  }

  private lookup(values: readonly unknown[]): Group {
    const width = this.width;
    if (width === 0) return (this.only ??= this.create([]));
    let node = this.root;
    const last = width - 1;
    for (let k = 0; k < last; k++) {
      const id = this.levelId(k, values[k]);
      let next = node.get(id) as Map<unknown, unknown> | undefined;
      if (next === undefined) {
        next = new Map<unknown, unknown>();
        node.set(id, next);
      }
      node = next;
    }
    const id = this.levelId(last, values[last]);
    let g = node.get(id) as Group | undefined;
    if (g === undefined) {
      g = this.create(values.slice());
      node.set(id, g);
    }
    return g;
  }

  private levelId(level: number, v: unknown): unknown {
    return level < this.nKeys ? distinctKey(v) : this.bucket;
  }

  private create(key: unknown[]): Group {
    const g: Group = {
      id: this.groups.length,
      key,
      accs: this.aggregates.map((a) => a.create()),
      size: 0,
      members: [],
    };
    this.groups.push(g);
    return g;
  }
}

/**
 * Match keys (and outcomes in a grouped query) are never the zero value: like YARA-L's match
 * section, events whose key is missing, "", 0 or false are left out of the groups.
 */
function isZeroValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === false || v === '0';
}

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
    const zone = new ZoneOffsets(options.timeZone);
    const compileWarnings = this.warnings.length;
    const keep = this.dedup(events, options.filter);
    const result = this.grouped ? this.runGrouped(events, keep, zone, options.signal) : this.runPlain(events, keep);
    const filtered = this.applyCondition(result.rows, result.members);
    const ordered = this.applyOrder(filtered.rows, filtered.members);
    const limit = this.plan.limit;
    const rows = limit !== undefined && limit >= 0 ? ordered.rows.slice(0, limit) : ordered.rows;
    const members = limit !== undefined && limit >= 0 ? ordered.members.slice(0, limit) : ordered.members;
    return {
      columns: this.columns.map((c, i) => ({ ...c, type: this.columnType(i, rows) })),
      rows,
      members,
      eventsIn: events.length,
      eventsUsed: keep.length,
      groupsTotal: result.rows.length,
      timeZone: zone.timeZone,
      warnings: [...new Set(this.warnings.concat(this.warnings.splice(compileWarnings)))],
    };
  }

  /** Indices of the events that count: accepted by the filter and first of their dedup: value. */
  private dedup(events: readonly unknown[], filter: ((e: unknown) => boolean) | undefined): number[] {
    const out: number[] = [];
    const seen = this.dedupValues.length ? new Set<string>() : undefined;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      if (filter && !filter(ev)) continue;
      if (seen) {
        const key = this.dedupValues.map((v) => v(ev).map(distinctKey).sort().join('\u001e')).join('\u001f');
        if (seen.has(key)) continue;
        seen.add(key);
      }
      out.push(i);
    }
    return out;
  }

  private runPlain(events: readonly unknown[], keep: number[]): { rows: unknown[][]; members: number[][] } {
    const rows: unknown[][] = [];
    const members: number[][] = [];
    for (const i of keep) {
      const ctx: Ctx = { event: events[i], vars: new Map() };
      const row: unknown[] = [];
      for (const o of this.outcomeExprs) {
        const v = collapse(o.expr(ctx));
        ctx.vars.set(o.name, v);
        row.push(v);
      }
      rows.push(row);
      members.push([i]);
    }
    return { rows, members };
  }

  private runGrouped(
    events: readonly unknown[],
    keep: number[],
    zone: ZoneOffsets,
    signal: AbortSignal | undefined,
  ): { rows: unknown[][]; members: number[][] } {
    const bucket = this.plan.bucket;
    const grouper = new Grouper(this.keyReaders, bucket, zone, this.aggregates, keep.length);
    for (let n = 0; n < keep.length; n++) {
      if ((n & 4095) === 0 && signal?.aborted) throw signal.reason;
      const index = keep[n];
      grouper.add(events[index], index);
    }
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

/** Arithmetic (`sum(a) / count(b)`, `$x * 2`). */
function asArith(op: Operand): ArithNode | undefined {
  return op.type === 'arith' ? op : undefined;
}

/** `+ - * / %` over two values; null when either is not a number or on division by zero. */
export function arithmetic(op: string, a: unknown, b: unknown): number | null {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x === undefined || y === undefined) return null;
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? null : x / y;
    case '%':
      return y === 0 ? null : x % y;
    default:
      return null;
  }
}

const AGGREGATE_TYPES: Record<AggregateName, ColumnType | undefined> = {
  count: 'number',
  count_distinct: 'number',
  sum: 'number',
  min: 'number',
  max: 'number',
  avg: 'number',
  stddev: 'number',
  array: 'array',
  array_distinct: 'array',
  earliest: 'timestamp',
  latest: 'timestamp',
};

/** The type of a column from the values it holds (nulls say nothing). */
function typeOfValues(rows: unknown[][], index: number): ColumnType {
  let type: ColumnType | undefined;
  for (const row of rows) {
    const v = row[index];
    if (v === null || v === undefined) continue;
    const t: ColumnType = Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? 'number'
        : typeof v === 'boolean'
          ? 'bool'
          : 'string';
    if (type === undefined) type = t;
    else if (type !== t) return 'mixed';
  }
  return type ?? 'string';
}

export function compareValues(a: unknown, b: unknown): number {
  const aNull = a === undefined || a === null;
  const bNull = b === undefined || b === null;
  if (aNull || bNull) return aNull === bNull ? 0 : aNull ? -1 : 1;
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  const sa = Array.isArray(a) ? a.join(', ') : toStr(a);
  const sb = Array.isArray(b) ? b.join(', ') : toStr(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

// ---- condition: --------------------------------------------------------------------------------

type RowPred = (row: unknown[]) => boolean;
type RowValue = (row: unknown[]) => unknown;

function compileCondition(e: Expr, column: (name: string) => number, warnings: string[]): RowPred {
  switch (e.type) {
    case 'and': {
      const parts = e.items.map((i) => compileCondition(i, column, warnings));
      return (row) => parts.every((p) => p(row));
    }
    case 'or': {
      const parts = e.items.map((i) => compileCondition(i, column, warnings));
      return (row) => parts.some((p) => p(row));
    }
    case 'not': {
      const inner = compileCondition(e.expr, column, warnings);
      return (row) => !inner(row);
    }
    case 'compare': {
      if (!e.right) return () => false;
      const left = rowValue(e.left, column, warnings);
      const right = rowValue(e.right, column, warnings);
      const op = e.op;
      const nocase = !!e.nocase;
      if (e.right.type === 'regex') {
        const { regex: re, problem } = compileRegex(e.right.pattern, nocase);
        if (problem) warnings.push(`condition: /${e.right.pattern}/ matches nothing: ${problem.message}`);
        return (row) => {
          const hit = !!re && re.test(toStr(left(row)));
          return op === '!=' ? !hit : op === '=' ? hit : false;
        };
      }
      return (row) => compareOp(left(row), right(row), op, nocase);
    }
    case 'callExpr': {
      const v = rowValue(e.call, column, warnings);
      return (row) => v(row) === true;
    }
    case 'assign':
      return () => true;
    default:
      warnings.push('condition: holds a test that cannot apply to a table row; it filters nothing out.');
      return () => true;
  }
}

function rowValue(op: Operand, column: (name: string) => number, warnings: string[]): RowValue {
  switch (op.type) {
    case 'variable': {
      const i = column(op.name);
      if (i < 0) {
        warnings.push(`condition: $${op.name} is neither a match: nor an outcome: variable.`);
        return () => null;
      }
      return (row) => row[i];
    }
    case 'field': {
      const name = op.segments.map((s) => s.name).join('.');
      const i = column(name);
      if (i < 0) {
        warnings.push(`condition: ${name} is not a column of the table.`);
        return () => null;
      }
      return (row) => row[i];
    }
    case 'string':
      return () => op.value;
    case 'number':
      return () => op.value;
    case 'bool':
      return () => op.value;
    case 'enum':
      return () => op.name;
    case 'regex':
      return () => op.pattern;
    case 'call': {
      const fn = findFunction(op.name);
      const args = op.args.map((a) => rowValue(a, column, warnings));
      if (!fn) {
        warnings.push(`condition: ${op.name} is not a function a condition can use.`);
        return () => null;
      }
      return (row) => fn.impl(args.map((a) => a(row))) ?? null;
    }
    default: {
      const arith = asArith(op);
      if (!arith) {
        warnings.push(`condition: a ${op.type} value cannot be compared on a table row.`);
        return () => null;
      }
      const left = rowValue(arith.left, column, warnings);
      const right = arith.right ? rowValue(arith.right, column, warnings) : () => null;
      return (row) => arithmetic(arith.op, left(row), right(row));
    }
  }
}

function compareOp(a: unknown, b: unknown, op: CompareOp, nocase: boolean): boolean {
  const na = numericValue(a);
  const nb = numericValue(b);
  let c: number;
  if (na !== undefined && nb !== undefined && (typeof a === 'number' || typeof b === 'number')) c = na - nb;
  else {
    let sa = a === null || a === undefined ? '' : toStr(a);
    let sb = b === null || b === undefined ? '' : toStr(b);
    if (nocase) {
      sa = sa.toLowerCase();
      sb = sb.toLowerCase();
    }
    c = sa < sb ? -1 : sa > sb ? 1 : 0;
  }
  switch (op) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}
