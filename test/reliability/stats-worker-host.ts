// The statistics worker as the extension starts it: dist/stats-worker.js when the build is up to
// date, else the same entry bundled into a temporary directory (a stale build never decides a test).
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { computeInWorker, type ComputeOptions } from '../../src/features/statistics/compute';
import type { StatsResult } from '../../src/udm/stats';

const ROOT = join(__dirname, '..', '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

let bundled: string | undefined;

/** A folder laid out as the extension is (`dist/stats-worker.js` inside), for Services.extensionUri. */
export function statsWorkerRoot(): string {
  return dirname(dirname(statsWorkerPath()));
}

export function statsWorkerPath(): string {
  const dist = join(ROOT, 'dist', 'stats-worker.js');
  const sources = Math.max(newestSource(join(ROOT, 'src/udm')), newestSource(join(ROOT, 'src/features/statistics')));
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return dist;
  if (bundled) return bundled;
  const out = join(mkdtempSync(join(tmpdir(), 'stats-worker-')), 'dist', 'stats-worker.js');
  buildSync({
    entryPoints: [join(ROOT, 'src/features/statistics/compute-worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    outfile: out,
    logLevel: 'error',
  });
  bundled = out;
  return out;
}

export function computeTableOffThread(
  workerFile: string,
  query: string,
  events: unknown[],
  options: Omit<ComputeOptions, 'workerFile'> & { referenceLists?: Record<string, string[]> } = {},
): Promise<StatsResult> {
  const { referenceLists = {}, ...rest } = options;
  return computeInWorker({ query, referenceLists, timeZone: 'UTC' }, events, { workerFile, ...rest });
}
