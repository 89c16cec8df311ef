// The extension's worker threads as it starts them (Test Rule's engine, the Test Explorer's runner):
// the dist/ bundle when the build is up to date, else the same entry bundled into a temporary
// directory (a stale build never decides a test).
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const bundled = new Map<string, string>();

/** dist/<out>.js when it is newer than every source, else `entry` bundled once into a temporary directory. */
function workerBundle(out: string, entry: string): string {
  const dist = join(ROOT, 'dist', `${out}.js`);
  if (existsSync(dist) && statSync(dist).mtimeMs >= newestSource(join(ROOT, 'src'))) return dist;
  const known = bundled.get(out);
  if (known) return known;
  const file = join(mkdtempSync(join(tmpdir(), `${out}-`)), 'dist', `${out}.js`);
  buildSync({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    outfile: file,
    logLevel: 'error',
  });
  bundled.set(out, file);
  return file;
}

export function ruleWorkerPath(): string {
  return workerBundle('rule-worker', 'src/features/shared/rule-engine/engine-worker.ts');
}

/** The Test Explorer's worker (dist/rule-tests-worker.js) as the extension starts it. */
export function ruleTestsWorkerPath(): string {
  return workerBundle('rule-tests-worker', 'src/features/ruleTests/worker.ts');
}

/** A folder laid out as the extension is (`dist/rule-worker.js` inside), for an extension URI. */
export function ruleWorkerRoot(): string {
  return dirname(dirname(ruleWorkerPath()));
}

/** A worker that takes the rule and events and then never answers: it computes until it is ended. */
export function endlessWorkerPath(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'rule-worker-endless-')), 'endless.js');
  writeFileSync(
    file,
    `require('node:worker_threads').parentPort.on('message', (m) => { if (m && m.type === 'compute') for (;;) {} });\n`,
  );
  return file;
}

/**
 * A rule whose placeholders multiply: `n` placeholders bound to one repeated field, over events that
 * each hold `ips` addresses, gives ips^n combinations per event.
 */
export function placeholderBomb(n = 7, events = 40, ips = 16): { rule: string; events: unknown[] } {
  const names = Array.from({ length: n }, (_, i) => `$p${i + 1}`);
  const rule = [
    'rule placeholder_bomb {',
    '  meta:',
    '    description = "placeholders bound to one repeated field"',
    '  events:',
    '    $e.metadata.event_type = "NETWORK_CONNECTION"',
    ...names.map((p) => `    $e.principal.ip = ${p}`),
    '  match:',
    `    ${names.join(', ')} over 1h`,
    '  condition:',
    '    $e',
    '}',
    '',
  ].join('\n');
  const start = Date.parse('2026-01-01T00:00:00Z');
  return {
    rule,
    events: Array.from({ length: events }, (_, i) => ({
      name: `bomb-${i}`,
      udm: {
        metadata: {
          id: `bomb-${i}`,
          eventType: 'NETWORK_CONNECTION',
          eventTimestamp: new Date(start + i * 60_000).toISOString(),
        },
        principal: { ip: Array.from({ length: ips }, (_, j) => `10.0.${i % 4}.${j + 1}`) },
      },
    })),
  };
}
