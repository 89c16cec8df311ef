// Secrets: the real keys feature (create with the key string copied, copy again, look up by key
// string) and searches with a service-account file configured, run against the sandbox with faults
// so that retries and failures get logged. Then the log channel, settings writes, global and
// workspace state, the global storage folder and the workspace folder are scanned: no key string,
// token or private key anywhere but the clipboard and SecretStorage.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExtensionContext } from 'vscode';
import { fakeExtensionContext } from '../unit/fakes/vscode';
import { freshProductModules, scriptConfiguration } from './scripted-config';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { ApiKeysClient } from '../../src/core/apikeys/client';
import { sandboxTokenSource, type TokenSource } from '../../src/core/google/credentials';
import { admin, setFaults } from './helpers';
import { pemBodyLines, scanText, scanTree, type Finding } from './secrets-scan';
import { redactSecrets } from '../../src/core/secrets';
import type * as PlatformLogModule from '../../src/platform/log';
import type * as FeaturesServicesModule from '../../src/features/services';
import type * as FeaturesKeysModule from '../../src/features/keys';
import type * as FakesVscodeModule from '../unit/fakes/vscode';
import type * as SecopsClientModule from '../../src/core/secops/client';
import { startFeature } from '../support/start-feature';

const vscode = require('vscode') as Record<string, any>;
const PROJECT = 'cloudbench-secrets';

