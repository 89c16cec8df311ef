// Models and API Keys commands called as functions of their feature's context, against the sandbox
// through the services the extension builds from settings: a declined confirmation sends nothing
// that changes the resource, a refused alias is refused before any call, a confirmed delete runs
// as an operation listed in the Operations registry.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { GoogleApiError } from '../../../src/core/google/errors';
import { admin, countFaults } from '../../reliability/helpers';
import { scriptConfiguration } from '../../reliability/scripted-config';
import type * as ModelsModule from '../../../src/features/models';
import type * as TreeModule from '../../../src/features/models/tree';
import type * as DeleteModule from '../../../src/features/models/commands/delete';
import type * as AliasesModule from '../../../src/features/models/commands/aliases';
import type * as KeysModule from '../../../src/features/keys';
import type * as LifecycleModule from '../../../src/features/keys/commands/lifecycle';
import type * as ServicesModule from '../../../src/features/services';

useFakeVscode();

const vscode = require('vscode') as Record<string, any>;
const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-functions';
const PARENT = `projects/${PROJECT}/locations/us-central1`;
const tree = require('../../../src/features/models/tree') as typeof TreeModule;
const { modelsFeature } = require('../../../src/features/models') as typeof ModelsModule;
const { deleteModel } = require('../../../src/features/models/commands/delete') as typeof DeleteModule;
const { setVersionAlias } = require('../../../src/features/models/commands/aliases') as typeof AliasesModule;
const { keysFeature } = require('../../../src/features/keys') as typeof KeysModule;
const { deleteKey, renameKey } = require('../../../src/features/keys/commands/lifecycle') as typeof LifecycleModule;
const { createServices } = require('../../../src/features/services') as typeof ServicesModule;

