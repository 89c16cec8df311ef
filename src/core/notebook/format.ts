// The `.udmnb` file: a UDM notebook as readable, versioned JSON that diffs well (sources as arrays
// of lines, one key per line), with each cell's kept results bounded so files stay shareable.
import { DISPLAY_LIMIT, MESSAGE_LIMIT, safeText } from '../display';
import { isTimeRangeSpec, describeTimeRange, type TimeRangeSpec } from '../secops/timerange';
import { cellText, defaultColumns, timeField } from '../secops/results/fields';
import { sortNewestFirst } from '../secops/results/table';
import { cellText as statsCellText, columnLabel } from '../../udm/stats/format';
import type { StatsColumn } from '../../udm/stats/plan';

export const NOTEBOOK_FORMAT = 'cloudbench-udm-notebook';
export const NOTEBOOK_VERSION = 1;
/** Rows kept per cell when the setting says nothing else. */
export const DEFAULT_KEEP_ROWS = 1000;
/** The most rows a cell may keep, whatever the setting says (a file stays openable). */
export const MAX_KEEP_ROWS = 10_000;
/** The most rows a cell may ask the Search API for (the API's own ceiling). */
export const MAX_CELL_LIMIT = 10_000;

export interface KeptResults {
  readonly kind: 'results';
  /** RFC 3339 time the search ran. */
  readonly ranAt: string;
  readonly durationMs: number;
  readonly query: string;
  readonly window: { readonly start: string; readonly end: string };
  /** Events the search returned (before bounding). */
  readonly totalEvents: number;
  /** The server cut the answer at the limit. */
  readonly moreDataAvailable: boolean;
  /** Events kept in the file: the first `keptRows` of `totalEvents`. */
  readonly keptRows: number;
  readonly events: readonly unknown[];
}

export interface KeptError {
  readonly kind: 'error';
  readonly ranAt: string;
  readonly message: string;
}

/** A statistical query's table (match/outcome sections computed over the fetched events). */
export interface KeptStatistics {
  readonly kind: 'statistics';
  readonly ranAt: string;
  readonly durationMs: number;
  readonly query: string;
  readonly window: { readonly start: string; readonly end: string };
  readonly eventsFetched: number;
  readonly searches: number;
  /** Why the table is not over every matching event; absent when it is. */
  readonly partial?: string;
  /** The IANA time zone of the time buckets. */
  readonly timeZone: string;
  readonly columns: readonly StatsColumn[];
  /** Rows kept in the file: the first `keptRows` of `totalRows`; timestamps as epoch seconds. */
  readonly rows: readonly (readonly unknown[])[];
  readonly totalRows: number;
  readonly keptRows: number;
  readonly warnings: readonly string[];
}

export type KeptOutput = KeptResults | KeptStatistics | KeptError;

export interface NotebookCellFile {
  readonly kind: 'markdown' | 'udm';
  readonly source: readonly string[];
  /** The cell's own time range; absent means the notebook's. */
  readonly timeRange?: TimeRangeSpec;
  /** The cell's own event limit; absent means the search default. */
  readonly limit?: number;
  readonly executionOrder?: number;
  readonly output?: KeptOutput;
}

export interface NotebookFile {
  readonly format: typeof NOTEBOOK_FORMAT;
  readonly version: typeof NOTEBOOK_VERSION;
  /** The notebook's time range, the default of every cell; absent means the search time range. */
  readonly timeRange?: TimeRangeSpec;
  readonly cells: readonly NotebookCellFile[];
}

export class NotebookFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotebookFormatError';
  }
}

export function emptyNotebook(): NotebookFile {
  return { format: NOTEBOOK_FORMAT, version: NOTEBOOK_VERSION, cells: [] };
}

export function sourceLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n');
}

