// The Models, API Keys and Operations commands as functions of their feature's context, called
// directly (no command registry in between): the tables cover package.json, and commands that need
// no service keep their promises (the filter, the node refusal, a declined cancel, no project).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../fakes/vscode';
import type * as ModelsModule from '../../../src/features/models';
import type * as ModelsCommandsModule from '../../../src/features/models/commands';
import type * as BrowseModule from '../../../src/features/models/commands/browse';
import type * as DeleteModule from '../../../src/features/models/commands/delete';
import type * as KeysModule from '../../../src/features/keys';
import type * as KeysCommandsModule from '../../../src/features/keys/commands';
import type * as KeysCreateModule from '../../../src/features/keys/commands/create';
import type * as OperationsModule from '../../../src/features/operations';
import type * as OperationsCommandsModule from '../../../src/features/operations/commands';
import type * as ServicesModule from '../../../src/features/services';
import { isCancellation } from '../../../src/core/google/errors';

useFakeVscode();

const vscode = require('vscode') as Record<string, any>;
const ROOT = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const declared: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);

const { modelsFeature } = require('../../../src/features/models') as typeof ModelsModule;
const { MODELS_COMMANDS } = require('../../../src/features/models/commands') as typeof ModelsCommandsModule;
const { filterModels, clearModelsFilter } =
  require('../../../src/features/models/commands/browse') as typeof BrowseModule;
const { deleteModel } = require('../../../src/features/models/commands/delete') as typeof DeleteModule;
const { keysFeature } = require('../../../src/features/keys') as typeof KeysModule;
const { KEYS_COMMANDS } = require('../../../src/features/keys/commands') as typeof KeysCommandsModule;
const { createKey } = require('../../../src/features/keys/commands/create') as typeof KeysCreateModule;
const { operationsFeature } = require('../../../src/features/operations') as typeof OperationsModule;
const { OPERATIONS_COMMANDS, cancelOperation } =
  require('../../../src/features/operations/commands') as typeof OperationsCommandsModule;
const { createServices } = require('../../../src/features/services') as typeof ServicesModule;

describe('Models, API Keys and Operations commands as functions of a context', () => {
  let context: ReturnType<typeof fakeExtensionContext>;
  let services: ReturnType<typeof createServices>;
  const saved = new Map<string, unknown>();

  beforeEach(() => {
    for (const key of ['showInputBox', 'showWarningMessage']) saved.set(key, vscode.window[key]);
    context = fakeExtensionContext(pkg, ROOT);
    // No project is configured: nothing below may need a service.
    services = createServices(context);
  });
  afterEach(() => {
    for (const [key, value] of saved) vscode.window[key] = value;
    for (const d of context.subscriptions) d.dispose();
  });

  for (const [prefix, table] of [
    ['cloudbench.models.', MODELS_COMMANDS],
    ['cloudbench.keys.', KEYS_COMMANDS],
    ['cloudbench.operations.', OPERATIONS_COMMANDS],
  ] as const) {
    it(`answers every ${prefix}* command of package.json from its table, each with a named function`, () => {
      assert.deepEqual(Object.keys(table).sort(), declared.filter((id) => id.startsWith(prefix)).sort());
      const anonymous = Object.entries(table).filter(([, handler]) => !/^[a-z]\w+$/i.test(handler.name));
      assert.deepEqual(anonymous, []);
    });
  }

  it('keeps the models filter for the workspace, trimmed, and clears it', async () => {
    const ctx = modelsFeature.activate(context, services).ctx;
    vscode.window.showInputBox = async () => '  churn ';
    await filterModels(ctx);
    assert.equal(ctx.filter(), 'churn');
    assert.equal(context.workspaceState.get('cloudbench.models.filter'), 'churn');
    assert.equal(record.contextKeys.get('cloudbench.modelsFiltered'), true);
    // Escape in the input box keeps the filter.
    vscode.window.showInputBox = async () => undefined;
    await filterModels(ctx);
    assert.equal(ctx.filter(), 'churn');
    await clearModelsFilter(ctx);
    assert.equal(ctx.filter(), undefined);
    assert.equal(context.workspaceState.get('cloudbench.models.filter'), undefined);
    assert.equal(record.contextKeys.get('cloudbench.modelsFiltered'), false);
  });

  it('refuses a Models command run without a node of the view before asking anything', async () => {
    const ctx = modelsFeature.activate(context, services).ctx;
    const asked: string[] = [];
    vscode.window.showWarningMessage = async (text: string) => {
      asked.push(text);
      return undefined;
    };
    await assert.rejects(deleteModel(ctx, undefined), /Run this command from a node of the Models view/);
    await assert.rejects(deleteModel(ctx, { resourceName: 'projects/p/locations/l/models/m' } as never), /Models view/);
    assert.deepEqual(asked, []);
  });

  it('asks for a project before creating a key, and stops there without one', async () => {
    const ctx = keysFeature.activate(context, services).ctx;
    const asked: string[] = [];
    vscode.window.showWarningMessage = async (text: string) => {
      asked.push(text);
      return undefined;
    };
    await assert.rejects(createKey(ctx), (err: unknown) => isCancellation(err));
    assert.deepEqual(asked, ['Choose the Google Cloud project whose API keys to manage first.']);
    assert.deepEqual(services.operations.list(), []);
  });

  it('leaves an operation running when the user keeps it, and cancels it when confirmed', async () => {
    const ctx = operationsFeature.activate(context, services).ctx;
    let cancels = 0;
    const handle = services.operations.start({
      title: 'Copy model churn to europe-west4',
      resource: 'projects/p/locations/us-central1/models/churn',
      source: 'models',
      cancel: async () => {
        cancels++;
        return 'Asked the server to cancel.';
      },
    });
    let answer = 'Keep Running';
    const asked: string[] = [];
    vscode.window.showWarningMessage = async (text: string, _options: unknown, ...items: Array<{ title: string }>) => {
      asked.push(text);
      return items.find((i) => i.title === answer);
    };
    await cancelOperation(ctx, { operation: handle.operation });
    assert.deepEqual(asked, ['Cancel "Copy model churn to europe-west4"?']);
    assert.equal(cancels, 0);
    assert.equal(handle.operation.state, 'running');
    answer = 'Cancel Operation';
    await cancelOperation(ctx, { operation: handle.operation });
    assert.equal(cancels, 1);
    assert.equal(handle.operation.detail, 'Asked the server to cancel.');
  });
});
