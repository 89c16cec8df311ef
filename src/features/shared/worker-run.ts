// One job in a fresh worker thread, ended when it answers, when the signal aborts or when the time
// limit passes: the thread is terminated before the promise settles, so a cancelled or stopped job
// holds no CPU afterwards. Test Rule's engine and the Test Explorer's runner start their workers
// through it. No `vscode` import, so plain Node tests drive it.
import { Worker } from 'node:worker_threads';

export type WorkerOutcome<T> = { status: 'done'; value: T } | { status: 'cancelled' } | { status: 'time-limit' };

export interface WorkerJob<T> {
  /** the bundled worker script */
  workerFile: string;
  signal?: AbortSignal;
  timeLimitMs: number;
  /** told the worker once it is started (for watching it end) */
  onWorker?: (worker: Worker) => void;
  /** names the worker in errors ("The Test Rule worker …") */
  what: string;
  /** the worker's one answer checked: its result, why there is none, or undefined for another shape */
  answer(data: unknown): { type: 'result'; result: T } | { type: 'error'; message: string } | undefined;
  /** sends the job; `stopped` turns true once the job has ended */
  start(worker: Worker, stopped: () => boolean): void | Promise<void>;
}

export function runInWorker<T>(job: WorkerJob<T>): Promise<WorkerOutcome<T>> {
  const { signal } = job;
  if (signal?.aborted) return Promise.resolve({ status: 'cancelled' });
  const worker = new Worker(job.workerFile);
  job.onWorker?.(worker);
  return new Promise<WorkerOutcome<T>>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: WorkerOutcome<T> | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate().finally(() => (outcome instanceof Error ? reject(outcome) : resolve(outcome)));
    };
    const onAbort = (): void => finish({ status: 'cancelled' });
    const timer = setTimeout(() => finish({ status: 'time-limit' }), job.timeLimitMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (data: unknown) => {
      const reply = job.answer(data);
      if (!reply) finish(new Error(`${job.what} sent an answer of an unexpected shape.`));
      else if (reply.type === 'error') finish(new Error(reply.message));
      else finish({ status: 'done', value: reply.result });
    });
    worker.on('error', (err) => finish(err));
    worker.on('exit', (code) => finish(new Error(`${job.what} stopped (exit code ${code}).`)));
    void Promise.resolve(job.start(worker, () => settled)).catch((err: unknown) =>
      finish(err instanceof Error ? err : new Error(String(err))),
    );
  });
}
