// The statistics view's protocol and the pure parts both sides share: messages (checked on arrival),
// cell text, exports of the whole table, the chart a table's shape suggests, and the estimate of the
// searches that fetching the rest would spend. No vscode and no DOM here.
import { csvDocument } from '../../csv';
import type { ExportFormat } from '../results/export';
import { cellText, columnLabel } from '../../../udm/stats/format';
import type { ColumnRole, ColumnType, StatsColumn } from '../../../udm/stats/plan';
import { assertTypedMessage, isRecord } from '../page-message';

export interface StatsRunInfo {
  runId: string;
  /** The query on one line, for the header. */
  title: string;
  /** RFC 3339 window searched. */
  startTime: string;
  endTime: string;
  /** Events fetched from the API (after removing repeats), and udmSearch calls spent on them. */
  eventsFetched: number;
  searches: number;
  /** Groups before condition:/limit: dropped some. */
  groupsTotal: number;
  /** Set when the table was computed over part of the matching events: why. */
  partial?: string;
  timeZone: string;
  warnings: string[];
  /** When the table was computed (RFC 3339): a panel restored after a reload names it. */
  ranAt?: string;
  /** The table came from the kept copy of the run, not from a search just now. */
  restored?: boolean;
}

export type ToStatsView =
  | { type: 'running'; title: string; message: string }
  | { type: 'progress'; events: number; searches: number; windowsPending: number }
  | { type: 'table'; run: StatsRunInfo; columns: StatsColumn[]; rowsJson: string }
  | { type: 'failed'; title: string; message: string; cancelled: boolean };

export type FromStatsView =
  | { type: 'ready' }
  | { type: 'export'; runId: string; format: ExportFormat }
  | { type: 'openGroup'; runId: string; row: number }
  | { type: 'copy'; text: string }
  | { type: 'stop' }
  /** Run Again on a table restored after a reload. */
  | { type: 'rerun'; runId: string };

export class StatsMessageError extends Error {
  override readonly name = 'StatsMessageError';
}

/** Copied text is bounded: a table of 10,000 groups as CSV stays far below this. */
export const MAX_COPY_CHARS = 50_000_000;

function runIdOf(o: Record<string, unknown>): string {
  const v = o.runId;
  if (typeof v !== 'string' || v.length === 0 || v.length > 100)
    throw new StatsMessageError(`${String(o.type)}.runId must be a short string`);
  return v;
}

/** Checks a message from the statistics page; throws StatsMessageError naming what is wrong. */
export function parseFromStatsView(data: unknown): FromStatsView {
  assertTypedMessage(data, StatsMessageError);
  switch (data.type) {
    case 'ready':
    case 'stop':
      return { type: data.type };
    case 'export': {
      const format = data.format;
      if (format !== 'csv' && format !== 'json' && format !== 'ndjson')
        throw new StatsMessageError('export.format must be csv, json or ndjson');
      return { type: 'export', runId: runIdOf(data), format };
    }
    case 'openGroup': {
      const row = data.row;
      if (typeof row !== 'number' || !Number.isSafeInteger(row) || row < 0)
        throw new StatsMessageError('openGroup.row must be a non-negative integer');
      return { type: 'openGroup', runId: runIdOf(data), row };
    }
    case 'rerun':
      return { type: 'rerun', runId: runIdOf(data) };
    case 'copy': {
      const text = data.text;
      if (typeof text !== 'string' || text.length > MAX_COPY_CHARS)
        throw new StatsMessageError(`copy.text must be a string of at most ${MAX_COPY_CHARS} characters`);
      return { type: 'copy', text };
    }
    default:
      throw new StatsMessageError(`unknown message type ${JSON.stringify(data.type).slice(0, 60)}`);
  }
}

const ROLES: readonly ColumnRole[] = ['key', 'bucket', 'outcome'];
const TYPES: readonly ColumnType[] = ['string', 'number', 'bool', 'timestamp', 'array', 'mixed'];

