// The key audit's commands with the keys feature started against the sandbox (only the `vscode`
// module is a double): Audit Keys publishes the report document, Rotate Key creates a successor
// with the same restrictions and marks the old key, the report follows, and Export Key Audit writes
// Markdown and JSON without a single key string in them, in the messages or on the clipboard.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeExtensionContext, record, useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as KeysFeatureModule from '../../../src/features/keys';
import { startFeature } from '../../support/start-feature';
import { fakeServices } from '../../support/fake-services';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { keysFeature } = require('../../../src/features/keys') as typeof KeysFeatureModule;

const ROOT = join(__dirname, '../../..');
const PROJECT = 'cloudbench-demo';
const KEYS = `projects/${PROJECT}/locations/global/keys`;
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

describe('Key audit commands against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let other: ApiKeysClient;
  let context: any;
  let documents: { provideTextDocumentContent(uri: any): string } | undefined;
  const written = new Map<string, string>();
  const clipboard: string[] = [];
  /** The answers the next dialogs give, by the start of their message; modal or not. */
  let answers: Array<[RegExp, string | undefined]> = [];

  const answer = async (text: string) => {
    record.messages.push({ level: 'info', text });
    const i = answers.findIndex(([pattern]) => pattern.test(text));
    if (i < 0) return undefined;
    const [, choice] = answers[i];
    answers.splice(i, 1);
    return choice;
  };

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
    vscode.window.createTreeView = () => ({ dispose() {}, reveal: async () => undefined });
    vscode.window.withProgress = async (_o: unknown, task: any) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    vscode.window.showInputBox = async (options: { value?: string; validateInput(v: string): unknown }) => {
      assert.equal(options.value, '90', 'the default age is the setting, 90 days');
      assert.ok(options.validateInput('0'), 'a zero age is refused');
      return '90';
    };
    vscode.window.showInformationMessage = answer;
    vscode.window.showWarningMessage = answer;
    vscode.window.showTextDocument = async () => undefined;
    vscode.workspace.openTextDocument = async (uri: unknown) => ({ uri });
    vscode.languages.setTextDocumentLanguage = async (doc: unknown) => doc;
    vscode.workspace.registerTextDocumentContentProvider = (_scheme: string, provider: any) => {
      documents = provider;
      return { dispose() {} };
    };
    vscode.workspace.fs = {
      writeFile: async (uri: { path: string }, bytes: Uint8Array) => {
        written.set(uri.path, new TextDecoder().decode(bytes));
      },
    };
    vscode.env.clipboard.writeText = async (text: string) => {
      clipboard.push(text);
    };
    startFeature(keysFeature, context, services);
  });

  after(async () => {
    for (const d of context.subscriptions) d.dispose();
    await sandbox.close();
  });

  function report(): string {
    assert.ok(documents, 'the keys feature registered its report documents');
    return documents.provideTextDocumentContent(
      vscode.Uri.from({ scheme: 'cloudbench-key-check', path: '/key-audit-cloudbench-demo.md' }),
    );
  }

  it('audits, rotates a key whose age is due, and exports the report without key strings', async () => {
    answers = [[/^Key audit:/, undefined]];
    await record.commands.get('cloudbench.keys.audit')!();
    assert.match(report(), /15 active keys audited; 13 keys with 17 findings\./);
    assert.match(report(), /### Maps JavaScript \(website\) \(maps-web\)/);

    answers = [
      [/^Rotate API key "Maps JavaScript \(website\)" \(maps-web\)\?/, 'Create Successor'],
      [/^Created maps-web-r\d{8}, the successor of/, 'Later'],
    ];
    await record.commands.get('cloudbench.keys.rotate')!(`${KEYS}/maps-web`);
    assert.equal(answers.length, 0, `dialogs not shown: ${answers.map(([p]) => p).join(', ')}`);
    const listed: any[] = [];
    for await (const k of other.iterateKeys(PROJECT)) listed.push(k);
    const old = listed.find((k) => k.name === `${KEYS}/maps-web`);
    const successor = listed.find((k) => /\/maps-web-r\d{8}$/.test(k.name));
    assert.ok(successor, 'the successor exists');
    assert.deepEqual(successor.restrictions, old.restrictions);
    assert.equal(successor.displayName, old.displayName);
    assert.equal(successor.annotations.rotatedFrom, 'maps-web');
    assert.equal(old.annotations.rotatedTo, successor.name.split('/').pop());
    assert.match(report(), /Successor: maps-web-r\d{8}; delete this key once the successor replaced it\./);
    assert.match(
      report(),
      /16 active keys audited; 13 keys with 17 findings\./,
      'the clean successor joined the report',
    );
    assert.ok(
      record.messages.some((m) => /is marked "rotated to maps-web-r\d{8}"/.test(m.text)),
      'Later says where to delete the old key from',
    );

    vscode.window.showQuickPick = async (items: Array<{ label: string }>) => items.find((i) => i.label === 'JSON');
    vscode.window.showSaveDialog = async () => vscode.Uri.file('/tmp/review/key-audit.json');
    answers = [[/^Exported the key audit/, undefined]];
    await record.commands.get('cloudbench.keys.exportAudit')!();
    const json = JSON.parse(written.get('/tmp/review/key-audit.json')!);
    assert.equal(json.format, 'cloudbench.keyAudit/v1');
    assert.equal(json.keys.length, 16);
    vscode.window.showQuickPick = async (items: Array<{ label: string }>) => items.find((i) => i.label === 'Markdown');
    vscode.window.showSaveDialog = async () => vscode.Uri.file('/tmp/review/key-audit.md');
    answers = [[/^Exported the key audit/, undefined]];
    await record.commands.get('cloudbench.keys.exportAudit')!();
    assert.match(written.get('/tmp/review/key-audit.md')!, /^# API key audit: cloudbench-demo/);

    const secrets = await Promise.all(listed.map((k) => other.getKeyString(k.name)));
    const everything = [...written.values(), report(), ...record.messages.map((m) => m.text), ...clipboard].join('\n');
    for (const secret of secrets) assert.ok(!everything.includes(secret), 'a key string left the service');
  });
});