export function sourceText(lines: readonly string[]): string {
  return lines.join('\n');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isLimit(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_CELL_LIMIT;
}

function readOutput(v: unknown, where: string): KeptOutput | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) throw new NotebookFormatError(`${where}: "output" must be an object.`);
  if (v.kind === 'error') {
    if (typeof v.message !== 'string') throw new NotebookFormatError(`${where}: an error output needs a "message".`);
    return { kind: 'error', ranAt: typeof v.ranAt === 'string' ? v.ranAt : '', message: v.message };
  }
  if (v.kind === 'statistics') return readStatistics(v, where);
  if (v.kind !== 'results') throw new NotebookFormatError(`${where}: unknown output kind ${JSON.stringify(v.kind)}.`);
  const events = v.events;
  if (!Array.isArray(events)) throw new NotebookFormatError(`${where}: "events" must be an array.`);
  const win = isObject(v.window) ? v.window : {};
  const totalEvents =
    typeof v.totalEvents === 'number' && v.totalEvents >= events.length ? v.totalEvents : events.length;
  return {
    kind: 'results',
    ranAt: typeof v.ranAt === 'string' ? v.ranAt : '',
    durationMs: typeof v.durationMs === 'number' && v.durationMs >= 0 ? v.durationMs : 0,
    query: typeof v.query === 'string' ? v.query : '',
    window: { start: typeof win.start === 'string' ? win.start : '', end: typeof win.end === 'string' ? win.end : '' },
    totalEvents,
    moreDataAvailable: v.moreDataAvailable === true,
    keptRows: events.length,
    events,
  };
}

const ROLES = new Set(['key', 'bucket', 'outcome']);
const TYPES = new Set(['string', 'number', 'bool', 'timestamp', 'array', 'mixed']);

function readStatistics(v: Record<string, unknown>, where: string): KeptStatistics {
  const columns = v.columns;
  if (
    !Array.isArray(columns) ||
    !columns.every(
      (c) => isObject(c) && typeof c.name === 'string' && ROLES.has(c.role as string) && TYPES.has(c.type as string),
    )
  )
    throw new NotebookFormatError(`${where}: a statistics output needs "columns" with name, role and type.`);
  const rows = v.rows;
  if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.length === columns.length))
    throw new NotebookFormatError(`${where}: every statistics row must have one value per column.`);
  const win = isObject(v.window) ? v.window : {};
  const num = (x: unknown, min: number): number => (typeof x === 'number' && x >= min ? x : min);
  return {
    kind: 'statistics',
    ranAt: typeof v.ranAt === 'string' ? v.ranAt : '',
    durationMs: num(v.durationMs, 0),
    query: typeof v.query === 'string' ? v.query : '',
    window: { start: typeof win.start === 'string' ? win.start : '', end: typeof win.end === 'string' ? win.end : '' },
    eventsFetched: num(v.eventsFetched, 0),
    searches: num(v.searches, 0),
    ...(typeof v.partial === 'string' && v.partial ? { partial: v.partial } : {}),
    timeZone: typeof v.timeZone === 'string' && v.timeZone ? v.timeZone : 'UTC',
    columns: columns as StatsColumn[],
    rows: rows as unknown[][],
    totalRows: num(v.totalRows, rows.length),
    keptRows: rows.length,
    warnings: Array.isArray(v.warnings) ? v.warnings.filter((w): w is string => typeof w === 'string') : [],
  };
}

/** Bounds a statistics table to what the file keeps. */
export function keepStatistics(
  run: Omit<KeptStatistics, 'kind' | 'keptRows' | 'totalRows'>,
  keepRows: number,
): KeptStatistics {
  const rows = run.rows.slice(0, Math.max(0, keepRows));
  return { kind: 'statistics', ...run, rows, totalRows: run.rows.length, keptRows: rows.length };
}

/** One line that says what a statistics output holds. */
export function statisticsNote(out: KeptStatistics): string {
  const rows = `${fmt(out.totalRows)} row${out.totalRows === 1 ? '' : 's'} from ${fmt(out.eventsFetched)} event${out.eventsFetched === 1 ? '' : 's'} (${out.searches} search${out.searches === 1 ? '' : 'es'})`;
  const kept =
    out.keptRows >= out.totalRows
      ? ''
      : out.keptRows === 0
        ? '; no rows kept in the notebook (setting cloudbench.notebook.keepRows is 0)'
        : `; the first ${fmt(out.keptRows)} rows kept in the notebook`;
  return `${rows}${kept}.${out.partial ? ` Partial: ${out.partial}.` : ''}`;
}

/**
 * Reads a `.udmnb` file. An empty file is an empty notebook; anything else that is not this format
 * is refused with a message naming what is wrong, so a file is never silently emptied.
 */
