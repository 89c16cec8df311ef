// The models commands end to end against the sandbox, with the shared `vscode` fake and scripted
// answers for the editor's prompts: the delete guard names the deployment, the only version is
// refused with Delete Model offered, copy runs with progress and opens the new model, and cancel in
// the progress notification cancels the export on the server.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import type { ModelOperation } from '../../../src/core/models/operation';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { DEFAULT_RETRY } from '../../../src/core/google/retry';
import type * as ModelsTreeModule from '../../../src/features/models/tree';
import type * as FeaturesModelsModule from '../../../src/features/models';
import type * as OperationsModule from '../../../src/features/operations';
import type * as OperationsRegistryModule from '../../../src/features/operations/registry';
import type { Services } from '../../../src/features/services';
import { startFeature } from '../../support/start-feature';
import { fakeServices } from '../../support/fake-services';

useFakeVscode();

const vscode = require('vscode') as Record<string, any>;
const tree = require('../../../src/features/models/tree') as typeof ModelsTreeModule;
const { modelsFeature } = require('../../../src/features/models') as typeof FeaturesModelsModule;
const { operationsFeature } = require('../../../src/features/operations') as typeof OperationsModule;
const { OperationsRegistry } = require('../../../src/features/operations/registry') as typeof OperationsRegistryModule;

const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-demo';
const PARENT = `projects/${PROJECT}/locations/us-central1`;

interface Prompt {
  kind: string;
  text: string;
  detail?: string;
  buttons?: string[];
}

