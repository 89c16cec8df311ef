// The statistics engine in a worker thread (dist/stats-worker.js): a table over ten thousands of
// hostile events, or a slow condition:, can take long, and the extension host must keep answering
// the editor meanwhile. The query is compiled here again, so no compiled closure crosses threads.
import { parentPort } from 'node:worker_threads';
import { compileStatistics } from '../../udm/stats';
import { isComputeRequest, isEventsSlice, type ComputeReply } from './compute-protocol';

/** Events sent in slices ahead of the request; the request's own events come after them. */
const received: unknown[] = [];

parentPort?.on('message', (message: unknown) => {
  if (isEventsSlice(message)) {
    for (const e of message.events) received.push(e);
    return;
  }
  let reply: ComputeReply;
  try {
    if (!isComputeRequest(message)) throw new Error('The statistics worker got a request it does not understand.');
    const compiled = compileStatistics(message.query, { referenceLists: message.referenceLists });
    if (!compiled) throw new Error('The query has no match: or outcome: section to compute.');
    for (const e of message.events) received.push(e);
    reply = { type: 'result', result: compiled.engine.run(received, { timeZone: message.timeZone }) };
  } catch (err) {
    reply = { type: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
