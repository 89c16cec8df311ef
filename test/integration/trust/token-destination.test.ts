// The product path (settings → createServices → a client → the token policy) against a local
// recording server reached through a non-loopback address: a Google token, a SecOps token or a key
// string never reaches a host the user did not allow, and the check is what stops it (with the
// host allowed, the same call does arrive, token and all).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type * as AuthLibrary from 'google-auth-library';
import type * as Vscode from 'vscode';
import { freshProductModules, scriptConfiguration } from '../../reliability/scripted-config';
import { fakeExtensionContext, record } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type * as ServicesModule from '../../../src/features/services';
import type * as ApiKeysModule from '../../../src/core/apikeys/client';
import type * as SecOpsModule from '../../../src/core/secops/client';
import type * as ModelsModule from '../../../src/core/models/client';

const SECRET_TOKEN = 'ya29.recorded-token-must-never-leave';
const KEY_STRING = 'AIzaSyRecordedKeyStringMustNeverLeave00';

/** An address of this machine that is not loopback: the "other host" the recorder sits on. */
function otherHost(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '0.0.0.0'; // Linux connects this to the local machine, yet it is not a loopback address.
}

interface Recorder {
  port: number;
  connections: number;
  requests: Array<{ headers: Record<string, unknown>; url: string; body: string }>;
  close(): Promise<void>;
}

