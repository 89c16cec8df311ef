#!/usr/bin/env node
// Runs the mocha test files (the spec globs of .mocharc.json) in a random order, to show that no file
// depends on another having run first. The order comes from a seed that is printed first; give it
// back to replay the same order:  npm run test:shuffled -- --seed 1234   (or TEST_ORDER_SEED=1234).
// Other arguments go to mocha. Build first (npm run build), as npm test does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const at = args.indexOf('--seed');
const given = at >= 0 ? args.splice(at, 2)[1] : process.env.TEST_ORDER_SEED;
const seed = given !== undefined ? Number(given) : Math.floor(Math.random() * 2 ** 31);
if (!Number.isSafeInteger(seed)) {
  console.error(`test:shuffled: the seed must be an integer, got "${given}"`);
  process.exit(2);
}

const rc = JSON.parse(readFileSync(join(root, '.mocharc.json'), 'utf8'));
const { spec, ...options } = rc;

// The spec globs are all of the form dir/**/*.test.ts.
function testFiles(glob) {
  const m = /^(.*)\/\*\*\/\*(\.test\.ts)$/.exec(glob);
  if (!m) throw new Error(`test:shuffled understands only dir/**/*.test.ts globs, got "${glob}"`);
  const found = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(m[2])) found.push(relative(root, p));
    }
  };
  walk(join(root, m[1]));
  return found.sort();
}

// mulberry32: small, seedable, good enough to shuffle.
function random(s) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const files = [...new Set(spec.flatMap(testFiles))];
const next = random(seed);
for (let i = files.length - 1; i > 0; i--) {
  const j = Math.floor(next() * (i + 1));
  [files[i], files[j]] = [files[j], files[i]];
}

console.log(
  `test:shuffled: seed ${seed} (replay: npm run test:shuffled -- --seed ${seed}); ${files.length} files in this order:`,
);
for (const [i, f] of files.entries()) console.log(`  ${String(i + 1).padStart(3)}. ${f}`);

// A config without the spec globs, so mocha runs exactly these files in exactly this order.
mkdirSync(join(root, '.tmp'), { recursive: true });
const config = join(root, '.tmp', 'mocharc.shuffled.json');
writeFileSync(config, JSON.stringify(options));
const r = spawnSync(
  process.execPath,
  [join(root, 'node_modules/mocha/bin/mocha.js'), '--config', config, ...args, ...files],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (r.status !== 0)
  console.log(`test:shuffled: failed with seed ${seed}; replay: npm run test:shuffled -- --seed ${seed}`);
process.exit(r.status ?? 1);
