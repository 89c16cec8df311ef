// The window model: rows are grouped by their match values (a zero value drops the row unless
// allow_zero_values), then, within a group in time order, an anchor opens the window
// [t, t + duration] (both ends inclusive; [t - duration, t] for `before $pivot`). Every event of the
// group anchors a hop window (`over 24h`); only the pivot variable's events anchor a sliding one
// (`over 2h after $dns`). The rows lying wholly inside the window make a candidate; if the condition
// holds it is one detection and the next anchor is the first after the window's end, otherwise the
// next anchor is tried. Events already in a detection of the group are not used again, so
// detections of a group never share events. `by` windows are fixed buckets aligned on the epoch.
// Without match:, every row is its own detection.
import type { Row } from './join';
import { lowerBound } from './sorted';
import type { RuleModel } from './model';
import type { PreparedEvent } from './prepare';

export interface WindowCandidate {
  group: Record<string, unknown>;
  rows: Row[];
  start: number;
  end: number;
}

/** Decides a candidate: true when it became a detection (its events are then used). */
export type Decide = (c: WindowCandidate) => boolean;

export interface WindowLimits {
  /** rows looked at across all windows before the test stops */
  maxScans: number;
}

export const DEFAULT_WINDOW_LIMITS: WindowLimits = { maxScans: 5_000_000 };

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === '0' || v === false;
}

/** Rows by match values, in the order groups first appear. */
export function groupRows(model: RuleModel, rows: Row[]): Array<{ values: Record<string, unknown>; rows: Row[] }> {
  const groups = new Map<string, { values: Record<string, unknown>; rows: Row[] }>();
  for (const row of rows) {
    const values: Record<string, unknown> = {};
    const keys: string[] = [];
    let zero = false;
    for (const m of model.match) {
      const v = row.ph[m.placeholder];
      if (isZero(v)) zero = true;
      values[m.name] = v ?? '';
      keys.push(row.keys[m.placeholder] ?? '');
    }
    if (zero && !model.allowZeroValues) continue;
    const k = JSON.stringify(keys);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { values, rows: [] }));
    g.rows.push(row);
  }
  return [...groups.values()];
}

/** Runs the window model over one group; returns false when the scan cap stopped it. */
export function windowsOfGroup(
  model: RuleModel,
  order: string[],
  group: { values: Record<string, unknown>; rows: Row[] },
  decide: Decide,
  budget: { scans: number },
): boolean {
  const rows = [...group.rows].sort((a, b) => a.minT - b.minT || a.maxT - b.maxT);
  const w = model.window;
  if (!model.hasMatch) {
    // One detection per event (per combination of events): a repeated field that gives a
    // placeholder several values makes several rows of the same event, not several detections.
    const byEvents = new Map<string, Row[]>();
    const ids = new Map<PreparedEvent, number>();
    const idOf = (e: PreparedEvent | undefined): number => {
      if (!e) return -1;
      let id = ids.get(e);
      if (id === undefined) ids.set(e, (id = ids.size));
      return id;
    };
    for (const row of rows) {
      const k = row.events.map(idOf).join(',');
      const list = byEvents.get(k);
      if (list) list.push(row);
      else byEvents.set(k, [row]);
    }
    for (const list of byEvents.values()) decide({ group: {}, rows: list, start: list[0].minT, end: list[0].maxT });
    return true;
  }
  if (!w) {
    const end = rows.reduce((m, r) => Math.max(m, r.maxT), -Infinity);
    decide({ group: group.values, rows, start: rows[0].minT, end });
    return true;
  }
  if (w.kind === 'tumbling') {
    const buckets = new Map<number, Row[]>();
    for (const r of rows) {
      const b = Math.floor(r.minT / w.duration) * w.duration;
      if (r.maxT >= b + w.duration) continue;
      let list = buckets.get(b);
      if (!list) buckets.set(b, (list = []));
      list.push(r);
    }
    for (const [b, list] of buckets) decide({ group: group.values, rows: list, start: b, end: b + w.duration - 1 });
    return true;
  }
  const pivotAt = w.pivot ? order.indexOf(w.pivot.variable) : -1;
  const anchors = anchorEvents(rows, pivotAt);
  const used = new Set<PreparedEvent>();
  let i = 0;
  let lastFailed: number | undefined;
  while (i < anchors.length) {
    const t = anchors[i].t;
    // An anchor at the time of one that just failed opens the same window.
    if (t === lastFailed) {
      i++;
      continue;
    }
    const before = w.pivot?.kind === 'before';
    const start = before ? t - w.duration : t;
    const end = before ? t : t + w.duration;
    const inside: Row[] = [];
    for (let k = lowerBound(rows, start, (r) => r.minT); k < rows.length && rows[k].minT <= end; k++) {
      if (--budget.scans < 0) return false;
      const r = rows[k];
      if (r.maxT > end || r.events.some((e) => e !== undefined && used.has(e))) continue;
      inside.push(r);
    }
    if (inside.length > 0 && decide({ group: group.values, rows: inside, start, end })) {
      for (const r of inside) for (const e of r.events) if (e) used.add(e);
      lastFailed = undefined;
      while (i < anchors.length && anchors[i].t <= end) i++;
    } else {
      lastFailed = t;
      i++;
    }
  }
  return true;
}

/** The anchors of a group, in time order: every event (hop) or the pivot's events (sliding). */
function anchorEvents(rows: Row[], pivotAt: number): PreparedEvent[] {
  const seen = new Set<PreparedEvent>();
  for (const r of rows) {
    if (pivotAt >= 0) {
      const p = r.events[pivotAt];
      if (p) seen.add(p);
    } else for (const e of r.events) if (e) seen.add(e);
  }
  return [...seen].sort((a, b) => a.t - b.t || ((a.id ?? '') < (b.id ?? '') ? -1 : 1));
}
