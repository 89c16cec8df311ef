// API keys in the editor (seed 001): the keys tree and its check reports. The cloudbench.keys.*
// commands are in ./commands, one module per family.
import * as vscode from 'vscode';
import { ApiKeysClient } from '../../core/apikeys/client';
import type { ApiKey } from '../../core/apikeys/types';
import { describeError } from '../../core/google/errors';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { getLogger } from '../../platform/log';
import { restClientSettings, type Services } from '../services';
import { KEYS_COMMANDS } from './commands';
import { keysFollower, runKeyOperation, type KeysContext } from './context';
import { offerUndelete } from './deleted';
import { afterActivation } from '../../platform/after-activation';
import { KeyAuditState } from './audit-state';
import { RESTRICTIONS_VIEW_TYPE, RestrictionEditors } from './editor';
import { KeysModel, KeysTreeProvider, type KeysTreeNode } from './tree';

const log = getLogger('keys');
const CHECK_SCHEME = 'cloudbench-key-check';

function keysClient(services: Services): ApiKeysClient {
  // The override, else apikeys.<universe domain> (or its mTLS host).
  return new ApiKeysClient({
    ...restClientSettings(services.connection(), 'apikeys'),
    onRetry: (method, err, attempt, delay) =>
      log.warn(`${method}: retry ${attempt} in ${delay} ms after ${describeError(err)}`),
  });
}

/** Read-only Markdown documents for Check Request reports, by path. */
function checkReportDocuments(context: vscode.ExtensionContext): (path: string, text: string) => vscode.Uri {
  const reports = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(CHECK_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) =>
        reports.get(uri.path) ?? 'This check report is no longer available; run Check Request again.',
    }),
  );
  return (path, text) => {
    reports.set(path, text);
    const uri = vscode.Uri.from({ scheme: CHECK_SCHEME, path });
    changed.fire(uri);
    return uri;
  };
}

function activateKeys(context: vscode.ExtensionContext, services: Services): FeatureStart<KeysContext> {
  const client = (): ApiKeysClient => keysClient(services);
  const provider = new KeysTreeProvider(() => {
    const project = services.connection().project;
    // Signed out, or not known yet: no model, so the tree is empty and its welcome view shows the
    // fixes or the loading state.
    if (!project || services.signedIn() !== true) return undefined;
    const c = client();
    // Days left to undelete count on the service's clock (its Date header), not this machine's.
    return new KeysModel(project, c, () => c.serverNow(), services.connection().settings.pageSize);
  });
  context.subscriptions.push(
    services.onDidChangeSignedIn(() => provider.refresh()),
    services.onDidChangeSettings((change) => {
      if (!change.clients && change.changed.has('pageSize')) provider.refresh();
    }),
  );
  const view = vscode.window.createTreeView<KeysTreeNode>('cloudbench.keys', {
    treeDataProvider: provider,
    showCollapseAll: false,
  });
  const publishCheckReport = checkReportDocuments(context);
  const audit = new KeyAuditState(publishCheckReport);
  provider.auditMaxAgeDays = () => audit.maxAgeDays;
  const editors = new RestrictionEditors(services.extensionUri, {
    client,
    runOperation: (title, resource, run, judge) =>
      runKeyOperation(services.operations, client, title, resource, run, judge),
    keyChanged: (key: ApiKey) => {
      provider.current?.replace(key);
      audit.keyChanged(key, provider.current?.now() ?? Date.now());
      provider.redraw();
    },
    keyGone: (gone, what) => {
      provider.refresh();
      void offerUndelete(gone, what);
    },
  });
  context.subscriptions.push(
    provider,
    view,
    editors,
    audit,
    // A restriction editor comes back after a reload with its key read again.
    vscode.window.registerWebviewPanelSerializer(RESTRICTIONS_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => editors.restore(panel, state),
    }),
    provider.onDidChangeMessage(() => {
      view.message = provider.message;
    }),
    // Back in the window: a list that failed for want of a connection is read again at once.
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) provider.checkNow();
    }),
  );
  context.subscriptions.push(
    services.onDidChangeConnection(() => {
      editors.closeAll();
      audit.clear();
      provider.refresh();
    }),
  );

  const ctx: KeysContext = {
    services,
    operations: services.operations,
    provider,
    view,
    client,
    publishCheckReport,
    editors,
    audit,
  };
  // Key operations left running when the window closed are followed again, from their real start.
  if (services.operations.journal.entries('keys').length)
    afterActivation(context, 'resuming key operations', () => {
      services.operations.resume('keys', () => ({ follower: keysFollower(client) }));
    });
  return { ctx };
}

/** The API Keys view, its commands and its check reports. */
export const keysFeature: Feature<KeysContext, Services> = {
  name: 'API Keys',
  commands: KEYS_COMMANDS,
  activate: activateKeys,
};

export type { KeysContext } from './context';
export type { KeysTreeNode };
