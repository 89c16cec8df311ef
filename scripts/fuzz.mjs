#!/usr/bin/env node
// Fuzzes the resource-name parser, the API-key restriction validators (and the restriction editor's
// arrival check) and the UDM compiler/evaluator with fast-check generated inputs:
//   node scripts/fuzz.mjs [--count 1000000] [--seed 1] [--budget-ms 1000]
// The inputs are split evenly across the targets in test/reliability/fuzz-targets.ts (the same
// targets `npm test` runs a few thousand times). Prints `fuzz inputs: N`, `fuzz crashes: N` and
// `fuzz max ms per input: X`; exits 1 on any crash. Crashes print their input so they replay.
import { join } from 'node:path';
import { fuzzOptions, loadBundled, root } from './fuzz-lib.mjs';

const { count: COUNT, seed: SEED, budgetMs: BUDGET_MS } = fuzzOptions();
const { TARGETS, runTarget } = loadBundled(join(root, 'test/reliability/fuzz-targets.ts'));

const started = performance.now();
let inputs = 0;
let crashes = 0;
let maxMs = 0;
let p999 = 0;
let printed = 0;
const per = Math.floor(COUNT / TARGETS.length);
TARGETS.forEach((target, index) => {
  const count = index === TARGETS.length - 1 ? COUNT - per * (TARGETS.length - 1) : per;
  const t0 = performance.now();
  const result = runTarget(target, count, SEED + index, BUDGET_MS, (input, err) => {
    if (printed++ < 30)
      console.error(
        `CRASH [${target.name}] ${JSON.stringify(input)?.slice(0, 300)}\n  ${err?.stack?.split('\n').slice(0, 3).join('\n  ') ?? err}`,
      );
  });
  inputs += result.inputs;
  crashes += result.crashes;
  maxMs = Math.max(maxMs, result.maxMs);
  p999 = Math.max(p999, result.p999Ms);
  console.log(
    `${target.name}: ${result.inputs} inputs, ${result.crashes} crashes, mean ${result.meanMs.toFixed(3)} ms, 99.9th percentile ${result.p999Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms per input, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
});
console.log(`fuzz inputs: ${inputs}`);
console.log(`fuzz crashes: ${crashes}`);
console.log(`fuzz max ms per input: ${maxMs.toFixed(2)}`);
console.log(`fuzz 99.9th percentile ms per input: ${p999.toFixed(2)}`);
console.log(`fuzz wall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(crashes > 0 ? 1 : 0);
