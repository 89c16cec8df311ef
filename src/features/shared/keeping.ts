// What a reload keeps of Search: each panel's run (its rows, on disk, bounded) and the hourly
// udmSearch count (in global state, per endpoint); and how a run that gave up retrying is told.
import * as vscode from 'vscode';
import { describeWithRetries, retryRecordOf } from '../../core/google/retry';
import { BudgetWaitError, type RateLimiter } from '../../core/ratelimit';
import { RESULT_KINDS, type RunInfo } from '../../core/secops/messages';
import type { ResolvedWindow } from '../../core/secops/timerange';
import { KeptRuns } from '../../core/storage/kept-runs';
import { getLogger } from '../../platform/log';

const log = getLogger('search');

/** What Search keeps across a window reload; absent parts are simply not kept (tests, no storage). */
export interface SearchKeeping {
  runs?: KeptRuns;
  state?: vscode.Memento;
}

/** The folder of kept runs: the workspace's own storage, else the extension's global storage. */
export function keptRunsOf(context: vscode.ExtensionContext): KeptRuns | undefined {
  const base = context.storageUri ?? context.globalStorageUri;
  // Only a local folder: a virtual workspace's storage is not ours to write with node:fs.
  if (base.scheme !== 'file') return undefined;
  return new KeptRuns(vscode.Uri.joinPath(base, 'runs').fsPath);
}

/** A kept results or pivot run, as written to disk. */
export interface KeptResults {
  version: 1;
  panel: 'results';
  info: RunInfo;
  rows: unknown[];
  moreDataAvailable: boolean;
  query?: string;
  limit?: number;
  window?: ResolvedWindow;
}

/**
 * Whether a file read back from disk is a kept run of `panel` in this format (version 1, with a run
 * id): a file from another version or another panel is not restored, whatever else it holds.
 */
export function isKeptRunOf<T extends { info: { runId: string } }>(
  value: unknown,
  panel: string,
): value is Partial<T> & { info: T['info'] } {
  const v = value as { version?: unknown; panel?: unknown; info?: { runId?: unknown } } | null;
  return (
    typeof v === 'object' && v !== null && v.version === 1 && v.panel === panel && typeof v.info?.runId === 'string'
  );
}

export function isKeptResults(value: unknown): value is KeptResults {
  if (!isKeptRunOf<KeptResults>(value, 'results')) return false;
  const v = value;
  return (
    typeof v.info.title === 'string' &&
    (RESULT_KINDS as readonly unknown[]).includes(v.info.kind) &&
    Array.isArray(v.rows) &&
    typeof v.moreDataAvailable === 'boolean' &&
    (v.window === undefined || (Number.isFinite(v.window.startMs) && Number.isFinite(v.window.endMs)))
  );
}

/** The run id a restored page's state names (what it showed before the reload). */
export function keptRunIdOf(state: unknown): string | undefined {
  const runId = (state as { restore?: { runId?: unknown } } | null | undefined)?.restore?.runId;
  return KeptRuns.isRunId(runId) ? runId : undefined;
}

/**
 * Keeps a run once the panel has its rows: writing 10,000 events takes a moment of the extension
 * host, which must not hold up the rest of the rows on their way to the page. `value` returns
 * undefined when the run is no longer worth keeping; `cancel` drops the write.
 */
export function keepLater(
  runs: KeptRuns | undefined,
  id: string,
  value: () => unknown,
  delayMs: number,
): { cancel(): void } {
  if (!runs) return { cancel: () => undefined };
  const timer = setTimeout(() => {
    // A run that no panel shows any more (a newer run replaced it meanwhile) has nothing to restore.
    const run = value();
    if (run === undefined) return;
    runs.save(id, run).then(
      (kept) => log.debug(kept ? `kept run ${id} for a reload` : `run ${id} is too large to keep`),
      (err: unknown) => log.warn(`could not keep run ${id} for a reload: ${(err as Error).message}`),
    );
  }, delayMs);
  // Cancelling lets go of the run `value` reads at once, instead of when the timer would have fired.
  return { cancel: () => clearTimeout(timer) };
}

const BUDGET_KEY = 'cloudbench.search.udmSearchSpent';

/**
 * The hourly udmSearch count survives a reload: the times at which the searches spent this hour come
 * back, per endpoint, in global state (the quota is the project's, whatever the window).
 */
export function keepBudget(
  state: vscode.Memento | undefined,
  endpoint: string,
  limiter: RateLimiter,
): { dispose(): void } {
  if (!state) return { dispose: () => undefined };
  const all = state.get<Record<string, unknown>>(BUDGET_KEY) ?? {};
  const saved = all[endpoint];
  if (Array.isArray(saved)) limiter.restoreSpent('udmSearch', saved);
  let pending = false;
  return limiter.onDidChange((method) => {
    if (method !== 'udmSearch' || pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      const next = {
        ...(state.get<Record<string, unknown>>(BUDGET_KEY) ?? {}),
        [endpoint]: limiter.spent('udmSearch'),
      };
      void Promise.resolve(state.update(BUDGET_KEY, next)).catch(() => undefined);
    });
  });
}

/**
 * Runs `call` (whose client retries a 429 within its bounds) and tells `report` each time the server
 * holds calls of the method ("throttled until"), so the progress and the panel say why it waits.
 */
export async function reportingThrottle<T>(
  limiter: RateLimiter,
  method: string,
  call: () => Promise<T>,
  signal: AbortSignal,
  report: (message: string) => void,
): Promise<T> {
  let shown: number | undefined;
  const sub = limiter.onDidChange((changed) => {
    if (changed !== method || signal.aborted) return;
    const until = limiter.snapshot(method).blockedUntil;
    if (until === undefined || until === shown) return;
    shown = until;
    report(`Throttled by the service until ${timeOfDay(until)}; retrying…`);
  });
  try {
    return await call();
  } finally {
    sub.dispose();
  }
}

/** The run's info as kept: whether it was itself restored is decided when it comes back. */
export function keptInfo(info: RunInfo): RunInfo {
  const { restored: _restored, ...rest } = info;
  return rest;
}

/** A time of day for messages. */
export const timeOfDay = (ms: number): string => new Date(ms).toLocaleTimeString();

/** Whether a failure is one of the ends of a bounded wait (retries used up, or a wait too long). */
export function gaveUpWaiting(err: unknown): boolean {
  return err instanceof BudgetWaitError || retryRecordOf(err) !== undefined;
}

/** A failure as the panel and the one message say it: what happened, and how long Cloudbench tried. */
export function describeFailure(err: unknown): string {
  return describeWithRetries(err, timeOfDay);
}

/** The one message for a run that stopped retrying, with Retry (shared with every command). */
export { offerRetry } from '../../platform/commands';
