// The statistics engine in a worker thread (dist/stats-worker.js): a table over ten thousands of
// hostile events, or a slow condition:, can take long, and the extension host must keep answering
// the editor meanwhile. The query is compiled here again, so no compiled closure crosses threads.
// Each slice of events is counted into its groups as it comes (StatsEngine.start), so a table over
// an answer that is still arriving is mostly counted by the time its last event is here.
import { parentPort } from 'node:worker_threads';
import { compileStatistics, type StatsRun } from '../../udm/stats';
import { toStatsWorker, type ComputeReply, type ToStatsWorker } from './compute-protocol';

let run: StatsRun | undefined;
/** Why no table can come: the first failure, told when the table is asked for. */
let failure: string | undefined;

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The query, or the next events counted into the table. */
function take(message: Exclude<ToStatsWorker, { type: 'compute' }> | undefined): void {
  if (!message) throw new Error('The statistics worker got a message it does not understand.');
  if (message.type === 'begin') {
    if (run) throw new Error('The statistics worker was given a second query.');
    const compiled = compileStatistics(message.query, { referenceLists: message.referenceLists });
    if (!compiled) throw new Error('The query has no match: or outcome: section to compute.');
    run = compiled.engine.start({ timeZone: message.timeZone });
    return;
  }
  if (!run) throw new Error('The statistics worker was given events before the query.');
  run.add(message.events);
}

function answer(): ComputeReply {
  try {
    if (failure !== undefined) throw new Error(failure);
    if (!run) throw new Error('The statistics worker was asked for a table before the query.');
    return { type: 'result', result: run.finish() };
  } catch (err) {
    return { type: 'error', message: messageOf(err) };
  }
}

parentPort?.on('message', (data: unknown) => {
  const message = toStatsWorker(data);
  if (message?.type === 'compute') {
    parentPort?.postMessage(answer());
    return;
  }
  if (failure !== undefined) return;
  try {
    take(message);
  } catch (err) {
    failure = messageOf(err);
  }
});
