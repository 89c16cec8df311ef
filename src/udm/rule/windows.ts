// The match windows as Google documents them ("YARA-L 2.0 windowing logic"). Rows (joined events)
// are grouped by their match values (a zero value drops the row unless allow_zero_values); within
// a group, each window is [start, end) and holds the rows whose events all lie inside it:
// - hop (`over d`): windows of length d placed every hop (hopOf: d / 24 in whole minutes, at least
//   one), aligned to multiples of the hop since the epoch (UTC). An event can be in several
//   windows, so a burst's peak shows; windows holding the same rows give one candidate, reported
//   with the earliest of them. SecOps places its own windows (the hop is not published).
// - sliding (`over d after $pivot` / `before $pivot`): one window per event of the pivot variable,
//   [t, t + d) after it, (t - d, t] before it (as [t - d + 1 ms, t + 1 ms)); no pivot is skipped.
// - tumbling (`by d`): fixed, non-overlapping buckets [k·d, (k + 1)·d) aligned on the epoch.
// Without a window the whole group is one candidate; without match:, every row is its own.
// Each row a window scans spends the run's work budget.
import type { Row } from './join';
import type { RuleModel, WindowSpec } from './model';
import type { PreparedEvent } from './prepare';
import { lowerBound } from './sorted';
import type { WorkBudget } from './work';

export interface WindowCandidate {
  group: Record<string, unknown>;
  rows: Row[];
  /** ms since the epoch; the window is [start, end) (start = end for a rule without match:) */
  start: number;
  end: number;
}

export type Decide = (c: WindowCandidate) => void;

export interface Group {
  values: Record<string, unknown>;
  rows: Row[];
}

const MINUTE = 60_000;

/** The hop of an `over d` window: d / 24 rounded down to whole minutes, at least one minute. */
export function hopOf(duration: number): number {
  return Math.max(1, Math.floor(duration / MINUTE / 24)) * MINUTE;
}

/** A duration as a reader says it: "24 h", "2 min", "1 h 30 min". */
export function durationText(ms: number): string {
  const minutes = Math.round(ms / MINUTE);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h && m) return `${h} h ${m} min`;
  return h ? `${h} h` : `${m} min`;
}

/** The sentence that names the window model the test computed, or undefined without a window. */
export function windowModelNote(window: WindowSpec | undefined): string | undefined {
  if (!window) return undefined;
  const d = durationText(window.duration);
  if (window.kind === 'hop')
    return `Hop windows of ${d} placed every ${durationText(hopOf(window.duration))} (aligned on the epoch, UTC), each [start, end); SecOps places its own, so counts can differ.`;
  if (window.kind === 'tumbling')
    return `Tumbling windows of ${d}, fixed and non-overlapping, aligned on the epoch (UTC), each [start, end).`;
  const pivot = window.pivot!;
  return pivot.kind === 'after'
    ? `Sliding windows of ${d} after each $${pivot.variable} event, one per event, each [start, end).`
    : `Sliding windows of ${d} before each $${pivot.variable} event (which they include), one per event, each [start, end).`;
}

function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === 0 || v === '0' || v === false;
}

