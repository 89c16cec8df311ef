// Runs one Model Registry long-running operation the way the user sees it: a cancellable progress
// notification, an entry in the Operations view (with cancel and stop-waiting there too), and a
// final message that says what happened.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { briefError, describeError, isCancellation } from '../../core/google/errors';
import type { ModelOperation, OperationKind } from '../../core/models/operation';
import type { ModelOperationMetadata } from '../../core/models/types';
import { timestampToDate } from '../../core/models/types';
import { OperationFailedError, OperationTrackingError } from '../../core/lro';
import { toAbortSignal } from '../../platform/disposables';
import { getLogger } from '../../platform/log';
import type { OperationsRegistry } from '../operations/registry';

const log = getLogger('models');

export type OperationOutcome<Res> =
  | { state: 'succeeded'; result: Res }
  | { state: 'failed'; message: string }
  | { state: 'cancelled'; message: string }
  | { state: 'detached'; message: string };

export interface RunOperationOptions<Res> {
  /** "Copying model churn to europe-west4". */
  title: string;
  resource: string;
  /** Starts the operation; the signal aborts only while the start call is in flight. */
  start(signal: AbortSignal | undefined): Promise<ModelOperation<Res, ModelOperationMetadata>>;
  /** Poll interval of the first poll, in ms (tests shorten it). */
  initialPollMs?: number;
  /** Where progress shows; a notification unless the operation was resumed after a reload. */
  location?: vscode.ProgressLocation;
  /** Remembers running operations so a reloaded window can follow them again. */
  journal?: OperationJournal;
  /** Where the operation is listed, for the Operations view. */
  operations: OperationsRegistry;
}

export interface JournalEntry {
  name: string;
  kind: OperationKind;
  title: string;
  resource: string;
}

export interface OperationJournal {
  add(entry: JournalEntry): void;
  remove(name: string): void;
}

/** Progress in words; `withElapsed` false for the Operations row, which shows the elapsed time already. */
function progressText(op: ModelOperation<unknown, ModelOperationMetadata>, withElapsed = true): string {
  const meta = op.metadata;
  const created = timestampToDate(meta?.genericMetadata?.createTime);
  const parts: string[] = [];
  if (created && withElapsed)
    parts.push(`running for ${Math.max(0, Math.round((Date.now() - created.getTime()) / 1000))} s`);
  const failures = meta?.genericMetadata?.partialFailures ?? [];
  if (failures.length) parts.push(`${failures.length} partial failure(s)`);
  if (meta?.outputInfo?.artifactOutputUri) parts.push(`to ${meta.outputInfo.artifactOutputUri}`);
  if (meta?.outputInfo?.imageOutputUri) parts.push(`to ${meta.outputInfo.imageOutputUri}`);
  return parts.join(', ') || (withElapsed ? 'running' : '');
}

