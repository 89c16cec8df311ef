// Grouping for the statistics engine: reading match: keys per event (every value of a repeated
// field), the table of groups with their accumulators, and feeding each event's values to them.
import type { Operand } from '../ast';
import { type Accumulator, distinctKey } from '../functions/aggregates';
import { BucketNumbers, type ZoneOffsets } from './buckets';
import { eventSeconds } from './engine';
import type { TimeBucketSpec } from './plan';

export const MAX_KEY_COMBINATIONS = 256;

export type Values = (event: unknown) => unknown[];
export type EachValue = (event: unknown, each: (v: unknown) => boolean) => void;

export interface Ctx {
  event?: unknown;
  /** values of match keys and outcome variables computed so far, by name */
  vars: Map<string, unknown>;
  accs?: Accumulator[];
}
export type GroupExpr = (ctx: Ctx) => unknown[];

export interface AggregateSlot {
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
export type Feed = (event: unknown, accs: Accumulator[]) => void;

export function feeder(each: EachValue, slots: number[]): Feed {
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
export function feedsOf(slots: readonly AggregateSlot[]): Feed[] {
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
export function argumentKey(op: Operand): string | undefined {
  if (op.type === 'variable') return `$${op.name}`;
  if (op.type !== 'field') return undefined;
  return JSON.stringify([
    op.eventVar?.name ?? null,
    op.segments.map((seg) => [seg.name, seg.index?.value ?? null]),
    op.key?.value ?? null,
    op.quantifier?.kind ?? null,
  ]);
}

export function addAll(acc: Accumulator, values: unknown[]): void {
  for (let j = 0; j < values.length; j++) {
    const v = values[j];
    if (v !== undefined && v !== null) acc.add(v);
  }
}

/** The list of no values (never written to). */
export const NO_VALUES: readonly unknown[] = [];

/**
 * The distinct non-zero values of one match key for an event, in the order the event holds them.
 * The list returned for a single value is reused from one event to the next. Values are collected
 * into a buffer that keeps its storage (emptying an array by its length would free it, and every
 * event would allocate a new one).
 */
export class KeyReader {
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
export class Grouper {
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
  private groupOf: Int32Array;
  private eventOf: Int32Array;
  private readonly several = new Map<number, number[]>();
  private added = 0;

  constructor(
    private readonly keys: readonly KeyReader[],
    bucket: TimeBucketSpec | undefined,
    zone: ZoneOffsets,
    private readonly aggregates: readonly AggregateSlot[],
    /** Events to make room for at first; more grow the room. */
    capacity: number,
  ) {
    this.nKeys = keys.length;
    const width = this.nKeys + (bucket ? 1 : 0);
    this.table = new GroupTable(width, this.nKeys, aggregates);
    this.keyLists = new Array<readonly unknown[]>(width);
    this.argValues = new Array<unknown[]>(aggregates.length);
    this.feeds = feedsOf(aggregates);
    this.buckets = bucket ? new BucketNumbers(bucket, zone) : undefined;
    this.groupOf = new Int32Array(Math.max(1, capacity));
    this.eventOf = new Int32Array(Math.max(1, capacity));
  }

  add(event: unknown, index: number): void {
    const at = this.added++;
    if (at === this.groupOf.length) this.grow();
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

  private grow(): void {
    const groupOf = new Int32Array(this.groupOf.length * 2);
    groupOf.set(this.groupOf);
    this.groupOf = groupOf;
    const eventOf = new Int32Array(this.eventOf.length * 2);
    eventOf.set(this.eventOf);
    this.eventOf = eventOf;
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

export interface Group {
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
export class GroupTable {
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
export function isZeroValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === false || v === '0';
}
