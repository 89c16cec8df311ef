// Test Rule's engine runs in a worker thread: the same detections as on the main thread, Cancel answers at once with the worker gone, and the time limit cuts a rule
// whose placeholders multiply with a message that says so.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import {
  RULE_TEST_TIME_LIMIT_MS,
  runRuleTestInWorker,
} from '../../../../../src/features/shared/rule-engine/engine-runner';
import { runRuleTest } from '../../../../../src/udm/rule/engine';
import { endlessWorkerPath, placeholderBomb, ruleWorkerPath } from '../../../../support/rule-worker-host';

const RULE = `rule failed_logins {
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.principal.hostname = $host
  match:
    $host over 1h
  condition:
    #e >= 2
}
`;

function logins(n: number): unknown[] {
  const start = Date.parse('2026-01-01T00:00:00Z');
  return Array.from({ length: n }, (_, i) => ({
    name: `login-${i}`,
    udm: {
      metadata: {
        id: `login-${i}`,
        eventType: 'USER_LOGIN',
        eventTimestamp: new Date(start + i * 60_000).toISOString(),
      },
      principal: { hostname: `host-${i % 3}` },
    },
  }));
}

const OPTIONS = { referenceLists: {}, maxDetections: 1000 };

/** Resolves when `worker` has exited (its 'exit' event), or at once when it already has. */
function exited(worker: Worker): Promise<unknown> {
  return worker.threadId === -1 ? Promise.resolve() : once(worker, 'exit');
}

describe('Test Rule engine in a worker thread', function () {
  this.timeout(60_000);
  let workerFile: string;
  before(() => {
    workerFile = ruleWorkerPath();
  });

  it('gives the detections the engine gives on the main thread, events sent in slices', async () => {
    const events = logins(4_500); // more than two slices
    const here = runRuleTest(RULE, new Map([['e', events]]), OPTIONS);
    const there = await runRuleTestInWorker(RULE, new Map([['e', events]]), OPTIONS, { workerFile });
    assert.equal(there.status, 'done');
    if (there.status !== 'done') return;
    assert.equal(there.result.detections.length, here.detections.length);
    assert.ok(here.detections.length > 0);
    assert.deepEqual(
      there.result.detections.map((d) => [d.match, d.windowStart, d.windowEnd, Object.keys(d.events)]),
      here.detections.map((d) => [d.match, d.windowStart, d.windowEnd, Object.keys(d.events)]),
    );
    assert.equal(there.result.cut, undefined);
  });

  it('Cancel answers with a cancelled outcome once the worker is gone, while it computes', async () => {
    const abort = new AbortController();
    let worker: Worker | undefined;
    let exitedBeforeAnswer = false;
    const outcome = runRuleTestInWorker(RULE, new Map([['e', logins(10)]]), OPTIONS, {
      workerFile: endlessWorkerPath(),
      signal: abort.signal,
      onWorker: (w) => {
        worker = w;
        w.once('exit', () => (exitedBeforeAnswer = true));
      },
    });
    assert.ok(worker, 'the worker started');
    // The worker is busy for good once it has the compute request: wait for it to be online.
    await once(worker, 'online');
    abort.abort();
    const answered = await outcome;
    assert.deepEqual(answered, { status: 'cancelled' });
    assert.equal(exitedBeforeAnswer, true, 'the worker exited before the cancel was answered');
    await exited(worker);
  });

  it('Cancel ends a real rule whose placeholders multiply while it computes', async () => {
    const bomb = placeholderBomb(7);
    const abort = new AbortController();
    let worker: Worker | undefined;
    const outcome = runRuleTestInWorker(bomb.rule, new Map([['e', bomb.events]]), OPTIONS, {
      workerFile,
      signal: abort.signal,
      onWorker: (w) => (worker = w),
    });
    await once(worker!, 'online');
    abort.abort();
    assert.deepEqual(await outcome, { status: 'cancelled' });
    await exited(worker!);
  });

  it('an abort before the start starts no worker', async () => {
    const abort = new AbortController();
    abort.abort();
    let started = false;
    const outcome = await runRuleTestInWorker(RULE, new Map(), OPTIONS, {
      workerFile,
      signal: abort.signal,
      onWorker: () => (started = true),
    });
    assert.deepEqual(outcome, { status: 'cancelled' });
    assert.equal(started, false);
  });

  it('the time limit cuts a rule whose placeholders multiply, with a message saying so and what is shown', async () => {
    const bomb = placeholderBomb(7);
    let worker: Worker | undefined;
    const outcome = await runRuleTestInWorker(bomb.rule, new Map([['e', bomb.events]]), OPTIONS, {
      workerFile,
      timeLimitMs: 1_500,
      onWorker: (w) => (worker = w),
    });
    assert.equal(outcome.status, 'done');
    if (outcome.status !== 'done') return;
    assert.ok(outcome.result.cut, 'the result says it was cut');
    assert.match(outcome.result.cut.message, /Stopped|stopped|limit/);
    if (outcome.result.cut.reason === 'time-limit' && outcome.result.detections.length === 0)
      assert.match(outcome.result.cut.message, /no detections are shown/);
    await exited(worker!);
  });

  it("with the default limit, a rule whose placeholders multiply ends with the work limit's cut, before the time limit", async () => {
    const bomb = placeholderBomb(7);
    const outcome = await runRuleTestInWorker(bomb.rule, new Map([['e', bomb.events]]), OPTIONS, { workerFile });
    assert.equal(outcome.status, 'done');
    if (outcome.status !== 'done') return;
    assert.equal(outcome.result.cut?.reason, 'work-limit', JSON.stringify(outcome.result.cut));
    assert.match(outcome.result.cut.message, /stopped/);
  });

  it('the time limit a run gets by default is the documented 30 s', () => {
    assert.equal(RULE_TEST_TIME_LIMIT_MS, 30_000);
  });

  it('a worker that cannot start fails the run with the reason', async () => {
    await assert.rejects(
      runRuleTestInWorker(RULE, new Map([['e', logins(3)]]), OPTIONS, { workerFile: '/nonexistent/rule-worker.js' }),
      /Cannot find module|nonexistent/,
    );
  });
});
