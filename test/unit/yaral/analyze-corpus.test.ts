import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { analyzeRuleFile } from '../../../src/udm/rule/analyze';
import { CORPUS_DIR, DEMO_RULES_DIR, expectation, INVALID_DIR, yaralFiles } from '../../support/yaral-corpus';

const read = (f: string): string => readFileSync(f, 'utf8');

describe('YARA-L rule analysis over the corpus', () => {
  for (const f of [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR)])
    it(`${basename(f)} has no error`, () => {
      const a = analyzeRuleFile(read(f));
      const errors = a.diagnostics.filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => `${d.range.start.line + 1}: ${d.code}: ${d.message}`),
        [],
      );
      assert.equal(a.hasErrors, false);
    });

  for (const f of yaralFiles(INVALID_DIR))
    it(`${basename(f)} gets its expected ${expectation(f).kind}, and nothing else as severe`, () => {
      const { kind, severity } = expectation(f);
      const a = analyzeRuleFile(read(f));
      const hits = a.diagnostics.filter((d) => d.code === kind && d.severity === severity);
      assert.ok(hits.length > 0, `no ${severity} ${kind}: ${JSON.stringify(a.diagnostics.map((d) => d.message))}`);
      // The defect is the only error: the checks do not cascade into unrelated errors.
      const others = a.diagnostics.filter((d) => d.severity === 'error' && d.code !== kind);
      assert.deepEqual(
        others.map((d) => d.message),
        [],
      );
      // Messages say what to do, in words a rule author knows.
      for (const d of hits) assert.ok(d.message.length > 30, d.message);
    });
});
