// The Models feature: the Model Registry tree, its commands, details documents, and the long
// operations (copy, export, delete model, delete version) with progress and cancel.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { readFile } from 'node:fs/promises';
import type { ModelRegistryClient } from '../../core/models/client';
import type * as ClientModuleType from '../../core/models/client';
import type * as WireModuleType from '../../core/models/wire';
import type * as ImportModuleType from './import-files';
import type { EvaluatedAnnotation, Model, ModelEvaluation, ModelEvaluationSlice } from '../../core/models/types';
import { registerCommand } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import { checkBeforeModal } from '../../platform/progress';
import { activateOperations } from '../operations';
import type { Connection, Services } from '../services';
import { configureModelsBundle, persistModelsBundleCache } from '../../core/models/bundle-host';
import {
  aliasMoveMessage,
  fileTitle,
  parseModelFilter,
  isDefaultVersion,
  lastSegment,
  modelLabel,
  modelRef,
  validateAlias,
  validateModelId,
  versionRef,
} from './presentation';
import { MetricsPanel } from './metrics-panel';
import { metricsSourceFor } from './metrics-source';
import { reportOutcome, runOperation, type JournalEntry, type OperationJournal } from './run-operation';
import { isLocationId } from '../../core/names';
import {
  AnnotationNode,
  CheckpointNode,
  EvaluationNode,
  LoadMoreNode,
  ModelNode,
  ModelsNode,
  ModelsTreeProvider,
  SliceNode,
  VersionNode,
} from './tree';

const log = getLogger('models');
const V1BETA1 = 'google.cloud.aiplatform.v1beta1';
const DETAILS_SCHEME = 'cloudbench-models';
const FILTER_KEY = 'cloudbench.models.filter';
const JOURNAL_KEY = 'cloudbench.models.runningOperations';

/** The model (and version, for what belongs to one version) a details document shows. */
interface DetailsOwner {
  model: string;
  versionId?: string | undefined;
}

/**
 * The owner of a details document, written into its URI so that a tab the editor restores after a
 * window reload still says which model and version it shows. The path is the resource name (an
 * evaluation's name does not hold its version, hence the query).
 */
