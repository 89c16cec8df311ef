// The Operations view's commands: refresh, clear finished, and cancel, stop waiting, show details
// and copy name on one operation.
import * as vscode from 'vscode';
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import type { CommandTable } from '../../platform/command-table';
import { getLogger } from '../../platform/log';
import type { OperationDetailsDocuments } from './details';
import type { OperationsRegistry, TrackedOperation } from './registry';
import { OperationItem, ServerOperationItem, type OperationsTreeProvider } from './view';
import { describeError } from '../../core/google/errors';

const log = getLogger('operations');

export interface OperationsContext {
  readonly registry: OperationsRegistry;
  readonly provider: OperationsTreeProvider;
  readonly details: OperationDetailsDocuments;
}

/** The operation a command acts on: the row, else the only running one (or, with `any`, the only one). */
function pickId(registry: OperationsRegistry, node: unknown, any = false): number | undefined {
  if (node instanceof OperationItem) return node.operation.id;
  const id = (node as { operation?: { id?: unknown } } | undefined)?.operation?.id;
  if (typeof id === 'number') return id;
  const running = registry.list().filter((o) => any || o.state === 'running');
  return running.length === 1 ? running[0].id : undefined;
}

function pickOperation(registry: OperationsRegistry, node: unknown): TrackedOperation | undefined {
  const id = pickId(registry, node, true);
  return id === undefined ? undefined : registry.get(id);
}

/** A running operation whose feature reports its end itself (so the view adds no toast of its own). */
function reportedByOwner(registry: OperationsRegistry, id: number): boolean {
  const op = registry.get(id);
  return op?.state === 'running' && op.reportsOutcome;
}

/** Redraws the rows and reads the server's operations of the project again. */
export async function refreshOperations(ctx: OperationsContext): Promise<void> {
  ctx.provider.refresh();
  await vscode.window.withProgress({ location: { viewId: 'cloudbench.operations' } }, () =>
    ctx.registry.server.refresh(),
  );
  const problems = ctx.registry.server.problems();
  if (problems.length)
    void vscode.window.showWarningMessage(
      safeText(`Some operations could not be listed: ${problems.join('; ')}`, 'plain', MESSAGE_LIMIT),
    );
}

/** Follows an operation started elsewhere through the one runner (progress, cancel, its end announced). */
export async function followServerOperation(ctx: OperationsContext, node?: unknown): Promise<void> {
  if (!(node instanceof ServerOperationItem)) return;
  const op = ctx.registry.server.get(node.operation.name) ?? node.operation;
  const source = ctx.registry.server.sourceOf(op);
  if (!source || !op.kind) {
    void vscode.window.showInformationMessage('Cloudbench cannot follow this kind of operation.');
    return;
  }
  const outcome = await ctx.registry.run({
    title: op.title,
    resource: op.resource,
    source: op.source,
    kind: op.kind,
    follower: source.follower(op),
    ...(op.started ? { started: op.started } : {}),
    work: (_signal, follow) => follow({ name: op.name, done: false }),
  });
  ctx.registry.announce(op.title, outcome, `${op.title}: done.`);
  void ctx.registry.server.refresh(false);
}

/** Shows what a finished operation made. */
export async function openServerOperationResult(ctx: OperationsContext, node?: unknown): Promise<void> {
  if (!(node instanceof ServerOperationItem)) return;
  const op = node.operation;
  const source = ctx.registry.server.sourceOf(op);
  if (!op.result || !source?.openResult) {
    void vscode.window.showInformationMessage(`${safeText(op.title)} has no result to open.`);
    return;
  }
  await source.openResult(op);
}

/** Cancel on a row the server listed: asks the server (best effort), then reads the list again. */
async function cancelServerOperation(ctx: OperationsContext, node: ServerOperationItem): Promise<void> {
  const op = node.operation;
  const cancel: vscode.MessageItem = { title: 'Cancel Operation' };
  const keep: vscode.MessageItem = { title: 'Keep Running', isCloseAffordance: true };
  const answer = await vscode.window.showWarningMessage(
    `Cancel "${safeText(op.title)}"? It was started outside this window.`,
    {
      modal: true,
      detail: 'The server is asked to cancel; cancellation is best effort and the operation may still finish.',
    },
    cancel,
    keep,
  );
  if (answer !== cancel) return;
  const follower = ctx.registry.server.sourceOf(op)?.follower(op);
  let message = 'This service cannot cancel its operations.';
  try {
    if (follower?.cancel) message = (await follower.cancel(op.name)).message;
  } catch (err) {
    message = `Could not cancel: ${describeError(err)}`;
  }
  void vscode.window.showInformationMessage(safeText(message, 'plain', MESSAGE_LIMIT));
  await ctx.registry.server.refresh();
}