/** Rows by match values, in the order groups first appear. */
export function groupRows(model: RuleModel, rows: Row[]): Group[] {
  const groups = new Map<string, Group>();
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

/** Without match: one candidate per event (per combination of events), however many rows it makes. */
function perEvent(rows: Row[], decide: Decide): void {
  // A repeated field that gives a placeholder several values makes several rows of one event.
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
}

/**
 * Scans windows of one group, each given as [start, end), and hands each set of rows not seen yet
 * to `decide`. Rows are sorted by minT. Returns false when the budget stopped the scan.
 */
class WindowScan {
  private readonly seen = new Set<string>();

  constructor(
    private readonly group: Group,
    private readonly rows: Row[],
    private readonly decide: Decide,
    private readonly work: WorkBudget,
  ) {}

  /** The window [start, end); `from` is the first row with minT ≥ start. */
  window(start: number, end: number, from: number): boolean {
    const rows = this.rows;
    const inside: number[] = [];
    for (let i = from; i < rows.length && rows[i].minT < end; i++) {
      if (!this.work.spend()) return false;
      if (rows[i].maxT < end) inside.push(i);
    }
    if (inside.length === 0) return true;
    // The same rows in another window: one candidate. Contiguous runs (the usual case) key short.
    const first = inside[0];
    const last = inside[inside.length - 1];
    const key = last - first + 1 === inside.length ? `${first}-${last}` : inside.join(',');
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    this.decide({ group: this.group.values, rows: inside.map((i) => rows[i]), start, end });
    return true;
  }
}

function hopWindows(scan: WindowScan, rows: Row[], duration: number, work: WorkBudget): boolean {
  const hop = hopOf(duration);
  // The first window that ends after the earliest row starts: start > minT - duration.
  let k = Math.floor((rows[0].minT - duration) / hop) + 1;
  let from = 0;
  while (from < rows.length) {
    const start = k * hop;
    while (from < rows.length && rows[from].minT < start) from++;
    if (from >= rows.length) break;
    if (rows[from].minT >= start + duration) {
      // No row starts in this window: go to the first window that can hold the next row.
      k = Math.max(k + 1, Math.floor((rows[from].minT - duration) / hop) + 1);
      continue;
    }
    if (!work.spend() || !scan.window(start, start + duration, from)) return false;
    k++;
  }
  return true;
}

function slidingWindows(scan: WindowScan, rows: Row[], window: WindowSpec, pivotAt: number): boolean {
  const seen = new Set<PreparedEvent>();
  for (const r of rows) {
    const p = r.events[pivotAt];
    if (p) seen.add(p);
  }
  const pivots = [...seen].sort((a, b) => a.t - b.t || ((a.id ?? '') < (b.id ?? '') ? -1 : 1));
  const before = window.pivot?.kind === 'before';
  for (const p of pivots) {
    // Integer milliseconds: (t - d, t] is [t - d + 1, t + 1).
    const start = before ? p.t - window.duration + 1 : p.t;
    const end = start + window.duration;
    if (
      !scan.window(
        start,
        end,
        lowerBound(rows, start, (r) => r.minT),
      )
    )
      return false;
  }
  return true;
}

function tumblingWindows(scan: WindowScan, rows: Row[], duration: number): boolean {
  let from = 0;
  while (from < rows.length) {
    const start = Math.floor(rows[from].minT / duration) * duration;
    if (!scan.window(start, start + duration, from)) return false;
    while (from < rows.length && rows[from].minT < start + duration) from++;
  }
  return true;
}

/** Runs the window model over one group; returns false when the work budget stopped it. */
export function windowsOfGroup(
  model: RuleModel,
  order: string[],
  group: Group,
  decide: Decide,
  work: WorkBudget,
): boolean {
  if (!work.spend(group.rows.length)) return false;
  const rows = [...group.rows].sort((a, b) => a.minT - b.minT || a.maxT - b.maxT);
  const w = model.window;
  if (!model.hasMatch) {
    perEvent(rows, decide);
    return true;
  }
  if (rows.length === 0) return true;
  if (!w) {
    const end = rows.reduce((m, r) => Math.max(m, r.maxT), -Infinity);
    decide({ group: group.values, rows, start: rows[0].minT, end: end + 1 });
    return true;
  }
  const scan = new WindowScan(group, rows, decide, work);
  if (w.kind === 'tumbling') return tumblingWindows(scan, rows, w.duration);
  if (w.kind === 'sliding' && w.pivot) {
    const pivotAt = order.indexOf(w.pivot.variable);
    // A pivot the test cannot read (an entity variable) opens no window: the group is one.
    if (pivotAt >= 0) return slidingWindows(scan, rows, w, pivotAt);
  }
  return hopWindows(scan, rows, w.duration, work);
}
