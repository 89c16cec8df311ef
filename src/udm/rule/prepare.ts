// Each variable's events, read once: the UDM event, its time and id, whether it passes the
// variable's own statements, and the values it gives each placeholder the variable binds.
import { distinctKey } from '../functions/aggregates';
import { toStr } from '../functions';
import type { RowCompiler, RowEnv } from './compile';
import type { RuleModel } from './model';

export interface PreparedEvent {
  udm: Record<string, unknown>;
  /** metadata.event_timestamp, ms */
  t: number;
  id?: string;
  /** placeholder → its distinct values on this event, with their keys */
  values: Map<string, { keys: string[]; values: unknown[] }>;
}

export interface PreparedVariable {
  name: string;
  /** by time, then id */
  events: PreparedEvent[];
  /** placeholders this variable binds */
  placeholders: string[];
  /** placeholder → value key → events (in time order) */
  index: Map<string, Map<string, PreparedEvent[]>>;
}

/** At most this many values of one placeholder per event (a repeated field with hundreds of values). */
export const MAX_VALUES_PER_EVENT = 16;

/** The `udm` object of a Search API result, which may come wrapped as `{ udm: … }`. */
export function udmOf(e: unknown): Record<string, unknown> | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const o = e as Record<string, unknown>;
  if (o.udm && typeof o.udm === 'object' && !('metadata' in o)) return o.udm as Record<string, unknown>;
  return o;
}

/** metadata.event_timestamp in ms (RFC 3339 text, as the JSON gives it, or {seconds, nanos}). */
export function eventTime(udm: Record<string, unknown>): number | undefined {
  const meta = udm.metadata as Record<string, unknown> | undefined;
  const ts = meta?.eventTimestamp ?? meta?.event_timestamp;
  if (typeof ts === 'string') {
    const t = Date.parse(ts);
    return Number.isNaN(t) ? undefined : t;
  }
  if (ts && typeof ts === 'object') {
    const s = Number((ts as { seconds?: unknown }).seconds);
    const n = Number((ts as { nanos?: unknown }).nanos ?? 0);
    return Number.isFinite(s) ? s * 1000 + Math.floor(n / 1e6) : undefined;
  }
  return undefined;
}

function eventId(udm: Record<string, unknown>): string | undefined {
  const id = (udm.metadata as Record<string, unknown> | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** A placeholder with no value on an event holds the zero value (""). */
const ZERO = { keys: [''], values: [''] as unknown[] };

export interface PrepareStats {
  withoutTime: number;
  outsideRange: number;
  valuesCut: boolean;
}

export function prepareVariable(
  model: RuleModel,
  compiler: RowCompiler,
  name: string,
  raw: readonly unknown[],
  range: { start: number; end: number } | undefined,
  stats: PrepareStats,
): PreparedVariable {
  const filters = (model.filters.get(name) ?? []).map((f) => compiler.compileExpr(f));
  const bindings = model.bindings
    .filter((b) => b.variable === name)
    .map((b) => ({ placeholder: b.placeholder, read: compiler.values(b.value) }));
  const placeholders = [...new Set(bindings.map((b) => b.placeholder))];
  const env: RowEnv = { events: {}, ph: {} };
  const events: PreparedEvent[] = [];
  for (const item of raw) {
    const udm = udmOf(item);
    if (!udm) continue;
    const t = eventTime(udm);
    if (t === undefined) {
      stats.withoutTime++;
      continue;
    }
    if (range && (t < range.start || t >= range.end)) {
      stats.outsideRange++;
      continue;
    }
    env.events[name] = udm;
    let pass = true;
    try {
      for (const f of filters) if (!f(env)) pass = false;
    } catch {
      pass = false; // external JSON of a shape the evaluator did not foresee
    }
    if (!pass) continue;
    const values = new Map<string, { keys: string[]; values: unknown[] }>();
    for (const b of bindings) {
      let read: unknown[];
      try {
        read = b.read(env);
      } catch {
        read = [];
      }
      const mine = distinctValues(read, stats);
      const before = values.get(b.placeholder);
      // Two bindings of one placeholder on one event: the event must give both the same value.
      values.set(b.placeholder, before ? intersect(before, mine) : mine);
    }
    if ([...values.values()].some((v) => v.keys.length === 0)) continue;
    const id = eventId(udm);
    events.push({ udm, t, ...(id !== undefined ? { id } : {}), values });
  }
  events.sort((a, b) => a.t - b.t || ((a.id ?? '') < (b.id ?? '') ? -1 : (a.id ?? '') > (b.id ?? '') ? 1 : 0));
  const index = new Map<string, Map<string, PreparedEvent[]>>();
  for (const p of placeholders) {
    const m = new Map<string, PreparedEvent[]>();
    for (const e of events)
      for (const k of e.values.get(p)!.keys) {
        let list = m.get(k);
        if (!list) m.set(k, (list = []));
        list.push(e);
      }
    index.set(p, m);
  }
  return { name, events, placeholders, index };
}

function distinctValues(read: unknown[], stats: PrepareStats): { keys: string[]; values: unknown[] } {
  if (read.length === 0) return ZERO;
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const v of read) {
    if (v === undefined || v === null) continue;
    const k = keyOf(v);
    if (keys.includes(k)) continue;
    if (keys.length >= MAX_VALUES_PER_EVENT) {
      stats.valuesCut = true;
      break;
    }
    keys.push(k);
    values.push(v);
  }
  return keys.length ? { keys, values } : ZERO;
}

/** Join key of a value: 80 and "80" join, as the search compares them. */
export function keyOf(v: unknown): string {
  return typeof v === 'number' || typeof v === 'boolean' ? toStr(v) : distinctKey(v);
}

function intersect(
  a: { keys: string[]; values: unknown[] },
  b: { keys: string[]; values: unknown[] },
): { keys: string[]; values: unknown[] } {
  const keys: string[] = [];
  const values: unknown[] = [];
  a.keys.forEach((k, i) => {
    if (b.keys.includes(k)) {
      keys.push(k);
      values.push(a.values[i]);
    }
  });
  return { keys, values };
}
