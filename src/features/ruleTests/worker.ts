// The Test Explorer's runner in a worker thread (dist/rule-tests-worker.js): a rule's cases come from
// the repository, and a case whose rule multiplies placeholders computes until the engine's work
// limit stops it; with many such cases the extension host would stop answering the editor for as
// long. Here they run off its thread, and a Cancel or the time limit ends this thread
// (worker-runner.ts). The same `cloudbench test` runner, so a case answers as it does in CI.
import { parentPort } from 'node:worker_threads';
import { testRule } from '../../cli/test';
import { toRuleTestsWorker, type FromRuleTestsWorker } from './worker-protocol';

/** What the worker speaks through: its parent port, or a test's stand-in. */
export interface RuleTestsWorkerPort {
  on(event: 'message', listener: (data: unknown) => void): unknown;
  postMessage(message: unknown): void;
}

/** Answers one request on `port`: a rule's cases (all, or the named ones) run, then the result. */
export function serveRuleTests(port: RuleTestsWorkerPort): void {
  const reply = (message: FromRuleTestsWorker): void => port.postMessage(message);
  port.on('message', (data: unknown) => {
    const request = toRuleTestsWorker(data);
    if (!request)
      return reply({ type: 'error', message: 'The rule tests worker got a request it does not understand.' });
    const names = request.names ? new Set(request.names) : undefined;
    try {
      const result = testRule(request.rule, {
        paths: [],
        selectCase: names ? (_file, name) => names.has(name) : () => true,
      });
      reply({ type: 'result', result });
    } catch (err) {
      reply({ type: 'error', message: err instanceof Error ? err.message : String(err) });
    }
  });
}

if (parentPort) serveRuleTests(parentPort);