describe('reliability: no secret reaches logs, settings, state or files', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let home: string;
  const logLines: string[] = [];
  const settingWrites: string[] = [];
  const shown: string[] = [];
  const clipboard: string[] = [];
  const secretStore = new Map<string, string>();
  let context: any;
  let undoConfig: () => void;
  const saved = new Map<string, unknown>();
  let answers: string[] = [];
  let privateKey: string;

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    await admin(sb, 'ratelimits', { enabled: false });
    home = mkdtempSync(join(tmpdir(), 'cloudbench-secrets-'));
    mkdirSync(join(home, 'workspace'), { recursive: true });
    ({ privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    }));
    const saFile = join(home, 'service-account.json');
    writeFileSync(
      saFile,
      JSON.stringify({
        type: 'service_account',
        project_id: PROJECT,
        private_key_id: 'k1',
        private_key: privateKey,
        client_email: `svc@${PROJECT}.iam.gserviceaccount.com`,
        client_id: '1',
      }),
    );

    undoConfig = scriptConfiguration({
      project: PROJECT,
      'endpoints.apiKeys': sb.http,
      'endpoints.secops': sb.http,
      'endpoints.models': sb.grpc,
      credentialsFile: saFile,
      'secops.credentialsFile': saFile,
      'requests.maxRetries': 3,
      'requests.initialBackoffMs': 10,
    });
    const configuration = vscode.workspace.getConfiguration('cloudbench');
    const window = vscode.window;
    for (const [target, key] of [
      [configuration, 'update'],
      [window, 'createOutputChannel'],
      [window, 'showInputBox'],
      [window, 'showQuickPick'],
      [window, 'showInformationMessage'],
      [window, 'showWarningMessage'],
      [window, 'showErrorMessage'],
      [window, 'withProgress'],
      [window, 'createTreeView'],
      [vscode, 'env'],
    ] as Array<[Record<string, unknown>, string]>) {
      saved.set(key, target[key]);
    }
    configuration.update = async (key: string, value: unknown) => {
      settingWrites.push(`${key}=${JSON.stringify(value)}`);
    };
    const line = (level: string) => (message: string) => logLines.push(`${level} ${message}`);
    window.createOutputChannel = () => ({
      trace: line('trace'),
      debug: line('debug'),
      info: line('info'),
      warn: line('warn'),
      error: line('error'),
      append: line('append'),
      appendLine: line('appendLine'),
      show() {},
      hide() {},
      clear() {},
      dispose() {},
      name: 'Cloudbench',
      logLevel: 1,
      onDidChangeLogLevel: () => ({ dispose() {} }),
    });
    window.showInputBox = async () => answers.shift();
    window.showQuickPick = async (items: any) => {
      const wanted = answers.shift();
      return (await items).find((i: { label: string }) => wanted !== undefined && i.label.startsWith(wanted));
    };
    const message = async (text: string, ...rest: unknown[]) => {
      shown.push(text);
      const choices = rest.filter((r): r is string => typeof r === 'string');
      return choices.includes('Copy Key String') ? 'Copy Key String' : undefined;
    };
    window.showInformationMessage = message;
    window.showWarningMessage = message;
    window.showErrorMessage = message;
    window.withProgress = async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    window.createTreeView = () => ({
      dispose() {},
      reveal: async () => undefined,
      message: undefined,
      onDidChangeVisibility: () => ({ dispose() {} }),
    });
    vscode.env = {
      clipboard: {
        writeText: async (t: string) => {
          clipboard.push(t);
        },
        readText: async () => clipboard.at(-1) ?? '',
      },
      openExternal: async () => true,
    };

    context = fakeExtensionContext({ contributes: {} }, home);
    context.globalStorageUri = vscode.Uri.file(join(home, 'globalStorage'));
    context.storageUri = vscode.Uri.file(join(home, 'workspaceStorage'));
    context.logUri = vscode.Uri.file(join(home, 'logs'));
    context.secrets = {
      get: async (k: string) => secretStore.get(k),
      store: async (k: string, v: string) => {
        secretStore.set(k, v);
      },
      delete: async (k: string) => {
        secretStore.delete(k);
      },
      onDidChange: () => ({ dispose() {} }),
    };
    vscode.workspace.workspaceFolders = [
      { uri: vscode.Uri.file(join(home, 'workspace')), name: 'workspace', index: 0 },
    ];

    freshProductModules();
    const { initLogging } = require('../../src/platform/log') as typeof PlatformLogModule;
    const { createServices } = require('../../src/features/services') as typeof FeaturesServicesModule;
    const { keysFeature } = require('../../src/features/keys') as typeof FeaturesKeysModule;
    initLogging(context as ExtensionContext);
    startFeature(keysFeature, context, createServices(context));
  });

  after(async () => {
    undoConfig?.();
    const configuration = vscode.workspace.getConfiguration('cloudbench');
    for (const [key, value] of saved) {
      if (key === 'update') configuration.update = value;
      else if (key === 'env') delete vscode.env;
      else vscode.window[key] = value;
    }
    vscode.workspace.workspaceFolders = undefined;
    for (const d of context?.subscriptions ?? [])
      try {
        d.dispose();
      } catch {
        /* best effort */
      }
    freshProductModules();
    await sb?.close();
    rmSync(home, { recursive: true, force: true });
  });

  async function command(id: string, ...args: unknown[]): Promise<void> {
    const { record } = require('../unit/fakes/vscode') as typeof FakesVscodeModule;
    const handler = record.commands.get(id);
    assert.ok(handler, `${id} is registered`);
    await handler(...args);
  }

  it('create (copy the key string), copy again and look up, also under faults: the clipboard gets the key string and nothing else does', async () => {
    const direct = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource() });
    answers = ['Secret key', 'secret-key', 'Standard key', 'Websites', 'example.com/*', ''];
    await command('cloudbench.keys.create');
    const name = `projects/${PROJECT}/locations/global/keys/secret-key`;
    const keyString = await direct.getKeyString(name);
    assert.deepEqual(clipboard, [keyString], `the create flow copied the key string (messages: ${shown.join(' | ')})`);

    await command('cloudbench.keys.copyKeyString', name);
    assert.equal(clipboard.at(-1), keyString);
    answers = [keyString];
    await command('cloudbench.keys.lookUp');
    assert.ok(
      shown.some((s) => /Found key "Secret key"/.test(s) || /secret-key/.test(s)),
      shown.join(' | '),
    );

    // Failures and retries are where secrets usually leak: error texts, URLs with ?keyString=, stacks.
    await setFaults(sb, [{ method: 'apikeys.*', errorRate: 1, codes: ['INTERNAL'] }]);
    await command('cloudbench.keys.copyKeyString', name);
    answers = [keyString];
    await command('cloudbench.keys.lookUp');
    await setFaults(sb, [{ method: 'apikeys.*', resetRate: 1 }]);
    answers = [keyString];
    await command('cloudbench.keys.lookUp');
    await setFaults(sb, [{ method: 'apikeys.*', errorRate: 1, codes: ['UNAVAILABLE'] }]);
    answers = [keyString];
    await command('cloudbench.keys.lookUp');
    await setFaults(sb, []);
    assert.ok(
      logLines.some((l) => /lookupKey|lookUp|Look Up/i.test(l)),
      `the failures were logged:\n${logLines.join('\n')}`,
    );

    const known = [keyString, privateKey.split('\n')[1], ...pemBodyLines(privateKey)];
    const findings: Finding[] = [
      ...logLines.flatMap((l, i) => scanText(`log line ${i + 1}`, l, known)),
      ...settingWrites.flatMap((s) => scanText('settings write', s, known)),
      ...[...((context.globalState.keys?.() ?? []) as string[])].flatMap((k) =>
        scanText(`globalState ${k}`, JSON.stringify(context.globalState.get(k)), known),
      ),
      ...scanTree(join(home, 'globalStorage'), known),
      ...scanTree(join(home, 'workspaceStorage'), known),
      ...scanTree(join(home, 'workspace'), known),
      ...scanTree(join(home, 'logs'), known),
    ];
    assert.deepEqual(findings, []);
    const notifications = shown.flatMap((s) => scanText('notification', s, known));
    assert.deepEqual(notifications, [], 'no notification shows a key string');
  });

  it('searches with a service-account file configured: the settings hold its path only, and tokens stay out of the logs under retries', async () => {
    const { createServices } = require('../../src/features/services') as typeof FeaturesServicesModule;
    const { getLogger } = require('../../src/platform/log') as typeof PlatformLogModule;
    const { SecOpsClient } = require('../../src/core/secops/client') as typeof SecopsClientModule;
    const connection = createServices(context).connection();
    assert.equal(connection.settings.secops.credentialsFile, join(home, 'service-account.json'));
    const log = getLogger('search');
    // What google-auth-library hands out for a service account: an access token the sandbox accepts.
    const token = `ya29.c.${'b'.repeat(40)}Secret${Date.now()}`;
    const tokens: TokenSource = { kind: 'google', getAccessToken: async () => token };
    const search = new SecOpsClient({
      baseUrl: sb.http,
      tokens,
      retry: {
        maxRetries: 4,
        initialBackoffMs: 5,
        maxBackoffMs: 20,
        multiplier: 2,
        retryable: ['UNAVAILABLE', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED'],
      },
      onRetry: (method, err, attempt, delayMs) =>
        log.info(`${method}: retry ${attempt} in ${delayMs} ms after ${(err as Error).message}`),
    });
    const sandboxTokens = connection.secopsTokens(sb.http);
    assert.equal(sandboxTokens.kind, 'sandbox', 'a loopback endpoint never reads the service-account file');
    const now = sb.clock.now();
    await setFaults(sb, [
      { method: 'secops.*', errorRate: 0.5, codes: ['UNAVAILABLE', 429] },
      { method: 'secops.*', resetRate: 0.2 },
    ]);
    for (let i = 0; i < 6; i++) {
      try {
        await search.udmSearch({ query: 'principal.hostname = "h"', startTime: now - 3_600_000, endTime: now });
      } catch (err) {
        log.error('udmSearch failed', err);
      }
    }
    await setFaults(sb, []);
    assert.ok(
      logLines.some((l) => /udmSearch: retry/.test(l)),
      'retries were logged',
    );
    // A careless log line with the header or the key file is redacted on the way to the channel.
    log.info(`calling with Authorization: Bearer ${token}`);
    log.error('credentials', new Error(`bad key file ${JSON.stringify({ private_key: privateKey })}`));
    const known = [token, ...pemBodyLines(privateKey)];
    const findings = [
      ...logLines.flatMap((l, i) => scanText(`log line ${i + 1}`, l, known)),
      ...settingWrites.flatMap((s) => scanText('settings write', s, known)),
    ];
    assert.deepEqual(findings, []);
    assert.equal(redactSecrets(`?keyString=${token}&x=1`).includes(token), false);
  });

  it('the redactor covers the shapes the scan looks for, in the encodings logs produce', () => {
    const key = `AIza${'x'.repeat(35)}`;
    const samples = [
      `GET /v2/keys:lookupKey?keyString=${key}`,
      JSON.stringify({ keyString: key, name: 'k' }),
      `authorization: Bearer ya29.${'a'.repeat(30)}`,
      JSON.stringify({ type: 'service_account', private_key: privateKey }),
      privateKey,
      `{"access_token":"ya29.${'z'.repeat(20)}","refresh_token":"1//0${'r'.repeat(30)}"}`,
    ];
    for (const sample of samples)
      assert.deepEqual(
        scanText('redacted', redactSecrets(sample), [key, ...pemBodyLines(privateKey)]),
        [],
        sample.slice(0, 60),
      );
  });
});
