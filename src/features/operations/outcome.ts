// How an operation ended, and the one message that says so: success in the caller's words, a
// failure with Check Again and Show Logs, an unknown outcome with Check Again (never "failed").
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../core/display';
import { describeError } from '../../core/google/errors';
import type { OperationTrackingError } from '../../core/lro';
import { showLogs } from '../../platform/log';
import type { OperationsRegistry } from './registry';

/** `id`: the operation's row in the Operations view. */
export type OperationOutcome<T> =
  | { state: 'succeeded'; result: T; id: number }
  | { state: 'failed'; message: string; error: unknown; id: number }
  | { state: 'cancelled'; message: string; id: number }
  | { state: 'detached'; message: string; id: number }
  | { state: 'lost'; message: string; error: unknown; id: number };

/** "Outcome unknown: the sandbox at … refused the connection …, after 8 tries over 64 s. …" */
export function describeLost(err: OperationTrackingError): string {
  const tries = err.tries;
  const over =
    tries && tries.attempts > 1
      ? ` Cloudbench asked ${tries.attempts} times over ${(tries.elapsedMs / 1000).toFixed(1)} s.`
      : '';
  return `Lost track of ${err.operationName}: ${describeError(err.cause)}${over} The operation may still be running or may have finished on the server: Check Again asks the server before anything is repeated.`;
}

const CHECK_AGAIN = 'Check Again';

/**
 * Tells the user how an operation ended; success gets the caller's own message. Failed and unknown
 * outcomes offer Check Again (GetOperation through the current client), which answers in the row
 * and, when the operation ends, in a message like this one.
 */
export function announceOutcome(
  registry: OperationsRegistry,
  title: string,
  outcome: OperationOutcome<unknown>,
  success: string,
): void {
  // The server's words (operation errors, cancel notes) and names go in as text only.
  const shown = (text: string): string => safeText(text, 'plain', MESSAGE_LIMIT);
  const checkAgain = (choice: string | undefined): void => {
    if (choice === 'Show Logs') showLogs();
    if (choice !== CHECK_AGAIN) return;
    void registry.checkAgain(outcome.id).then((text) => vscode.window.setStatusBarMessage(shown(text), 10_000));
  };
  switch (outcome.state) {
    case 'succeeded':
      if (success) void vscode.window.showInformationMessage(shown(success));
      return;
    case 'cancelled':
      void vscode.window.showInformationMessage(shown(`${title}: cancelled. ${outcome.message}`.trim()));
      return;
    case 'detached':
      void vscode.window.showInformationMessage(shown(`${title}: ${outcome.message}`));
      return;
    case 'lost':
      void vscode.window
        .showWarningMessage(shown(`${title}: outcome unknown. ${outcome.message}`), CHECK_AGAIN)
        .then(checkAgain);
      return;
    case 'failed':
      void vscode.window
        .showErrorMessage(shown(`${title} failed: ${outcome.message}`), CHECK_AGAIN, 'Show Logs')
        .then(checkAgain);
  }
}
