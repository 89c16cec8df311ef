// What the API Keys commands share: the tree and its view, a client of the current connection, the
// Operations registry, and the ways of finding the key a command acts on.
import * as vscode from 'vscode';
import { summarizeRestrictions } from '../../core/apikeys/describe';
import { explainKeysError, type ApiKeysClient } from '../../core/apikeys/client';
import { UNDELETE_WINDOW_DAYS, type ApiKey } from '../../core/apikeys/types';
import { safeText } from '../../core/display';
import type { Operation } from '../../core/apikeys/types';
import { CancelledError, GoogleApiError, isCancellation } from '../../core/google/errors';
import { parseKeyName } from '../../core/names';
import type { OperationOutcome } from '../operations/outcome';
import type { OperationsRegistry } from '../operations/registry';
import type { OperationFollower } from '../operations/runner';
import type { Services } from '../services';
import type { KeyAuditState } from './audit-state';
import type { RestrictionEditors } from './editor';
import {
  DeletedGroupNode,
  KeyNode,
  describeKeysFailure,
  keyIdOf,
  type KeysTreeNode,
  type KeysTreeProvider,
} from './tree';

export interface KeysContext {
  readonly services: Services;
  readonly operations: OperationsRegistry;
  readonly provider: KeysTreeProvider;
  readonly view: vscode.TreeView<KeysTreeNode>;
  /** The restriction editors open in this window. */
  readonly editors: RestrictionEditors;
  /** A client of the current connection. */
  client(): ApiKeysClient;
  /** Keeps a Check Request report and returns the URI of its read-only document. */
  publishCheckReport(path: string, text: string): vscode.Uri;
  /** The last key audit of this window (its report and document). */
  readonly audit: KeyAuditState;
}

/** A failure with the API Keys explanation attached (missing role, org policy, location). */
class ExplainedError extends Error {
  constructor(
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
  }
}

export function explain(err: unknown): unknown {
  if (isCancellation(err)) return err;
  const explanation = explainKeysError(err);
  if (!explanation) return err;
  // The same words as the keys tree's row for this failure.
  return new ExplainedError(describeKeysFailure(err), err);
}

/** Awaits a VS Code thenable and attaches the API Keys explanation to its failure. */
export async function explained<T>(work: Thenable<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw explain(err);
  }
}

/** A key named so that keys sharing a display name are told apart: "Maps key" (maps-web), or the ID. */
export function keyRef(key: ApiKey): string {
  const id = keyIdOf(key.name);
  // Shown in notifications and dialogs: the display name is the key owner's text.
  return safeText(key.displayName && key.displayName !== id ? `"${key.displayName}" (${id})` : id);
}

/** Follows API Keys operations by name through a client of the current connection. */
export function keysFollower(client: () => ApiKeysClient): OperationFollower {
  return {
    get: (name, signal) => client().getOperation(name, signal ? { signal } : {}),
    // API Keys offers no CancelOperation: Cancel stops following (the runner says the change may still happen).
    stopWaiting: () =>
      Promise.resolve(
        'Stopped waiting; the key change goes on on the server. Refresh the API Keys view later to see it.',
      ),
    checkResource: async (entry, _op, signal) => {
      if (!isKeyName(entry.resource)) return undefined;
      try {
        const key = await client().getKey(entry.resource, signal ? { signal } : {});
        return key.deleteTime
          ? `Key ${keyIdOf(key.name)} is deleted (since ${key.deleteTime}).`
          : `Key ${keyIdOf(key.name)} exists${key.displayName ? ` as "${key.displayName}"` : ''}.`;
      } catch (err) {
        if (err instanceof GoogleApiError && err.status === 'NOT_FOUND')
          return `Key ${keyIdOf(entry.resource)} does not exist (NOT_FOUND).`;
        throw err;
      }
    },
  };
}

function isKeyName(name: string): boolean {
  try {
    parseKeyName(name);
    return true;
  } catch {
    return false;
  }
}

/** Hands a started operation to the runner, which follows it by name (passed to the client as `follow`). */
export type FollowOperation = (first: Operation) => Promise<Operation>;

/**
 * Runs one key operation through the one operation runner: cancellable progress, a row in the
 * Operations view, followed by name through the current client. A failure is thrown (explained); an
 * unknown outcome is told once with Check Again, then ends the command quietly like a cancel.
 */
