// The Models feature: the Model Registry tree, its details documents, and the long operations
// (copy, export, delete model, delete version) with progress and cancel. The commands are in
// ./commands, one module per family.
import * as vscode from 'vscode';
import type { ModelRegistryClient } from '../../core/models/client';
import type * as ClientModuleType from '../../core/models/client';
import type { EvaluatedAnnotation } from '../../core/models/types';
import { configureModelsBundle, persistModelsBundleCache } from '../../core/models/bundle-host';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { afterActivation } from '../../platform/after-activation';
import { getLogger } from '../../platform/log';
import type { Connection, Services } from '../services';
import { MODELS_COMMANDS } from './commands';
import type { ModelsContext } from './context';
import { DETAILS_SCHEME, DetailsDocuments } from './details-documents';
import { METRICS_VIEW_TYPE, MetricsPanels } from './metrics-panel';
import { restoredMetricsSource } from './metrics-source';
import { parseModelFilter } from './presentation';
import { modelsFollower } from './run-operation';
import { modelsOperationsSource } from './server-operations';
import type { OperationKind } from '../../core/models/operation';
import { ModelsTreeProvider, type ModelsNode } from './tree';

const log = getLogger('models');
const FILTER_KEY = 'cloudbench.models.filter';

// The gRPC stack costs tens of milliseconds to load, so it is required on first use (a project
// being browsed), not when the extension activates.
type ClientModule = typeof ClientModuleType;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const clientModule = (): ClientModule => require('../../core/models/client') as ClientModule;

function buildClient(connection: Connection): ModelRegistryClient | undefined {
  if (!connection.project) return undefined;
  const s = connection.settings;
  const endpoint = connection.endpoint('models');
  return new (clientModule().ModelRegistryClient)({
    tokenSource: connection.cloudTokens(endpoint),
    // The override, universe domain and mTLS settings: every regional host follows them.
    endpoint: connection.modelsEndpointOptions(),
    retry: s.retry,
    timeoutMs: s.timeoutMs,
    log: (m) => log.debug(m),
    // After the first answer, not before: the cache then holds the code the call compiled too.
    afterFirstCall: () => setTimeout(persistModelsBundleCache, 1000).unref(),
  });
}

function filterMessage(filter: string | undefined): string | undefined {
  const parsed = parseModelFilter(filter);
  if (!parsed) return undefined;
  return parsed.kind === 'contains'
    ? `Models whose name contains "${parsed.text}" (every page of each location is searched)`
    : `Filtered: ${parsed.expression}`;
}

function activateModels(context: vscode.ExtensionContext, services: Services): FeatureStart<ModelsContext> {
  const storage = context.globalStorageUri as vscode.Uri | undefined;
  configureModelsBundle({
    cacheDir: storage?.scheme === 'file' ? `${storage.fsPath}/code-cache` : undefined,
    log: (m) => log.info(m),
  });
  let connection = services.connection();
  let built: { client: ModelRegistryClient | undefined } | undefined;
  const currentClient = (): ModelRegistryClient | undefined => (built ??= { client: buildClient(connection) }).client;
  const annotations = new Map<string, EvaluatedAnnotation[]>();
  let filter: string | undefined = context.workspaceState.get<string>(FILTER_KEY) || undefined;
  const setFilterContext = (): Thenable<unknown> =>
    vscode.commands.executeCommand('setContext', 'cloudbench.modelsFiltered', !!filter);
  void setFilterContext();

  const provider = new ModelsTreeProvider({
    client: currentClient,
    // Signed out, or not known yet: no project, so the tree is empty and its welcome view shows the
    // fixes or the loading state.
    project: () => (services.signedIn() !== true ? undefined : connection.project),
    configuredLocations: () => connection.settings.locations,
    filter: () => filter,
    importedAnnotations: (slice) => annotations.get(slice) ?? [],
    pageSize: () => connection.settings.pageSize,
  });
  const details = new DetailsDocuments();
  const metrics = new MetricsPanels(context.extensionUri);
  const view = vscode.window.createTreeView<ModelsNode>('cloudbench.models', {
    treeDataProvider: provider,
    showCollapseAll: true,
  });
  view.message = filterMessage(filter);
  context.subscriptions.push(
    provider,
    view,
    // "Connecting…" while a first load is pending, then the filter's message again.
    provider.onDidChangeMessage(() => {
      view.message = provider.message ?? filterMessage(filter);
    }),
    // Back in the window: a view that failed for want of a connection is read again at once.
    vscode.window.onDidChangeWindowState((state) => {
      if (state.focused) provider.checkNow();
    }),
    metrics,
    // A metrics panel comes back after a reload with what its page kept; a comparison asks again.
    vscode.window.registerWebviewPanelSerializer(METRICS_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => {
        const source = restoredMetricsSource(() => {
          const client = currentClient();
          if (!client) throw new Error('Select a Google Cloud project first (Cloudbench: Select Project…).');
          return client;
        }, state);
        // Held by the open panels until it closes, and closed with the connection.
        if (source) void metrics.adopt(panel, source);
        else {
          log.info('a metrics panel restored after a reload kept no metrics; closed it');
          panel.dispose();
        }
        return Promise.resolve();
      },
    }),
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
    services.onDidChangeConnection((c) => {
      const old = built?.client;
      connection = c;
      built = undefined;
      old?.close();
      metrics.closeAll();
      provider.refresh();
    }),
    { dispose: () => built?.client?.close() },
    services.onDidChangeSignedIn(() => provider.refresh()),
    // A change the clients do not depend on (the page size) keeps the client and its credentials.
    services.onDidChangeSettings((change) => {
      if (change.clients) return;
      connection = services.connection();
      if (change.changed.has('pageSize')) provider.refresh();
    }),
  );

  const ctx: ModelsContext = {
    extension: context,
    services,
    provider,
    view,
    details,
    metrics,
    operations: services.operations,
    annotations,
    connection: () => connection,
    client: currentClient,
    filter: () => filter,
    setFilter: async (value) => {
      filter = value;
      await context.workspaceState.update(FILTER_KEY, filter);
      await setFilterContext();
      view.message = filterMessage(filter);
      provider.refresh();
    },
  };
  resumeOperations(ctx);
  // The Operations view lists the project's model operations started anywhere (read when shown).
  context.subscriptions.push(services.operations.server.register(modelsOperationsSource(ctx)));
  log.info('models feature ready');
  return { ctx };
}

/**
 * Operations that were running when the window closed are followed again, in the status bar, from
 * their real start, through whichever client the connection has when each poll is made.
 */
function resumeOperations(ctx: ModelsContext): void {
  // With nothing to follow, the gRPC client (tens of milliseconds to load) waits for the first tree
  // or command that needs it; with something to follow, it is built once activation has returned.
  if (ctx.operations.journal.entries('models').length === 0) return;
  afterActivation(ctx.extension, 'resuming operations', () => {
    const count = ctx.operations.resume('models', (entry) => ({
      follower: modelsFollower(ctx, entry.kind as OperationKind),
    }));
    log.info(`following ${count} operation(s) again`);
    ctx.provider.refresh();
  });
}

/** The Models view, its commands and its details documents. */
export const modelsFeature: Feature<ModelsContext, Services> = {
  name: 'Models',
  commands: MODELS_COMMANDS,
  activate: activateModels,
};

export type { ModelsContext } from './context';
