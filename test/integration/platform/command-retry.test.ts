// When a call's retries give up, a Models or API Keys command ends in one warning that says how
// many times Cloudbench tried over how long, with Retry and Show Logs; Retry runs the command again
// (run through the command table, as VS Code runs it) and, with the service back, it succeeds.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as KeysFeatureModule from '../../../src/features/keys';
import type * as ModelsFeatureModule from '../../../src/features/models';
import type * as ModelsTreeModule from '../../../src/features/models/tree';
import { admin } from '../../support/sandbox-admin';
import { startFeature } from '../../support/start-feature';
import { fakeServices } from '../../support/fake-services';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { keysFeature } = require('../../../src/features/keys') as typeof KeysFeatureModule;
const { modelsFeature } = require('../../../src/features/models') as typeof ModelsFeatureModule;
const tree = require('../../../src/features/models/tree') as typeof ModelsTreeModule;

const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-demo';
const KEY = `projects/${PROJECT}/locations/global/keys/maps-web`;
const GET_MODEL = 'google.cloud.aiplatform.v1beta1.ModelService/GetModel';
const GET_KEY_STRING = 'apikeys.keys.getKeyString';
// Two retries after the first attempt: three tries in all.
const RETRY = {
  maxRetries: 2,
  initialBackoffMs: 20,
  maxBackoffMs: 40,
  multiplier: 2,
  retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'],
};

interface Shown {
  level: 'info' | 'warning' | 'error';
  text: string;
  buttons: string[];
}

