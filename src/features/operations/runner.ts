// The one way a long-running operation runs, whatever service it belongs to (Models, API Keys): a
// progress notification whose Cancel asks the server to cancel, a row in the Operations view from the
// start, and a follower that reads the operation by its NAME through the service's current client on
// every poll. A client rebuilt by a settings change, or a sandbox that restarts, is re-attached to
// (bounded); when the bounds run out the outcome is "unknown", never "failed", and Check Again asks
// the server once more.
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../core/display';
import { briefError, describeError, isCancellation } from '../../core/google/errors';
import {
  DEFAULT_REATTACH,
  OperationFailedError,
  OperationTrackingError,
  pollOperation,
  type OperationLike,
  type ReattachPolicy,
} from '../../core/lro';
import { toAbortSignal } from '../../platform/disposables';
import { getLogger } from '../../platform/log';
import type { JournalEntry } from './journal';
import type { OperationHandle, OperationsRegistry } from './registry';
import { announceOutcome, describeLost, type OperationOutcome } from './outcome';

const log = getLogger('operations');

/** What a service offers for following its operations by name, through its current client. */
export interface OperationFollower {
  /** GetOperation through the client of the current connection (looked up on every call). */
  get(name: string, signal?: AbortSignal): Promise<OperationLike>;
  /** CancelOperation; `following` false when nothing more will happen (the service cannot cancel). */
  cancel?(name: string): Promise<{ message: string; following: boolean }>;
  /** DeleteOperation (the work goes on; the server forgets the result); resolves with a sentence. */
  stopWaiting?(name: string): Promise<string>;
  /** Progress in words from a state's metadata, without the elapsed time; empty when nothing to say. */
  progress?(op: OperationLike): string | undefined;
  /** The resource's own state in a sentence, where it is cheap to read (GetModel of a copy's destination). */
  checkResource?(entry: JournalEntry, op: OperationLike | undefined, signal?: AbortSignal): Promise<string | undefined>;
}

/** One operation to run. */
export interface OperationRun<T> {
  /** "Copy model churn to europe-west4". */
  title: string;
  /** The resource it acts on. */
  resource: string;
  /** The feature that follows it ("models", "keys"): a reloaded window hands it back to that feature. */
  source: string;
  /** The feature's own kind, kept in the journal ("copy", "apikeys.keys.delete"). */
  kind: string;
  /** The resource it makes, when known before it ends. */
  target?: string;
  follower: OperationFollower;
  /**
   * Starts the operation and hands its first state to `follow`, which resolves with the finished
   * operation (or throws OperationFailedError); the result is what `work` makes of it.
   */
  work(signal: AbortSignal, follow: (first: OperationLike) => Promise<OperationLike>): Promise<T>;
  /** The method that started it ("CopyModel"): its failure is explained like the call's own. */
  method?: string;
  /** A finished operation whose result still means "not done" (a save refused as a conflict): the row says so. */
  judge?(result: T): { state: 'succeeded' | 'failed'; detail?: string };
  /** A notification, or the status bar (an operation followed again after a reload). */
  location?: 'notification' | 'window';
  /** First poll interval (tests shorten it). */
  initialPollMs?: number;
  /** How long a lost connection is re-attached to (tests shorten it). */
  reattach?: ReattachPolicy;
  /** When it started, if before now (followed again after a reload). */
  started?: Date;
}

/** Runs an operation the way the user sees it; resolves with how it ended (a start failure is thrown). */
export function runOperation<T>(registry: OperationsRegistry, run: OperationRun<T>): Promise<OperationOutcome<T>> {
  let name: string | undefined;
  const handle: OperationHandle = registry.start({
    title: run.title,
    resource: run.resource,
    source: run.source,
    reportsOutcome: true,
    ...(run.started ? { started: run.started } : {}),
    cancel: () => (name ? cancelByName(run, name, handle) : Promise.resolve('The operation has not started yet.')),
    stopWaiting: () => stopWaiting(run, name),
    checkAgain: () => checkAgain(registry, run, handle, name),
  });
  return follow(registry, run, handle, (n) => (name = n));
}

/**
 * Follows `run` in the row of `handle` (a new row, or one that Check Again reopened): progress,
 * cancel, the journal, and the outcome written to the row.
 */
