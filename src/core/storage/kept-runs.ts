// Results kept on disk so that panels come back after a window reload with their rows, without
// spending a search. One JSON file per run in the extension's own storage folder, written atomically
// (temp file + rename), bounded by count and size with the oldest dropped first. Only what a panel
// shows is kept: rows of search results and statistics, never key strings, tokens or credentials.
// What is read back is checked on the way in: a file over the bound is refused before it is read,
// rows are capped at the run's own limit and each must be a row (an object or a list), and a run
// time that is not a date is dropped, so a panel says "an earlier time" instead of a made-up date.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { StreamedJson, jsonPieces } from '../json-pieces';

/** The most runs kept: more panels than anyone has open, few enough to read the folder quickly. */
export const KEPT_RUNS_MAX = 20;
/** The most bytes kept in all (a 10,000-event search is about 10-20 MB of JSON). */
export const KEPT_BYTES_MAX = 100 * 1024 * 1024;
/** The most rows read back from one run whose own limit does not say fewer (the most a fetch holds). */
export const KEPT_ROWS_MAX = 200_000;

const RUN_ID = /^[A-Za-z0-9-]{1,80}$/;
const SUFFIX = '.run.json';
/** A temp file this old was left by a write that never finished (the window closed meanwhile). */
const STALE_TEMP_MS = 10 * 60_000;

export interface KeptRunsLimits {
  maxRuns: number;
  maxBytes: number;
  maxRows?: number;
}

/** A run read back: the value (when there is one to restore) and what was refused or dropped. */
export interface KeptRunRead {
  value?: unknown;
  notes: string[];
}

// RFC 3339, as every writer of `ranAt` (Date.prototype.toISOString) gives it.
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
const isRow = (row: unknown): boolean => typeof row === 'object' && row !== null;

/**
 * The run as a panel may restore it: rows that are rows, at most its own limit of them (or
 * `maxRows`), and a run time only when it is a date. Says in `notes` what it dropped.
 */
export function checkedRun(value: unknown, maxRows: number, notes: string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const run = { ...(value as Record<string, unknown>) };
  if (Array.isArray(run.rows)) {
    const limit = run.limit;
    const cap =
      typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0 ? Math.min(limit, maxRows) : maxRows;
    const rows: unknown[] = [];
    let junk = 0;
    for (const row of run.rows as unknown[]) {
      if (!isRow(row)) junk++;
      else if (rows.length < cap) rows.push(row);
    }
    const over = (run.rows as unknown[]).length - junk - rows.length;
    if (junk)
      notes.push(
        `${junk.toLocaleString('en-US')} kept rows were not rows (a string, a number or null) and were dropped.`,
      );
    if (over > 0)
      notes.push(
        `The kept run held ${over.toLocaleString('en-US')} rows more than its limit of ${cap.toLocaleString('en-US')}; only the first ${cap.toLocaleString('en-US')} were restored.`,
      );
    run.rows = rows;
  }
  const info = run.info;
  if (typeof info === 'object' && info !== null && 'ranAt' in info) {
    const { ranAt, ...rest } = info as Record<string, unknown>;
    if (typeof ranAt === 'string' && RFC3339.test(ranAt) && Number.isFinite(Date.parse(ranAt))) return run;
    notes.push('The kept run time is not a date: it is shown as unknown.');
    run.info = rest;
  }
  return run;
}

/** Writes `data` to `file` so that a reader sees the old content or the new one, never a part. */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.writeFile(temp, data, { mode: 0o600 });
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}