/** Checks a message for the page (the page trusts the extension no more than the other way round). */
export function parseToStatsView(data: unknown): ToStatsView {
  if (!isRecord(data) || typeof data.type !== 'string') throw new StatsMessageError('a message must have a type');
  const str = (key: string): string => {
    const v = data[key];
    if (typeof v !== 'string') throw new StatsMessageError(`${String(data.type)}.${key} must be a string`);
    return v;
  };
  const num = (o: Record<string, unknown>, key: string): number => {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new StatsMessageError(`${key} must be a non-negative number`);
    return v;
  };
  switch (data.type) {
    case 'running':
      return { type: 'running', title: str('title'), message: str('message') };
    case 'progress':
      return {
        type: 'progress',
        events: num(data, 'events'),
        searches: num(data, 'searches'),
        windowsPending: num(data, 'windowsPending'),
      };
    case 'failed':
      return { type: 'failed', title: str('title'), message: str('message'), cancelled: data.cancelled === true };
    case 'table': {
      const run = data.run;
      if (!isRecord(run)) throw new StatsMessageError('table.run must be an object');
      const text = (key: string): string => {
        const v = run[key];
        if (typeof v !== 'string') throw new StatsMessageError(`table.run.${key} must be a string`);
        return v;
      };
      const columns = data.columns;
      if (!Array.isArray(columns) || columns.length > 1000)
        throw new StatsMessageError('table.columns must be an array');
      const checked = columns.map((c, i): StatsColumn => {
        if (
          !isRecord(c) ||
          typeof c.name !== 'string' ||
          !ROLES.includes(c.role as ColumnRole) ||
          !TYPES.includes(c.type as ColumnType)
        )
          throw new StatsMessageError(`table.columns[${i}] must be {name, role, type}`);
        return { name: c.name, role: c.role as ColumnRole, type: c.type as ColumnType };
      });
      const warnings = Array.isArray(run.warnings) ? run.warnings.filter((w) => typeof w === 'string') : [];
      return {
        type: 'table',
        run: {
          runId: text('runId'),
          title: text('title'),
          startTime: text('startTime'),
          endTime: text('endTime'),
          eventsFetched: num(run, 'eventsFetched'),
          searches: num(run, 'searches'),
          groupsTotal: num(run, 'groupsTotal'),
          ...(typeof run.partial === 'string' ? { partial: run.partial } : {}),
          timeZone: text('timeZone'),
          warnings,
          ...(typeof run.ranAt === 'string' && run.ranAt.length <= 64 ? { ranAt: run.ranAt } : {}),
          ...(run.restored === true ? { restored: true } : {}),
        },
        columns: checked,
        rowsJson: str('rowsJson'),
      };
    }
    default:
      throw new StatsMessageError('unknown message type');
  }
}

/** Rows of a table message; anything but an array of arrays is refused. */
export function decodeStatsRows(rowsJson: string, width: number): unknown[][] {
  let rows: unknown;
  try {
    rows = JSON.parse(rowsJson);
  } catch {
    throw new StatsMessageError('rowsJson is not valid JSON');
  }
  if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.length === width))
    throw new StatsMessageError('rowsJson must hold one array per row, one value per column');
  return rows as unknown[][];
}

// ---- cell text ---------------------------------------------------------------------------------

export { cellText, columnLabel } from '../../../udm/stats/format';

export function tableToCsv(columns: readonly StatsColumn[], rows: readonly unknown[][], timeZone: string): string {
  return csvDocument([
    columns.map((c) => columnLabel(c)),
    ...rows.map((row) => columns.map((c, i) => cellText(row[i], c, timeZone))),
  ]);
}

/** JSON and NDJSON rows are objects keyed by column name; timestamps become RFC 3339 (UTC) text. */
export function tableToObjects(columns: readonly StatsColumn[], rows: readonly unknown[][]): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    columns.forEach((c, i) => {
      const v = row[i];
      out[c.role === 'outcome' ? c.name : c.role === 'bucket' ? 'time_bucket' : c.name] =
        c.type === 'timestamp' && typeof v === 'number' ? new Date(v * 1000).toISOString() : (v ?? null);
    });
    return out;
  });
}

export function exportTable(
  format: ExportFormat,
  columns: readonly StatsColumn[],
  rows: readonly unknown[][],
  timeZone: string,
): string {
  switch (format) {
    case 'csv':
      return tableToCsv(columns, rows, timeZone);
    case 'json':
      return JSON.stringify(tableToObjects(columns, rows), null, 2) + '\n';
    case 'ndjson':
      return tableToObjects(columns, rows)
        .map((o) => JSON.stringify(o) + '\n')
        .join('');
  }
}

// ---- charts --------------------------------------------------------------------------------------

export type ChartKind = 'bar' | 'timeseries' | 'stacked' | 'grouped' | 'table';

export const CHART_LABELS: Record<ChartKind, string> = {
  bar: 'Bars',
  timeseries: 'Time series',
  stacked: 'Stacked bars',
  grouped: 'Grouped bars',
  table: 'Table only',
};

/** The charts a table's shape allows, best first; "table" is always last. */
export function chartChoices(columns: readonly StatsColumn[]): ChartKind[] {
  const numeric = columns.filter((c) => c.role === 'outcome' && c.type === 'number');
  const keys = columns.filter((c) => c.role === 'key');
  const bucket = columns.some((c) => c.role === 'bucket');
  const out: ChartKind[] = [];
  if (numeric.length > 0) {
    if (bucket && keys.length <= 1) out.push('timeseries');
    if (!bucket && keys.length === 1) out.push('bar');
    if ((keys.length === 2 && !bucket) || (keys.length === 1 && bucket)) out.push('stacked', 'grouped');
    if (bucket && keys.length === 0) out.push('bar');
  }
  out.push('table');
  return out;
}

export interface ChartData {
  /** Category labels (x axis): a key's values or time buckets. */
  labels: string[];
  datasets: Array<{ label: string; data: Array<number | null> }>;
  /** Categories or series left out to keep the chart readable. */
  omitted: number;
  valueLabel: string;
}

