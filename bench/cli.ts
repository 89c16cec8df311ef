// The command line in CI: `cloudbench check` over 1,000 query files as a process (start-up, walking,
// reading, checking and the report), built from the current sources with the build's own options.
// Prints the median wall time of five runs after a warm-up.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { DOCUMENTED_SYNTAX_EXAMPLES } from '../src/udm/documented-examples';

const FILES = 1000;
const RUNS = 5;

const SECTION = /^\s*(events|match|outcome|condition|dedup|select|unselect|order|limit):/im;

/**
 * Detection-style queries: a filter of a few lines and a documented example, some with statistics;
 * an example with sections of its own is a file by itself.
 */
function queryFile(i: number): string {
  const [, example] = DOCUMENTED_SYNTAX_EXAMPLES[i % DOCUMENTED_SYNTAX_EXAMPLES.length];
  if (SECTION.test(example)) return `// detection ${i}\n${example}\n`;
  const lines = [
    `// detection ${i}`,
    'metadata.event_type = "NETWORK_CONNECTION"',
    `principal.hostname = "host-${i}" nocase`,
    'target.port >= 1024 AND NOT security_result.action = "ALLOW"',
  ];
  if (i % 10 === 0) lines.push(`principal.user.userid in %watchlist_${i % 3}`);
  lines.push(example);
  if (i % 4 === 0) lines.push('match:', '  principal.hostname by 1h', 'outcome:', '  $bytes = sum(network.sent_bytes)');
  return `${lines.join('\n')}\n`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function main(): Promise<void> {
  const root = join(__dirname, '..');
  const work = mkdtempSync(join(tmpdir(), 'cloudbench-cli-bench-'));
  try {
    const bundle = (await import(pathToFileURL(join(root, 'scripts/cli-bundle.mjs')).href)) as {
      cliBundleOptions: (root: string, outfile: string) => BuildOptions;
    };
    const esbuild = await import('esbuild');
    const cli = join(work, 'cli.js');
    await esbuild.build(bundle.cliBundleOptions(root, cli));
    const queries = join(work, 'detections');
    for (let i = 0; i < FILES; i++) {
      const folder = join(queries, `team-${i % 20}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, `rule-${i}.udm`), queryFile(i));
    }
    const times: number[] = [];
    let summary = '';
    for (let run = 0; run <= RUNS; run++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [cli, 'check', '--format', 'json', queries], { encoding: 'utf8' });
      const ms = performance.now() - t0;
      if (r.status !== 0 && r.status !== 1) throw new Error(`cloudbench check failed (${r.status}): ${r.stderr}`);
      const report = JSON.parse(r.stdout) as { filesChecked: number; errors: number; warnings: number };
      if (report.filesChecked !== FILES) throw new Error(`checked ${report.filesChecked} files, not ${FILES}`);
      summary = `${report.errors} errors, ${report.warnings} warnings`;
      if (run > 0) times.push(ms); // the first run warms the file cache
    }
    console.log(
      `cli check 1000 files ms: ${median(times).toFixed(0)} ms  (wall, median of ${RUNS} runs of the process; ${summary}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; goal < 2000 ms)`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
