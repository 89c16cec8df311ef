// Refresh in the Models view against the sandbox: the title-bar Refresh reloads the whole view even
// when VS Code hands it the selected row, a row's own Refresh reads that row again, a change made
// here (an alias moved, a version deleted) shows on the model row at once, and deleting a model
// someone else already deleted says so as information and takes the row away.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import type { ModelOperation } from '../../../src/core/models/operation';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as ModelsTreeModule from '../../../src/features/models/tree';
import type * as FeaturesModelsModule from '../../../src/features/models';
import { startFeature } from '../../support/start-feature';
import { fakeServices } from '../../support/fake-services';

useFakeVscode();

const vscode = require('vscode') as Record<string, any>;
const tree = require('../../../src/features/models/tree') as typeof ModelsTreeModule;
const { modelsFeature } = require('../../../src/features/models') as typeof FeaturesModelsModule;

const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-demo';
const PARENT = `projects/${PROJECT}/locations/us-central1`;

type ModelsNode = InstanceType<typeof tree.ModelsNode>;

describe('Models view refresh against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  /** Someone else's client: what it changes, the view only learns by asking the service. */
  let other: ModelRegistryClient;
  let context: any;
  let provider: InstanceType<typeof tree.ModelsTreeProvider>;
  let answers: string[];
  let listModelsCalls = 0;
  const realListModelsPage = ModelRegistryClient.prototype.listModelsPage;

  before(async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    other = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sandbox.grpc } });
    ModelRegistryClient.prototype.listModelsPage = function (...args: Parameters<typeof realListModelsPage>) {
      listModelsCalls++;
      return realListModelsPage.apply(this, args);
    };
    vscode.window.createTreeView = (id: string, options: any) => {
      if (id === 'cloudbench.models') provider = options.treeDataProvider;
      return { dispose() {}, message: undefined, reveal: async () => undefined };
    };
    vscode.window.withProgress = async (_o: unknown, task: any) =>
      task(
        { report: () => sandbox.clock.advance(3600) },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
    const answer = (level: 'info' | 'warning' | 'error') => async (text: string) => {
      record.messages.push({ level, text });
      return answers.shift();
    };
    vscode.window.showInformationMessage = answer('info');
    vscode.window.showWarningMessage = answer('warning');
    vscode.window.showErrorMessage = answer('error');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    context = fakeExtensionContext(pkg, ROOT);
    const connection = {
      settings: { project: PROJECT, locations: ['us-central1'], retry: { maxRetries: 0 }, timeoutMs: 30_000 },
      project: PROJECT,
      sandbox: true,
      endpoint: (kind: string) => (kind === 'models' ? sandbox.grpc : undefined),
      cloudTokens: () => sandboxTokenSource(),
      modelsEndpointOptions: () => ({ apiEndpoint: sandbox.grpc }),
    };
    const services = fakeServices(context, connection);
    startFeature(modelsFeature, context, services);
  });

  after(async () => {
    ModelRegistryClient.prototype.listModelsPage = realListModelsPage;
    for (const d of context.subscriptions) d.dispose();
    other.close();
    await sandbox.close();
  });

  beforeEach(() => {
    answers = [];
    record.messages.length = 0;
  });

  async function finish<R>(op: ModelOperation<R, unknown>): Promise<R> {
    sandbox.clock.advance(3600);
    return op.wait({ initialDelayMs: 5 });
  }

  async function upload(name: string, parentModel?: string): Promise<string> {
    const op = await other.uploadModel({
      request: {
        parent: PARENT,
        ...(parentModel ? { parentModel } : { modelId: name }),
        model: { displayName: name, containerSpec: { imageUri: 'us-docker.pkg.dev/p/r/i:1' }, artifactUri: 'gs://b/m' },
      },
    });
    return (await finish(op)).model!;
  }

  /** What the view shows under us-central1 now, as VS Code asks for it (no reset). */
  async function shownModels(): Promise<ModelsNode[]> {
    const [project] = await provider.getChildren();
    const location = (await provider.getChildren(project)).find((n) => n instanceof tree.LocationNode)!;
    return provider.getChildren(location);
  }

  async function shownModel(name: string): Promise<InstanceType<typeof tree.ModelNode> | undefined> {
    return (await shownModels()).find((n): n is InstanceType<typeof tree.ModelNode> => {
      return n instanceof tree.ModelNode && n.resourceName === name;
    });
  }

  const run = (id: string, ...args: unknown[]): Promise<unknown> => {
    const handler = record.commands.get(id);
    assert.ok(handler, `${id} is registered`);
    return Promise.resolve(handler(...args));
  };

  it('the title-bar Refresh with a model row selected calls ListModels and shows a model created meanwhile', async () => {
    const first = await upload('first-model');
    provider.refresh();
    const selected = await shownModel(first);
    assert.ok(selected, 'the first model is shown');
    const created = await upload('created-meanwhile');
    assert.equal(await shownModel(created), undefined, 'the view does not know of it before a refresh');
    const before = listModelsCalls;
    // VS Code passes the selected row to a view's title-bar command.
    await run('cloudbench.models.refresh', selected);
    assert.ok(await shownModel(created), 'the model created by another client is shown');
    assert.ok(listModelsCalls > before, 'ListModels was called');
  });

  it('a model row moved to another default version shows it at once, and Refresh on the row reads it again', async () => {
    const model = await upload('aliased');
    await upload('aliased', model);
    provider.refresh();
    const row = (await shownModel(model))!;
    assert.match(row.tooltip as string, /Default version: 1\b/);
    const versions = (await provider.getChildren(row)).filter((n) => n instanceof tree.VersionNode);
    const second = versions.find((n) => n instanceof tree.VersionNode && n.version.versionId === '2')!;
    answers = ['default', 'Move Default'];
    vscode.window.showInputBox = async () => answers.shift();
    await run('cloudbench.models.setAlias', second);
    const after = (await shownModel(model))!;
    assert.equal(after, row, 'the same row, not a reloaded location');
    assert.match(after.tooltip as string, /Default version: 2\b/);

    // Someone else moves it back: the row's own Refresh reads the model again.
    await other.mergeVersionAliases({ name: `${model}@1`, versionAliases: ['default'] });
    await run('cloudbench.models.refreshRow', row);
    assert.match((await shownModel(model))!.tooltip as string, /Default version: 1\b/);
  });

  it('deleting a model someone else already deleted says so as information and takes its row away', async () => {
    const model = await upload('deleted-elsewhere');
    provider.refresh();
    const row = (await shownModel(model))!;
    assert.ok(row);
    await finish(await other.deleteModel({ name: model }));
    answers = ['Delete Model'];
    await run('cloudbench.models.deleteModel', row);
    assert.deepEqual(
      record.messages.filter((m) => m.level === 'error'),
      [],
      'no error toast',
    );
    assert.ok(
      record.messages.some((m) => m.level === 'info' && /already deleted/.test(m.text)),
      JSON.stringify(record.messages),
    );
    assert.equal(await shownModel(model), undefined, 'the row is gone');
  });

  it("a row's Refresh on a model deleted elsewhere takes the row away", async () => {
    const model = await upload('vanishing');
    provider.refresh();
    const row = (await shownModel(model))!;
    await finish(await other.deleteModel({ name: model }));
    await run('cloudbench.models.refreshRow', row);
    assert.equal(await shownModel(model), undefined);
    assert.ok(record.messages.some((m) => m.level === 'info' && /no longer exists/.test(m.text)));
  });

  it('an import file with a JSON syntax error names its line and column and opens the file there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudbench-import-'));
    const file = join(dir, 'slices.json');
    writeFileSync(file, '[\n  {"metricsSchemaUri": "x"}\n  {"metrics": {}}\n]\n');
    vscode.window.showOpenDialog = async () => [vscode.Uri.file(file)];
    const executed: unknown[][] = [];
    const plain = vscode.commands.executeCommand;
    vscode.commands.executeCommand = async (...args: unknown[]) => {
      executed.push(args);
      return undefined;
    };
    answers = ['Open File'];
    const plainRange = vscode.Range;
    vscode.Range = class {
      constructor(
        readonly start: unknown,
        readonly end: unknown,
      ) {}
    };
    try {
      const evaluation = new tree.EvaluationNode({ client: () => undefined } as never, {
        name: `${PARENT}/models/m/evaluations/e`,
      });
      await run('cloudbench.models.importSlices', evaluation);
    } finally {
      vscode.commands.executeCommand = plain;
      vscode.Range = plainRange;
    }
    const error = record.messages.find((m) => m.level === 'error');
    assert.ok(error, JSON.stringify(record.messages));
    assert.match(error.text, /slices\.json is not valid JSON: line 3, column 3: Expected ','/);
    const open = executed.find((c) => c[0] === 'vscode.open');
    assert.ok(open, 'Open File runs vscode.open');
    assert.equal((open[1] as { fsPath: string }).fsPath, file);
    const selection = (open[2] as { selection: { start?: { line: number; character: number } } }).selection;
    // Line 3, column 3 as people count is line 2, character 2 as VS Code does.
    assert.deepEqual({ ...selection.start }, { line: 2, character: 2 }, 'the file opens at the error');
  });
});
