// Messages between the extension host and the statistics worker (compute-worker.ts): the query
// first, then the events in slices (counted into their groups as each slice comes, while the rest
// of the answer may still be on the wire), then the request for the table.
import type { StatsResult } from '../../udm/stats';

/** What the table is of: the first message to a worker. */
export interface BeginRequest {
  type: 'begin';
  query: string;
  referenceLists: Record<string, string[]>;
  timeZone: string;
}

/**
 * The `udm` objects of the events, in slices: copying 200,000 events in one message would hold the
 * extension host's thread for seconds; slices let it answer in between.
 */
export interface EventsSlice {
  type: 'events';
  events: unknown[];
}

/** The table over every event sent: the last message; the worker ends with its answer. */
export interface ComputeRequest {
  type: 'compute';
}

export type ToStatsWorker = BeginRequest | EventsSlice | ComputeRequest;

export const EVENTS_PER_SLICE = 2000;

export type ComputeReply = { type: 'result'; result: StatsResult } | { type: 'error'; message: string };

/** The message a worker was sent, or undefined for one of another shape. */
export function toStatsWorker(v: unknown): ToStatsWorker | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const m = v as Omit<Partial<BeginRequest>, 'type'> & { type?: unknown; events?: unknown };
  if (m.type === 'events') return Array.isArray(m.events) ? (m as EventsSlice) : undefined;
  if (m.type === 'compute') return { type: 'compute' };
  if (m.type !== 'begin') return undefined;
  const lists = m.referenceLists;
  const ok =
    typeof m.query === 'string' &&
    typeof m.timeZone === 'string' &&
    typeof lists === 'object' &&
    lists !== null &&
    Object.values(lists).every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'));
  return ok ? (m as BeginRequest) : undefined;
}

export function isComputeReply(v: unknown): v is ComputeReply {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { type?: unknown; result?: unknown; message?: unknown };
  if (r.type === 'error') return typeof r.message === 'string';
  if (r.type !== 'result' || typeof r.result !== 'object' || r.result === null) return false;
  const result = r.result as Partial<StatsResult>;
  return Array.isArray(result.columns) && Array.isArray(result.rows) && Array.isArray(result.warnings);
}