export function clearFinishedOperations(ctx: OperationsContext): void {
  const removed = ctx.registry.clearFinished();
  log.debug(`cleared ${removed} finished operations`);
}

/** Asks the server to cancel an operation, after a confirmation. */
export async function cancelOperation(ctx: OperationsContext, node?: unknown): Promise<void> {
  if (node instanceof ServerOperationItem) return cancelServerOperation(ctx, node);
  const id = pickId(ctx.registry, node);
  if (id === undefined) return;
  const op = ctx.registry.get(id);
  // Each button says what it does; "Keep Running" replaces the dialog's own ambiguous "Cancel".
  const cancel: vscode.MessageItem = { title: 'Cancel Operation' };
  const keep: vscode.MessageItem = { title: 'Keep Running', isCloseAffordance: true };
  const answer = await vscode.window.showWarningMessage(
    `Cancel "${safeText(op?.title ?? 'operation')}"?`,
    {
      modal: true,
      detail: 'The server is asked to cancel; cancellation is best effort and the operation may still finish.',
    },
    cancel,
    keep,
  );
  if (answer !== cancel) return;
  const reported = reportedByOwner(ctx.registry, id);
  const message = await ctx.registry.cancel(id);
  // The row shows the answer at once; the feature's own toast tells how the operation ended.
  if (!reported) void vscode.window.showInformationMessage(safeText(message, 'plain', MESSAGE_LIMIT));
}

/** Stops following an operation; it goes on running on the server. */
export async function stopWaitingForOperation(ctx: OperationsContext, node?: unknown): Promise<void> {
  const id = pickId(ctx.registry, node);
  if (id === undefined) return;
  const reported = reportedByOwner(ctx.registry, id);
  const message = await ctx.registry.stopWaiting(id);
  if (!reported) void vscode.window.showInformationMessage(safeText(message, 'plain', MESSAGE_LIMIT));
}

/** Opens the operation's details as a read-only document that follows the operation while open. */
export async function showOperationDetails(ctx: OperationsContext, node?: unknown): Promise<void> {
  if (node instanceof ServerOperationItem) {
    const doc = await vscode.workspace.openTextDocument(ctx.details.uriOfServer(node.operation.name));
    await vscode.window.showTextDocument(doc, { preview: true });
    return;
  }
  const op = pickOperation(ctx.registry, node);
  if (!op) return;
  const doc = await vscode.workspace.openTextDocument(ctx.details.uriOf(op.id, op.title));
  await vscode.window.showTextDocument(doc, { preview: true });
}

/** Asks the server again about an operation whose outcome is unknown or failed (GetOperation now). */
export async function checkOperationAgain(ctx: OperationsContext, node?: unknown): Promise<void> {
  const op = pickOperation(ctx.registry, node);
  if (!op) return;
  const answer = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Checking ${safeText(op.title)}` },
    () => ctx.registry.checkAgain(op.id),
  );
  void vscode.window.showInformationMessage(safeText(answer, 'plain', MESSAGE_LIMIT));
}

export async function copyOperationName(ctx: OperationsContext, node?: unknown): Promise<void> {
  if (node instanceof ServerOperationItem) {
    await vscode.env.clipboard.writeText(node.operation.name);
    void vscode.window.setStatusBarMessage(`Copied ${node.operation.name}`, 3000);
    return;
  }
  const op = pickOperation(ctx.registry, node);
  if (!op) return;
  if (!op.operationName) {
    void vscode.window.showInformationMessage(
      `"${op.title}" has no operation name: the server has not named it yet, or it ran without one.`,
    );
    return;
  }
  await vscode.env.clipboard.writeText(op.operationName);
  void vscode.window.setStatusBarMessage(`Copied ${op.operationName}`, 3000);
}

export const OPERATIONS_COMMANDS: CommandTable<OperationsContext> = {
  'cloudbench.operations.refresh': refreshOperations,
  'cloudbench.operations.clearFinished': clearFinishedOperations,
  'cloudbench.operations.cancel': cancelOperation,
  'cloudbench.operations.stopWaiting': stopWaitingForOperation,
  'cloudbench.operations.checkAgain': checkOperationAgain,
  'cloudbench.operations.showDetails': showOperationDetails,
  'cloudbench.operations.copyName': copyOperationName,
  'cloudbench.operations.follow': followServerOperation,
  'cloudbench.operations.openResult': openServerOperationResult,
};