/** At most this many categories (bars) and series (stacks, lines) are drawn. */
export const MAX_CATEGORIES = 50;
export const MAX_SERIES = 10;

/**
 * The chart's data from the (sorted, filtered) rows: x is the bucket or the first key, series are
 * the second grouping column when there is one, values the first numeric outcome.
 */
export function chartData(
  kind: ChartKind,
  columns: readonly StatsColumn[],
  rows: readonly unknown[][],
  timeZone: string,
): ChartData | undefined {
  if (kind === 'table') return undefined;
  const valueIndex = columns.findIndex((c) => c.role === 'outcome' && c.type === 'number');
  if (valueIndex < 0) return undefined;
  const bucketIndex = columns.findIndex((c) => c.role === 'bucket');
  const keyIndices = columns.map((c, i) => (c.role === 'key' ? i : -1)).filter((i) => i >= 0);
  const xIndex = bucketIndex >= 0 ? bucketIndex : keyIndices[0];
  if (xIndex === undefined) return undefined;
  const seriesIndex = bucketIndex >= 0 ? keyIndices[0] : keyIndices[1];
  const valueLabel = columnLabel(columns[valueIndex]);
  const text = (row: unknown[], i: number): string => cellText(row[i], columns[i], timeZone);
  const value = (row: unknown[]): number | null => (typeof row[valueIndex] === 'number' ? row[valueIndex] : null);

  // x categories in order of first appearance (time order for buckets)
  let xs: unknown[] = [];
  const seenX = new Set<string>();
  for (const row of rows) {
    const k = text(row, xIndex);
    if (!seenX.has(k)) {
      seenX.add(k);
      xs.push(row[xIndex]);
    }
  }
  if (bucketIndex >= 0) xs.sort((a, b) => Number(a) - Number(b));
  let omitted = 0;
  if (xs.length > (bucketIndex >= 0 ? 2000 : MAX_CATEGORIES)) {
    const cap = bucketIndex >= 0 ? 2000 : MAX_CATEGORIES;
    omitted += xs.length - cap;
    xs = xs.slice(0, cap);
  }
  const labels = xs.map((x) => cellText(x, columns[xIndex], timeZone));
  const position = new Map(labels.map((l, i) => [l, i]));

  if (seriesIndex === undefined || kind === 'bar') {
    const data: Array<number | null> = labels.map(() => null);
    for (const row of rows) {
      const p = position.get(text(row, xIndex));
      if (p === undefined) continue;
      const v = value(row);
      if (v !== null) data[p] = (data[p] ?? 0) + v;
    }
    return { labels, datasets: [{ label: valueLabel, data }], omitted, valueLabel };
  }
  // one series per value of the series column, the largest totals first
  const totals = new Map<string, number>();
  for (const row of rows) {
    const s = text(row, seriesIndex);
    totals.set(s, (totals.get(s) ?? 0) + (value(row) ?? 0));
  }
  const series = [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([s]) => s);
  const kept = series.slice(0, MAX_SERIES);
  omitted += series.length - kept.length;
  const datasets = kept.map((label) => ({ label, data: labels.map((): number | null => null) }));
  const seriesPosition = new Map(kept.map((s, i) => [s, i]));
  for (const row of rows) {
    const p = position.get(text(row, xIndex));
    const s = seriesPosition.get(text(row, seriesIndex));
    if (p === undefined || s === undefined) continue;
    const v = value(row);
    if (v !== null) datasets[s].data[p] = (datasets[s].data[p] ?? 0) + v;
  }
  return { labels, datasets, omitted, valueLabel };
}

// ---- fetching the rest ---------------------------------------------------------------------------

/**
 * Searches that fetching the rest of a truncated answer would likely spend, from the time span the
 * first answer covered: if `limit` events covered a fraction f of the window, the window holds about
 * limit / f events; halving windows until each holds fewer than `limit` costs about twice as many
 * searches as final windows. At least 2 (the first split); undefined when the first answer says
 * nothing about the spread (it covers the whole window).
 */
export function estimateSearches(
  windowStartMs: number,
  windowEndMs: number,
  eventTimesMs: readonly number[],
  limit: number,
): { atLeast: number; likely?: number } {
  const width = windowEndMs - windowStartMs;
  if (!(width > 0) || eventTimesMs.length === 0) return { atLeast: 2 };
  let lo = Infinity;
  let hi = -Infinity;
  for (const t of eventTimesMs) {
    if (!Number.isFinite(t)) continue;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  const covered = Math.max(hi - lo, width / 1000);
  const fraction = covered / width;
  if (!(fraction > 0) || fraction > 0.9) return { atLeast: 2 };
  const total = Math.max(eventTimesMs.length, limit) / fraction;
  const leaves = Math.ceil((total / limit) * 1.5);
  return { atLeast: 2, likely: Math.max(2, 2 * leaves - 2) };
}
