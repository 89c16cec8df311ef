// Loads a CommonJS bundle through vm.Script with a V8 code cache, so a bundle that is loaded on first
// use (the gRPC client stack) skips parsing and compiling on every later start.
//
// The cache file is named after a hash of the bundle's source, the V8 version and the CPU
// architecture, so a changed bundle or a new editor build never meets an old cache. Its first 32
// bytes are a SHA-256 of the rest: V8 checks only the source length and its own version before
// trusting cached data, so a damaged file is caught here and never handed to V8. Any problem with
// the cache (missing, damaged, refused by V8, unreadable or unwritable folder) means a plain
// compile; the cache is written again after the next use. Loading never fails because of the cache.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { writeFileAtomicSync } from './files';

/** What happened to the code cache when the bundle was loaded. */
export type CodeCacheState =
  /** No cache folder was given: plain compile, nothing written. */
  | 'disabled'
  /** No cache for this bundle, V8 and architecture yet. */
  | 'missing'
  /** The cache was read and V8 used it. */
  | 'used'
  /** The cache file failed its checksum or could not be read; it is replaced on persist(). */
  | 'corrupt'
  /** V8 refused the cached data (another V8 build or flags); it is replaced on persist(). */
  | 'rejected';

export interface LoadedBundle<T> {
  readonly exports: T;
  readonly cache: CodeCacheState;
  /** The cache file for this bundle (undefined when caching is disabled). */
  readonly cacheFile: string | undefined;
  /**
   * Writes the code cache when it was not used at load. Call it after the bundle did its first real
   * work, so the functions V8 compiled on the way are in the cache too. Writes at most once; never throws.
   */
  persist(): boolean;
}

export interface LoadBundleOptions {
  /** Absolute path of a CommonJS bundle. */
  file: string;
  /** Folder for the code cache; undefined: no cache. */
  cacheDir?: string | undefined;
  /** Modules the bundle takes from the host instead of carrying its own copy, by the id it requires. */
  host?: Readonly<Record<string, unknown>>;
  /** One line per cache problem (never fatal). */
  log?: (message: string) => void;
}

const CHECKSUM_BYTES = 32;
const CACHE_SUFFIX = '.v8cache';

function sha256(data: string | Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** The cache file for a bundle's source: another source, V8 or architecture gives another name. */
export function codeCacheFile(cacheDir: string, file: string, source: string | Uint8Array): string {
  const key = createHash('sha256')
    .update(source)
    .update(`\0${process.versions.v8}\0${process.arch}`)
    .digest('hex')
    .slice(0, 20);
  return join(cacheDir, `${basename(file)}.${key}${CACHE_SUFFIX}`);
}

function readCache(cacheFile: string): { data?: Buffer; state: 'missing' | 'corrupt' | 'ok'; problem?: string } {
  let raw: Buffer;
  try {
    raw = readFileSync(cacheFile);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { state: 'missing' };
    return { state: 'corrupt', problem: (err as Error).message };
  }
  if (raw.length <= CHECKSUM_BYTES) return { state: 'corrupt', problem: 'the file is truncated' };
  const data = raw.subarray(CHECKSUM_BYTES);
  if (!sha256(data).equals(raw.subarray(0, CHECKSUM_BYTES)))
    return { state: 'corrupt', problem: 'the checksum does not match' };
  return { data, state: 'ok' };
}

export function loadBundle<T>(options: LoadBundleOptions): LoadedBundle<T> {
  const { file, cacheDir, host = {}, log } = options;
  // Hashing the bytes as read is cheaper than hashing the decoded source (which encodes it again).
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const cacheFile = cacheDir ? codeCacheFile(cacheDir, file, bytes) : undefined;
  let state: CodeCacheState = 'disabled';
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    const read = readCache(cacheFile);
    state = read.state === 'ok' ? 'used' : read.state;
    cachedData = read.data;
    if (read.problem) log?.(`code cache ${cacheFile} ignored: ${read.problem}`);
  }

  const compile = (data: Buffer | undefined): Script =>
    new Script(wrap(source), { filename: file, ...(data ? { cachedData: data } : {}) });
  let script: Script;
  try {
    script = compile(cachedData);
  } catch (err) {
    // A syntax error is the bundle's own; anything else may come from the cached data, so try once without.
    if (!cachedData || err instanceof SyntaxError) throw err;
    log?.(`code cache ${cacheFile} refused: ${(err as Error).message}`);
    state = 'rejected';
    script = compile(undefined);
  }
  if (cachedData && script.cachedDataRejected) {
    state = 'rejected';
    log?.(`code cache ${cacheFile} refused by V8; it is written again after use`);
  }

  const nodeRequire = createRequire(file);
  const bundleRequire = (id: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(host, id)) return host[id];
    return nodeRequire(id);
  };
  const module = { exports: {} as T };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: (id: string) => unknown,
    module: { exports: T },
    filename: string,
    dirname: string,
  ) => void;
  run.call(module.exports, module.exports, bundleRequire, module, file, dirname(file));

  let persisted = state === 'used' || state === 'disabled';
  return {
    exports: module.exports,
    cache: state,
    cacheFile,
    persist(): boolean {
      if (persisted || !cacheFile || !cacheDir) return false;
      persisted = true;
      try {
        const data = script.createCachedData();
        mkdirSync(cacheDir, { recursive: true });
        writeFileAtomicSync(cacheFile, Buffer.concat([sha256(data), data]));
        // Caches of earlier builds of this bundle are dead weight.
        const prefix = `${basename(file)}.`;
        for (const name of readdirSync(cacheDir))
          if (name.startsWith(prefix) && name.endsWith(CACHE_SUFFIX) && join(cacheDir, name) !== cacheFile)
            rmSync(join(cacheDir, name), { force: true });
        return true;
      } catch (err) {
        log?.(`code cache ${cacheFile} not written: ${(err as Error).message}`);
        return false;
      }
    },
  };
}
