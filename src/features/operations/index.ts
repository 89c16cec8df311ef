// The Operations view: every long-running operation started in this window, with cancel and
// stop-waiting actions. The registry it shows is services.operations, where Models and API Keys
// register their operations.
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { afterActivation } from '../../platform/after-activation';
import type { Services } from '../services';
import { OPERATIONS_COMMANDS, type OperationsContext } from './commands';
import { OperationsTreeProvider } from './view';
import { DETAILS_SCHEME, OperationDetailsDocuments } from './details';

export { OperationsRegistry } from './registry';
export type { OperationHandle, OperationStart, OperationState, TrackedOperation } from './registry';

function activateOperations(context: vscode.ExtensionContext, services: Services): FeatureStart<OperationsContext> {
  const registry = services.operations;
  const provider = new OperationsTreeProvider(registry);
  const details = new OperationDetailsDocuments(registry);
  context.subscriptions.push(
    provider,
    details,
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
  );
  const view = vscode.window.createTreeView('cloudbench.operations', { treeDataProvider: provider });
  // The server's operations are read when the view is first shown (and on Refresh), not at start.
  const readOnce = (): void => {
    if (view.visible && !registry.server.readAt) void registry.server.refresh(false);
  };
  context.subscriptions.push(view, view.onDidChangeVisibility(readOnce));
  afterActivation(context, 'listing server operations', readOnce);
  return { ctx: { registry, provider, details } };
}

/** The Operations view and its commands. */
export const operationsFeature: Feature<OperationsContext, Services> = {
  name: 'Operations',
  commands: OPERATIONS_COMMANDS,
  activate: activateOperations,
};
