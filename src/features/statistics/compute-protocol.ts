// Messages between the extension host and the statistics worker (compute-worker.ts).
import type { StatsResult } from '../../udm/stats';

export interface ComputeRequest {
  type: 'compute';
  query: string;
  referenceLists: Record<string, string[]>;
  /** the `udm` objects of the fetched events */
  events: unknown[];
  timeZone: string;
}

/**
 * Events go to the worker in slices before the request: copying 200,000 events in one message
 * would hold the extension host's thread for seconds; slices let it answer in between.
 */
export interface EventsSlice {
  type: 'events';
  events: unknown[];
}

export const EVENTS_PER_SLICE = 2000;

export function isEventsSlice(v: unknown): v is EventsSlice {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as EventsSlice).type === 'events' &&
    Array.isArray((v as EventsSlice).events)
  );
}

export type ComputeReply = { type: 'result'; result: StatsResult } | { type: 'error'; message: string };

export function isComputeRequest(v: unknown): v is ComputeRequest {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<ComputeRequest>;
  return (
    r.type === 'compute' &&
    typeof r.query === 'string' &&
    typeof r.timeZone === 'string' &&
    Array.isArray(r.events) &&
    typeof r.referenceLists === 'object' &&
    r.referenceLists !== null &&
    Object.values(r.referenceLists).every((l) => Array.isArray(l) && l.every((x) => typeof x === 'string'))
  );
}

export function isComputeReply(v: unknown): v is ComputeReply {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as { type?: unknown; result?: unknown; message?: unknown };
  if (r.type === 'error') return typeof r.message === 'string';
  if (r.type !== 'result' || typeof r.result !== 'object' || r.result === null) return false;
  const result = r.result as Partial<StatsResult>;
  return Array.isArray(result.columns) && Array.isArray(result.rows) && Array.isArray(result.warnings);
}