export function parseNotebook(text: string): NotebookFile {
  if (text.trim() === '') return emptyNotebook();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new NotebookFormatError(`The notebook is not valid JSON (${(err as Error).message}).`);
  }
  if (!isObject(raw)) throw new NotebookFormatError('The notebook must be a JSON object.');
  if (raw.format !== NOTEBOOK_FORMAT)
    throw new NotebookFormatError(`This is not a UDM notebook: "format" must be "${NOTEBOOK_FORMAT}".`);
  if (typeof raw.version !== 'number' || raw.version > NOTEBOOK_VERSION)
    throw new NotebookFormatError(
      `This notebook is version ${String(raw.version)}; this Cloudbench reads version ${NOTEBOOK_VERSION}. Update Cloudbench to open it.`,
    );
  if (!Array.isArray(raw.cells)) throw new NotebookFormatError('The notebook has no "cells" array.');
  if (raw.timeRange !== undefined && !isTimeRangeSpec(raw.timeRange))
    throw new NotebookFormatError('The notebook\'s "timeRange" is not a time range.');
  const cells = raw.cells.map((c: unknown, i): NotebookCellFile => {
    const where = `Cell ${i + 1}`;
    if (!isObject(c)) throw new NotebookFormatError(`${where} is not an object.`);
    if (c.kind !== 'markdown' && c.kind !== 'udm')
      throw new NotebookFormatError(`${where}: "kind" must be "markdown" or "udm".`);
    const source =
      typeof c.source === 'string'
        ? sourceLines(c.source)
        : Array.isArray(c.source) && c.source.every((l) => typeof l === 'string')
          ? c.source
          : undefined;
    if (!source) throw new NotebookFormatError(`${where}: "source" must be an array of lines.`);
    if (c.timeRange !== undefined && !isTimeRangeSpec(c.timeRange))
      throw new NotebookFormatError(`${where}: "timeRange" is not a time range.`);
    if (c.limit !== undefined && !isLimit(c.limit))
      throw new NotebookFormatError(`${where}: "limit" must be a whole number from 1 to ${MAX_CELL_LIMIT}.`);
    const output = c.kind === 'udm' ? readOutput(c.output, where) : undefined;
    return {
      kind: c.kind,
      source,
      ...(c.timeRange !== undefined ? { timeRange: c.timeRange } : {}),
      ...(c.limit !== undefined ? { limit: c.limit } : {}),
      ...(typeof c.executionOrder === 'number' && Number.isInteger(c.executionOrder) && c.executionOrder > 0
        ? { executionOrder: c.executionOrder }
        : {}),
      ...(output ? { output } : {}),
    };
  });
  return {
    format: NOTEBOOK_FORMAT,
    version: NOTEBOOK_VERSION,
    ...(raw.timeRange !== undefined ? { timeRange: raw.timeRange } : {}),
    cells,
  };
}

/** Writes the file: two-space JSON with a final newline, keys in a fixed order. */
export function serializeNotebook(notebook: NotebookFile): string {
  const cells = notebook.cells.map((c) => ({
    kind: c.kind,
    source: [...c.source],
    ...(c.timeRange ? { timeRange: c.timeRange } : {}),
    ...(c.limit !== undefined ? { limit: c.limit } : {}),
    ...(c.executionOrder !== undefined ? { executionOrder: c.executionOrder } : {}),
    ...(c.output ? { output: c.output } : {}),
  }));
  return (
    JSON.stringify(
      {
        format: NOTEBOOK_FORMAT,
        version: NOTEBOOK_VERSION,
        ...(notebook.timeRange ? { timeRange: notebook.timeRange } : {}),
        cells,
      },
      null,
      2,
    ) + '\n'
  );
}

/** The keep-rows setting, read defensively: a bad value falls back to the default. */
export function keepRowsSetting(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return DEFAULT_KEEP_ROWS;
  return Math.min(MAX_KEEP_ROWS, Math.floor(value));
}

