import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import {
  ApiKeysClient,
  EtagConflictError,
  daysLeftToUndelete,
  explainKeysError,
  keyName,
} from '../../../src/core/apikeys/client';
import { validateIp, validateReferrer } from '../../../src/core/apikeys/validation';
import { GoogleApiError } from '../../../src/core/google/errors';
import { RestClient } from '../../../src/core/google/rest';
import { sandboxTokenSource, type TokenSource } from '../../../src/core/google/credentials';
import type { ApiKey, Operation } from '../../../src/core/apikeys/types';

const PROJECT = 'cloudbench-test';
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

async function advanceDays(sandbox: Sandbox, days: number): Promise<void> {
  const res = await fetch(`${sandbox.http}/sandbox/v1/clock:advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: days * 86_400 }),
  });
  assert.equal(res.status, 200, await res.text());
}

async function rejectsWith(promise: Promise<unknown>, status: string, pattern?: RegExp): Promise<GoogleApiError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof GoogleApiError, `expected GoogleApiError, got ${String(err)}`);
    assert.equal(err.status, status, err.message);
    if (pattern) assert.match(err.message, pattern);
    return err;
  }
  assert.fail(`expected ${status}`);
}

describe('API Keys client against the sandbox', function () {
  let sandbox: Sandbox;
  let client: ApiKeysClient;

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    client = new ApiKeysClient({
      baseUrl: sandbox.http,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
      pollInitialDelayMs: 5,
      pollMaxDelayMs: 20,
    });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('creates a key with an id, display name and restrictions; the key string only comes from create and GetKeyString', async () => {
    const seen: Operation[] = [];
    const created = await client.createKey(
      PROJECT,
      {
        keyId: 'web-frontend',
        displayName: 'Web frontend',
        restrictions: {
          browserKeyRestrictions: { allowedReferrers: ['example.com/*', '*.example.com/*'] },
          apiTargets: [{ service: 'translate.googleapis.com', methods: ['Get*'] }],
        },
      },
      { onOperation: (op) => seen.push(op) },
    );
    assert.equal(created.name, keyName(PROJECT, 'web-frontend'));
    assert.equal(created.displayName, 'Web frontend');
    assert.ok(created.keyString, 'create returns the key string');
    assert.ok(created.uid && created.etag && created.createTime);
    assert.ok(seen.length >= 1 && seen[0].name.startsWith('operations/'));
    assert.equal(seen[seen.length - 1].done, true);

    const fetched = await client.getKey(created.name);
    assert.equal(fetched.keyString, undefined, 'get never includes the key string');
    assert.deepEqual(fetched.restrictions, created.restrictions);
    assert.equal(await client.getKeyString(created.name), created.keyString);
  });

  it('starts operations and reads them back through operations.get', async () => {
    const op = await client.startCreateKey(PROJECT, { keyId: 'via-operation', displayName: 'Op' });
    assert.match(op.name, /^operations\/[^/]+$/);
    const fetched = await client.getOperation(op.name);
    assert.equal(fetched.name, op.name);
    assert.equal(fetched.done, true);
    assert.equal((fetched.response as { name?: string }).name, keyName(PROJECT, 'via-operation'));
    assert.equal((fetched.response as { '@type'?: string })['@type'], 'type.googleapis.com/google.api.apikeys.v2.Key');
    // A first answer that is not done yet is polled through operations.get until it is.
    const seen: Operation[] = [];
    const waited = await client.wait({ name: op.name, done: false }, { onOperation: (o) => seen.push(o) });
    assert.equal(waited.done, true);
    assert.deepEqual(
      seen.map((o) => !!o.done),
      [false, true],
    );
    await rejectsWith(client.getOperation('operations/does-not-exist'), 'NOT_FOUND');
    await assert.rejects(client.getOperation('projects/p/locations/us/operations/x'), TypeError);
  });

  it('lets the server pick a UUID when no key id is given, and refuses a duplicate id', async () => {
    const key = await client.createKey(PROJECT, { displayName: 'anonymous' });
    assert.match(key.name, /\/keys\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await client.createKey(PROJECT, { keyId: 'twice' });
    await rejectsWith(client.createKey(PROJECT, { keyId: 'twice' }), 'ALREADY_EXISTS');
  });

  it('lists keys page by page and iterates across pages', async () => {
    for (let i = 0; i < 5; i++) await client.createKey(PROJECT, { keyId: `key-${i}`, displayName: `Key ${i}` });
    const first = await client.listKeys(PROJECT, { pageSize: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.nextPageToken);
    assert.ok(first.items.every((k) => k.keyString === undefined));
    const names: string[] = [];
    for await (const key of client.iterateKeys(PROJECT, { pageSize: 2 })) names.push(key.name);
    assert.deepEqual(
      [...names].sort(),
      [0, 1, 2, 3, 4].map((i) => keyName(PROJECT, `key-${i}`)),
    );
  });

  it('replaces restriction lists on update instead of merging them', async () => {
    const key = await client.createKey(PROJECT, {
      keyId: 'replace-me',
      restrictions: {
        browserKeyRestrictions: { allowedReferrers: ['a.example.com/*', 'b.example.com/*'] },
        apiTargets: [{ service: 'translate.googleapis.com' }, { service: 'vision.googleapis.com' }],
      },
    });
    const updated = await client.updateRestrictions(
      key.name,
      {
        browserKeyRestrictions: { allowedReferrers: ['c.example.com/*'] },
        apiTargets: [{ service: 'vision.googleapis.com', methods: ['Annotate*'] }],
      },
      key.etag,
    );
    assert.deepEqual(updated.restrictions?.browserKeyRestrictions?.allowedReferrers, ['c.example.com/*']);
    const fetched = await client.getKey(key.name);
    assert.deepEqual(fetched.restrictions, {
      browserKeyRestrictions: { allowedReferrers: ['c.example.com/*'] },
      apiTargets: [{ service: 'vision.googleapis.com', methods: ['Annotate*'] }],
    });
    assert.notEqual(fetched.etag, key.etag);

    // Switching the application restriction type replaces the whole object; clearing removes all.
    const server = await client.updateRestrictions(
      key.name,
      { serverKeyRestrictions: { allowedIps: ['104.133.8.78'] } },
      fetched.etag,
    );
    assert.deepEqual(server.restrictions, { serverKeyRestrictions: { allowedIps: ['104.133.8.78'] } });
    const cleared = await client.updateRestrictions(key.name, {}, server.etag);
    assert.ok(
      !cleared.restrictions || Object.keys(cleared.restrictions).length === 0,
      JSON.stringify(cleared.restrictions),
    );
  });

  it('refuses an update or delete with a stale etag and leaves the key as it was', async () => {
    const key = await client.createKey(PROJECT, {
      keyId: 'contended',
      displayName: 'v1',
      restrictions: { serverKeyRestrictions: { allowedIps: ['8.8.8.8'] } },
    });
    const renamed = await client.rename(key.name, 'v2', key.etag);
    assert.equal(renamed.displayName, 'v2');
    assert.deepEqual(renamed.restrictions, key.restrictions, 'rename keeps restrictions');

    const err = await rejectsWith(
      client.updateRestrictions(key.name, { serverKeyRestrictions: { allowedIps: ['1.1.1.1'] } }, key.etag),
      'ABORTED',
    );
    assert.ok(err instanceof EtagConflictError);
    assert.match(explainKeysError(err) ?? '', /changed by someone else/);
    assert.deepEqual((await client.getKey(key.name)).restrictions, {
      serverKeyRestrictions: { allowedIps: ['8.8.8.8'] },
    });

    const deleteErr = await rejectsWith(client.deleteKey(key.name, key.etag), 'ABORTED');
    assert.ok(deleteErr instanceof EtagConflictError);
    assert.equal((await client.getKey(key.name)).deleteTime, undefined);
  });

  it('soft-deletes, shows deleted keys only on request, and undeletes within 30 days', async () => {
    const key = await client.createKey(PROJECT, { keyId: 'short-lived' });
    const deleted = await client.deleteKey(key.name, key.etag);
    assert.ok(deleted.deleteTime);
    const visible = await client.listKeys(PROJECT);
    assert.equal(visible.items.length, 0);
    const withDeleted = await client.listKeys(PROJECT, { showDeleted: true });
    assert.equal(withDeleted.items.length, 1);
    assert.ok(withDeleted.items[0].deleteTime);
    await rejectsWith(client.getKeyString(key.name), 'FAILED_PRECONDITION', /deleted/);

    await advanceDays(sandbox, 29);
    const left = daysLeftToUndelete(withDeleted.items[0].deleteTime, Date.now() + 29 * 86_400_000);
    assert.ok(left !== undefined && left > 0 && left <= 1);
    const restored = await client.undeleteKey(key.name);
    assert.equal(restored.deleteTime, undefined);
    assert.equal((await client.listKeys(PROJECT)).items.length, 1);
    assert.ok(await client.getKeyString(key.name));
  });

  it('refuses to undelete a key deleted more than 30 days ago', async () => {
    const key = await client.createKey(PROJECT, { keyId: 'too-late' });
    await client.deleteKey(key.name, undefined);
    await advanceDays(sandbox, 31);
    await rejectsWith(client.undeleteKey(key.name), 'FAILED_PRECONDITION', /30 days/);
    assert.equal((await client.listKeys(PROJECT, { showDeleted: true })).items.length, 0, 'purged keys are not listed');
  });

  it('looks a key up by its key string', async () => {
    const key = await client.createKey(PROJECT, { keyId: 'findable' });
    const found = await client.lookupKey(key.keyString!);
    assert.equal(found.name, key.name);
    assert.match(found.parent ?? '', new RegExp(`^projects/[^/]+/locations/global$`));
    await assert.rejects(
      client.lookupKey('AIzaNotARealKeyStringAtAll0000000000000'),
      (err: unknown) => err instanceof GoogleApiError && ['NOT_FOUND', 'INVALID_ARGUMENT'].includes(err.status),
    );
  });

  it('enforces the restriction rules of seed 001 on the server', async () => {
    await rejectsWith(
      client.createKey(PROJECT, {
        restrictions: { browserKeyRestrictions: { allowedReferrers: ['name*.example.com'] } },
      }),
      'INVALID_ARGUMENT',
      /name\*\.example\.com/,
    );
    await rejectsWith(
      client.createKey(PROJECT, {
        restrictions: {
          browserKeyRestrictions: { allowedReferrers: ['example.com/*'] },
          serverKeyRestrictions: { allowedIps: ['8.8.8.8'] },
        },
      }),
      'INVALID_ARGUMENT',
      /one application restriction/i,
    );
    await rejectsWith(
      client.createKey(PROJECT, { restrictions: { serverKeyRestrictions: { allowedIps: ['10.1.2.3'] } } }),
      'INVALID_ARGUMENT',
      /10\.1\.2\.3/,
    );
    await rejectsWith(
      client.createKey(PROJECT, { restrictions: { serverKeyRestrictions: { allowedIps: ['127.0.0.1'] } } }),
      'INVALID_ARGUMENT',
      /127\.0\.0\.1/,
    );
    await rejectsWith(
      client.createKey(PROJECT, {
        restrictions: {
          androidKeyRestrictions: {
            allowedApplications: [{ packageName: 'com.example.app', sha1Fingerprint: 'DA39A3EE' }],
          },
        },
      }),
      'INVALID_ARGUMENT',
      /DA39A3EE/,
    );
    await rejectsWith(
      client.createKey(PROJECT, {
        serviceAccountEmail: 'caller@cloudbench-test.iam.gserviceaccount.com',
        restrictions: { browserKeyRestrictions: { allowedReferrers: ['example.com/*'] } },
      }),
      'INVALID_ARGUMENT',
    );
  });

  it('stores fingerprints written with colons in the colon-less form and binds keys to service accounts', async () => {
    const android = await client.createKey(PROJECT, {
      restrictions: {
        androidKeyRestrictions: {
          allowedApplications: [
            {
              packageName: 'com.example.app',
              sha1Fingerprint: 'da:39:a3:ee:5e:6b:4b:0d:32:55:bf:ef:95:60:18:90:af:d8:07:09',
            },
          ],
        },
      },
    });
    assert.equal(
      android.restrictions?.androidKeyRestrictions?.allowedApplications?.[0]?.sha1Fingerprint,
      'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709',
    );
    const bound = await client.createKey(PROJECT, {
      serviceAccountEmail: 'caller@cloudbench-test.iam.gserviceaccount.com',
      restrictions: {
        serverKeyRestrictions: { allowedIps: ['104.133.8.0/24'] },
        apiTargets: [{ service: 'aiplatform.googleapis.com' }],
      },
    });
    assert.equal(
      (await client.getKey(bound.name)).serviceAccountEmail,
      'caller@cloudbench-test.iam.gserviceaccount.com',
    );
  });

  it('accepts on the server every referrer and IP the editor accepts', async () => {
    const referrers = [
      'example.com',
      'example.com/*',
      '*.example.com/*',
      'https://www.example.com:8443/app/*',
      'www.example-2.com/docs/',
      'localhost:3000/*',
      '__file_url__//home/me/app/*',
    ];
    const ips = [
      '104.133.8.78',
      '104.133.8.0/24',
      '2620:15c:2c4:203:2776:1f90:6b3b:217',
      '2001:4860::/32',
      '::ffff:104.133.8.78',
    ];
    for (const r of referrers) assert.equal(validateReferrer(r), undefined, r);
    for (const ip of ips) assert.equal(validateIp(ip), undefined, ip);
    for (const r of referrers)
      await client.createKey(PROJECT, { restrictions: { browserKeyRestrictions: { allowedReferrers: [r] } } });
    for (const ip of ips)
      await client.createKey(PROJECT, { restrictions: { serverKeyRestrictions: { allowedIps: [ip] } } });
  });

  it('refuses calls without credentials and explains a location other than global', async () => {
    const noToken: TokenSource = { kind: 'sandbox', getAccessToken: async () => '' };
    const anonymous = new ApiKeysClient({ baseUrl: sandbox.http, tokens: noToken, retry: NO_RETRY });
    await rejectsWith(anonymous.listKeys(PROJECT), 'UNAUTHENTICATED');

    const rest = new RestClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
    const err = await rejectsWith(
      rest.request({ method: 'GET', path: `/v2/projects/${PROJECT}/locations/us-central1/keys` }),
      'INVALID_ARGUMENT',
    );
    assert.match(explainKeysError(err) ?? '', /only in the location "global"/);
  });

  it('explains a missing role when the service refuses with PERMISSION_DENIED', async () => {
    const res = await fetch(`${sandbox.http}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ method: 'apikeys.keys.list', errorRate: 1, codes: ['PERMISSION_DENIED'] }] }),
    });
    assert.equal(res.status, 200, await res.text());
    const err = await rejectsWith(client.listKeys(PROJECT), 'PERMISSION_DENIED');
    assert.match(explainKeysError(err) ?? '', /roles\/serviceusage\.apiKeysAdmin/);
  });

  it('retries reads after UNAVAILABLE but never repeats a create', async () => {
    await client.createKey(PROJECT, { keyId: 'before-faults' });
    const retries: string[] = [];
    const observed = new ApiKeysClient({
      baseUrl: sandbox.http,
      tokens: sandboxTokenSource(),
      retry: { maxRetries: 8, initialBackoffMs: 1, maxBackoffMs: 2, multiplier: 1, retryable: ['UNAVAILABLE'] },
      onRetry: (method) => retries.push(method),
    });
    const res = await fetch(`${sandbox.http}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        seed: 7,
        rules: [
          { method: 'apikeys.keys.create', errorRate: 1, codes: ['UNAVAILABLE'] },
          { method: 'apikeys.keys.list', errorRate: 0.5, codes: ['UNAVAILABLE'] },
        ],
      }),
    });
    assert.equal(res.status, 200, await res.text());
    for (let i = 0; i < 10; i++) assert.equal((await observed.listKeys(PROJECT)).items.length, 1);
    assert.ok(retries.length > 0 && retries.every((m) => m === 'apikeys.keys.list'), JSON.stringify(retries));
    retries.length = 0;
    await rejectsWith(observed.createKey(PROJECT, { keyId: 'never' }), 'UNAVAILABLE');
    assert.deepEqual(retries, [], 'a create is not retried');
  });

  it('reads the seeded demo keys, including a recently deleted one with its days left', async () => {
    await sandbox.close();
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
    const all: ApiKey[] = [];
    for await (const key of client.iterateKeys('cloudbench-demo', { showDeleted: true, pageSize: 4 })) all.push(key);
    assert.ok(all.length >= 10, `only ${all.length} demo keys`);
    const deleted = all.filter((k) => k.deleteTime);
    assert.ok(deleted.length >= 1, 'a recently deleted key is listed');
    for (const k of deleted) {
      const left = daysLeftToUndelete(k.deleteTime, sandbox.clock.now());
      assert.ok(left !== undefined && left > 0 && left <= 30);
    }
  });
});