function detailsUri(path: string, owner: DetailsOwner): vscode.Uri {
  const query = new URLSearchParams({ model: owner.model });
  if (owner.versionId !== undefined) query.set('version', owner.versionId);
  return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${path}.json`, query: query.toString() });
}

const MODEL_PATH = /^\/(projects\/[^/]+\/locations\/[^/]+\/models\/[^/@]+?)(?:@([^/]+?))?(?:\/|\.json$)/;

/** The owner a details URI names: from its query, or for a URI without one, from its path. */
function detailsOwnerOf(uri: { scheme: string; path: string; query: string }): DetailsOwner | undefined {
  if (uri.scheme !== DETAILS_SCHEME) return undefined;
  const query = new URLSearchParams(uri.query);
  const model = query.get('model');
  if (model) return { model, versionId: query.get('version') ?? undefined };
  const m = MODEL_PATH.exec(uri.path);
  return m ? { model: m[1], versionId: m[2] } : undefined;
}

/** Read-only JSON documents for details and IAM policies, keyed by URI. */
class DetailsDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, { text: string; owner: DetailsOwner }>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;
  provideTextDocumentContent(uri: vscode.Uri): string {
    return (
      this.docs.get(uri.toString())?.text ??
      '{\n  "note": "This resource was deleted or this window no longer holds its details; refresh the Models view."\n}\n'
    );
  }
  async open(path: string, json: unknown, owner: DetailsOwner): Promise<void> {
    const uri = detailsUri(path, owner);
    this.docs.set(uri.toString(), { text: JSON.stringify(json, null, 2) + '\n', owner });
    this.emitter.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'json');
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  /**
   * Closes the details tabs of a deleted model (every version's) or of one deleted version, so no
   * tab goes on showing a resource that no longer exists: the tabs opened in this window and those
   * the editor restored from an earlier one alike, since each URI names its owner. Returns how many
   * tabs were closed.
   */
  async closeDeleted(model: string, versionId?: string): Promise<number> {
    const gone = (owner: DetailsOwner | undefined): boolean =>
      owner?.model === model && (versionId === undefined || owner.versionId === versionId);
    for (const [key, doc] of this.docs) if (gone(doc.owner)) this.docs.delete(key);
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter((t) => t.input instanceof vscode.TabInputText && gone(detailsOwnerOf(t.input.uri)));
    if (tabs.length) await vscode.window.tabGroups.close(tabs, true);
    return tabs.length;
  }
}

/** The model and version a node's details belong to (evaluations, slices and checkpoints: their version's). */
function ownerOf(node: ModelsNode): DetailsOwner | undefined {
  for (let n: ModelsNode | undefined = node; n; n = n.parent) {
    if (n instanceof VersionNode) return { model: n.modelName, versionId: n.version.versionId };
    if (n instanceof ModelNode) return { model: n.resourceName };
  }
  return undefined;
}

function detailsType(node: ModelsNode): string | undefined {
  if (node instanceof ModelNode || node instanceof VersionNode) return `${V1BETA1}.Model`;
  if (node instanceof EvaluationNode) return `${V1BETA1}.ModelEvaluation`;
  if (node instanceof SliceNode) return `${V1BETA1}.ModelEvaluationSlice`;
  if (node instanceof AnnotationNode) return `${V1BETA1}.EvaluatedAnnotation`;
  if (node instanceof CheckpointNode) return `${V1BETA1}.ModelVersionCheckpoint`;
  return undefined;
}

// The gRPC stack and the proto descriptor cost tens of milliseconds to load, so they are required on
// first use (a project being browsed), not when the extension activates.
type ClientModule = typeof ClientModuleType;
type WireModule = typeof WireModuleType;
type ImportModule = typeof ImportModuleType;
/* eslint-disable @typescript-eslint/no-require-imports */
const lazy = {
  client: (): ClientModule => require('../../core/models/client') as ClientModule,
  wire: (): WireModule => require('../../core/models/wire') as WireModule,
  imports: (): ImportModule => require('./import-files') as ImportModule,
};
/* eslint-enable @typescript-eslint/no-require-imports */
const toProto3Json: WireModule['toProto3Json'] = (type, value) => lazy.wire().toProto3Json(type, value);

function buildClient(connection: Connection): ModelRegistryClient | undefined {
  if (!connection.project) return undefined;
  const s = connection.settings;
  const endpoint = connection.endpoint('models');
  return new (lazy.client().ModelRegistryClient)({
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

/** Reads and parses a JSON file the user picked, with errors that name the file and the problem. */
async function pickJsonFile(title: string): Promise<{ path: string; json: unknown } | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    filters: { JSON: ['json'] },
    openLabel: 'Import',
  });
  const uri = picked?.[0];
  if (!uri) return undefined;
  let text: string;
  try {
    text =
      uri.scheme === 'file'
        ? await readFile(uri.fsPath, 'utf8')
        : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch (err) {
    throw new Error(`Cannot read ${uri.fsPath}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return { path: uri.fsPath, json: JSON.parse(text) };
  } catch (err) {
    throw new Error(`${lastSegment(uri.fsPath)} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

export function activateModels(context: vscode.ExtensionContext, services: Services): void {
  const storage = context.globalStorageUri as vscode.Uri | undefined;
  configureModelsBundle({
    cacheDir: storage?.scheme === 'file' ? `${storage.fsPath}/code-cache` : undefined,
    log: (m) => log.info(m),
  });
  activateOperations(context);
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
  const journal: OperationJournal = {
    add: (entry) => {
      const entries = context.workspaceState.get<JournalEntry[]>(JOURNAL_KEY, []).filter((e) => e.name !== entry.name);
      void context.workspaceState.update(JOURNAL_KEY, [...entries, entry]);
    },
    remove: (name) => {
      const entries = context.workspaceState.get<JournalEntry[]>(JOURNAL_KEY, []);
      if (entries.some((e) => e.name === name))
        void context.workspaceState.update(
          JOURNAL_KEY,
          entries.filter((e) => e.name !== name),
        );
    },
  };
  const view = vscode.window.createTreeView('cloudbench.models', { treeDataProvider: provider, showCollapseAll: true });
  const updateMessage = (): void => {
    const parsed = parseModelFilter(filter);
    view.message = parsed
      ? parsed.kind === 'contains'
        ? `Models whose name contains "${parsed.text}" (every page of each location is searched)`
        : `Filtered: ${parsed.expression}`
      : undefined;
  };
  updateMessage();
  context.subscriptions.push(
    provider,
    view,
    vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, details),
    services.onDidChangeConnection((c) => {
      const old = built?.client;
      connection = c;
      built = undefined;
      old?.close();
      MetricsPanel.closeAll();
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

  const need = (): ModelRegistryClient => {
    const client = currentClient();
    if (!client) throw new Error('Select a Google Cloud project first (Cloudbench: Select Project…).');
    return client;
  };
  const nodeOf = <K extends Array<abstract new (...args: never[]) => ModelsNode>>(
    node: unknown,
    ...kinds: K
  ): InstanceType<K[number]> => {
    const found = kinds.find((k) => node instanceof k);
    if (!found) throw new Error('Run this command from a node of the Models view.');
    return node as InstanceType<K[number]>;
  };

  registerCommand(context, 'cloudbench.models.refresh', (node?: ModelsNode) =>
    provider.refresh(node instanceof ModelsNode ? node : undefined),
  );

  registerCommand(context, 'cloudbench.models.filter', async () => {
    const input = await vscode.window.showInputBox({
      title: 'Filter Models',
      prompt:
        'Part of a model name (any case), e.g. churn. Advanced: a ListModels filter such as labels.team="risk" or display_name!="test".',
      value: filter ?? '',
      placeHolder: 'churn',
    });
    if (input === undefined) return;
    filter = input.trim() || undefined;
    await context.workspaceState.update(FILTER_KEY, filter);
    await setFilterContext();
    updateMessage();
    provider.refresh();
  });

  registerCommand(context, 'cloudbench.models.clearFilter', async () => {
    filter = undefined;
    await context.workspaceState.update(FILTER_KEY, undefined);
    await setFilterContext();
    updateMessage();
    provider.refresh();
  });

  registerCommand(context, 'cloudbench.models.loadMore', async (node?: LoadMoreNode) => {
    if (!(node instanceof LoadMoreNode)) return;
    await vscode.window.withProgress({ location: { viewId: 'cloudbench.models' } }, () => node.owner.loadMore());
    provider.redraw(node.owner);
  });

  registerCommand(context, 'cloudbench.models.showDetails', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode, VersionNode, EvaluationNode, SliceNode, AnnotationNode, CheckpointNode);
    const type = detailsType(n)!;
    let value = n.details();
    // Tree items hold list results; a fresh Get shows every field of models and versions.
    if (n instanceof ModelNode || n instanceof VersionNode) {
      value = await need().getModel({ name: n instanceof VersionNode ? n.resourceName : `${n.resourceName}` });
    }
    const path =
      n instanceof AnnotationNode
        ? `${n.resourceName}/annotation-${n.id?.split('#')[1] ?? ''}`
        : n instanceof CheckpointNode
          ? `${n.resourceName}/checkpoint-${n.checkpoint.checkpointId ?? ''}`
          : n.resourceName;
    await details.open(path, toProto3Json(type, value), ownerOf(n) ?? { model: n.resourceName });
  });

  registerCommand(context, 'cloudbench.models.showMetrics', (node?: ModelsNode) => {
    const n = nodeOf(node, EvaluationNode, SliceNode);
    MetricsPanel.show(context.extensionUri, metricsSourceFor(need(), n));
  });

  registerCommand(context, 'cloudbench.models.copyResourceName', async (node?: ModelsNode) => {
    if (!(node instanceof ModelsNode) || !node.resourceName)
      throw new Error('Run this command from a node of the Models view.');
    await vscode.env.clipboard.writeText(node.resourceName);
    void vscode.window.setStatusBarMessage(`Copied ${safeText(node.resourceName)}`, 3000);
  });

  registerCommand(context, 'cloudbench.models.showIamPolicy', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode);
    const policy = await vscode.window.withProgress({ location: { viewId: 'cloudbench.models' } }, () =>
      need().getIamPolicy(n.resourceName, { requestedPolicyVersion: 3 }),
    );
    // The tab is titled by the resource ("churn-predictor · IAM policy"), not by a file name every policy shares.
    await details.open(
      `${n.resourceName}/${fileTitle(`${modelLabel(n.model)} · IAM policy`)}`,
      toProto3Json('google.iam.v1.Policy', policy),
      { model: n.resourceName },
    );
    if (!(policy.bindings ?? []).length)
      void vscode.window.showInformationMessage(
        `${modelLabel(n.model)} has no IAM policy of its own; access comes from the project.`,
      );
  });

  // ---- copy ---------------------------------------------------------------------------------
  registerCommand(context, 'cloudbench.models.copyModel', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode);
    const c = need();
    const project = connection.project!;
    const source = n.resourceName;
    const sourceLocation = source.split('/')[3];
    let locations = connection.settings.locations;
    if (!locations.length) {
      locations = [];
      for await (const l of c.listLocations(project))
        if (l.locationId && isLocationId(l.locationId)) locations.push(l.locationId);
    }
    const target = await vscode.window.showQuickPick(
      locations.map((l) => ({
        label: l,
        description: l === sourceLocation ? 'same location (a copy next to the source)' : '',
      })),
      {
        title: `Copy model ${modelRef(source, n.model.displayName)} to location`,
        placeHolder: 'Destination location in the same project',
      },
    );
    if (!target) return;
    const modelId = await vscode.window.showInputBox({
      title: `Copy model ${modelRef(source, n.model.displayName)} to ${safeText(target.label)}`,
      prompt: 'Model ID of the copy (leave empty for a generated ID)',
      validateInput: (v) => validateModelId(v.trim()),
    });
    if (modelId === undefined) return;
    const parent = `projects/${project}/locations/${target.label}`;
    const title = `Copy model ${modelRef(source, n.model.displayName)} to ${safeText(target.label)}`;
    const outcome = await runOperation({
      title,
      resource: source,
      journal,
      start: (signal) =>
        c.copyModel(
          { request: { parent, sourceModel: source, ...(modelId.trim() ? { modelId: modelId.trim() } : {}) } },
          signal ? { signal } : {},
        ),
    });
    provider.refresh();
    if (outcome.state === 'succeeded') {
      const created = outcome.result.model ?? '';
      reportOutcome(
        title,
        outcome,
        `Copied model ${modelRef(source, n.model.displayName)} to ${created ? `model ${modelRef(created, n.model.displayName)}` : safeText(target.label)}${outcome.result.modelVersionId ? `, version ${safeText(outcome.result.modelVersionId)}` : ''}.`,
      );
      if (created) {
        const model = await c.getModel({ name: created });
        await details.open(created, toProto3Json(`${V1BETA1}.Model`, model), { model: created });
        try {
          const node = await provider.findModel(created);
          if (node) await view.reveal(node, { select: true, focus: false, expand: true });
        } catch (err) {
          log.debug(`could not reveal ${created}: ${(err as Error).message}`);
        }
      }
    } else {
      reportOutcome(title, outcome, '');
    }
  });

  // ---- export -------------------------------------------------------------------------------
  registerCommand(context, 'cloudbench.models.exportModel', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode, VersionNode);
    const c = need();
    const name = n.resourceName;
    const model: Model = n instanceof VersionNode ? n.version : n.model;
    const exportSubject =
      n instanceof VersionNode
        ? versionRef(n.version)
        : `version ${safeText(model.versionId ?? '?')} (default) of model ${modelRef(n.resourceName, model.displayName)}`;
    const formats = model.supportedExportFormats ?? [];
    if (!formats.length)
      throw new Error(`${modelLabel(model)} is not exportable: it lists no supported export formats.`);
    const format = await vscode.window.showQuickPick(
      formats.map((f) => ({
        label: safeText(f.id ?? ''),
        description: safeText((f.exportableContents ?? []).map((x) => x.toLowerCase()).join(', ')),
        format: f,
      })),
      {
        title: `Export ${exportSubject}`,
        placeHolder: 'Export format',
      },
    );
    if (!format) return;
    const contents = format.format.exportableContents ?? [];
    let kind: 'ARTIFACT' | 'IMAGE';
    if (contents.includes('ARTIFACT') && contents.includes('IMAGE')) {
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'Artifacts to Cloud Storage', content: 'ARTIFACT' as const },
          { label: 'Container image to a registry', content: 'IMAGE' as const },
        ],
        { title: 'What to export' },
      );
      if (!picked) return;
      kind = picked.content;
    } else if (contents.includes('IMAGE')) {
      kind = 'IMAGE';
    } else {
      kind = 'ARTIFACT';
    }
    const destinationOptions: vscode.InputBoxOptions =
      kind === 'ARTIFACT'
        ? {
            title: 'Export destination',
            prompt: 'Cloud Storage folder for the artifacts',
            placeHolder: 'gs://my-bucket/exports/',
            validateInput: (v) =>
              /^gs:\/\/[a-z0-9][a-z0-9._-]{1,220}(\/.*)?$/.test(v.trim())
                ? undefined
                : 'Enter a gs://bucket/folder/ URI.',
          }
        : {
            title: 'Export destination',
            prompt: 'Container image URI',
            placeHolder: 'us-central1-docker.pkg.dev/project/repo/image:tag',
            validateInput: (v) =>
              /^[a-z0-9.-]+(:\d+)?\/[^\s]+$/.test(v.trim())
                ? undefined
                : 'Enter an image URI such as gcr.io/project/image:tag.',
          };
    const destination = await vscode.window.showInputBox(destinationOptions);
    if (!destination) return;
    const outputConfig = {
      exportFormatId: format.format.id ?? '',
      ...(kind === 'ARTIFACT'
        ? { artifactDestination: { outputUriPrefix: destination.trim() } }
        : { imageDestination: { outputUri: destination.trim() } }),
    };
    const title = `Export ${exportSubject} as ${format.label}`;
    let outputInfo: string | undefined;
    const outcome = await runOperation({
      title,
      resource: name,
      journal,
      start: async (signal) => {
        const op = await c.exportModel({ name, outputConfig }, signal ? { signal } : {});
        const info = op.metadata?.outputInfo;
        outputInfo = info?.artifactOutputUri || info?.imageOutputUri || undefined;
        return op;
      },
    });
    reportOutcome(title, outcome, `Exported ${exportSubject}${outputInfo ? ` to ${safeText(outputInfo)}` : ''}.`);
  });

  // ---- delete -------------------------------------------------------------------------------
  const explainDeployments = async (
    what: string,
    found: Awaited<ReturnType<ModelRegistryClient['findDeployments']>>,
  ): Promise<void> => {
    const lines = found.map(
      ({ endpoint, deployedModel }) =>
        `• endpoint ${safeText(endpoint.displayName || lastSegment(endpoint.name))} (${safeText(endpoint.name)}): deployed model ${safeText(deployedModel.id)}${deployedModel.modelVersionId ? `, version ${safeText(deployedModel.modelVersionId)}` : ''}`,
    );
    await vscode.window.showWarningMessage(`${what} cannot be deleted while it is deployed.`, {
      modal: true,
      detail: `Undeploy it from these endpoints first:\n${lines.join('\n')}`,
    });
  };

  const deleteModel = async (modelName: string, label: string, refreshNode: ModelsNode | undefined): Promise<void> => {
    const c = need();
    // The check's progress is off the screen before the modal question below.
    const deployments = await checkBeforeModal(`Checking endpoints for ${label}…`, (signal) =>
      c.findDeployments(modelName, { signal }),
    );
    if (deployments.length) return explainDeployments(`Model ${label}`, deployments);
    const answer = await vscode.window.showWarningMessage(
      `Delete model ${label}?`,
      {
        modal: true,
        detail: `${safeText(modelName)}\n\nEvery version, evaluation and slice of this model is deleted. This cannot be undone.`,
      },
      'Delete Model',
    );
    if (answer !== 'Delete Model') return;
    const title = `Delete model ${label}`;
    const outcome = await runOperation({
      title,
      resource: modelName,
      journal,
      start: (signal) => c.deleteModel({ name: modelName }, signal ? { signal } : {}),
    });
    provider.refresh(refreshNode);
    if (outcome.state === 'succeeded') {
      MetricsPanel.markDeleted(modelName);
      await details.closeDeleted(modelName);
    }
    reportOutcome(title, outcome, `Deleted model ${label}.`);
  };

  registerCommand(context, 'cloudbench.models.deleteModel', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode);
    await deleteModel(n.resourceName, modelRef(n.resourceName, n.model.displayName), n.parent);
  });

  registerCommand(context, 'cloudbench.models.deleteVersion', async (node?: ModelsNode) => {
    const n = nodeOf(node, VersionNode);
    const c = need();
    const label = versionRef(n.version);
    const ofModel = `model ${modelRef(n.modelName, n.version.displayName)}`;
    const check = await checkBeforeModal(`Checking ${label}…`, async (signal) => {
      const opts = { signal };
      let versions = 0;
      for await (const _v of c.listModelVersions({ request: { name: n.modelName, pageSize: 2 } }, opts)) {
        if (++versions > 1) break;
      }
      const deployments = await c.findDeployments(n.modelName, { ...opts, versionId: n.version.versionId ?? '' });
      return { versions, deployments };
    });
    if (check.versions <= 1) {
      const answer = await vscode.window.showWarningMessage(
        `Version ${n.version.versionId} is the only version of ${ofModel}.`,
        {
          modal: true,
          detail: 'The only version of a model cannot be deleted on its own; delete the whole model instead.',
        },
        'Delete Model…',
      );
      if (answer === 'Delete Model…')
        await deleteModel(n.modelName, modelRef(n.modelName, n.version.displayName), n.parent?.parent);
      return;
    }
    if (check.deployments.length)
      return explainDeployments(`Version ${n.version.versionId} of ${ofModel}`, check.deployments);
    if (isDefaultVersion(n.version)) {
      const answer = await vscode.window.showWarningMessage(
        `Version ${n.version.versionId} is the default version of ${ofModel}.`,
        {
          modal: true,
          detail:
            'Calls that name the model without a version use the default version, so it cannot be deleted. Move the "default" alias to another version first.',
        },
        'Set or Move Alias…',
      );
      if (!answer) return;
      const others: Model[] = [];
      for await (const v of c.listModelVersions({ name: n.modelName }))
        if (v.versionId !== n.version.versionId) others.push(v);
      const target = await vscode.window.showQuickPick(
        others.map((v) => ({
          label: `Version ${safeText(v.versionId)}`,
          description: safeText((v.versionAliases ?? []).map((a) => `@${a}`).join(' ')),
          version: v,
        })),
        { title: `Move "default" of ${ofModel} to` },
      );
      if (!target) return;
      await c.mergeVersionAliases({ name: `${n.modelName}@${target.version.versionId}`, versionAliases: ['default'] });
      provider.refresh(n.parent);
      void vscode.window.showInformationMessage(
        `Moved @default from version ${safeText(n.version.versionId)} to version ${safeText(target.version.versionId)}; run Delete Version on version ${safeText(n.version.versionId)} again to delete it.`,
      );
      return;
    }
    const aliases = safeText((n.version.versionAliases ?? []).join(', '));
    const answer = await vscode.window.showWarningMessage(
      `Delete ${label}?`,
      {
        modal: true,
        detail: `${safeText(n.resourceName)}${aliases ? `\nAliases: ${aliases}` : ''}\n\nThe version and its evaluations are deleted. This cannot be undone.`,
      },
      'Delete Version',
    );
    if (answer !== 'Delete Version') return;
    const title = `Delete ${label}`;
    const outcome = await runOperation({
      title,
      resource: n.resourceName,
      journal,
      start: (signal) => c.deleteModelVersion({ name: n.resourceName }, signal ? { signal } : {}),
    });
    provider.refresh(n.parent);
    if (outcome.state === 'succeeded') {
      MetricsPanel.markDeleted(n.modelName, n.version.versionId);
      await details.closeDeleted(n.modelName, n.version.versionId);
    }
    reportOutcome(title, outcome, `Deleted ${label}.`);
  });

  // ---- aliases ------------------------------------------------------------------------------
  registerCommand(context, 'cloudbench.models.setAlias', async (node?: ModelsNode) => {
    const n = nodeOf(node, VersionNode);
    const c = need();
    const current = n.version.versionAliases ?? [];
    const alias = await vscode.window.showInputBox({
      title: `Set or move an alias to version ${safeText(n.version.versionId)}`,
      prompt: `An alias names one version; setting it here moves it from any other version. Prefix with "-" to remove it. Current: ${safeText(current.join(', ')) || 'none'}`,
      placeHolder: 'golden',
      validateInput: (v) => validateAlias(v.trim()),
    });
    if (!alias) return;
    const value = alias.trim();
    if (value === '-default')
      throw new Error('The default alias cannot be removed; set "default" on another version to move it.');
    const versionId = n.version.versionId ?? '';
    const versionText = safeText(versionId);
    const name = value.replace(/^-/, '');
    // The version that holds the alias now, read from the server (the tree may be older).
    let holder: Model | undefined;
    for await (const v of c.listModelVersions({ name: n.modelName }))
      if ((v.versionAliases ?? []).includes(name)) holder = v;
    if (!value.startsWith('-') && holder?.versionId === versionId) {
      void vscode.window.showInformationMessage(`Version ${versionText} already holds @${safeText(name)}.`);
      return;
    }
    if (value === 'default' && holder) {
      const answer = await vscode.window.showWarningMessage(
        `Make version ${safeText(versionId)} the default version of model ${modelRef(n.modelName, n.version.displayName)}?`,
        {
          modal: true,
          detail: `The "default" alias moves from version ${safeText(holder.versionId ?? '?')} to version ${versionText}. Calls that name the model without a version (get, export, and anything else that uses ${safeText(n.modelName)}) then use version ${versionText}.`,
        },
        'Move Default',
      );
      if (answer !== 'Move Default') return;
    }
    const model = await c.mergeVersionAliases({ name: n.resourceName, versionAliases: [value] });
    provider.refresh(n.parent);
    void vscode.window.showInformationMessage(
      safeText(
        aliasMoveMessage(name, versionId, value.startsWith('-'), holder?.versionId, model.versionAliases ?? []),
        'plain',
        MESSAGE_LIMIT,
      ),
    );
  });

  // ---- imports ------------------------------------------------------------------------------
  registerCommand(context, 'cloudbench.models.importEvaluation', async (node?: ModelsNode) => {
    const n = nodeOf(node, ModelNode, VersionNode);
    const c = need();
    const file = await pickJsonFile('Import a model evaluation (ModelEvaluation JSON)');
    if (!file) return;
    const { parseImport } = lazy.imports();
    const [evaluation] = parseImport<ModelEvaluation>(`${V1BETA1}.ModelEvaluation`, { single: file.json }, file.path);
    const created = await c.importModelEvaluation({ parent: n.resourceName, modelEvaluation: evaluation });
    provider.refresh(n instanceof VersionNode ? n : undefined);
    void vscode.window.showInformationMessage(
      `Imported evaluation ${safeText(created.displayName || lastSegment(created.name))} into ${safeText(lastSegment(n.resourceName))}.`,
    );
  });

  registerCommand(context, 'cloudbench.models.importSlices', async (node?: ModelsNode) => {
    const n = nodeOf(node, EvaluationNode);
    const c = need();
    const file = await pickJsonFile('Import evaluation slices (a JSON array of ModelEvaluationSlice)');
    if (!file) return;
    const { entriesFromFile, parseImport } = lazy.imports();
    const slices = parseImport<ModelEvaluationSlice>(
      `${V1BETA1}.ModelEvaluationSlice`,
      entriesFromFile(file.json, 'modelEvaluationSlices', file.path),
      file.path,
    );
    const res = await c.batchImportModelEvaluationSlices({ parent: n.resourceName, modelEvaluationSlices: slices });
    provider.refresh(n);
    void vscode.window.showInformationMessage(
      `Imported ${(res.importedModelEvaluationSlices ?? []).length} slice(s) into ${safeText(n.label as string)}.`,
    );
  });

  registerCommand(context, 'cloudbench.models.importEvaluatedAnnotations', async (node?: ModelsNode) => {
    const n = nodeOf(node, SliceNode);
    const c = need();
    const file = await pickJsonFile('Import evaluated annotations (a JSON array of EvaluatedAnnotation)');
    if (!file) return;
    const { entriesFromFile, parseImport } = lazy.imports();
    const items = parseImport<EvaluatedAnnotation>(
      `${V1BETA1}.EvaluatedAnnotation`,
      entriesFromFile(file.json, 'evaluatedAnnotations', file.path),
      file.path,
    );
    const res = await c.batchImportEvaluatedAnnotations({ parent: n.resourceName, evaluatedAnnotations: items });
    annotations.set(n.resourceName, [...(annotations.get(n.resourceName) ?? []), ...items]);
    provider.refresh(n);
    void vscode.window.showInformationMessage(
      `Imported ${res.importedEvaluatedAnnotationsCount ?? items.length} evaluated annotation(s) into ${safeText(n.label as string)}.`,
    );
  });

  // Operations that were running when the window closed are followed again, in the status bar.
  const pending = context.workspaceState.get<JournalEntry[]>(JOURNAL_KEY, []);
  const resumable = ((): boolean => {
    try {
      return currentClient() !== undefined;
    } catch (err) {
      log.warn(`not resuming ${pending.length} operation(s): ${(err as Error).message}`);
      return false;
    }
  })();
  if (pending.length && resumable) {
    for (const entry of pending) {
      const c = currentClient()!;
      void runOperation({
        title: entry.title,
        resource: entry.resource,
        journal,
        location: vscode.ProgressLocation.Window,
        start: (signal) => c.resumeOperation(entry.kind, entry.name, signal ? { signal } : {}),
      }).then(
        (outcome) => {
          provider.refresh();
          reportOutcome(entry.title, outcome, `${entry.title}: done.`);
        },
        (err: unknown) => {
          // Gone (finished long ago and expired, or forgotten): nothing left to follow.
          journal.remove(entry.name);
          log.info(`${entry.title}: not resumed (${(err as Error).message})`);
        },
      );
    }
  }
  log.info('models feature ready');
}
