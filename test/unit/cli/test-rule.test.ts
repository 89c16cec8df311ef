// What `test-rule` prints and exits with for an engine's answer, a cut one included.
import assert from 'node:assert/strict';
import { testRuleReport, type TestRuleOutcome } from '../../../src/cli/test-rule';
import type { Detection, RuleTestResult } from '../../../src/udm/rule/test-types';

function tested(detections: Detection[], cut?: RuleTestResult['cut']): TestRuleOutcome {
  return {
    kind: 'tested',
    ruleName: 'bomb',
    plan: { searches: [], untestable: [] } as unknown as Extract<TestRuleOutcome, { kind: 'tested' }>['plan'],
    picked: new Map(),
    eventsRead: 0,
    eventsInRange: 0,
    detections,
    notes: [],
    ...(cut ? { cut } : {}),
  };
}

describe('cli test-rule report', () => {
  it('a run that ended is exit code 0, without "cut"', () => {
    const r = testRuleReport(tested([]), 'json');
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    assert.deepEqual(JSON.parse(r.out), { rule: 'bomb', detections: [] });
  });

  it('a cut run: the reason on stderr, "cut" in the JSON and the text title, exit code 1', () => {
    const cut = { reason: 'time-limit' as const, message: 'Stopped after 20 s (--time-limit).' };
    const json = testRuleReport(tested([], cut), 'json');
    assert.equal(json.code, 1);
    assert.deepEqual(JSON.parse(json.out), { rule: 'bomb', cut, detections: [] });
    assert.match(
      json.err,
      /^incomplete: Stopped after 20 s \(--time-limit\)\. The detections printed are those found before it stopped\.\n$/,
    );
    const text = testRuleReport(tested([], cut), 'text');
    assert.equal(text.code, 1);
    assert.match(text.out, /^bomb: no detections \(incomplete: the engine stopped early\)\n$/);
  });

  it('a cut message from the engine is escaped like every other message', () => {
    const cut = { reason: 'work-limit' as const, message: 'cut\n::error file=x::forged' };
    const r = testRuleReport(tested([], cut), 'json');
    for (const line of r.err.split('\n')) assert.ok(!line.trim().startsWith('::'), line);
  });
});