/** Bounds a run's events to what the file keeps. */
export function keepResults(
  run: Omit<KeptResults, 'kind' | 'keptRows' | 'events' | 'totalEvents'> & { events: readonly unknown[] },
  keepRows: number,
): KeptResults {
  // Newest first, as the results panel shows them: the notebook keeps the newest rows.
  const kept = sortNewestFirst(run.events, timeField('udm')!).slice(0, Math.max(0, keepRows));
  return {
    kind: 'results',
    ranAt: run.ranAt,
    durationMs: run.durationMs,
    query: run.query,
    window: run.window,
    totalEvents: run.events.length,
    moreDataAvailable: run.moreDataAvailable,
    keptRows: kept.length,
    events: kept,
  };
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** One line that says how much of a run the notebook holds. */
export function keptNote(out: KeptResults): string {
  const total = `${fmt(out.totalEvents)} event${out.totalEvents === 1 ? '' : 's'}${out.moreDataAvailable ? ' (the search was cut at its limit)' : ''}`;
  if (out.totalEvents === 0) return 'No events matched.';
  if (out.keptRows >= out.totalEvents) return `${total}; all kept in the notebook.`;
  if (out.keptRows === 0) return `${total}; none kept in the notebook (setting cloudbench.notebook.keepRows is 0).`;
  return `${total}; the newest ${fmt(out.keptRows)} kept in the notebook (setting cloudbench.notebook.keepRows).`;
}

/** Kept data (event values, names, times, messages) as inline Markdown text: one line, no markup. */
function mdText(text: string, max = REPORT_CELL_LIMIT): string {
  return safeText(text, 'markdown', max);
}

/** Longest cell of a report table; the notebook keeps the full values. */
export const REPORT_CELL_LIMIT = 1_000;

function fence(text: string, lang: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

/** Rows per table in a Markdown report; the rest are counted, not listed. */
export const REPORT_ROWS = 50;

/** An image of a cell's output in the report: alternative text and a relative link. */
export interface ReportImage {
  readonly alt: string;
  /** A relative URL, already encoded. */
  readonly src: string;
}

export interface ReportOptions {
  /** The chart image of query `step` (1-based), when there is one. */
  readonly imageFor?: (step: number, output: KeptResults | KeptStatistics) => ReportImage | undefined;
}

function mdImage(image: ReportImage): string {
  const alt = mdText(image.alt, DISPLAY_LIMIT);
  const src = image.src.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `![${alt}](${src})`;
}

/**
 * A Markdown report: the notes as written, each query fenced, the chart image of its output when
 * one is given, and a table of its kept rows.
 */
export function notebookToMarkdown(notebook: NotebookFile, title: string, options: ReportOptions = {}): string {
  const out: string[] = [`# ${mdText(title, DISPLAY_LIMIT)}`, ''];
  if (notebook.timeRange) out.push(`Time range: ${mdText(describeTimeRange(notebook.timeRange))}`, '');
  let step = 0;
  for (const cell of notebook.cells) {
    const text = sourceText(cell.source);
    if (cell.kind === 'markdown') {
      out.push(text, '');
      continue;
    }
    step++;
    out.push(`## Query ${step}`, '', fence(text, 'udm'), '');
    const r = cell.output;
    if (!r) {
      out.push('_Not run._', '');
      continue;
    }
    if (r.kind === 'error') {
      out.push(`> **Error:** ${mdText(r.message, MESSAGE_LIMIT)}`, '');
      continue;
    }
    if (r.kind === 'statistics') {
      out.push(`_${mdText(`${r.window.start} – ${r.window.end}, ran ${r.ranAt}: ${statisticsNote(r)}`)}_`, '');
      if (r.rows.length === 0) continue;
      const image = options.imageFor?.(step, r);
      if (image) out.push(mdImage(image), '');
      out.push(`| ${r.columns.map((c) => mdText(columnLabel(c))).join(' | ')} |`);
      out.push(`| ${r.columns.map(() => '---').join(' | ')} |`);
      for (const row of r.rows.slice(0, REPORT_ROWS))
        out.push(`| ${r.columns.map((c, i) => mdText(statsCellText(row[i], c, r.timeZone))).join(' | ')} |`);
      if (r.rows.length > REPORT_ROWS) out.push('', `_${fmt(r.rows.length - REPORT_ROWS)} more kept rows not shown._`);
      out.push('');
      continue;
    }
    out.push(`_${mdText(`${r.window.start} – ${r.window.end}, ran ${r.ranAt}: ${keptNote(r)}`)}_`, '');
    if (r.events.length === 0) continue;
    const image = options.imageFor?.(step, r);
    if (image) out.push(mdImage(image), '');
    const columns = defaultColumns('udm');
    out.push(`| ${columns.map((c) => mdText(c.label)).join(' | ')} |`);
    out.push(`| ${columns.map(() => '---').join(' | ')} |`);
    for (const row of r.events.slice(0, REPORT_ROWS))
      out.push(`| ${columns.map((c) => mdText(cellText(row, c))).join(' | ')} |`);
    if (r.events.length > REPORT_ROWS)
      out.push('', `_${fmt(r.events.length - REPORT_ROWS)} more kept rows not shown._`);
    out.push('');
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