function follow<T>(
  registry: OperationsRegistry,
  run: OperationRun<T>,
  handle: OperationHandle,
  named: (name: string) => void,
): Promise<OperationOutcome<T>> {
  const location = run.location === 'window' ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification;
  return withProgress(
    {
      location,
      title: safeText(run.title, 'plain', MESSAGE_LIMIT),
      cancellable: location !== vscode.ProgressLocation.Window,
    },
    async (progress, token): Promise<OperationOutcome<T>> => {
      const userStop = toAbortSignal(token) ?? new AbortController().signal;
      let name: string | undefined;
      let leaveInJournal = false;
      const say = (text: string | undefined): void => {
        if (!text) return;
        progress.report({ message: safeText(text, 'plain', MESSAGE_LIMIT) });
        handle.progress(text);
      };
      // Before the operation has a name, Cancel stops the start call; after, it asks the server.
      const onCancel = token.onCancellationRequested(() => {
        if (!name) return;
        say('asking the server to cancel…');
        void cancelByName(run, name, handle).then(say, (err: unknown) =>
          say(`Could not cancel: ${describeError(err)}`),
        );
      });
      const followFirst = async (first: OperationLike): Promise<OperationLike> => {
        name = first.name;
        named(first.name);
        handle.setOperationName(first.name);
        registry.journal.add(journalEntry(run, handle, first.name));
        log.info(`${run.title}: following ${first.name}`);
        return pollOperation(first, {
          get: (n, signal) => run.follower.get(n, signal),
          signal: handle.signal,
          initialDelayMs: run.initialPollMs ?? 1000,
          maxDelayMs: 5000,
          reattach: run.reattach ?? DEFAULT_REATTACH,
          ...(run.method ? { method: run.method } : {}),
          onUpdate: (op) => say(run.follower.progress?.(op)),
          onReattach: (err, attempt) => {
            log.info(`${run.title}: reading ${first.name} failed (${describeError(err)}); trying again (${attempt})`);
            say(`the connection went away; following ${first.name} again (try ${attempt})…`);
          },
        });
      };
      try {
        const startSignal = AbortSignal.any([userStop, handle.signal]);
        const result = await run.work(startSignal, followFirst);
        const judged = run.judge?.(result) ?? { state: 'succeeded' as const };
        handle.finish(judged.state, judged.detail);
        return { state: 'succeeded', result, id: handle.operation.id };
      } catch (err) {
        const ended = endOf(err, handle, name);
        leaveInJournal = ended.leaveInJournal;
        if (ended.outcome) return ended.outcome;
        throw err;
      } finally {
        onCancel.dispose();
        if (name && !leaveInJournal) registry.journal.remove(name);
      }
    },
  );
}

/** withProgress as a Promise (VS Code hands back a Thenable). */
async function withProgress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<{ message?: string }>, token: vscode.CancellationToken) => Promise<R>,
): Promise<R> {
  return vscode.window.withProgress(options, task);
}

/** The row's end for a failure; no outcome (the error is thrown) when the operation never started. */
function endOf(
  err: unknown,
  handle: OperationHandle,
  name: string | undefined,
): { outcome?: OperationOutcome<never>; leaveInJournal: boolean } {
  const id = handle.operation.id;
  if (isCancellation(err)) {
    if (!name) {
      handle.finish('cancelled', 'Cancelled before the operation started.');
      return {
        outcome: { state: 'cancelled', message: 'Cancelled before the operation started.', id },
        leaveInJournal: false,
      };
    }
    // Aborted while still "running": the window is closing, not the user stopping; follow it after the reload.
    const closing = handle.operation.state === 'running';
    const message = handle.operation.detail ?? 'Stopped waiting.';
    handle.finish('detached', message);
    return { outcome: { state: 'detached', message, id }, leaveInJournal: closing };
  }
  if (!name) {
    handle.finish('failed', describeError(err), briefError(err));
    return { leaveInJournal: false };
  }
  if (err instanceof OperationFailedError && err.status === 'CANCELLED') {
    handle.finish('cancelled');
    return { outcome: { state: 'cancelled', message: 'The server cancelled it.', id }, leaveInJournal: false };
  }
  if (err instanceof OperationTrackingError) {
    const message = describeLost(err);
    handle.finish('lost', message, 'lost track; Check Again asks the server');
    return { outcome: { state: 'lost', message, error: err, id }, leaveInJournal: false };
  }
  const message = describeError(err);
  handle.finish('failed', message, briefError(err));
  return { outcome: { state: 'failed', message, error: err, id }, leaveInJournal: false };
}

