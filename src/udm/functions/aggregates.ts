// Aggregates of the outcome: section: their signatures and their evaluation. Each accumulator takes
// the values of its argument event by event (every element of a repeated field is a value) and
// skips nulls: a missing field is null here, as Google documents for avg ("NULL values are
// ignored"). An empty group therefore counts 0, sums 0, and has no min, max, avg, stddev, earliest
// or latest (null).
import { AGGREGATE_NAMES, type AggregateName } from '../ast';
import type { Accumulator, AggregateDef, ArgType } from './types';
import { timestampSeconds, toNum } from './values';

export type { Accumulator } from './types';

/** An aggregate's declaration: its one argument's name and type, its result type, its doc. */
const aggregate = (
  arg: `${string}: ${ArgType}`,
  returns: AggregateDef['returns'],
  doc: string,
  accumulator: () => Accumulator,
): Omit<AggregateDef, 'name'> => {
  const [name, type] = arg.split(': ') as [string, ArgType];
  return { params: [{ name, type }], returns, doc, accumulator };
};

/** Signature and evaluation of each aggregate the parser names (AGGREGATE_NAMES): one each, no more. */
const DEFINITIONS: { readonly [N in AggregateName]: Omit<AggregateDef, 'name'> } = {
  count: aggregate('field: any', 'number', 'Number of values in the group.', () => new Count()),
  count_distinct: aggregate(
    'field: any',
    'number',
    'Number of distinct values in the group.',
    () => new CountDistinct(),
  ),
  sum: aggregate('field: number', 'number', 'Sum of the values.', () => new Sum()),
  min: aggregate('field: number', 'number', 'Smallest value.', () => new Extreme(-1)),
  max: aggregate('field: number', 'number', 'Largest value.', () => new Extreme(1)),
  avg: aggregate('field: number', 'number', 'Mean of the values.', () => new Mean()),
  stddev: aggregate('field: number', 'number', 'Standard deviation of the values.', () => new StdDev()),
  array: aggregate('field: any', 'array', 'All values (at most 25).', () => new ArrayOf(false)),
  array_distinct: aggregate('field: any', 'array', 'Distinct values (at most 25).', () => new ArrayOf(true)),
  earliest: aggregate(
    'timestamp: timestamp',
    'number',
    'Earliest timestamp, epoch seconds.',
    () => new TimeExtreme(-1),
  ),
  latest: aggregate('timestamp: timestamp', 'number', 'Latest timestamp, epoch seconds.', () => new TimeExtreme(1)),
};

/** Aggregates of the outcome: section, in the order of AGGREGATE_NAMES. */
export const AGGREGATES: readonly AggregateDef[] = AGGREGATE_NAMES.map((name) => ({ name, ...DEFINITIONS[name] }));

/** array and array_distinct keep at most this many values (Google's documented limit). */
export const ARRAY_LIMIT = 25;

/** A fresh accumulator for the aggregate `name`. */
export function createAccumulator(name: AggregateName): Accumulator {
  if (!Object.hasOwn(DEFINITIONS, name)) throw new Error(`No accumulator for the aggregate ${String(name)}`);
  return DEFINITIONS[name].accumulator();
}

