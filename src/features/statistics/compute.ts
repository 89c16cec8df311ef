// Runs the statistics engine off the extension host's main thread (compute-worker.ts), with a
// time limit and cancel. No `vscode` import, so plain Node tests drive it with the built worker.
import { Worker } from 'node:worker_threads';
import { CancelledError } from '../../core/google/errors';
import type { StatsResult } from '../../udm/stats';
import { EVENTS_PER_SLICE, isComputeReply, type BeginRequest, type ToStatsWorker } from './compute-protocol';

/** What a table is computed over and how: the query, its reference lists and the time zone. */
export type TableRequest = Omit<BeginRequest, 'type'>;

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
 * The table of `request.query` over `events`, computed in a fresh worker that is terminated when the
 * table arrives, the signal aborts (CancelledError) or the limit passes (ComputeTimeoutError): a
 * runaway computation never outlives its request.
 */
export function computeInWorker(
  request: TableRequest,
  events: readonly unknown[],
  { workerFile, signal, timeLimitMs = STATS_TIME_LIMIT_MS }: ComputeOptions,
): Promise<StatsResult> {
  if (signal?.aborted) return Promise.reject(new CancelledError());
  const worker = new Worker(workerFile);
  post(worker, { type: 'begin', ...request });
  return awaitTable(worker, signal, timeLimitMs, (stopped) => sendInSlices(worker, events, stopped));
}

/**
 * A statistics worker that is handed the events while the answer arrives and counts them into their
 * groups as they come, so that copying and counting overlap the download; it makes the table when
 * asked. Its worker ends with the computation, or on dispose() when the events it holds are not the
 * ones to compute over after all.
 */
export class StatsWorkerFeed {
  private worker: Worker | undefined;
  private failure: Error | undefined;
  private fed = 0;

  constructor(
    private readonly workerFile: string,
    private readonly request: TableRequest,
  ) {}

  /** Events handed over so far. */
  get count(): number {
    return this.fed;
  }

  add(events: readonly unknown[]): void {
    if (events.length === 0 || this.failure) return;
    const worker = this.started();
    for (let i = 0; i < events.length; i += EVENTS_PER_SLICE)
      post(worker, { type: 'events', events: events.slice(i, i + EVENTS_PER_SLICE) });
    this.fed += events.length;
  }

  /** The table over every event handed over; the worker ends with it. */
  compute({
    signal,
    timeLimitMs = STATS_TIME_LIMIT_MS,
  }: Omit<ComputeOptions, 'workerFile'> = {}): Promise<StatsResult> {
    const worker = this.started();
    this.worker = undefined;
    if (this.failure) {
      void worker.terminate();
      return Promise.reject(this.failure);
    }
    if (signal?.aborted) {
      void worker.terminate();
      return Promise.reject(new CancelledError());
    }
    return awaitTable(worker, signal, timeLimitMs, () => {
      post(worker, { type: 'compute' });
      return Promise.resolve();
    });
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  /** The worker, started with the query on first use. */
  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerFile);
    // Until compute() listens, a failing worker is remembered (an unheard 'error' would throw).
    worker.on('error', (err) => (this.failure ??= err));
    post(worker, { type: 'begin', ...this.request });
    this.worker = worker;
    return worker;
  }
}

function post(worker: Worker, message: ToStatsWorker): void {
  worker.postMessage(message);
}

/** The worker's answer, within the time limit and until the signal aborts; the worker then ends. */
function awaitTable(
  worker: Worker,
  signal: AbortSignal | undefined,
  timeLimitMs: number,
  send: (stopped: () => boolean) => Promise<void>,
): Promise<StatsResult> {
  return new Promise<StatsResult>((resolve, reject) => {
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
    void send(() => settled).catch((err: unknown) => finish(err instanceof Error ? err : new Error(String(err))));
  });
}

/** Posts the events a slice at a time, yielding to the event loop between slices, then asks for the table. */
async function sendInSlices(worker: Worker, events: readonly unknown[], stopped: () => boolean): Promise<void> {
  for (let i = 0; i < events.length; i += EVENTS_PER_SLICE) {
    if (stopped()) return;
    post(worker, { type: 'events', events: events.slice(i, i + EVENTS_PER_SLICE) });
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (!stopped()) post(worker, { type: 'compute' });
}