/** HTTPS recorder (throw-away self-signed certificate) that counts TCP connections and keeps requests. */
async function startHttpsRecorder(dir: string): Promise<Recorder> {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=recorder',
    ],
    { stdio: 'ignore' },
  );
  const rec: Recorder = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const server: HttpsServer = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      rec.requests.push({ headers: req.headers, url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', () => rec.connections++);
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  rec.port = (server.address() as AddressInfo).port;
  rec.close = () => new Promise((resolve) => server.close(() => resolve()));
  return rec;
}

/** TCP recorder for the gRPC endpoint: any connection at all is recorded. */
async function startTcpRecorder(): Promise<Recorder> {
  const rec: Recorder = { port: 0, connections: 0, requests: [], close: async () => undefined };
  const server: TcpServer = createTcpServer((socket) => {
    rec.connections++;
    socket.on('data', (d: Buffer) => rec.requests.push({ headers: {}, url: '', body: d.toString('latin1') }));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  rec.port = (server.address() as AddressInfo).port;
  rec.close = () => new Promise((resolve) => server.close(() => resolve()));
  return rec;
}

describe('token destinations: the product path never sends a credential to a refused host', function () {
  this.timeout(60_000);
  const host = otherHost();
  let https: Recorder;
  let tcp: Recorder;
  let sandbox: Sandbox;
  let undo: (() => void) | undefined;
  let restoreAuth: (() => void) | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'cloudbench-trust-'));
  const keyFile = join(dir, 'adc.json');

  before(async () => {
    https = await startHttpsRecorder(dir);
    tcp = await startTcpRecorder();
    sandbox = await startSandbox({ seed: 'demo' });
    // The Google credential the product would mint: a known string, so the recorders can look for it.
    // Everything up to the auth library is the product's own path (file, universe, policy).
    const lib = require('google-auth-library') as typeof AuthLibrary;
    const original = lib.GoogleAuth.prototype.getClient;
    lib.GoogleAuth.prototype.getClient = async function () {
      return { getAccessToken: async () => ({ token: SECRET_TOKEN }), credentials: {} } as never;
    };
    restoreAuth = () => {
      lib.GoogleAuth.prototype.getClient = original;
    };
    writeFileSync(
      keyFile,
      JSON.stringify({ type: 'authorized_user', client_id: 'c', client_secret: 's', refresh_token: 'r' }),
    );
  });
  after(async () => {
    restoreAuth?.();
    await https.close();
    await tcp.close();
    await sandbox.close();
  });
  afterEach(() => {
    undo?.();
    undo = undefined;
    delete process.env['NODE_TLS_REJECT_UNAUTHORIZED'];
  });

  function connect(userSettings: Record<string, unknown>): ReturnType<ServicesModule.Services['connection']> {
    undo = scriptConfiguration({ project: 'cloudbench-demo', credentialsFile: keyFile, ...userSettings });
    freshProductModules();
    const { createServices } = require('../../../src/features/services') as typeof ServicesModule;
    return createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent')).connection();
  }

  function clients(connection: ReturnType<ServicesModule.Services['connection']>) {
    const { ApiKeysClient } = require('../../../src/core/apikeys/client') as typeof ApiKeysModule;
    const { SecOpsClient } = require('../../../src/core/secops/client') as typeof SecOpsModule;
    const { ModelRegistryClient } = require('../../../src/core/models/client') as typeof ModelsModule;
    const keysUrl = connection.endpoint('apiKeys')!;
    const secopsUrl = connection.endpoint('secops') ?? keysUrl;
    const models = connection.endpoint('models');
    return {
      keys: new ApiKeysClient({
        baseUrl: keysUrl,
        tokens: connection.cloudTokens(keysUrl),
        retry: { ...connection.settings.retry, maxRetries: 0 },
      }),
      secops: new SecOpsClient({
        baseUrl: secopsUrl,
        tokens: connection.secopsTokens(secopsUrl),
        retry: { ...connection.settings.retry, maxRetries: 0 },
      }),
      models: new ModelRegistryClient({
        tokenSource: connection.cloudTokens(models),
        endpoint: models ? { apiEndpoint: models } : {},
        retry: { maxRetries: 0 },
      }),
    };
  }

  // Product modules are reloaded per test, so the error is recognised by name, not by class identity.
  const isRefusal = (e: unknown): e is Error => e instanceof Error && e.name === 'TokenDestinationError';

  const leaked = (rec: Recorder): boolean =>
    rec.requests.some(
      (r) =>
        JSON.stringify(r).includes(SECRET_TOKEN) ||
        JSON.stringify(r).includes(KEY_STRING) ||
        'authorization' in r.headers,
    );

  it('refuses every client, asks once per host naming it, and nothing reaches the host', async () => {
    const vscode = require('vscode') as typeof Vscode;
    const asked: string[] = [];
    const window = vscode.window as unknown as { showWarningMessage: (...a: unknown[]) => Promise<unknown> };
    const original = window.showWarningMessage;
    window.showWarningMessage = async (text: unknown) => {
      asked.push(String(text));
      return undefined; // the user does not allow it
    };
    try {
      const connection = connect({
        'endpoints.apiKeys': `https://${host}:${https.port}`,
        'endpoints.secops': `https://${host}:${https.port}`,
        'endpoints.models': `${host}:${tcp.port}`,
        'secops.credentialsFile': join(dir, 'would-be-read-if-allowed.json'),
      });
      const c = clients(connection);
      const refused = (e: unknown): boolean => isRefusal(e) && e.message.includes(host);
      await assert.rejects(c.keys.listKeys('cloudbench-demo'), refused);
      await assert.rejects(c.keys.lookupKey(KEY_STRING), refused);
      await assert.rejects(
        c.secops.udmSearch({
          query: 'metadata.event_type = "USER_LOGIN"',
          startTime: new Date(Date.now() - 3600_000),
          endTime: new Date(),
        }),
        refused,
      );
      await assert.rejects(c.models.getModel({ name: 'projects/p/locations/us-central1/models/m' }), refused);
      c.models.close();
      assert.equal(https.connections, 0, 'the REST recorder saw a connection');
      assert.equal(tcp.connections, 0, 'the gRPC recorder saw a connection');
      assert.equal(leaked(https) || leaked(tcp), false);
      // One question per host:port, each naming it exactly; declined hosts are not asked again.
      assert.deepEqual(
        asked.sort(),
        [
          `Send your Google credentials to ${host}:${https.port}?`,
          `Send your Google credentials to ${host}:${tcp.port}?`,
        ].sort(),
      );
      assert.ok(!record.messages.some((m) => m.text.includes(SECRET_TOKEN)));
    } finally {
      window.showWarningMessage = original;
    }
  });

  it('asks before the first call with the exact host; "Allow and Remember" stores it at user level and is not asked again', async () => {
    const vscode = require('vscode') as typeof Vscode;
    const asked: string[] = [];
    const stored: Array<[string, unknown, unknown]> = [];
    const window = vscode.window as unknown as { showWarningMessage: (...a: unknown[]) => Promise<unknown> };
    const config = vscode.workspace.getConfiguration('cloudbench') as unknown as {
      update: (key: string, value: unknown, target: unknown) => Promise<void>;
    };
    const originalAsk = window.showWarningMessage;
    const originalUpdate = config.update;
    const before = https.requests.length;
    window.showWarningMessage = async (text: unknown) => {
      asked.push(String(text));
      // Nothing has reached the host while the question is on screen.
      assert.equal(https.requests.length, before);
      return 'Allow and Remember';
    };
    config.update = async (key, value, target) => {
      stored.push([key, value, target]);
    };
    try {
      const connection = connect({ 'endpoints.apiKeys': `https://${host}:${https.port}`, allowedTokenHosts: [] });
      process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0'; // the recorder's throw-away certificate
      const keys = clients(connection).keys;
      await keys.lookupKey(KEY_STRING).catch(() => undefined);
      await keys.lookupKey(KEY_STRING).catch(() => undefined);
      assert.deepEqual(asked, [`Send your Google credentials to ${host}:${https.port}?`], 'asked once');
      assert.deepEqual(stored, [['allowedTokenHosts', [`${host}:${https.port}`], vscode.ConfigurationTarget.Global]]);
      const arrived = https.requests.slice(before);
      assert.equal(arrived.length, 2);
      assert.ok(arrived.every((r) => r.headers['authorization'] === `Bearer ${SECRET_TOKEN}`));
    } finally {
      window.showWarningMessage = originalAsk;
      config.update = originalUpdate;
      https.requests.length = before; // keep the other tests' leak check meaningful
    }
  });

  it('is the check that stops it: with the host allowed at user level the same call arrives with the token', async () => {
    const connection = connect({
      'endpoints.apiKeys': `https://${host}:${https.port}`,
      'endpoints.secops': `https://${host}:${https.port}`,
      allowedTokenHosts: [`${host}:${https.port}`],
    });
    process.env['NODE_TLS_REJECT_UNAUTHORIZED'] = '0'; // the recorder's throw-away certificate
    const before = https.requests.length;
    await clients(connection)
      .keys.lookupKey(KEY_STRING)
      .catch(() => undefined);
    const arrived = https.requests.slice(before);
    assert.equal(arrived.length, 1);
    assert.equal(arrived[0]?.headers['authorization'], `Bearer ${SECRET_TOKEN}`);
    https.requests.length = before; // keep the other tests' leak check meaningful
  });

  it('gives a loopback endpoint (the sandbox) only the sandbox token, never the Google one', async () => {
    const seen: string[] = [];
    const local = createServer((req, res) => {
      seen.push(String(req.headers['authorization']));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => local.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(local.address() as AddressInfo).port}`;
      const connection = connect({
        'endpoints.apiKeys': url,
        'endpoints.secops': url,
        'endpoints.models': sandbox.grpc,
      });
      const c = clients(connection);
      await c.keys.lookupKey(KEY_STRING).catch(() => undefined);
      await c.secops.getReferenceList('suspicious_domains').catch(() => undefined);
      const model = await c.models.listModelsPage({ parent: 'projects/cloudbench-demo/locations/us-central1' });
      c.models.close();
      assert.ok(model.items.length > 0, 'the sandbox answered the gRPC call with its token');
      assert.deepEqual([...new Set(seen)], ['Bearer cloudbench-sandbox']);
    } finally {
      await new Promise((resolve) => local.close(resolve));
    }
  });

  it('refuses plaintext http to a non-loopback host without asking, even when it is allowed', async () => {
    const connection = connect({ 'endpoints.apiKeys': `http://${host}:${https.port}`, allowedTokenHosts: [host] });
    const before = https.connections;
    await assert.rejects(
      clients(connection).keys.lookupKey(KEY_STRING),
      (e: unknown) => isRefusal(e) && /plaintext/.test(e.message),
    );
    assert.equal(https.connections, before);
  });
});
