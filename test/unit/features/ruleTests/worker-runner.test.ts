// The Test Explorer's rule test runner in its worker thread: the same answer as `cloudbench test`'s
// runner in-process, a Cancel and a time limit that end the thread, the extension host free while a
// repository's cases compute, and answers of the wrong shape refused at the boundary.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testRule } from '../../../../src/cli/test';
import { fromRuleTestsWorker, toRuleTestsWorker } from '../../../../src/features/ruleTests/worker-protocol';
import { runRuleTestsInWorker } from '../../../../src/features/ruleTests/worker-runner';
import { ruleTestsWorkerPath } from '../../../support/rule-worker-host';
import { C2_RULE, placeholderBombRule } from '../../../support/rule-texts';

const TESTS = `cases:
  - name: fires at 90
    events:
      - udm: { metadata: { id: a, eventTimestamp: '2026-11-01T09:00:00Z', eventType: NETWORK_CONNECTION }, target: { ip: ['198.51.100.23'], port: 4444 } }
    expect:
      detections:
        - riskScore: 90
  - name: expects 91
    events:
      - udm: { metadata: { id: b, eventTimestamp: '2026-11-01T09:00:00Z', eventType: NETWORK_CONNECTION }, target: { ip: ['198.51.100.23'], port: 4444 } }
    expect:
      detections:
        - riskScore: 91
`;

function bombTests(cases: number): string {
  const ips = Array.from({ length: 16 }, (_, j) => `'10.7.0.${j + 1}'`).join(', ');
  const one = (i: number): string =>
    `  - name: bomb ${i}\n    events:\n      - udm: { metadata: { eventTimestamp: '2026-11-01T09:0${i % 10}:00Z', eventType: NETWORK_CONNECTION }, principal: { ip: [${ips}] } }\n    expect: { fires: false }\n`;
  return `cases:\n${Array.from({ length: cases }, (_, i) => one(i)).join('')}`;
}

describe('rule tests worker (the Test Explorer runner off the extension host thread)', function () {
  this.timeout(120_000);
  let dir: string;
  let workerFile: string;
  before(() => {
    workerFile = ruleTestsWorkerPath();
    dir = mkdtempSync(join(tmpdir(), 'cb-ruletests-worker-'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'c2_connection.yaral'), C2_RULE);
    writeFileSync(join(dir, 'rules', 'c2_connection.test.yaml'), TESTS);
    writeFileSync(join(dir, 'rules', 'placeholder_bomb.yaral'), placeholderBombRule());
    writeFileSync(join(dir, 'rules', 'placeholder_bomb.test.yaml'), bombTests(40));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const c2 = () => ({ path: join(dir, 'rules', 'c2_connection.yaral'), root: dir });
  const bomb = () => ({ path: join(dir, 'rules', 'placeholder_bomb.yaral'), root: dir });

  it('answers as cloudbench test does in-process: every case, or the named ones', async () => {
    const all = await runRuleTestsInWorker(c2(), undefined, { workerFile });
    assert.equal(all.status, 'done');
    const here = testRule(c2(), { paths: [], selectCase: () => true });
    assert.deepEqual(all.status === 'done' && all.result, JSON.parse(JSON.stringify(here)));
    assert.deepEqual(all.status === 'done' && all.result.cases.map((c) => [c.name, c.status]), [
      ['fires at 90', 'passed'],
      ['expects 91', 'failed'],
    ]);
    const one = await runRuleTestsInWorker(c2(), ['expects 91'], { workerFile });
    assert.deepEqual(one.status === 'done' && one.result.cases.map((c) => c.name), ['expects 91']);
  });

  it('Cancel ends the worker while a repository of bomb cases computes; the host runs meanwhile', async () => {
    const abort = new AbortController();
    let turns = 0;
    const tick = setInterval(() => {
      turns++;
      if (turns === 3) abort.abort();
    }, 20);
    try {
      const outcome = await runRuleTestsInWorker(bomb(), undefined, { workerFile, signal: abort.signal });
      assert.equal(outcome.status, 'cancelled');
      // The timer ran while the cases computed: the thread that asked was never held.
      assert.ok(turns >= 3, `${turns} timer turns`);
    } finally {
      clearInterval(tick);
    }
  });

  it('the time limit ends the worker and says what to do', async () => {
    const outcome = await runRuleTestsInWorker(bomb(), undefined, { workerFile, timeLimitMs: 500 });
    assert.equal(outcome.status, 'time-limit');
    assert.match(
      outcome.status === 'time-limit' ? outcome.message : '',
      /^Stopped after 1 s: this rule's cases took too long .* Run one case from its CodeLens/,
    );
  });

  it('refuses requests and answers of another shape', () => {
    assert.equal(toRuleTestsWorker({ type: 'test', rule: { path: 'a.yaral', root: '.' }, names: [1] }), undefined);
    assert.equal(toRuleTestsWorker({ type: 'test', rule: { path: 'a.yaral' }, names: null }), undefined);
    assert.deepEqual(toRuleTestsWorker({ type: 'test', rule: { path: 'a.yaral', root: '.' }, names: null }), {
      type: 'test',
      rule: { path: 'a.yaral', root: '.' },
      names: null,
    });
    const here = JSON.parse(JSON.stringify(testRule(c2(), { paths: [], selectCase: () => true })));
    assert.deepEqual(fromRuleTestsWorker({ type: 'result', result: here }), { type: 'result', result: here });
    const broken = (edit: (r: any) => void): unknown => {
      const r = structuredClone(here);
      edit(r);
      return fromRuleTestsWorker({ type: 'result', result: r });
    };
    assert.equal(
      broken((r) => (r.cases[0].status = 'ok')),
      undefined,
    );
    assert.equal(
      broken((r) => delete r.cases[0].detections[0].windowStart),
      undefined,
    );
    assert.equal(
      broken((r) => (r.cases[1].messages = 'not a list')),
      undefined,
    );
    assert.equal(
      broken((r) =>
        r.problems.push({
          code: 'other',
          file: 'x',
          message: 'y',
          fails: true,
          line: 0,
          column: 0,
          endLine: 0,
          endColumn: 0,
        }),
      ),
      undefined,
    );
    assert.equal(
      broken((r) => (r.cases[0].span.line = -1)),
      undefined,
    );
    assert.equal(fromRuleTestsWorker({ type: 'error', message: 7 }), undefined);
  });
});