function journalEntry(run: OperationRun<unknown>, handle: OperationHandle, name: string): JournalEntry {
  return {
    source: run.source,
    kind: run.kind,
    name,
    title: run.title,
    resource: run.resource,
    started: handle.operation.started.getTime(),
    ...(run.target ? { target: run.target } : {}),
  };
}

async function cancelByName(run: OperationRun<unknown>, name: string, handle: OperationHandle): Promise<string> {
  if (!run.follower.cancel) {
    // Nothing to ask the server: stop following; the change may still happen there.
    const message =
      'This service cannot cancel its operations; stopped following. The change may still happen on the server.';
    handle.finish('detached', message);
    handle.operation.waiting.abort();
    return message;
  }
  const answer = await run.follower.cancel(name);
  log.info(`${run.title}: cancel → ${answer.message}`);
  if (!answer.following) {
    handle.finish('detached', answer.message);
    handle.operation.waiting.abort();
  } else handle.progress(answer.message);
  return answer.message;
}

async function stopWaiting(run: OperationRun<unknown>, name: string | undefined): Promise<string> {
  if (!name || !run.follower.stopWaiting) return 'Stopped waiting; the operation goes on on the server.';
  try {
    return await run.follower.stopWaiting(name);
  } catch (err) {
    return `Stopped waiting here, but the server could not forget the operation: ${describeError(err)}`;
  }
}

/**
 * Check Again: GetOperation through the current client. Done: the row takes the server's outcome;
 * still running: the row follows it again. The resource's own state is noted either way.
 */
async function checkAgain(
  registry: OperationsRegistry,
  run: OperationRun<unknown>,
  handle: OperationHandle,
  name: string | undefined,
): Promise<string> {
  if (!name) return 'The server never named this operation, so it cannot be asked about it.';
  const entry = journalEntry(run, handle, name);
  let op: OperationLike | undefined;
  let readError: unknown;
  try {
    op = await run.follower.get(name);
  } catch (err) {
    readError = err;
  }
  const resourceState = await run.follower
    .checkResource?.(entry, op)
    .catch((err: unknown) => `Could not read ${run.resource}: ${describeError(err)}`);
  registry.noteResourceState(handle.operation.id, resourceState);
  const also = resourceState ? ` ${resourceState}` : '';
  if (!op) return `Could not read ${name}: ${describeError(readError)}${also}`;
  handle.reopen('checking again…');
  const outcome = await follow(
    registry,
    { ...run, location: 'window', work: (_s, f) => f(op) },
    handle,
    () => undefined,
  );
  announceOutcome(registry, run.title, outcome, `${run.title}: done.`);
  return `${run.title}: ${handle.operation.state === 'succeeded' ? 'done' : handle.operation.state}.${also}`;
}

/**
 * Follows again the operations of `source` that were running when the window closed, from their real
 * start; each end is announced like any other. `runOf` rebuilds the run of an entry.
 */
export function resumeOperations(
  registry: OperationsRegistry,
  source: string,
  runOf: (entry: JournalEntry) => Omit<OperationRun<OperationLike>, 'work' | 'title' | 'resource' | 'source' | 'kind'>,
): number {
  const pending = registry.journal.entries(source);
  for (const entry of pending) {
    const run: OperationRun<OperationLike> = {
      ...runOf(entry),
      title: entry.title,
      resource: entry.resource,
      source: entry.source,
      kind: entry.kind,
      ...(entry.target ? { target: entry.target } : {}),
      location: 'window',
      started: new Date(entry.started),
      work: (_signal, f) => f({ name: entry.name, done: false }),
    };
    void runOperation(registry, run).then(
      (outcome) => announceOutcome(registry, entry.title, outcome, `${entry.title}: done.`),
      (err: unknown) => {
        registry.journal.remove(entry.name);
        log.info(`${entry.title}: not followed again (${describeError(err)})`);
      },
    );
  }
  return pending.length;
}
