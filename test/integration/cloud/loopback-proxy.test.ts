// A proxy set in the environment carries the calls to Google, never the calls to the loopback
// sandbox: REST to the sandbox goes direct, as the Vertex AI gRPC channel to it does.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EnvHttpProxyAgent } from 'undici';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { googleDispatcher } from '../../../src/core/google/rest';
import { DEMO_PROJECT_ID } from '../../../src/emulator/grpc/store';

const VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy', 'NO_PROXY', 'no_proxy'];

describe('proxy variables and the loopback sandbox', function () {
  let sandbox: Sandbox;
  let proxy: Server;
  let proxyUrl = '';
  let proxied = 0;
  const saved: Record<string, string | undefined> = {};

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    proxied = 0;
    // A proxy that counts what reaches it and refuses everything.
    proxy = createServer((_req, res) => {
      proxied++;
      res.writeHead(502).end();
    });
    proxy.on('connect', (_req, socket) => {
      proxied++;
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    for (const v of VARIABLES) {
      saved[v] = process.env[v];
      delete process.env[v];
    }
  });
  afterEach(async () => {
    for (const v of VARIABLES) {
      if (saved[v] === undefined) delete process.env[v];
      else process.env[v] = saved[v];
    }
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await sandbox.close();
  });

  it('API Keys calls to the sandbox go direct while HTTPS_PROXY and HTTP_PROXY name a proxy', async () => {
    process.env['HTTPS_PROXY'] = proxyUrl;
    process.env['HTTP_PROXY'] = proxyUrl;
    const client = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource() });
    const page = await client.listKeys(DEMO_PROJECT_ID);
    assert.ok(page.items.length > 0, 'the sandbox answered with its demo keys');
    assert.equal(proxied, 0, 'nothing went through the proxy');
  });

  it('a Google host still goes through the proxy; a loopback base URL of any form does not', function () {
    const env = { HTTPS_PROXY: proxyUrl };
    assert.ok(googleDispatcher(undefined, env, 'https://apikeys.googleapis.com') instanceof EnvHttpProxyAgent);
    assert.ok(googleDispatcher(undefined, env) instanceof EnvHttpProxyAgent, 'no base URL: the proxy applies');
    for (const base of ['http://127.0.0.1:8080', 'http://localhost:1234/v1', 'http://[::1]:9000', 'http://127.8.9.1']) {
      assert.equal(googleDispatcher(undefined, env, base), undefined, base);
    }
  });
});
