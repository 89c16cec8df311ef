// What both fuzz scripts share: their command-line options and bundling TypeScript targets for Node.
import { buildSync } from 'esbuild';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/** `--count N --seed N --budget-ms N` with the defaults every fuzz run uses. */
export function fuzzOptions(argv = process.argv.slice(2)) {
  const arg = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] ? Number(argv[i + 1]) : fallback;
  };
  return { count: arg('count', 1_000_000), seed: arg('seed', 1), budgetMs: arg('budget-ms', 1000) };
}

/** Bundles a TypeScript entry (a path, or module source text) for Node and loads it. */
export function loadBundled(entry, { source } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cloudbench-fuzz-'));
  let entryPoint = entry;
  if (source !== undefined) {
    entryPoint = join(dir, 'entry.ts');
    writeFileSync(entryPoint, source);
  }
  const outfile = join(dir, 'bundle.cjs');
  buildSync({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'error',
    absWorkingDir: root,
  });
  return createRequire(import.meta.url)(outfile);
}

/** Deterministic PRNG (mulberry32), so a failing input replays from its seed. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
