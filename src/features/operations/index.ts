// The Operations view: every long-running operation started in this window, with cancel and
// stop-waiting actions. Features register their operations through getOperationsRegistry().
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { registerCommand } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import { getOperationsRegistry, type OperationsRegistry } from './registry';
import { OperationItem, OperationsTreeProvider, operationDetails } from './view';

export { getOperationsRegistry, OperationsRegistry } from './registry';
export type { OperationHandle, OperationStart, OperationState, TrackedOperation } from './registry';

const log = getLogger('operations');
let activated = false;

/** The operation a command acts on: the row, else the only running one (or, with `any`, the only one). */
function pickId(registry: OperationsRegistry, node: unknown, any = false): number | undefined {
  if (node instanceof OperationItem) return node.operation.id;
  const id = (node as { operation?: { id?: unknown } } | undefined)?.operation?.id;
  if (typeof id === 'number') return id;
  const running = registry.list().filter((o) => any || o.state === 'running');
  return running.length === 1 ? running[0].id : undefined;
}

/** A running operation whose feature reports its end itself (so the view adds no toast of its own). */
function reportedByOwner(registry: OperationsRegistry, id: number): boolean {
  const op = registry.get(id);
  return op?.state === 'running' && op.reportsOutcome;
}

/** Registers the view and its commands once per window; later calls do nothing. */
export function activateOperations(context: vscode.ExtensionContext): OperationsRegistry {
  const registry = getOperationsRegistry();
  if (activated) return registry;
  activated = true;
  const provider = new OperationsTreeProvider(registry);
  context.subscriptions.push(
    registry,
    provider,
    vscode.window.createTreeView('cloudbench.operations', { treeDataProvider: provider }),
  );
  context.subscriptions.push({
    dispose: () => {
      activated = false;
    },
  });

  registerCommand(context, 'cloudbench.operations.refresh', () => provider.refresh());
  registerCommand(context, 'cloudbench.operations.clearFinished', () => {
    const removed = registry.clearFinished();
    log.debug(`cleared ${removed} finished operations`);
  });
  registerCommand(context, 'cloudbench.operations.cancel', async (node?: unknown) => {
    const id = pickId(registry, node);
    if (id === undefined) return;
    const op = registry.get(id);
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
    const reported = reportedByOwner(registry, id);
    const message = await registry.cancel(id);
    // The row shows the answer at once; the feature's own toast tells how the operation ended.
    if (!reported) void vscode.window.showInformationMessage(safeText(message, 'plain', MESSAGE_LIMIT));
  });
  registerCommand(context, 'cloudbench.operations.stopWaiting', async (node?: unknown) => {
    const id = pickId(registry, node);
    if (id === undefined) return;
    const reported = reportedByOwner(registry, id);
    const message = await registry.stopWaiting(id);
    if (!reported) void vscode.window.showInformationMessage(safeText(message, 'plain', MESSAGE_LIMIT));
  });
  registerCommand(context, 'cloudbench.operations.showDetails', async (node?: unknown) => {
    const id = pickId(registry, node, true);
    const op = id === undefined ? undefined : registry.get(id);
    if (!op) return;
    await vscode.window.showInformationMessage(op.title, { modal: true, detail: operationDetails(op) });
  });
  registerCommand(context, 'cloudbench.operations.copyName', async (node?: unknown) => {
    const id = pickId(registry, node, true);
    const op = id === undefined ? undefined : registry.get(id);
    if (!op) return;
    if (!op.operationName) {
      void vscode.window.showInformationMessage(
        `"${op.title}" has no operation name: the server has not named it yet, or it ran without one.`,
      );
      return;
    }
    await vscode.env.clipboard.writeText(op.operationName);
    void vscode.window.setStatusBarMessage(`Copied ${op.operationName}`, 3000);
  });
  return registry;
}
