// Time buckets for `match: ... by 1h` / `over every day`, on the local clock of a time zone.
//
// Buckets follow the wall clock: an hour bucket starts at a local full hour, a day bucket at local
// midnight, a week bucket on a local Sunday (the first day of the week of timestamp.get_week), a
// month bucket on the local first of the month. Multiples (`by 2h`, `by 3d`) are counted from the
// Unix epoch on the local clock, so `by 2h` starts at even local hours and `by 15m` at :00, :15, …
// Across a daylight-saving change a bucket keeps its wall-clock start: after clocks go back the
// repeated local hour is its own bucket (01:00 EDT and 01:00 EST are two hour buckets), and a
// bucket whose local start does not exist (clocks went forward) starts at the change.
import { WALL_CLOCK } from '../wall-clock';
import type { BucketUnit, TimeBucketSpec } from './plan';

const SLOT = 900; // offsets only ever change on quarter-hour boundaries of UTC time

/** UTC offsets of one time zone, in seconds, cached per quarter hour (one Intl call per slot). */
export class ZoneOffsets {
  private readonly cache = new Map<number, number>();
  private readonly format: Intl.DateTimeFormat | undefined;
  readonly timeZone: string;

  constructor(timeZone?: string) {
    const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    // Throws RangeError for an unknown zone: the caller says which setting or argument was wrong.
    this.format = new Intl.DateTimeFormat('en-US', { ...WALL_CLOCK, timeZone: zone, era: 'short' });
    this.timeZone = this.format.resolvedOptions().timeZone;
    if (this.timeZone === 'UTC' || this.timeZone === 'Etc/UTC') this.format = undefined;
  }

  /** Seconds to add to a UTC instant (epoch seconds) to get the local wall-clock time. */
  offsetAt(epochSeconds: number): number {
    if (!this.format) return 0;
    const slot = Math.floor(epochSeconds / SLOT);
    let off = this.cache.get(slot);
    if (off === undefined) {
      off = this.compute(slot * SLOT);
      if (this.cache.size > 100_000) this.cache.clear();
      this.cache.set(slot, off);
    }
    return off;
  }

  private compute(epochSeconds: number): number {
    const parts = this.format!.formatToParts(new Date(epochSeconds * 1000));
    const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
    let year = get('year');
    if (parts.find((p) => p.type === 'era')?.value === 'BC') year = 1 - year;
    const wall = Date.UTC(year, get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) / 1000;
    return Math.round(wall - epochSeconds);
  }

  /**
   * The instant at which a local wall-clock time happens. `hint` (an offset seen nearby) decides
   * between the two instants of a repeated local time; a local time that does not exist (skipped
   * by a clock change) resolves to the moment of the change.
   */
  instantOf(wallSeconds: number, hint: number): number {
    const c1 = wallSeconds - hint;
    const o1 = this.offsetAt(c1);
    if (o1 === hint) return c1;
    const c2 = wallSeconds - o1;
    if (this.offsetAt(c2) === o1) return c2;
    return Math.max(c1, c2);
  }
}

const DAY = 86_400;
/** 1970-01-01 was a Thursday; weeks start on Sunday, so the epoch week starts on 1969-12-28. */
const EPOCH_WEEK_SHIFT = 4;

/** Start (epoch seconds) of the bucket holding `epochSeconds`. */
export function bucketStart(epochSeconds: number, spec: TimeBucketSpec, zone: ZoneOffsets): number {
  const off = zone.offsetAt(epochSeconds);
  const wall = epochSeconds + off;
  const n = Math.max(1, Math.floor(spec.count));
  let wallStart: number;
  switch (spec.unit) {
    case 'minute':
      wallStart = floorTo(wall, 60 * n);
      break;
    case 'hour':
      wallStart = floorTo(wall, 3600 * n);
      break;
    case 'day':
      wallStart = floorTo(wall, DAY * n);
      break;
    case 'week': {
      const day = Math.floor(wall / DAY);
      const weeks = Math.floor((day + EPOCH_WEEK_SHIFT) / 7);
      wallStart = (Math.floor(weeks / n) * n * 7 - EPOCH_WEEK_SHIFT) * DAY;
      break;
    }
    case 'month': {
      const d = new Date(Math.floor(wall) * 1000);
      const index = d.getUTCFullYear() * 12 + d.getUTCMonth();
      const start = Math.floor(index / n) * n;
      wallStart = Date.UTC(Math.floor(start / 12), start % 12, 1) / 1000;
      break;
    }
  }
  return zone.instantOf(wallStart, off);
}

