// Runs Test Rule's engine off the extension host's main thread (engine-worker.ts), with a time limit
// and a Cancel that end the worker at once: a rule whose placeholders multiply never holds the
// editor, and never outlives its test. No `vscode` import, so plain Node tests drive it.
import type { Worker } from 'node:worker_threads';
import { runInWorker } from '../worker-run';
import type { RuleTestResult } from '../../../udm/rule/test-types';
import { EVENTS_PER_SLICE, fromRuleWorker, type ToRuleWorker, type WorkerTestOptions } from './engine-protocol';

/** How long the detections may compute before the worker is stopped. */
export const RULE_TEST_TIME_LIMIT_MS = 30_000;
/** The engine is told to stop this much before the worker is ended, so it can say what it found. */
const ENGINE_MARGIN = 0.1;

export type RuleTestOutcome = { status: 'done'; result: RuleTestResult } | { status: 'cancelled' };

export interface RuleWorkerOptions {
  /** the bundled worker, dist/rule-worker.js */
  workerFile: string;
  signal?: AbortSignal;
  timeLimitMs?: number;
  /** told the worker once it is started (for watching it end) */
  onWorker?: (worker: Worker) => void;
}

/** The message a run cut by the time limit shows: where it stopped and what it shows. */
export function timeLimitMessage(limitMs: number): string {
  return (
    `Stopped after ${Math.round(limitMs / 1000)} s: computing the detections took too long (the rule's placeholders ` +
    'and joins multiply the combinations of events), so no detections are shown. Narrow the time range, ' +
    'or bind fewer placeholders to fields with many values, and test again.'
  );
}

/**
 * The detections of `ruleText` over `eventsByVariable`, computed in a fresh worker that is ended
 * when the result arrives, the signal aborts (resolves `cancelled` once the worker has stopped) or
 * the time limit passes (a result with no detections and `cut` saying why). The engine itself gets a
 * deadline a little earlier, so that where it can stop on its own it returns what it found.
 */
export async function runRuleTestInWorker(
  ruleText: string,
  eventsByVariable: ReadonlyMap<string, readonly unknown[]>,
  options: Omit<WorkerTestOptions, 'deadline'>,
  { workerFile, signal, timeLimitMs = RULE_TEST_TIME_LIMIT_MS, onWorker }: RuleWorkerOptions,
): Promise<RuleTestOutcome> {
  const deadline = Date.now() + Math.round(timeLimitMs * (1 - ENGINE_MARGIN));
  const outcome = await runInWorker<RuleTestResult>({
    workerFile,
    signal,
    timeLimitMs,
    onWorker,
    what: 'The Test Rule worker',
    answer: fromRuleWorker,
    start: (worker, stopped) => {
      post(worker, { type: 'begin', ruleText, options: { ...options, deadline } });
      return sendEvents(worker, eventsByVariable, stopped);
    },
  });
  if (outcome.status === 'done') return { status: 'done', result: outcome.value };
  if (outcome.status === 'cancelled') return outcome;
  return {
    status: 'done',
    result: { detections: [], notes: [], cut: { reason: 'time-limit', message: timeLimitMessage(timeLimitMs) } },
  };
}

function post(worker: Worker, message: ToRuleWorker): void {
  worker.postMessage(message);
}

/** Posts each variable's events a slice at a time, yielding between slices, then asks for the result. */
async function sendEvents(
  worker: Worker,
  eventsByVariable: ReadonlyMap<string, readonly unknown[]>,
  stopped: () => boolean,
): Promise<void> {
  for (const [variable, events] of eventsByVariable) {
    if (events.length === 0) post(worker, { type: 'events', variable, events: [] });
    for (let i = 0; i < events.length; i += EVENTS_PER_SLICE) {
      if (stopped()) return;
      post(worker, { type: 'events', variable, events: events.slice(i, i + EVENTS_PER_SLICE) });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  if (!stopped()) post(worker, { type: 'compute' });
}