describe('models commands against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;
  let context: any;
  let services: Services;
  /** Starts Models and the Operations view as a new window does: with a registry of its own operations. */
  const activateModels = (): void => {
    services = { ...services, operations: new OperationsRegistry(context.workspaceState) };
    context.subscriptions.push(services.operations);
    startFeature(operationsFeature, context, services);
    startFeature(modelsFeature, context, services);
  };
  let provider: InstanceType<typeof tree.ModelsTreeProvider>;
  let prompts: Prompt[];
  let answers: Array<string | undefined>;
  let opened: Array<{ uri: string; path: string; ref: unknown; text: string }>;
  const revealed: string[] = [];
  let pickedFile: string | undefined;
  /** The read-only document providers, by scheme (models details, operation details). */
  const docs = new Map<string, { provideTextDocumentContent(uri: unknown): string }>();
  /** Called with each progress message; tests use it to move the sandbox clock or to cancel. */
  let onProgress: (message: string | undefined, cancel: () => void) => void;

  const patched: Array<[Record<string, any>, string]> = [
    [vscode.window, 'showWarningMessage'],
    [vscode.window, 'showInformationMessage'],
    [vscode.window, 'showErrorMessage'],
    [vscode.window, 'showInputBox'],
    [vscode.window, 'showQuickPick'],
    [vscode.window, 'createTreeView'],
    [vscode.window, 'withProgress'],
    [vscode.window, 'setStatusBarMessage'],
    [vscode.workspace, 'registerTextDocumentContentProvider'],
    [vscode.workspace, 'openTextDocument'],
    [vscode.Uri, 'from'],
    [vscode.window, 'showOpenDialog'],
    [vscode.window, 'tabGroups'],
  ];
  const originals = new Map<string, { had: boolean; value: unknown }>();

  before(async () => {
    // The fake is shared by every test file in the run: remember what is patched and put it back after.
    for (const [target, key] of patched)
      originals.set(key, {
        had: Object.prototype.hasOwnProperty.call(target, key),
        value: Object.getOwnPropertyDescriptor(target, key)?.value,
      });
    sandbox = await startSandbox({ seed: 'empty' });
    client = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sandbox.grpc } });
    const answer =
      (kind: string) =>
      async (text: string, ...rest: any[]) => {
        const options = rest[0] && typeof rest[0] === 'object' && !Array.isArray(rest[0]) ? rest[0] : undefined;
        // Buttons given as MessageItems answer with the item itself, as in the editor.
        const items = rest.filter((r) => r && typeof r === 'object' && typeof r.title === 'string');
        prompts.push({
          kind,
          text,
          ...(options?.detail ? { detail: options.detail } : {}),
          ...(items.length ? { buttons: items.map((i) => i.title as string) } : {}),
        });
        const wanted = answers.shift();
        return items.find((i) => i.title === wanted) ?? wanted;
      };
    vscode.window.showWarningMessage = answer('warning');
    vscode.window.showInformationMessage = answer('info');
    vscode.window.showErrorMessage = answer('error');
    vscode.window.showInputBox = async (o: any) => {
      prompts.push({ kind: 'input', text: o?.title ?? '' });
      return answers.shift();
    };
    vscode.window.showQuickPick = async (items: any, o: any) => {
      prompts.push({ kind: 'pick', text: o?.title ?? '' });
      const wanted = answers.shift();
      return (await items).find((i: any) => i.label === wanted);
    };
    vscode.window.createTreeView = (_id: string, options: any) => {
      if (_id === 'cloudbench.models') provider = options.treeDataProvider;
      return {
        dispose() {},
        message: undefined,
        visible: false,
        onDidChangeVisibility: () => ({ dispose() {} }),
        reveal: async (n: { resourceName?: string }) => {
          revealed.push(n.resourceName ?? '');
        },
      };
    };
    vscode.window.withProgress = async (_o: unknown, task: any) => {
      const listeners: Array<() => void> = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested: (l: () => void) => {
          listeners.push(l);
          return { dispose() {} };
        },
      };
      const cancel = (): void => {
        if (token.isCancellationRequested) return;
        token.isCancellationRequested = true;
        for (const l of listeners) l();
      };
      return task({ report: (p: { message?: string }) => onProgress(p.message, cancel) }, token);
    };
    vscode.window.setStatusBarMessage = () => ({ dispose() {} });
    vscode.window.showOpenDialog = async () =>
      pickedFile ? [{ scheme: 'file', fsPath: pickedFile, toString: () => `file://${pickedFile}` }] : undefined;
    vscode.workspace.registerTextDocumentContentProvider = (scheme: string, p: any) => {
      docs.set(scheme, p);
      return { dispose() {} };
    };
    vscode.workspace.openTextDocument = async (uri: any) => {
      opened.push({
        uri: uri.toString(),
        path: uri.path,
        ref: uri,
        text: docs.get(uri.scheme)?.provideTextDocumentContent(uri) ?? '',
      });
      return {};
    };
    vscode.Uri.from = (parts: { scheme: string; path: string; query?: string }) => ({
      ...parts,
      query: parts.query ?? '',
      toString: () => `${parts.scheme}:${parts.path}${parts.query ? `?${parts.query}` : ''}`,
    });

    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    context = fakeExtensionContext(pkg, ROOT);
    const connection = {
      settings: {
        project: PROJECT,
        locations: ['us-central1', 'europe-west4'],
        endpoints: { models: sandbox.grpc },
        universeDomain: undefined,
        retry: DEFAULT_RETRY,
        timeoutMs: 30_000,
      },
      project: PROJECT,
      sandbox: true,
      endpoint: (kind: 'models' | 'apiKeys' | 'secops') => (kind === 'models' ? sandbox.grpc : undefined),
      cloudTokens: () => sandboxTokenSource(),
      secopsTokens: () => sandboxTokenSource(),
      modelsEndpointOptions: () => ({ apiEndpoint: sandbox.grpc }),
    };
    services = fakeServices(context, connection);
    activateModels();
  });

  after(async () => {
    for (const d of context.subscriptions) {
      try {
        d.dispose();
      } catch {
        /* ignore */
      }
    }
    for (const [target, key] of patched) {
      const o = originals.get(key)!;
      if (o.had) target[key] = o.value;
      else delete target[key];
    }
    client.close();
    await sandbox.close();
  });

  beforeEach(() => {
    prompts = [];
    answers = [];
    opened = [];
    record.messages.length = 0;
    onProgress = () => sandbox.clock.advance(3600);
  });

  async function finish<R>(op: ModelOperation<R, unknown>): Promise<R> {
    sandbox.clock.advance(3600);
    return op.wait({ initialDelayMs: 5 });
  }

  async function upload(name: string, parentModel?: string): Promise<string> {
    const op = await client.uploadModel({
      request: {
        parent: PARENT,
        ...(parentModel ? { parentModel } : { modelId: name }),
        model: {
          displayName: name,
          containerSpec: { imageUri: 'us-docker.pkg.dev/p/r/i:1' },
          artifactUri: 'gs://bucket/m',
        },
      },
    });
    return (await finish(op)).model!;
  }

  async function modelNode(model: string) {
    provider.refresh();
    const [project] = await provider.getChildren();
    const loc = (await provider.getChildren(project)).find(
      (n) => n instanceof tree.LocationNode && n.location === 'us-central1',
    )!;
    const node = (await provider.getChildren(loc)).find((n) => n instanceof tree.ModelNode && n.resourceName === model);
    assert.ok(node, `${model} is in the tree`);
    return node as InstanceType<typeof tree.ModelNode>;
  }

  const run = (id: string, ...args: unknown[]) => {
    const handler = record.commands.get(id);
    assert.ok(handler, `${id} is registered`);
    return handler(...args);
  };

  it('registers every models and operations command of package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const mine = (pkg.contributes.commands as Array<{ command: string }>)
      .map((c) => c.command)
      .filter((c) => /^cloudbench\.(models|operations)\./.test(c));
    assert.ok(mine.length >= 19);
    for (const id of mine) assert.ok(record.commands.has(id), id);
  });

  it('Delete Model explains which endpoint blocks it and deletes nothing', async () => {
    const model = await upload('deployed-one');
    const endpoint = (await finish(await client.createEndpoint(PARENT, { displayName: 'prod-endpoint' }))).name!;
    await finish(
      await client.deployModel(endpoint, {
        model,
        dedicatedResources: { machineSpec: { machineType: 'n1-standard-2' }, minReplicaCount: 1 },
      }),
    );
    await run('cloudbench.models.deleteModel', await modelNode(model));
    const guard = prompts.find((p) => p.kind === 'warning');
    assert.ok(guard, 'a modal warning is shown');
    assert.match(guard.text, /cannot be deleted while it is deployed/);
    assert.ok(guard.detail?.includes('prod-endpoint') && guard.detail.includes(endpoint), guard.detail);
    assert.equal((await client.getModel({ name: model })).displayName, 'deployed-one');
  });

  it("the endpoint check's progress notification is off the screen before the delete question", async () => {
    // Like the editor: a progress notification stays on screen at least 800 ms after it appears.
    const notifications: Array<{ title: string; onScreen: boolean }> = [];
    const seen: Array<{ question: string; behind: string[] }> = [];
    const plain = vscode.window.withProgress;
    const plainWarning = vscode.window.showWarningMessage;
    vscode.window.withProgress = async (o: { title: string }, task: any) => {
      const shown = { title: o.title, onScreen: true };
      notifications.push(shown);
      const floor = new Promise((resolve) => setTimeout(resolve, 800));
      const token = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) };
      const result = task({ report() {} }, token);
      void Promise.allSettled([floor, result]).then(() => (shown.onScreen = false));
      return result;
    };
    vscode.window.showWarningMessage = async (question: string) => {
      seen.push({ question, behind: notifications.filter((n) => n.onScreen).map((n) => n.title) });
      return undefined;
    };
    try {
      const model = await upload('checked-first');
      await run('cloudbench.models.deleteModel', await modelNode(model));
      sandbox.faults.configure([
        { method: 'google.cloud.aiplatform.v1beta1.EndpointService/ListEndpoints', latencyMs: 600 },
      ]);
      await run('cloudbench.models.deleteModel', await modelNode(model));
      assert.equal(seen.length, 2);
      // The question names the model so that a copy elsewhere cannot be mistaken for it.
      for (const q of seen) assert.match(q.question, /^Delete model checked-first \(us-central1\)\?$/);
      for (const q of seen) assert.deepEqual(q.behind, [], 'no progress notification behind the question');
      assert.deepEqual(
        notifications.map((n) => n.title),
        ['Checking endpoints for checked-first (us-central1)…'],
        'a quick check shows no notification, a slow one does',
      );
    } finally {
      sandbox.faults.configure([]);
      vscode.window.withProgress = plain;
      vscode.window.showWarningMessage = plainWarning;
    }
  });

  it('Delete Version refuses the only version and offers Delete Model, which deletes after confirmation', async () => {
    const model = await upload('single');
    const node = await modelNode(model);
    const [version] = (await provider.getChildren(node)).filter((n) => n instanceof tree.VersionNode);
    answers = ['Delete Model…', 'Delete Model'];
    await run('cloudbench.models.deleteVersion', version);
    assert.match(prompts[0].text, /only version/);
    assert.match(prompts[1].text, /^Delete model single \(us-central1\)\?/);
    assert.ok(prompts[1].detail?.includes(model));
    await assert.rejects(client.getModel({ name: model }), /not|exist/i);
    const entry = services.operations.list().find((o) => /^Delete model single \(us-central1\)$/.test(o.title));
    assert.equal(entry?.state, 'succeeded');
  });

  it('Copy Model runs with progress, shows up in the Operations view and opens the new model', async () => {
    const model = await upload('copy-source');
    answers = ['Version 1', 'europe-west4', 'New model', 'copied-model'];
    const progress: Array<string | undefined> = [];
    onProgress = (m) => {
      progress.push(m);
      sandbox.clock.advance(3600);
    };
    await run('cloudbench.models.copyModel', await modelNode(model));
    const target = `projects/${PROJECT}/locations/europe-west4/models/copied-model`;
    assert.ok(progress.length >= 1);
    assert.equal((await client.getModel({ name: target })).displayName, 'copy-source');
    const doc = opened.find((d) => d.uri.includes('copied-model'));
    assert.ok(doc, 'the new model is opened');
    assert.equal(JSON.parse(doc.text).name.split('@')[0], target);
    assert.ok(revealed.includes(target), `the new model is revealed in the tree: ${JSON.stringify(revealed)}`);
    // Source and copy share a display name: the message tells them apart by ID and location.
    assert.ok(
      prompts.some((p) =>
        /^Copied version 1 of model copy-source \(us-central1\) to model copy-source \(ID copied-model, europe-west4\), version 1\.$/.test(
          p.text,
        ),
      ),
      JSON.stringify(prompts),
    );
    assert.equal(
      services.operations.list().find((o) => o.title.startsWith('Copy version 1 of model copy-source'))?.state,
      'succeeded',
    );
  });

  it('cancelling the export progress cancels the operation on the server and says so', async () => {
    const model = await upload('export-me');
    answers = ['custom-trained', 'Artifacts to Cloud Storage', 'gs://export-bucket/out/'];
    // Cancel as soon as the operation reports; never move the clock, so only the cancel can end it.
    onProgress = (_m, cancel) => cancel();
    await run('cloudbench.models.exportModel', await modelNode(model));
    const entry = services.operations
      .list()
      .find((o) => /^Export version 1 \(default\) of model export-me \(us-central1\) as custom-trained$/.test(o.title));
    assert.equal(entry?.state, 'cancelled');
    assert.ok(entry?.operationName);
    const op = await client.getOperation(entry.operationName);
    assert.equal(op.done, true);
    assert.equal(op.error?.code, 1, 'the server ended it with CANCELLED');
    assert.ok(
      prompts.some((p) => p.kind === 'info' && /cancelled/i.test(p.text)),
      JSON.stringify(prompts),
    );
  });

  it('Stop Waiting in the Operations view ends the wait, forgets the operation, and the copy still happens', async () => {
    const model = await upload('detach-source');
    answers = ['Version 1', 'us-central1', 'New model', 'detached-copy'];
    let stopping: Promise<unknown> | undefined;
    onProgress = () => {
      if (stopping) return;
      const entry = services.operations
        .list()
        .find((o) => o.state === 'running' && o.title.startsWith('Copy version 1 of model detach-source'));
      if (entry) stopping = Promise.resolve(run('cloudbench.operations.stopWaiting', { operation: { id: entry.id } }));
    };
    await run('cloudbench.models.copyModel', await modelNode(model));
    await stopping;
    const entry = services.operations.list().find((o) => o.title.startsWith('Copy version 1 of model detach-source'));
    assert.equal(entry?.state, 'detached');
    assert.match(entry?.detail ?? '', /goes on running/);
    const toasts = prompts.filter((p) => p.kind === 'info' && /stopped waiting/i.test(p.text));
    assert.equal(toasts.length, 1, `one toast: ${JSON.stringify(prompts)}`);
    assert.match(toasts[0].text, /^Copy version 1 of model detach-source/);
    await assert.rejects(client.getOperation(entry.operationName!), /not|exist/i);
    sandbox.clock.advance(3600);
    const copy = await client.getModel({ name: `${PARENT}/models/detached-copy` });
    assert.equal(copy.displayName, 'detach-source');
  });

  it('Cancel in the Operations view cancels on the server and says so in one toast', async () => {
    const model = await upload('cancel-from-view');
    answers = ['custom-trained', 'Artifacts to Cloud Storage', 'gs://export-bucket/view/'];
    let cancelling: Promise<unknown> | undefined;
    onProgress = () => {
      if (cancelling) return;
      const entry = services.operations
        .list()
        .find(
          (o) => o.state === 'running' && /^Export version 1 \(default\) of model cancel-from-view \(/.test(o.title),
        );
      if (!entry) return;
      answers.push('Cancel Operation');
      cancelling = Promise.resolve(run('cloudbench.operations.cancel', { operation: { id: entry.id } }));
    };
    await run('cloudbench.models.exportModel', await modelNode(model));
    await cancelling;
    const entry = services.operations
      .list()
      .find((o) => /^Export version 1 \(default\) of model cancel-from-view \(/.test(o.title));
    assert.equal(entry?.state, 'cancelled');
    assert.equal((await client.getOperation(entry.operationName!)).error?.code, 1, 'cancelled on the server');
    const ask = prompts.find(
      (p) => p.kind === 'warning' && /^Cancel "Export version 1 \(default\) of model cancel-from-view/.test(p.text),
    );
    assert.ok(ask, JSON.stringify(prompts));
    // The buttons say what they do: no bare "Cancel" next to "Cancel Operation".
    assert.deepEqual(ask.buttons, ['Cancel Operation', 'Keep Running']);
    const toasts = prompts.filter((p) => p.kind === 'info');
    assert.equal(toasts.length, 1, `one toast: ${JSON.stringify(toasts)}`);
    assert.match(
      toasts[0].text,
      /^Export version 1 \(default\) of model cancel-from-view \(us-central1\) as custom-trained: cancelled\. The server cancelled it\.$/,
    );
  });

  it('Show Details and Copy Operation Name act on an Operations row, running or finished', async () => {
    const handle = services.operations.start({
      title: 'Delete model details-demo (us-central1)',
      resource: `${PARENT}/models/details-demo`,
      operationName: `${PARENT}/operations/4242`,
      source: 'models',
    });
    const node = { operation: { id: handle.operation.id } };
    const clipboard = vscode.env.clipboard as { writeText: (text: string) => Promise<void> };
    const plainWrite = clipboard.writeText;
    let copied: string | undefined;
    clipboard.writeText = async (text: string) => void (copied = text);
    try {
      await run('cloudbench.operations.copyName', node);
      assert.equal(copied, `${PARENT}/operations/4242`);
      handle.finish('failed', 'PERMISSION_DENIED: aiplatform.models.delete');
      await run('cloudbench.operations.showDetails', node);
      const shown = opened.find((d) => d.uri.startsWith('cloudbench-operation:'));
      assert.ok(shown, JSON.stringify(opened));
      assert.match(shown.text, /^State: failed$/m);
      assert.match(shown.text, new RegExp(`^Operation: ${PARENT}/operations/4242$`, 'm'));
      assert.match(shown.text, /PERMISSION_DENIED: aiplatform\.models\.delete/);
    } finally {
      clipboard.writeText = plainWrite;
    }
  });

  it('Set or Move Alias moves an alias between versions', async () => {
    const model = await upload('aliased');
    await upload('aliased', model);
    const versions = (await provider.getChildren(await modelNode(model))).filter(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
    );
    const v1 = versions.find((v) => v.version.versionId === '1')!;
    const v2 = versions.find((v) => v.version.versionId === '2')!;
    answers = ['golden'];
    await run('cloudbench.models.setAlias', v1);
    assert.equal((await client.getModel({ name: `${model}@golden` })).versionId, '1');
    answers = ['golden'];
    await run('cloudbench.models.setAlias', v2);
    assert.equal((await client.getModel({ name: `${model}@golden` })).versionId, '2');
    assert.ok(!(await client.getModel({ name: `${model}@1` })).versionAliases?.includes('golden'));
    assert.match(prompts.at(-1)!.text, /^Moved @golden from version 1 to version 2\./);
  });

  it('moving "default" asks first, names both versions, and does nothing when declined', async () => {
    const model = await upload('default-mover');
    await upload('default-mover', model);
    const versions = (await provider.getChildren(await modelNode(model))).filter(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
    );
    const v2 = versions.find((v) => v.version.versionId === '2')!;
    const defaultNow = async () => (await client.getModel({ name: model })).versionId;
    assert.equal(await defaultNow(), '1');
    answers = ['default', undefined];
    await run('cloudbench.models.setAlias', v2);
    const ask = prompts.find((p) => p.kind === 'warning');
    assert.ok(ask, 'a confirmation is asked');
    assert.match(ask.text, /^Make version 2 the default version of model default-mover \(us-central1\)\?/);
    assert.match(ask.detail ?? '', /moves from version 1 to version 2/);
    assert.equal(await defaultNow(), '1', 'declined: nothing moved');
    prompts = [];
    answers = ['default', 'Move Default'];
    await run('cloudbench.models.setAlias', v2);
    assert.equal(await defaultNow(), '2');
    assert.match(prompts.at(-1)!.text, /^Moved @default from version 1 to version 2\./);
  });

  it('imports an evaluation and slices from JSON files, and explains an invalid file', async () => {
    const model = await upload('imported-evals');
    const dir = mkdtempSync(join(tmpdir(), 'cb-import-'));
    pickedFile = join(dir, 'evaluation.json');
    writeFileSync(
      pickedFile,
      JSON.stringify({ displayName: 'offline-eval', metrics: { auRoc: 0.97 }, sliceDimensions: ['annotationSpec'] }),
    );
    const versions = (await provider.getChildren(await modelNode(model))).filter(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
    );
    await run('cloudbench.models.importEvaluation', versions[0]);
    const evaluations = (await provider.getChildren(versions[0])).filter(
      (n): n is InstanceType<typeof tree.EvaluationNode> => n instanceof tree.EvaluationNode,
    );
    const ev = evaluations.find((e) => e.label === 'offline-eval');
    assert.ok(ev, 'the imported evaluation is in the tree');

    pickedFile = join(dir, 'slices.json');
    writeFileSync(
      pickedFile,
      JSON.stringify({
        modelEvaluationSlices: [{ slice: { dimension: 'annotationSpec', value: 'cat' }, metrics: { auRoc: 0.9 } }],
      }),
    );
    await run('cloudbench.models.importSlices', ev);
    const slices = await provider.getChildren(ev);
    assert.deepEqual(
      slices.map((n) => n.label),
      ['annotationSpec = cat'],
    );

    pickedFile = join(dir, 'broken.json');
    writeFileSync(pickedFile, JSON.stringify([{ slice: { dimension: 'annotationSpec', valeu: 'dog' } }]));
    prompts = [];
    await run('cloudbench.models.importSlices', ev);
    const error = prompts.find((p) => p.kind === 'error');
    assert.ok(error, 'an error is shown');
    assert.match(error.text, /broken\.json \[0\]\.slice\.valeu: unknown field/);
    pickedFile = undefined;
  });

  it('Show IAM Policy opens a tab titled by the model', async () => {
    const model = await upload('policy-holder');
    await run('cloudbench.models.showIamPolicy', await modelNode(model));
    const doc = opened.at(-1)!;
    assert.ok(doc.path.endsWith('/policy-holder · IAM policy.json'), doc.path);
    assert.ok(doc.path.includes(model), doc.path);
  });

  it('deleting a version closes its details tabs, deleting the model closes the rest', async () => {
    const TabInputText = vscode.TabInputText as new (uri: unknown) => object;
    const closed: string[] = [];
    const tabs = () =>
      opened.filter((o) => !closed.includes(o.uri)).map((o) => ({ input: new TabInputText(o.ref), label: o.uri }));
    vscode.window.tabGroups = {
      get all() {
        return [{ tabs: tabs() }];
      },
      close: async (list: Array<{ label: string }>) => {
        closed.push(...list.map((t) => t.label));
        return true;
      },
    };
    const model = await upload('short-lived');
    await upload('short-lived', model);
    const modelRow = await modelNode(model);
    const versions = (await provider.getChildren(modelRow)).filter(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
    );
    const v2 = versions.find((v) => v.version.versionId === '2')!;
    await run('cloudbench.models.showDetails', modelRow);
    await run('cloudbench.models.showDetails', v2);
    const checkpoints = (await provider.getChildren(v2)).find((n) => n instanceof tree.CheckpointsNode);
    assert.ok(checkpoints, 'the version has its checkpoints node');
    const [modelTab, versionTab] = opened.map((o) => o.uri);
    assert.match(opened[1].path, /@2\.json$/);

    answers = ['Delete Version'];
    await run('cloudbench.models.deleteVersion', v2);
    assert.deepEqual(closed, [versionTab], "only the deleted version's tab is closed");
    assert.match(
      docs.get('cloudbench-models')!.provideTextDocumentContent({ toString: () => versionTab }),
      /was deleted/,
    );

    answers = ['Delete Model'];
    await run('cloudbench.models.deleteModel', await modelNode(model));
    assert.deepEqual(closed, [versionTab, modelTab]);
  });

  it('tabs the editor restored after a window reload are closed when their model or version is deleted', async () => {
    const TabInputText = vscode.TabInputText as new (uri: unknown) => object;
    const closed: string[] = [];
    vscode.window.tabGroups = {
      get all() {
        const tabs = opened
          .filter((o) => !closed.includes(o.uri))
          .map((o) => ({ input: new TabInputText(o.ref), label: o.uri }));
        return [{ tabs }];
      },
      close: async (list: Array<{ label: string }>) => {
        closed.push(...list.map((t) => t.label));
        return true;
      },
    };
    const model = await upload('restored-tabs');
    await upload('restored-tabs', model);
    const other = await upload('restored-bystander');
    await client.importModelEvaluation({
      parent: `${model}@2`,
      modelEvaluation: { displayName: 'holdout', metrics: { structValue: { fields: {} } } },
    });
    const modelRow = await modelNode(model);
    const v2 = (await provider.getChildren(modelRow)).find(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode && n.version.versionId === '2',
    )!;
    const evaluation = (await provider.getChildren(v2)).find((n) => n instanceof tree.EvaluationNode);
    assert.ok(evaluation, 'version 2 has its evaluation');
    await run('cloudbench.models.showDetails', modelRow);
    await run('cloudbench.models.showDetails', v2);
    await run('cloudbench.models.showDetails', evaluation);
    await run('cloudbench.models.showDetails', await modelNode(other));
    const [modelTab, versionTab, evaluationTab, otherTab] = opened.map((o) => o.uri);
    assert.ok(!opened[2].path.includes('@'), 'an evaluation is named without its version');

    // The window reloads: the editor restores the tabs by URI, the extension starts with nothing in memory.
    for (const d of context.subscriptions.splice(0)) d.dispose();
    context = fakeExtensionContext(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), ROOT);
    activateModels();
    assert.match(
      docs.get('cloudbench-models')!.provideTextDocumentContent(opened[0].ref),
      /no longer holds its details/,
    );

    answers = ['Delete Version'];
    await run('cloudbench.models.deleteVersion', v2);
    assert.deepEqual(closed, [versionTab, evaluationTab], "version 2's restored tabs are closed");
    answers = ['Delete Model'];
    await run('cloudbench.models.deleteModel', await modelNode(model));
    assert.deepEqual(closed, [versionTab, evaluationTab, modelTab]);
    assert.ok(!closed.includes(otherTab), "another model's tab stays");
  });

  it('Show Details opens the resource as read-only proto3 JSON', async () => {
    const model = await upload('details');
    await run('cloudbench.models.showDetails', await modelNode(model));
    const doc = opened.at(-1)!;
    const json = JSON.parse(doc.text);
    assert.equal(json.displayName, 'details');
    assert.deepEqual(json.versionAliases, ['default']);
    assert.match(json.createTime, /^\d{4}-\d\d-\d\dT/);
  });

  it('follows an operation again after the window reloads, until it ends', async () => {
    const model = await upload('survives-reload');
    answers = ['Version 1', 'europe-west4', 'New model', 'after-reload'];
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    onProgress = () => started();
    const copying = Promise.resolve(run('cloudbench.models.copyModel', await modelNode(model)));
    await running;
    const journal = context.workspaceState.get('cloudbench.operations.running') as Array<{
      name: string;
      title: string;
    }>;
    assert.equal(journal.length, 1);

    // Closing the window disposes everything; the operation goes on and stays in the journal.
    for (const d of context.subscriptions.splice(0)) {
      try {
        d.dispose();
      } catch {
        /* ignore */
      }
    }
    await copying;
    assert.equal((context.workspaceState.get('cloudbench.operations.running') as unknown[]).length, 1);

    const reloaded = fakeExtensionContext(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), ROOT);
    reloaded.workspaceState = context.workspaceState;
    context = reloaded;
    onProgress = () => undefined;
    activateModels();
    const registry = services.operations;
    const find = () => registry.list().find((o) => o.title === journal[0].title);
    // Resuming reads the operation first (GetOperation), then registers it.
    const entry =
      find() ??
      (await new Promise<NonNullable<ReturnType<typeof find>>>((resolve) =>
        registry.onDidChange(() => {
          const e = find();
          if (e) resolve(e);
        }),
      ));
    assert.ok(entry, 'the resumed operation is in the Operations view');
    assert.equal(entry.operationName, journal[0].name);
    const ended = new Promise<void>((resolve) =>
      registry.onDidChange(() => {
        if (entry.state !== 'running') resolve();
      }),
    );
    sandbox.clock.advance(3600);
    await ended;
    assert.equal(entry.state, 'succeeded');
    assert.equal(
      (await client.getModel({ name: `projects/${PROJECT}/locations/europe-west4/models/after-reload` })).displayName,
      'survives-reload',
    );
    assert.deepEqual(context.workspaceState.get('cloudbench.operations.running'), []);
  });
});