export class KeptRuns {
  /** Writes and pruning run one at a time, so a prune never deletes a file being written. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dir: string,
    private readonly limits: KeptRunsLimits = { maxRuns: KEPT_RUNS_MAX, maxBytes: KEPT_BYTES_MAX },
  ) {}

  static isRunId(id: unknown): id is string {
    return typeof id === 'string' && RUN_ID.test(id);
  }

  /**
   * Keeps `value` (JSON, or a StreamedJson of it) under `id`, then drops the oldest runs beyond the limits. Resolves false
   * when the run alone is larger than the whole bound and was not kept.
   */
  save(id: string, value: unknown): Promise<boolean> {
    const work = async (): Promise<boolean> => {
      if (!KeptRuns.isRunId(id)) throw new Error(`not a run id: ${JSON.stringify(id)}`);
      // A value with parts already in JSON text (rows as they came from the service) is joined, not
      // parsed; its pieces are counted as they are made, so that a run larger than the bound (100,000
      // events are hundreds of MB) stops there instead of being written out whole first.
      const text = value instanceof StreamedJson ? joinedWithin(value, this.limits.maxBytes) : JSON.stringify(value);
      if (text === undefined || Buffer.byteLength(text) > this.limits.maxBytes) return false;
      await fs.mkdir(this.dir, { recursive: true });
      await writeFileAtomic(this.fileOf(id), text);
      await this.prune(id);
      return true;
    };
    const result = this.chain.then(work, work);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** The value kept under `id`, or undefined when it is not (any more) kept or cannot be read. */
  async load(id: string): Promise<unknown> {
    return (await this.read(id)).value;
  }

  /**
   * The value kept under `id`, checked (see checkedRun), with notes on what was refused or dropped.
   * A file larger than the bound is not read at all: no kept run can be that large, so it is not one.
   */
  async read(id: string): Promise<KeptRunRead> {
    const notes: string[] = [];
    if (!KeptRuns.isRunId(id)) return { notes };
    await this.chain;
    const file = this.fileOf(id);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile()) return { notes };
    if (stat.size > this.limits.maxBytes) {
      notes.push(
        `The kept run ${id} is ${mb(stat.size)}, over the ${mb(this.limits.maxBytes)} bound for kept runs: it was not read. Run the query again.`,
      );
      await fs.rm(file, { force: true }).catch(() => undefined);
      return { notes };
    }
    let text: string;
    try {
      text = await fs.readFile(file, 'utf8');
    } catch {
      return { notes };
    }
    // The file may have grown between the stat and the read.
    if (Buffer.byteLength(text) > this.limits.maxBytes) {
      notes.push(
        `The kept run ${id} grew past the ${mb(this.limits.maxBytes)} bound while it was read: it was not used.`,
      );
      return { notes };
    }
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      // A file nobody can read back is only in the way.
      await fs.rm(file, { force: true }).catch(() => undefined);
      return { notes: ['The kept run could not be read back (not JSON); it was removed.'] };
    }
    return { value: checkedRun(value, this.limits.maxRows ?? KEPT_ROWS_MAX, notes), notes };
  }

  /** The ids kept, newest first. */
  async list(): Promise<string[]> {
    await this.chain;
    return (await this.entries()).map((e) => e.id);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}${SUFFIX}`);
  }

  private async entries(): Promise<Array<{ id: string; file: string; bytes: number; mtimeMs: number }>> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      return [];
    }
    const now = Date.now();
    const found: Array<{ id: string; file: string; bytes: number; mtimeMs: number }> = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (name.endsWith('.tmp')) {
        if (now - stat.mtimeMs > STALE_TEMP_MS) await fs.rm(file, { force: true }).catch(() => undefined);
        continue;
      }
      if (!name.endsWith(SUFFIX)) continue;
      found.push({ id: name.slice(0, -SUFFIX.length), file, bytes: stat.size, mtimeMs: stat.mtimeMs });
    }
    return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.id < b.id ? -1 : 1));
  }

  /** Drops the oldest runs until at most maxRuns remain and they fit maxBytes; `newest` always stays. */
  private async prune(newest: string): Promise<void> {
    const all = await this.entries();
    const ordered = [...all.filter((e) => e.id === newest), ...all.filter((e) => e.id !== newest)];
    let bytes = 0;
    let kept = 0;
    for (const entry of ordered) {
      if (kept < this.limits.maxRuns && bytes + entry.bytes <= this.limits.maxBytes) {
        kept++;
        bytes += entry.bytes;
        continue;
      }
      await fs.rm(entry.file, { force: true }).catch(() => undefined);
    }
  }
}

/** The JSON text of `value`, or undefined as soon as it is longer than `maxBytes` in UTF-8. */
function joinedWithin(value: StreamedJson, maxBytes: number): string | undefined {
  const pieces: string[] = [];
  let bytes = 0;
  for (const piece of jsonPieces(value)) {
    // A UTF-16 unit is at most 3 bytes of UTF-8, at least 1: the length is a cheap lower bound first.
    bytes += piece.length;
    if (bytes > maxBytes) return undefined;
    pieces.push(piece);
  }
  return pieces.join('');
}
