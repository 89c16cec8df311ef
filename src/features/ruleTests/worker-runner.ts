// Runs one rule's test cases in the rule tests worker (worker.ts), with a time limit and a Cancel
// that end the worker at once: cases from a repository never hold the extension host, and never
// outlive their run. No `vscode` import, so plain Node tests drive it.
import type { RuleTests } from '../../cli/test';
import { runInWorker } from '../shared/worker-run';
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
export async function runRuleTestsInWorker(
  rule: { path: string; root: string },
  names: readonly string[] | undefined,
  { workerFile, signal, timeLimitMs = RULE_TESTS_TIME_LIMIT_MS }: RuleTestsWorkerOptions,
): Promise<RuleTestsOutcome> {
  const outcome = await runInWorker<RuleTests>({
    workerFile,
    signal,
    timeLimitMs,
    what: 'The rule tests worker',
    answer: fromRuleTestsWorker,
    start: (worker) => {
      const request: RunRuleTests = { type: 'test', rule, names: names ? [...names] : null };
      worker.postMessage(request);
    },
  });
  if (outcome.status === 'done') return { status: 'done', result: outcome.value };
  if (outcome.status === 'cancelled') return outcome;
  return { status: 'time-limit', message: ruleTestsTimeLimitMessage(timeLimitMs) };
}