/**
 * Buckets of many events, each numbered 0, 1, 2, … as first seen (a small number is a quick map
 * key). The start is the same for every instant of a quarter hour when the bucket size is a whole
 * number of quarter hours and the zone's offset there is too (it is almost everywhere), so then it
 * is computed once per quarter hour.
 */
export class BucketNumbers {
  /** Start (epoch seconds) of each bucket, by number. */
  readonly starts: number[] = [];
  private readonly byStart = new Map<number, number>();
  private readonly bySlot = new Map<number, number>();
  private readonly wholeSlots: boolean;

  constructor(
    private readonly spec: TimeBucketSpec,
    private readonly zone: ZoneOffsets,
  ) {
    this.wholeSlots = spec.unit !== 'minute' || (Math.max(1, Math.floor(spec.count)) * 60) % SLOT === 0;
  }

  /** The number of the bucket holding `epochSeconds`. */
  of(epochSeconds: number): number {
    const slot = Math.floor(epochSeconds / SLOT);
    const known = this.bySlot.get(slot);
    if (known !== undefined) return known;
    const start = bucketStart(epochSeconds, this.spec, this.zone);
    let n = this.byStart.get(start);
    if (n === undefined) {
      n = this.starts.length;
      this.starts.push(start);
      this.byStart.set(start, n);
    }
    if (this.wholeSlots && this.zone.offsetAt(epochSeconds) % SLOT === 0) {
      if (this.bySlot.size > 100_000) this.bySlot.clear();
      this.bySlot.set(slot, n);
    }
    return n;
  }
}

function floorTo(value: number, size: number): number {
  return Math.floor(value / size) * size;
}

/** Unit names and abbreviations of udm-syntax.md ("minute/m, hour/h, day/d, week/w, month/mo"). */
export function parseBucketUnit(text: string): BucketUnit | undefined {
  switch (text.toLowerCase()) {
    case 'm':
    case 'min':
    case 'minute':
    case 'minutes':
      return 'minute';
    case 'h':
    case 'hour':
    case 'hours':
      return 'hour';
    case 'd':
    case 'day':
    case 'days':
      return 'day';
    case 'w':
    case 'week':
    case 'weeks':
      return 'week';
    case 'mo':
    case 'month':
    case 'months':
      return 'month';
    default:
      return undefined;
  }
}

/** A bucket spec from text such as `2h`, `hour`, `15m`, `mo`. */
export function parseBucket(text: string): TimeBucketSpec | undefined {
  const m = /^\s*(\d+)?\s*([a-z]+)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = parseBucketUnit(m[2]);
  const count = m[1] === undefined ? 1 : Number(m[1]);
  if (!unit || !Number.isSafeInteger(count) || count < 1) return undefined;
  return { count, unit };
}

/** A local wall-clock label with its offset, e.g. `2026-03-08 03:00 -04:00`; seconds only when not zero. */
export function formatInZone(epochSeconds: number, zone: ZoneOffsets): string {
  const off = zone.offsetAt(epochSeconds);
  const d = new Date(Math.floor((epochSeconds + off) * 1000));
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  const secs = d.getUTCSeconds();
  return (
    `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}${secs ? `:${p(secs)}` : ''} ` +
    `${sign}${p(Math.floor(a / 3600))}:${p(Math.floor((a % 3600) / 60))}`
  );
}