export async function runKeyOperation<T>(
  operations: OperationsRegistry,
  client: () => ApiKeysClient,
  title: string,
  resource: string,
  run: (signal: AbortSignal, follow: FollowOperation) => Promise<T>,
  judge?: (result: T) => { state: 'succeeded' | 'failed'; detail?: string },
): Promise<T> {
  let outcome: OperationOutcome<T>;
  try {
    outcome = await operations.run<T>({
      title,
      resource,
      source: 'keys',
      kind: 'key',
      follower: keysFollower(client),
      work: (signal, follow) => run(signal, (first) => follow(first) as Promise<Operation>),
      ...(judge ? { judge } : {}),
    });
  } catch (err) {
    throw explain(err);
  }
  switch (outcome.state) {
    case 'succeeded':
      return outcome.result;
    case 'failed':
      throw explain(outcome.error);
    case 'lost':
      operations.announce(title, outcome, '');
      throw new CancelledError();
    default:
      // The row says it; the user's own cancel is silent.
      throw new CancelledError();
  }
}

/** The selected project, or (after offering to select one) a cancellation. */
export async function requireProject(ctx: KeysContext): Promise<string> {
  const project = ctx.services.connection().project;
  if (project) return project;
  const choice = await vscode.window.showWarningMessage(
    'Choose the Google Cloud project whose API keys to manage first.',
    'Select Project',
  );
  if (choice) await vscode.commands.executeCommand('cloudbench.selectProject');
  throw new CancelledError();
}

/** The keys of the project the user can pick from: active ones, or those deleted in the undelete window. */
async function listKeys(ctx: KeysContext, project: string, want: 'active' | 'deleted'): Promise<ApiKey[]> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Listing API keys' },
    async () => {
      const out: ApiKey[] = [];
      for await (const key of ctx.client().iterateKeys(project, { showDeleted: want === 'deleted' })) {
        if (want === 'deleted' ? key.deleteTime : !key.deleteTime) out.push(key);
      }
      return out;
    },
  );
}

/** The key a command acts on: the tree node it was invoked on, a key name, or one the user picks. */
export async function resolveKey(
  ctx: KeysContext,
  arg: unknown,
  want: 'active' | 'deleted' = 'active',
): Promise<{ key: ApiKey; deleted: boolean }> {
  if (arg instanceof KeyNode) return { key: arg.key, deleted: arg.deleted };
  const name = typeof arg === 'string' ? arg : (arg as { key?: { name?: unknown } } | undefined)?.key?.name;
  if (typeof name === 'string') {
    parseKeyName(name);
    const key = await ctx.client().getKey(name);
    return { key, deleted: !!key.deleteTime };
  }
  const project = await requireProject(ctx);
  const keys = await listKeys(ctx, project, want);
  if (keys.length === 0) {
    void vscode.window.showInformationMessage(
      want === 'deleted'
        ? `Project ${safeText(project)} has no keys deleted in the last ${UNDELETE_WINDOW_DAYS} days.`
        : `Project ${safeText(project)} has no API keys.`,
    );
    throw new CancelledError();
  }
  const picked = await vscode.window.showQuickPick(
    keys.map((key) => ({
      label: safeText(key.displayName || keyIdOf(key.name)),
      description: safeText(keyIdOf(key.name)),
      detail: safeText(summarizeRestrictions(key.restrictions), 'plain', 400),
      key,
    })),
    {
      title: want === 'deleted' ? 'Deleted API key' : 'API key',
      placeHolder: 'Choose a key',
      matchOnDescription: true,
    },
  );
  if (!picked) throw new CancelledError();
  return { key: picked.key, deleted: want === 'deleted' };
}

/** Shows a key in the tree (loading further pages if needed) so the user sees what just changed. */
export async function revealKey(ctx: KeysContext, name: string, deleted: boolean, focus = false): Promise<boolean> {
  const node = await ctx.provider.findNode(name, deleted);
  if (!node) return false;
  if (node.parent instanceof DeletedGroupNode) await ctx.view.reveal(node.parent, { expand: true });
  await ctx.view.reveal(node, { select: true, focus });
  return true;
}