describe('Models and API Keys command functions against the sandbox', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let undoConfig: () => void;
  let context: ReturnType<typeof fakeExtensionContext>;
  let services: ReturnType<typeof createServices>;
  let models: ModelRegistryClient;
  let keys: ApiKeysClient;
  let sent: ReturnType<typeof countFaults>;
  let answers: Array<string | undefined>;
  let asked: string[];
  let inputBox: { validateInput?: (value: string) => string | undefined } | undefined;
  const saved = new Map<string, unknown>();

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    await admin(sb, 'ratelimits', { enabled: false });
    undoConfig = scriptConfiguration({
      project: PROJECT,
      locations: ['us-central1'],
      'endpoints.models': sb.grpc,
      'endpoints.apiKeys': sb.http,
    });
    for (const key of [
      'showWarningMessage',
      'showInformationMessage',
      'showInputBox',
      'withProgress',
      'createTreeView',
    ])
      saved.set(key, vscode.window[key]);
    const answer = async (text: string, ...rest: unknown[]) => {
      asked.push(text);
      const wanted = answers.shift();
      return rest.includes(wanted) ? wanted : undefined;
    };
    vscode.window.showWarningMessage = answer;
    vscode.window.showInformationMessage = answer;
    vscode.window.showInputBox = async (options: { validateInput?: (value: string) => string | undefined }) => {
      inputBox = options;
      return answers.shift();
    };
    vscode.window.withProgress = async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task(
        { report: () => sb.clock.advance(3600) },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
    vscode.window.createTreeView = () => ({ dispose() {}, reveal: async () => undefined });
    context = fakeExtensionContext(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), ROOT);
    services = createServices(context);
    services.setSignedIn(true);
    models = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sb.grpc } });
    keys = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource() });
    sent = countFaults(sb);
  });

  after(async () => {
    undoConfig();
    for (const [key, value] of saved) vscode.window[key] = value;
    for (const d of context.subscriptions) d.dispose();
    models.close();
    await sb.close();
  });

  beforeEach(() => {
    answers = [];
    asked = [];
    inputBox = undefined;
    sent.byMethod.clear();
  });

  const changes = (): string[] =>
    [...sent.byMethod.keys()].filter((m) => /delete|update|patch|merge|undelete/i.test(m.replace(/^.*\//, '')));

  async function uploadModel(name: string): Promise<string> {
    const op = await models.uploadModel({
      request: {
        parent: PARENT,
        modelId: name,
        model: { displayName: name, containerSpec: { imageUri: 'us-docker.pkg.dev/p/r/i:1' }, artifactUri: 'gs://b/m' },
      },
    });
    sb.clock.advance(3600);
    return (await op.wait({ initialDelayMs: 5 })).model!;
  }

  async function modelRow(ctx: ReturnType<typeof modelsFeature.activate>['ctx'], model: string) {
    ctx.provider.refresh();
    const [project] = await ctx.provider.getChildren();
    const [location] = await ctx.provider.getChildren(project);
    const row = (await ctx.provider.getChildren(location)).find(
      (n) => n instanceof tree.ModelNode && n.resourceName === model,
    );
    assert.ok(row instanceof tree.ModelNode, `${model} is in the tree`);
    return row;
  }

  it('sends no delete when the user declines Delete Model, and deletes when confirmed', async () => {
    const ctx = modelsFeature.activate(context, services).ctx;
    const model = await uploadModel('declined');
    const row = await modelRow(ctx, model);
    answers = [undefined];
    await deleteModel(ctx, row);
    assert.match(asked[0] ?? '', /^Delete model /);
    assert.ok(sent.byMethod.size > 0, 'the endpoints were checked first');
    assert.deepEqual(changes(), []);
    assert.deepEqual(services.operations.list(), []);
    assert.equal((await models.getModel({ name: model })).name, model);

    answers = ['Delete Model'];
    await deleteModel(ctx, row);
    assert.deepEqual(changes(), ['google.cloud.aiplatform.v1beta1.ModelService/DeleteModel']);
    assert.deepEqual(
      services.operations.list().map((o) => [o.source, o.state]),
      [['models', 'succeeded']],
    );
    await assert.rejects(
      models.getModel({ name: model }),
      (err: unknown) => err instanceof GoogleApiError && err.status === 'NOT_FOUND',
    );
  });

  it('refuses an invalid alias in the input box and the removal of "default" before any change', async () => {
    const ctx = modelsFeature.activate(context, services).ctx;
    const model = await uploadModel('aliases');
    const [version] = await ctx.provider.getChildren(await modelRow(ctx, model));
    assert.ok(version instanceof tree.VersionNode);
    answers = ['-default'];
    await assert.rejects(setVersionAlias(ctx, version), /The default alias cannot be removed/);
    assert.ok(inputBox?.validateInput?.('Not An Alias!'), 'an invalid alias is refused as typed');
    assert.equal(inputBox?.validateInput?.('golden'), undefined);
    assert.deepEqual(changes(), []);
    assert.deepEqual((await models.getModel({ name: model })).versionAliases, ['default']);
  });

  it('sends nothing when the user declines Delete Key or keeps the same name', async () => {
    const ctx = keysFeature.activate(context, services).ctx;
    const key = await keys.createKey(PROJECT, { displayName: 'kept' });
    const before = services.operations.list().length;
    answers = [undefined];
    await deleteKey(ctx, key.name);
    assert.match(asked[0] ?? '', /^Delete API key "kept"/);
    answers = ['kept'];
    await renameKey(ctx, key.name);
    assert.deepEqual(changes(), []);
    assert.equal(services.operations.list().length, before);
    assert.equal((await keys.getKey(key.name)).deleteTime, undefined);

    answers = ['Delete'];
    await deleteKey(ctx, key.name);
    assert.deepEqual(changes(), ['apikeys.keys.delete']);
    assert.equal(services.operations.list()[0]?.source, 'keys');
    assert.ok((await keys.getKey(key.name)).deleteTime, 'the key is deleted');
  });

  it('offers Undo after Delete Key, which undeletes the key', async () => {
    const ctx = keysFeature.activate(context, services).ctx;
    const key = await keys.createKey(PROJECT, { displayName: 'regretted' });
    const shown = vscode.window.showInformationMessage;
    const undeleted = new Promise<string>((resolve) => {
      vscode.window.showInformationMessage = async (text: string, ...rest: unknown[]) => {
        if (/^Undeleted key/.test(text)) resolve(text);
        return shown(text, ...rest);
      };
    });
    try {
      answers = ['Delete', 'Undo'];
      await deleteKey(ctx, key.name);
      assert.match(asked[1] ?? '', /^Deleted key "regretted" .*It can be undeleted/);
      assert.match(await undeleted, /^Undeleted key "regretted"/);
    } finally {
      vscode.window.showInformationMessage = shown;
    }
    assert.deepEqual(changes(), ['apikeys.keys.delete', 'apikeys.keys.undelete']);
    assert.equal((await keys.getKey(key.name)).deleteTime, undefined, 'the key is active again');
  });
});
