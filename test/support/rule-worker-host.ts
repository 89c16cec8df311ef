// Test Rule's engine worker as the extension starts it: dist/rule-worker.js when the build is up to
// date, else the same entry bundled into a temporary directory (a stale build never decides a test).
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

let bundled: string | undefined;

export function ruleWorkerPath(): string {
  const dist = join(ROOT, 'dist', 'rule-worker.js');
  const sources = Math.max(newestSource(join(ROOT, 'src/udm')), newestSource(join(ROOT, 'src/features/rules')));
  if (existsSync(dist) && statSync(dist).mtimeMs >= sources) return dist;
  if (bundled) return bundled;
  const out = join(mkdtempSync(join(tmpdir(), 'rule-worker-')), 'dist', 'rule-worker.js');
  buildSync({
    entryPoints: [join(ROOT, 'src/features/shared/rule-engine/engine-worker.ts')],
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