/** A numeric reading of a value, or undefined when it has none (text such as "abc"). */
export function numericValue(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    if (v.trim() === '') return undefined;
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** Identity of a value for distinct counting: 80 and "80" (an int64 in the JSON) are one value. */
export function distinctKey(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

class Count implements Accumulator {
  private n = 0;
  add(): void {
    this.n++;
  }
  result(): number {
    return this.n;
  }
}

class CountDistinct implements Accumulator {
  private readonly seen = new Set<string>();
  add(v: unknown): void {
    this.seen.add(distinctKey(v));
  }
  result(): number {
    return this.seen.size;
  }
}

/** An aggregate of the numeric values only: text that reads as no number is skipped, as null is. */
abstract class NumericAccumulator implements Accumulator {
  add(v: unknown): void {
    const n = numericValue(v);
    if (n !== undefined) this.addNumber(n);
  }
  protected abstract addNumber(n: number): void;
  abstract result(): number | null;
}

class Sum extends NumericAccumulator {
  private total = 0;
  protected addNumber(n: number): void {
    this.total += n;
  }
  result(): number {
    return this.total;
  }
}

class Extreme extends NumericAccumulator {
  private best: number | undefined;
  constructor(private readonly sign: 1 | -1) {
    super();
  }
  protected addNumber(n: number): void {
    if (this.best === undefined || (this.sign > 0 ? n > this.best : n < this.best)) this.best = n;
  }
  result(): number | null {
    return this.best ?? null;
  }
}

class Mean extends NumericAccumulator {
  private n = 0;
  private total = 0;
  protected addNumber(x: number): void {
    this.n++;
    this.total += x;
  }
  result(): number | null {
    return this.n ? this.total / this.n : null;
  }
}

/**
 * Population standard deviation (divides by n, 0 for a single value), computed with Welford's
 * update so large values (byte counts, timestamps) do not lose precision.
 */
class StdDev extends NumericAccumulator {
  private n = 0;
  private mean = 0;
  private m2 = 0;
  protected addNumber(x: number): void {
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }
  result(): number | null {
    return this.n ? Math.sqrt(Math.max(0, this.m2 / this.n)) : null;
  }
}

/**
 * array keeps the first 25 values, array_distinct the first 25 distinct ones (distinct values are
 * found before the list is cut, as documented). Google keeps 25 arbitrary values; keeping the first
 * ones in event order makes the table repeatable.
 */
class ArrayOf implements Accumulator {
  private readonly values: unknown[] = [];
  private readonly seen = new Set<string>();
  constructor(private readonly distinct: boolean) {}
  add(v: unknown): void {
    if (this.values.length >= ARRAY_LIMIT) return;
    if (this.distinct) {
      const k = distinctKey(v);
      if (this.seen.has(k)) return;
      this.seen.add(k);
    }
    this.values.push(v);
  }
  result(): unknown[] {
    return this.values;
  }
}

/** earliest/latest: TIMESTAMP in (RFC 3339 text, {seconds, nanos} or epoch seconds), TIMESTAMP (epoch seconds) out. */
class TimeExtreme implements Accumulator {
  private seconds: number | undefined;
  private nanos = 0;
  constructor(private readonly sign: 1 | -1) {}
  add(v: unknown): void {
    if (!readTimestamp(v)) return;
    if (this.seconds === undefined) {
      this.seconds = readSeconds;
      this.nanos = readNanos;
      return;
    }
    const c = readSeconds - this.seconds || readNanos - this.nanos;
    if (this.sign > 0 ? c > 0 : c < 0) {
      this.seconds = readSeconds;
      this.nanos = readNanos;
    }
  }
  result(): number | null {
    return this.seconds === undefined ? null : this.seconds + this.nanos / 1e9;
  }
}

/** Whole seconds and nanoseconds of a timestamp value, exact to the nanosecond for RFC 3339 text. */
export function timestampParts(v: unknown): { seconds: number; nanos: number } | undefined {
  return readTimestamp(v) ? { seconds: readSeconds, nanos: readNanos } : undefined;
}

// The last timestamp readTimestamp read (earliest/latest read one per event: no object for it).
let readSeconds = 0;
let readNanos = 0;

function readTimestamp(v: unknown): boolean {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return false;
    const s = Math.floor(v);
    readSeconds = s;
    readNanos = Math.round((v - s) * 1e9);
    return true;
  }
  if (typeof v === 'string') {
    // The evaluator's reader (fast for RFC 3339, the JSON's form); it drops the fraction, read here.
    const seconds = timestampSeconds(v);
    if (seconds === undefined || !Number.isFinite(seconds)) return false;
    if (!Number.isInteger(seconds)) return readTimestamp(seconds);
    let nanos = 0;
    const dot = v.indexOf('.');
    if (dot >= 19) {
      let digits = 0;
      for (let i = dot + 1; i < v.length && digits < 9; i++, digits++) {
        const c = v.charCodeAt(i) - 48;
        if (c < 0 || c > 9) break;
        nanos = nanos * 10 + c;
      }
      for (; digits < 9; digits++) nanos *= 10;
    }
    readSeconds = seconds;
    readNanos = nanos;
    return true;
  }
  if (v && typeof v === 'object' && 'seconds' in v) {
    const s = toNum(v.seconds);
    if (!Number.isFinite(s)) return false;
    const n = toNum((v as { nanos?: unknown }).nanos ?? 0);
    readSeconds = s;
    readNanos = Number.isFinite(n) ? n : 0;
    return true;
  }
  return false;
}