describe('a command whose call keeps failing ends in one message with Retry', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let context: any;
  let modelsProvider: InstanceType<typeof tree.ModelsTreeProvider>;
  let shown: Shown[];
  /** How each message is answered, in order: a button, or a function that acts then answers. */
  let answers: Array<string | (() => Promise<string | undefined>)>;
  const calls = new Map<string, number>();

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    // Every call that reaches the sandbox asks the fault injector first: count them by method.
    const decide = sandbox.faults.decide.bind(sandbox.faults);
    sandbox.faults.decide = (method: string) => {
      calls.set(method, (calls.get(method) ?? 0) + 1);
      return decide(method);
    };
    const answer =
      (level: Shown['level']) =>
      async (text: string, ...buttons: unknown[]) => {
        shown.push({ level, text, buttons: buttons.filter((b): b is string => typeof b === 'string') });
        const next = answers.shift();
        return typeof next === 'function' ? next() : next;
      };
    vscode.window.showInformationMessage = answer('info');
    vscode.window.showWarningMessage = answer('warning');
    vscode.window.showErrorMessage = answer('error');
    vscode.window.withProgress = async (_o: unknown, task: any) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    vscode.window.createTreeView = (id: string, options: any) => {
      if (id === 'cloudbench.models') modelsProvider = options.treeDataProvider;
      return { dispose() {}, message: undefined, reveal: async () => undefined };
    };
    vscode.workspace.openTextDocument = async () => ({});
    context = fakeExtensionContext(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), ROOT);
    const connection = {
      settings: { project: PROJECT, locations: ['us-central1'], retry: RETRY, timeoutMs: 10_000, pageSize: 50 },
      project: PROJECT,
      sandbox: true,
      endpoint: (kind: string) => (kind === 'models' ? sandbox.grpc : undefined),
      modelsEndpointOptions: () => ({ apiEndpoint: sandbox.grpc }),
      restEndpoint: () => ({ baseUrl: sandbox.http }),
      cloudTokens: () => sandboxTokenSource(),
    };
    const services = fakeServices(context, connection);
    startFeature(modelsFeature, context, services);
    startFeature(keysFeature, context, services);
  });

  after(async () => {
    for (const d of context.subscriptions) d.dispose();
    await sandbox.close();
  });

  beforeEach(async () => {
    shown = [];
    answers = [];
    calls.clear();
  });

  afterEach(() => admin(sandbox, 'faults', { rules: [] }));

  /** Runs a command the way VS Code does: through the handler the command table registered. */
  const run = (id: string, ...args: unknown[]): Promise<unknown> => {
    const handler = record.commands.get(id);
    assert.ok(handler, `${id} is registered`);
    return Promise.resolve(handler(...args));
  };

  /**
   * Makes `method` fail with `code` every time, runs the command, and answers its message with
   * Retry after lifting the fault: the message, and the calls made before and after Retry.
   */
  async function failThenRetry(method: string, code: string | number, id: string, ...args: unknown[]) {
    await admin(sandbox, 'faults', { rules: [{ method, errorRate: 1, codes: [code] }] });
    let callsBeforeRetry = -1;
    let message: Shown | undefined;
    answers = [
      async () => {
        message = shown[shown.length - 1];
        callsBeforeRetry = calls.get(method) ?? 0;
        await admin(sandbox, 'faults', { rules: [] });
        return 'Retry';
      },
    ];
    await run(id, ...args);
    return { message, callsBeforeRetry, callsAfter: calls.get(method) ?? 0 };
  }

  /** The one failure message: a warning naming the tries (3) and how long, with Retry and Show Logs. */
  function assertOneRetryMessage(failures: Shown[], title: RegExp): void {
    assert.equal(failures.length, 1, `one failure message, got ${JSON.stringify(failures)}`);
    const [m] = failures;
    assert.equal(m.level, 'warning');
    assert.match(m.text, title);
    assert.match(m.text, /tried 3 times over \d+ s\b/);
    assert.deepEqual(m.buttons, ['Retry', 'Show Logs']);
  }

  it('Models: Show Details with GetModel unavailable every time', async () => {
    const [project] = await modelsProvider.getChildren();
    const location = (await modelsProvider.getChildren(project)).find((n) => n instanceof tree.LocationNode)!;
    const model = (await modelsProvider.getChildren(location)).find((n) => n instanceof tree.ModelNode);
    assert.ok(model, 'the demo project shows a model in us-central1');

    const { message, callsBeforeRetry, callsAfter } = await failThenRetry(
      GET_MODEL,
      'UNAVAILABLE',
      'cloudbench.models.showDetails',
      model,
    );
    assertOneRetryMessage(
      shown.filter((s) => s.level !== 'info'),
      /^Show Details: /,
    );
    assert.equal(message, shown[0]);
    assert.equal(callsBeforeRetry, 3, 'the first run tried GetModel three times');
    assert.equal(callsAfter, 4, 'Retry ran the command again, and its GetModel succeeded at once');
  });

  it('API Keys: Copy Key String with GetKeyString answering 503 every time', async () => {
    let copied: string | undefined;
    vscode.env.clipboard.writeText = async (text: string) => {
      copied = text;
    };
    const { callsBeforeRetry, callsAfter } = await failThenRetry(
      GET_KEY_STRING,
      503,
      'cloudbench.keys.copyKeyString',
      KEY,
    );
    const failures = shown.filter((s) => s.level !== 'info');
    assertOneRetryMessage(failures, /^Copy Key String: /);
    assert.equal(callsBeforeRetry, 3, 'the first run tried GetKeyString three times');
    assert.equal(callsAfter, 4, 'Retry ran the command again, and its GetKeyString succeeded at once');
    assert.ok(copied, 'the retried command put the key string on the clipboard');
    assert.ok(
      shown.some((s) => s.level === 'info' && /is on the clipboard/.test(s.text)),
      'the retried command says it copied',
    );
  });

  it('API Keys: Copy Key String with GetKeyString answering 429 every time', async () => {
    const { callsBeforeRetry, callsAfter } = await failThenRetry(
      GET_KEY_STRING,
      429,
      'cloudbench.keys.copyKeyString',
      KEY,
    );
    assertOneRetryMessage(
      shown.filter((s) => s.level !== 'info'),
      /^Copy Key String: /,
    );
    assert.equal(callsBeforeRetry, 3, 'a refusal for quota is retried like an unavailable service');
    assert.equal(callsAfter, 4);
  });
});
