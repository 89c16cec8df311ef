#!/usr/bin/env node
// npm run bench [-- NAME...]: runs every benchmark in bench/ (NAME.mjs, NAME.js or NAME.ts), or the
// named ones, one after the other (they time things, so never in parallel). Each benchmark prints
// lines "figure name: value unit"; this runner only adds a header per benchmark.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const BENCH = new URL('.', import.meta.url).pathname;
const ROOT = join(BENCH, '..');
const EXTENSIONS = ['.mjs', '.js', '.ts'];

function available() {
  const names = new Map();
  for (const file of readdirSync(BENCH).sort()) {
    const ext = EXTENSIONS.find((e) => file.endsWith(e) && !file.endsWith('.d.ts'));
    if (!ext) continue;
    const name = file.slice(0, -ext.length);
    if (name === 'run' || name.startsWith('_') || name.includes('.')) continue; // helpers and this runner
    if (!names.has(name)) names.set(name, file);
  }
  return names;
}

function runOne(file) {
  const args = file.endsWith('.ts') ? ['--import', 'tsx', join(BENCH, file)] : [join(BENCH, file)];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

const all = available();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((n) => !all.has(n));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${[...all.keys()].join(', ')}`);
  process.exit(2);
}
const chosen = wanted.length ? wanted : [...all.keys()];
let failures = 0;
for (const name of chosen) {
  console.log(`# ${name}`);
  const code = await runOne(all.get(name));
  if (code !== 0) {
    failures++;
    console.log(`# ${name} failed (exit ${code})`);
  }
}
if (!existsSync(join(ROOT, 'dist')))
  console.log('# note: dist/ is missing; benchmarks that need bundles build them first');
process.exit(failures ? 1 : 0);
