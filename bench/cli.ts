// The command line in CI: `cloudbench check` over 1,000 query files and over 1,000 rule files as a
// process (start-up, walking, reading, checking and the report), built from the current sources with
// the build's own options. Prints the median wall time of five runs after a warm-up, per kind.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

const RULE_FOLDERS = ['test/fixtures/yaral', 'test/e2e/fixtures/workspace/rules'];

/** The rule corpus and the demo rules, each a rule file to copy under many names. */
function ruleTemplates(root: string): string[] {
  return RULE_FOLDERS.flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.yaral'))
      .sort()
      .map((f) => readFileSync(join(root, dir, f), 'utf8')),
  );
}

/** Rule `i`: a template under a name of its own, as a repository of detections holds them. */
function ruleFile(templates: readonly string[], i: number): { name: string; text: string } {
  const template = templates[i % templates.length];
  let name = '';
  const text = template.replace(/^(\s*rule\s+)([A-Za-z_][A-Za-z0-9_]*)/m, (_all, head: string, rule: string) => {
    name = `${rule}_${i}`;
    return `${head}${name}`;
  });
  return { name: name || `rule_${i}`, text };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Runs `check` over `folder` RUNS times after a warm-up and prints the median wall time. */
function measure(cli: string, label: string, folder: string): void {
  const times: number[] = [];
  let summary = '';
  for (let run = 0; run <= RUNS; run++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, 'check', '--format', 'json', folder], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const ms = performance.now() - t0;
    if (r.status !== 0 && r.status !== 1) throw new Error(`cloudbench check failed (${r.status}): ${r.stderr}`);
    const report = JSON.parse(r.stdout) as { filesChecked: number; errors: number; warnings: number };
    if (report.filesChecked !== FILES) throw new Error(`checked ${report.filesChecked} files, not ${FILES}`);
    summary = `${report.errors} errors, ${report.warnings} warnings`;
    if (run > 0) times.push(ms); // the first run warms the file cache
  }
  console.log(
    `${label}: ${median(times).toFixed(0)} ms  (wall, median of ${RUNS} runs of the process; ${summary}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; goal < 2000 ms)`,
  );
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
    const templates = ruleTemplates(root);
    const rules = join(work, 'rules');
    for (let i = 0; i < FILES; i++) {
      const folder = join(rules, `team-${i % 20}`);
      mkdirSync(folder, { recursive: true });
      const rule = ruleFile(templates, i);
      writeFileSync(join(folder, `${rule.name}.yaral`), rule.text);
    }
    measure(cli, 'cli check 1000 files ms', queries);
    measure(cli, 'cli check 1000 rule files ms', rules);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
