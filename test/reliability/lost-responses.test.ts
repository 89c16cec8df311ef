// The failure the sandbox's own fault rules cannot make: the server applies a change and the answer
// is lost on the way back (a proxy forwards the call, lets the sandbox answer, then drops the
// connection). A retry must not duplicate anything, and what the user is told must match the
// server's state: "may or may not have been applied", or "saved" when it was, never "not saved".
import assert from 'node:assert/strict';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { ApiKeysClient, keyName } from '../../src/core/apikeys/client';
import { ModelRegistryClient } from '../../src/core/models/client';
import { RestrictionSession } from '../../src/core/apikeys/session';
import type { ApiKey, Restrictions } from '../../src/core/apikeys/types';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { GoogleApiError } from '../../src/core/google/errors';
import { FAST_RETRY } from './helpers';

const PROJECT = 'cloudbench-lost';
const ORIGINAL: Restrictions = { browserKeyRestrictions: { allowedReferrers: ['https://a.example.com/*'] } };
const INTENDED: Restrictions = {
  browserKeyRestrictions: { allowedReferrers: ['https://a.example.com/*', 'https://b.example.com/*'] },
};

interface LossyProxy {
  url: string;
  /** Drops the answer of the next `times` calls whose "METHOD path" matches. */
  dropAnswers(pattern: RegExp, times?: number): void;
  dropped: string[];
  close(): Promise<void>;
}

async function lossyProxy(upstream: string): Promise<LossyProxy> {
  const target = new URL(upstream);
  const rules: Array<{ pattern: RegExp; left: number }> = [];
  const dropped: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const call = `${req.method} ${req.url}`;
      const up = request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (answer: IncomingMessage) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            const rule = rules.find((r) => r.left > 0 && r.pattern.test(call));
            if (rule) {
              rule.left--;
              dropped.push(call);
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropAnswers: (pattern, times = 1) => rules.push({ pattern, left: times }),
    dropped,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('reliability: answers lost after the server applied the change', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let proxy: LossyProxy;
  let client: ApiKeysClient;
  let direct: ApiKeysClient;

  beforeEach(async () => {
    sb = await startSandbox({ seed: 'empty' });
    proxy = await lossyProxy(sb.http);
    client = new ApiKeysClient({
      baseUrl: proxy.url,
      tokens: sandboxTokenSource(),
      retry: FAST_RETRY,
      pollInitialDelayMs: 5,
      pollMaxDelayMs: 20,
    });
    direct = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource() });
  });
  afterEach(async () => {
    await proxy.close();
    await sb.close();
  });

  async function allKeys(): Promise<ApiKey[]> {
    const keys: ApiKey[] = [];
    for await (const k of direct.iterateKeys(PROJECT, { showDeleted: true })) keys.push(k);
    return keys;
  }

  function ambiguous(err: unknown): boolean {
    assert.ok(err instanceof GoogleApiError, String(err));
    assert.equal(err.status, 'UNAVAILABLE');
    assert.match(err.message, /may or may not have been applied/);
    return true;
  }

  it('a create whose answer is lost is not repeated, and the user is told it may have been applied', async () => {
    proxy.dropAnswers(/^POST .*\/keys/);
    await assert.rejects(client.createKey(PROJECT, { displayName: 'server-assigned id' }), ambiguous);
    assert.equal(proxy.dropped.length, 1);
    const keys = await allKeys();
    assert.equal(keys.length, 1, 'exactly one key: the create was applied once and not sent again');
  });

  it('a delete whose answer is lost is not repeated, and the user is told it may have been applied', async () => {
    const key = await direct.createKey(PROJECT, { keyId: 'to-delete' });
    proxy.dropAnswers(/^DELETE /);
    await assert.rejects(client.deleteKey(key.name, key.etag), ambiguous);
    const after = await direct.getKey(key.name);
    assert.ok(after.deleteTime, 'the server did delete it');
  });

  it('a list page whose answer is lost is read again and the listing is complete', async () => {
    for (let i = 0; i < 5; i++) await direct.createKey(PROJECT, { keyId: `k${i}` });
    proxy.dropAnswers(/^GET .*\/keys\?/, 2);
    const names: string[] = [];
    for await (const k of client.iterateKeys(PROJECT, { pageSize: 2 })) names.push(k.name);
    assert.deepEqual(
      names.sort(),
      [0, 1, 2, 3, 4].map((i) => keyName(PROJECT, `k${i}`)),
    );
    assert.equal(proxy.dropped.length, 2);
  });

  it('a create slower than the client deadline is not repeated, and the user is told it may have been applied', async () => {
    const slow = new ApiKeysClient({
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      retry: FAST_RETRY,
      timeoutMs: 150,
    });
    await fetch(`${sb.http}/sandbox/v1/faults`, {
      method: 'POST',
      body: JSON.stringify({ rules: [{ method: 'apikeys.keys.create', latencyMs: 400 }] }),
    });
    await assert.rejects(slow.startCreateKey(PROJECT, { displayName: 'slow' }), (err: unknown) => {
      assert.ok(err instanceof GoogleApiError && err.status === 'DEADLINE_EXCEEDED', String(err));
      assert.match(err.message, /may or may not have been applied/);
      return true;
    });
    await fetch(`${sb.http}/sandbox/v1/faults`, { method: 'POST', body: JSON.stringify({ rules: [] }) });
    // Not sent again: at most the one key of the abandoned call (the sandbox drops a call whose
    // client hung up during the added latency; a real server may finish it).
    assert.ok((await allKeys()).length <= 1);
  });

  it('a model copy slower than the client deadline is not repeated, and the user is told it may have been applied', async () => {
    const models = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sb.grpc },
      retry: FAST_RETRY,
      timeoutMs: 150,
    });
    try {
      await fetch(`${sb.http}/sandbox/v1/faults`, {
        method: 'POST',
        body: JSON.stringify({
          rules: [{ method: 'google.cloud.aiplatform.v1beta1.ModelService/CopyModel', latencyMs: 400 }],
        }),
      });
      await assert.rejects(
        models.copyModel({
          parent: 'projects/p/locations/europe-west4',
          sourceModel: 'projects/p/locations/us-central1/models/1',
        }),
        (err: unknown) => {
          assert.ok(err instanceof GoogleApiError && err.status === 'DEADLINE_EXCEEDED', String(err));
          assert.match(
            err.message,
            /may or may not have been applied|may still|may have been/,
            `the user reads only "${err.message}"`,
          );
          return true;
        },
      );
    } finally {
      models.close();
    }
  });

  it('a restriction save whose answer is lost is reported as saved (the server has it), not as a conflict', async () => {
    const key = await direct.createKey(PROJECT, { keyId: 'edited', restrictions: ORIGINAL });
    const session = new RestrictionSession(client, await direct.getKey(key.name));
    proxy.dropAnswers(/^PATCH /);
    const outcome = await session.save(INTENDED, session.key.etag);
    const server = await direct.getKey(key.name);
    assert.deepEqual(server.restrictions, INTENDED, 'the edit reached the server once');
    assert.equal(proxy.dropped.length, 1);
    // The retried PATCH carries the etag the edit started from and is refused: without a check of
    // what the server now holds, the user reads "someone changed this key, nothing was saved".
    assert.equal(
      outcome.kind,
      'saved',
      `the user was told "${outcome.kind}" although the server holds exactly the edit`,
    );
  });
});
