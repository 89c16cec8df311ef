// The small property run of the fuzz targets (scripts/fuzz.mjs runs the same targets a million times).
import assert from 'node:assert/strict';
import { TARGETS, runTarget } from './fuzz-targets';

const PER_TARGET = 1_500;
const BUDGET_MS = 250;

describe('reliability: generated inputs never crash the parsers and validators', function () {
  this.timeout(60_000);
  for (const target of TARGETS) {
    it(`${target.name}: ${PER_TARGET} inputs, no undocumented throw, ranges in bounds, each under ${BUDGET_MS} ms`, () => {
      const crashes: string[] = [];
      const result = runTarget(target, PER_TARGET, 42, BUDGET_MS, (input, err) => {
        if (crashes.length < 5)
          crashes.push(`${JSON.stringify(input)?.slice(0, 200)} → ${(err as Error)?.name}: ${(err as Error)?.message}`);
      });
      assert.equal(result.inputs, PER_TARGET);
      assert.deepEqual(crashes, [], `${result.crashes} crashes`);
    });
  }
});
