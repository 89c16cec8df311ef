// Runs one rule's test cases in the rule tests worker (worker.ts), with a time limit and a Cancel
// that end the worker at once: cases from a repository never hold the extension host, and never
// outlive their run. No `vscode` import, so plain Node tests drive it.
import { Worker } from 'node:worker_threads';
import type { RuleTests } from '../../cli/test';
import { fromRuleTestsWorker, type RunRuleTests } from './worker-protocol';

/** How long one rule's cases may run before the worker is stopped. */
export const RULE_TESTS_TIME_LIMIT_MS = 60_000;

export type RuleTestsOutcome =
  { status: 'done'; result: RuleTests } | { status: 'cancelled' } | { status: 'time-limit'; message: string };

export interface RuleTestsWorkerOptions {
  /** the bundled worker, dist/rule-tests-worker.js */
  workerFile: string;
  signal?: AbortSignal;
  timeLimitMs?: number;
}

/** What a rule whose cases ran past the time limit says on each of them. */
export function ruleTestsTimeLimitMessage(limitMs: number): string {
  return (
    `Stopped after ${Math.round(limitMs / 1000)} s: this rule's cases took too long to compute (a rule whose ` +
    "placeholders or joins multiply the combinations stops at the engine's work limit, case after case). " +
    'Run one case from its CodeLens, or narrow the rule, and run again.'
  );
}

/**
 * `cloudbench test`'s result for one rule, computed in a fresh worker that is ended when the result
 * arrives, the signal aborts (resolves `cancelled` once the worker has stopped) or the time limit
 * passes.
 */
export function runRuleTestsInWorker(
  rule: { path: string; root: string },
  names: readonly string[] | undefined,
  { workerFile, signal, timeLimitMs = RULE_TESTS_TIME_LIMIT_MS }: RuleTestsWorkerOptions,
): Promise<RuleTestsOutcome> {
  if (signal?.aborted) return Promise.resolve({ status: 'cancelled' });
  const worker = new Worker(workerFile);
  return new Promise<RuleTestsOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: RuleTestsOutcome | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Answered only once the thread is gone: a cancelled or stopped run holds no CPU afterwards.
      void worker.terminate().finally(() => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    };
    const onAbort = (): void => finish({ status: 'cancelled' });
    const timer = setTimeout(
      () => finish({ status: 'time-limit', message: ruleTestsTimeLimitMessage(timeLimitMs) }),
      timeLimitMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (data: unknown) => {
      const reply = fromRuleTestsWorker(data);
      if (!reply) finish(new Error('The rule tests worker sent an answer of an unexpected shape.'));
      else if (reply.type === 'error') finish(new Error(reply.message));
      else finish({ status: 'done', result: reply.result });
    });
    worker.on('error', (err) => finish(err));
    worker.on('exit', (code) => finish(new Error(`The rule tests worker stopped (exit code ${code}).`)));
    const request: RunRuleTests = { type: 'test', rule, names: names ? [...names] : null };
    worker.postMessage(request);
  });
}
