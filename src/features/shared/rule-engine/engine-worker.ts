// The rule engine in a worker thread (dist/rule-worker.js): a rule whose placeholders multiply can
// compute for minutes, and the extension host must keep answering the editor meanwhile; Cancel and
// the time limit end this thread (engine-runner.ts). The rule is parsed here again from its text.
import { parentPort } from 'node:worker_threads';
import { runRuleTest } from '../../../udm/rule/engine';
import { toRuleWorker, type BeginTest, type FromRuleWorker } from './engine-protocol';

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** What the worker speaks through: its parent port, or a test's stand-in. */
export interface RuleWorkerPort {
  on(event: 'message', listener: (data: unknown) => void): unknown;
  postMessage(message: unknown): void;
}

/** Answers one test on `port`: the rule, the events, then the result (or why there is none). */
export function serveRuleTest(port: RuleWorkerPort): void {
  let begin: BeginTest | undefined;
  const events = new Map<string, unknown[]>();
  let failure: string | undefined;
  const reply = (message: FromRuleWorker): void => port.postMessage(message);

  port.on('message', (data: unknown) => {
    const message = toRuleWorker(data);
    if (message?.type === 'compute') {
      if (failure !== undefined) return reply({ type: 'error', message: failure });
      if (!begin)
        return reply({ type: 'error', message: 'The Test Rule worker was asked to compute before the rule.' });
      try {
        return reply({ type: 'result', result: runRuleTest(begin.ruleText, events, begin.options) });
      } catch (err) {
        return reply({ type: 'error', message: messageOf(err) });
      }
    }
    if (failure !== undefined) return;
    if (!message) failure = 'The Test Rule worker got a message it does not understand.';
    else if (message.type === 'begin') {
      if (begin) failure = 'The Test Rule worker was given a second rule.';
      else begin = message;
    } else if (!begin) failure = 'The Test Rule worker was given events before the rule.';
    else {
      const list = events.get(message.variable);
      if (list) for (const e of message.events) list.push(e);
      else events.set(message.variable, [...message.events]);
    }
  });
}

if (parentPort) serveRuleTest(parentPort);
