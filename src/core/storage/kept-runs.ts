// Results kept on disk so that panels come back after a window reload with their rows, without
// spending a search. One JSON file per run in the extension's own storage folder, written atomically
// (temp file + rename), bounded by count and size with the oldest dropped first. Only what a panel
// shows is kept: rows of search results and statistics, never key strings, tokens or credentials.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { StreamedJson, jsonPieces } from '../json-pieces';

/** The most runs kept: more panels than anyone has open, few enough to read the folder quickly. */
export const KEPT_RUNS_MAX = 20;
/** The most bytes kept in all (a 10,000-event search is about 10-20 MB of JSON). */
export const KEPT_BYTES_MAX = 100 * 1024 * 1024;

const RUN_ID = /^[A-Za-z0-9-]{1,80}$/;
const SUFFIX = '.run.json';
/** A temp file this old was left by a write that never finished (the window closed meanwhile). */
const STALE_TEMP_MS = 10 * 60_000;

export interface KeptRunsLimits {
  maxRuns: number;
  maxBytes: number;
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
      // A value with parts already in JSON text (rows as they came from the service) is joined, not parsed.
      const text = value instanceof StreamedJson ? Array.from(jsonPieces(value)).join('') : JSON.stringify(value);
      if (Buffer.byteLength(text) > this.limits.maxBytes) return false;
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
    if (!KeptRuns.isRunId(id)) return undefined;
    await this.chain;
    let text: string;
    try {
      text = await fs.readFile(this.fileOf(id), 'utf8');
    } catch {
      return undefined;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A file nobody can read back is only in the way.
      await fs.rm(this.fileOf(id), { force: true }).catch(() => undefined);
      return undefined;
    }
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
