// Runs the statistics engine off the extension host's main thread (compute-worker.ts), with a
// time limit and cancel. No `vscode` import, so plain Node tests drive it with the built worker.
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../../core/google/errors';
import type { StatsResult } from '../../udm/stats';
import { EVENTS_PER_SLICE, isComputeReply, type ComputeRequest, type EventsSlice } from './compute-protocol';

/** How long a statistics table may compute before it is stopped. */
export const STATS_TIME_LIMIT_MS = 60_000;

export interface ComputeOptions {
  /** the bundled worker, dist/stats-worker.js */
  workerFile: string;
  signal?: AbortSignal;
  timeLimitMs?: number;
}

export class ComputeTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(
      `The statistics took longer than ${Math.round(limitMs / 1000)} s to compute and were stopped: narrow the filter or the time range, or simplify match:, outcome: and condition:.`,
    );
    this.name = 'ComputeTimeoutError';
  }
}

/**
 * The table of `request.query` over `request.events`, computed in a fresh worker that is
 * terminated when the table arrives, the signal aborts (CancelledError) or the limit passes
 * (ComputeTimeoutError): a runaway computation never outlives its request.
 */
export function computeInWorker(
  request: Omit<ComputeRequest, 'type'>,
  { workerFile, signal, timeLimitMs = STATS_TIME_LIMIT_MS }: ComputeOptions,
): Promise<StatsResult> {
  if (signal?.aborted) return Promise.reject(new CancelledError());
  return new Promise<StatsResult>((resolve, reject) => {
    const worker = new Worker(workerFile);
    let settled = false;
    const finish = (err: Error | undefined, result?: StatsResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(result!);
    };
    const onAbort = (): void => finish(new CancelledError());
    const timer = setTimeout(() => finish(new ComputeTimeoutError(timeLimitMs)), timeLimitMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (reply: unknown) => {
      if (!isComputeReply(reply)) finish(new Error('The statistics worker sent an answer of an unexpected shape.'));
      else if (reply.type === 'error') finish(new Error(reply.message));
      else finish(undefined, reply.result);
    });
    worker.on('error', (err) => finish(err));
    worker.on('exit', (code) => finish(new Error(`The statistics worker stopped (exit code ${code}).`)));
    void sendInSlices(worker, request, () => settled).catch((err: unknown) =>
      finish(err instanceof Error ? err : new Error(String(err))),
    );
  });
}

/** Posts the events a slice at a time, yielding to the event loop between slices, then the request. */
async function sendInSlices(
  worker: Worker,
  request: Omit<ComputeRequest, 'type'>,
  stopped: () => boolean,
): Promise<void> {
  const { events } = request;
  for (let i = 0; i < events.length; i += EVENTS_PER_SLICE) {
    if (stopped()) return;
    worker.postMessage({ type: 'events', events: events.slice(i, i + EVENTS_PER_SLICE) } satisfies EventsSlice);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!stopped()) worker.postMessage({ type: 'compute', ...request, events: [] } satisfies ComputeRequest);
}
