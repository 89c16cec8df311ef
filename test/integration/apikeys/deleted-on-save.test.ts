// A key edited in the restrictions editor while someone else deletes it: the save is refused, the
// editor says the key was deleted (not a bare refusal), the API Keys tree stops listing it as live
// and shows it under "Deleted keys", and the Undelete the notification offers brings it back.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';
import { fakeWebviewPanel } from '../../support/fake-webview-panel';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type { ToWebview } from '../../../src/core/apikeys/messages';
import type * as KeysFeatureModule from '../../../src/features/keys';
import type * as KeysTreeModule from '../../../src/features/keys/tree';
import { startFeature } from '../../support/start-feature';
import { fakeServices } from '../../support/fake-services';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { keysFeature } = require('../../../src/features/keys') as typeof KeysFeatureModule;
const tree = require('../../../src/features/keys/tree') as typeof KeysTreeModule;

const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-demo';
const KEY = `projects/${PROJECT}/locations/global/keys/maps-web`;
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

describe('API key deleted while its restrictions are edited', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let other: ApiKeysClient;
  let context: any;
  let provider: InstanceType<typeof tree.KeysTreeProvider>;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    other = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
    context = fakeExtensionContext(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')), ROOT);
    const connection = {
      settings: { project: PROJECT, retry: NO_RETRY, timeoutMs: 10_000, pageSize: 50 },
      project: PROJECT,
      sandbox: true,
      restEndpoint: () => ({ baseUrl: sandbox.http }),
      cloudTokens: () => sandboxTokenSource(),
    };
    const services = fakeServices(context, connection);
    vscode.window.createTreeView = (id: string, options: any) => {
      if (id === 'cloudbench.keys') provider = options.treeDataProvider;
      return { dispose() {}, reveal: async () => undefined };
    };
    vscode.window.withProgress = async (_o: unknown, task: any) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    // Commands run by the code under test (the notification's Undelete) reach their handlers.
    vscode.commands.executeCommand = async (id: string, ...args: unknown[]) =>
      id === 'setContext' ? undefined : record.commands.get(id)?.(...args);
    startFeature(keysFeature, context, services);
  });

  after(async () => {
    for (const d of context.subscriptions) d.dispose();
    await sandbox.close();
  });

  async function shown(): Promise<{ live: string[]; deleted: string[] }> {
    const [project] = await provider.getChildren();
    const rows = await provider.getChildren(project);
    const group = rows.find((r) => r instanceof tree.DeletedGroupNode)!;
    const names = (nodes: unknown[]) =>
      nodes.filter((n): n is InstanceType<typeof tree.KeyNode> => n instanceof tree.KeyNode).map((n) => n.key.name);
    return { live: names(rows), deleted: names(await provider.getChildren(group)) };
  }

  it('says the key was deleted, lists it as deleted, and its Undelete brings it back', async () => {
    assert.ok((await shown()).live.includes(KEY));
    const page = fakeWebviewPanel<ToWebview>({ ready: true });
    vscode.window.createWebviewPanel = () => page.webviewPanel;
    let answerWarning: (choice: string | undefined) => void = () => undefined;
    const warnings: Array<{ text: string; buttons: string[] }> = [];
    const warned = new Promise<void>((resolve) => {
      vscode.window.showWarningMessage = (text: string, ...buttons: string[]) => {
        warnings.push({ text, buttons });
        resolve();
        return new Promise((answer) => (answerWarning = answer));
      };
    });
    await record.commands.get('cloudbench.keys.editRestrictions')!(KEY);
    const init = page.posted.find((m) => m.type === 'init');
    assert.ok(init && init.type === 'init');

    await other.deleteKey(KEY, undefined);
    const refused = new Promise<ToWebview>((resolve) => {
      const poll = (): void => {
        const error = page.posted.find((m) => m.type === 'error');
        if (error) resolve(error);
        else setImmediate(poll);
      };
      poll();
    });
    page.fromPage({
      type: 'save',
      restrictions: { apiTargets: [{ service: 'translate.googleapis.com' }] },
      etag: init.key.etag,
    });
    const error = await refused;
    assert.ok(error.type === 'error');
    assert.match(error.message, /maps-web was deleted meanwhile/);
    assert.match(error.message, /Undelete it/);
    await warned;
    assert.deepEqual(warnings[0]?.buttons, ['Undelete']);
    const after = await shown();
    assert.ok(!after.live.includes(KEY), 'no longer listed as a live key');
    assert.ok(after.deleted.includes(KEY), 'listed under Deleted keys');

    const undeleted = new Promise<void>((resolve) => {
      vscode.window.showInformationMessage = async (text: string) => {
        if (/^Undeleted key/.test(text)) resolve();
        return undefined;
      };
    });
    answerWarning('Undelete');
    await undeleted;
    assert.equal((await other.getKey(KEY)).deleteTime ?? '', '');
    assert.ok((await shown()).live.includes(KEY), 'listed as live again');
  });
});