export async function runOperation<Res>(options: RunOperationOptions<Res>): Promise<OperationOutcome<Res>> {
  const registry = options.operations;
  return vscode.window.withProgress(
    {
      location: options.location ?? vscode.ProgressLocation.Notification,
      title: safeText(options.title, 'plain', MESSAGE_LIMIT),
      cancellable: true,
    },
    async (progress, token): Promise<OperationOutcome<Res>> => {
      let op: ModelOperation<Res, ModelOperationMetadata> | undefined;
      const startSignal = toAbortSignal(token);
      try {
        op = await options.start(startSignal);
      } catch (err) {
        if (isCancellation(err)) return { state: 'cancelled', message: 'Cancelled before the operation started.' };
        throw err;
      }
      const started = op;
      log.info(`${options.title}: started ${started.name}`);
      options.journal?.add({
        name: started.name,
        kind: started.kind,
        title: options.title,
        resource: options.resource,
      });
      let cancelMessage: string | undefined;
      const cancel = async (): Promise<string> => {
        const outcome = await started.cancel();
        log.info(`${options.title}: cancel → ${outcome.kind}`);
        cancelMessage = outcome.message;
        if (outcome.kind === 'unsupported') {
          // Nothing more will happen on our side; stop following so the notification closes.
          handle.finish('detached', outcome.message);
          stopLocal.abort();
        }
        return outcome.message;
      };
      const stopLocal = new AbortController();
      const handle = registry.start({
        title: options.title,
        resource: options.resource,
        source: 'models',
        operationName: started.name,
        // reportOutcome (by the caller) says how it ended, cancel and stop waiting included.
        reportsOutcome: true,
        cancel,
        stopWaiting: async () => {
          try {
            await started.stopWaiting();
            return 'Stopped waiting. The operation goes on running on the server; its result will not be kept.';
          } catch (err) {
            return `Stopped waiting here, but the server could not forget the operation: ${describeError(err)}`;
          }
        },
      });
      const onCancel = token.onCancellationRequested(() => {
        progress.report({ message: 'asking the server to cancel…' });
        cancel().then(
          (message) => {
            progress.report({ message: safeText(message, 'plain', MESSAGE_LIMIT) });
            // The notification closes on cancel; the Operations view keeps saying what happens.
            handle.progress(message);
          },
          (err: unknown) => {
            log.failure(`${options.title}: cancel`, err);
            void vscode.window.showErrorMessage(
              `Could not cancel: ${safeText(describeError(err), 'plain', MESSAGE_LIMIT)}`,
            );
          },
        );
      });
      const waitSignal = AbortSignal.any([handle.signal, stopLocal.signal]);
      let keepInJournal = false;
      try {
        const result = await started.wait({
          signal: waitSignal,
          initialDelayMs: options.initialPollMs ?? 1000,
          maxDelayMs: 5000,
          onUpdate: () => {
            progress.report({ message: safeText(progressText(started), 'plain', MESSAGE_LIMIT) });
            const row = progressText(started, false);
            if (row) handle.progress(row);
          },
        });
        handle.finish('succeeded');
        return { state: 'succeeded', result };
      } catch (err) {
        if (isCancellation(err)) {
          // Aborted while still "running": the window is closing, not the user stopping; follow it after the reload.
          keepInJournal = handle.operation.state === 'running' && handle.signal.aborted;
          const message = handle.operation.detail ?? cancelMessage ?? 'Stopped waiting.';
          handle.finish('detached', message);
          return { state: 'detached', message };
        }
        if (err instanceof OperationFailedError && err.status === 'CANCELLED') {
          handle.finish('cancelled');
          return { state: 'cancelled', message: 'The server cancelled it.' };
        }
        const message = describeError(err);
        if (err instanceof OperationTrackingError) {
          handle.finish('lost', message);
          return { state: 'failed', message };
        }
        handle.finish('failed', message, briefError(err));
        return { state: 'failed', message };
      } finally {
        onCancel.dispose();
        if (!keepInJournal) options.journal?.remove(started.name);
      }
    },
  );
}

/** Tells the user how an operation ended; success gets the caller's own message. */
export function reportOutcome(title: string, outcome: OperationOutcome<unknown>, success: string): void {
  // The server's words (operation errors, cancel notes) and names go in as text only.
  const shown = (text: string): string => safeText(text, 'plain', MESSAGE_LIMIT);
  switch (outcome.state) {
    case 'succeeded':
      void vscode.window.showInformationMessage(shown(success));
      return;
    case 'cancelled':
      void vscode.window.showInformationMessage(shown(`${title}: cancelled. ${outcome.message}`.trim()));
      return;
    case 'detached':
      void vscode.window.showInformationMessage(shown(`${title}: ${outcome.message}`));
      return;
    case 'failed':
      void vscode.window.showErrorMessage(shown(`${title} failed: ${outcome.message}`), 'Show Logs').then((c) => {
        if (c) void vscode.commands.executeCommand('cloudbench.showLogs');
      });
  }
}
