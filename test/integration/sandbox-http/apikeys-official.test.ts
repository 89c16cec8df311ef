// The official @google-cloud/apikeys client (REST fallback) drives every API Keys method and rule of
// seed 001 against the sandbox: if Google's own client accepts the sandbox, so will ours.
import * as assert from 'node:assert/strict';
import { ApiKeysClient } from '@google-cloud/apikeys';
import { googleAuthLibrary } from 'google-gax';
import type { Sandbox } from '../../../src/emulator/sandbox';
import { admin, call, freshSandbox } from './helpers';

const PROJECT = 'cloudbench-demo';
const PARENT = `projects/${PROJECT}/locations/global`;
const INVALID_ARGUMENT = 'INVALID_ARGUMENT';
const NOT_FOUND = 'NOT_FOUND';
const ALREADY_EXISTS = 'ALREADY_EXISTS';
const FAILED_PRECONDITION = 'FAILED_PRECONDITION';
const ABORTED = 'ABORTED';
const UNAUTHENTICATED = 'UNAUTHENTICATED';
const GRPC_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

interface ClientError {
  code?: number | string;
  message?: string;
  response?: { data?: unknown };
}

/**
 * The status name of a failed call. With an OAuth2Client as authClient the REST fallback surfaces
 * the HTTP error as the transport's error (the JSON body in `response.data`); otherwise as a
 * GoogleError with a gRPC code. Both carry the sandbox's google.rpc status.
 */
function statusOf(err: ClientError): { status: string | undefined; message: string } {
  let data: unknown = err.response?.data ?? err.message;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch {
      data = undefined;
    }
  }
  const body = data as { error?: { status?: string; message?: string } } | undefined;
  if (body?.error?.status) return { status: body.error.status, message: body.error.message ?? '' };
  return { status: typeof err.code === 'number' ? GRPC_NAMES[err.code] : undefined, message: err.message ?? '' };
}

function officialClient(sandbox: Sandbox, token = 'test-token'): ApiKeysClient {
  const port = Number(new URL(sandbox.http).port);
  const authClient = new googleAuthLibrary.OAuth2Client();
  authClient.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
  return new ApiKeysClient({
    fallback: 'rest',
    protocol: 'http',
    apiEndpoint: '127.0.0.1',
    port,
    authClient,
  });
}

async function rejectsWithCode(promise: Promise<unknown>, expected: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(promise, (err: ClientError) => {
    const { status, message } = statusOf(err);
    assert.equal(status, expected, `expected ${expected}, got ${status}: ${message}`);
    if (pattern) assert.match(message, pattern);
    return true;
  });
}

describe('sandbox API Keys v2 with the official @google-cloud/apikeys client', function () {
  let sandbox: Sandbox;
  let client: ApiKeysClient;

  beforeEach(async () => {
    sandbox = await freshSandbox('demo');
    client = officialClient(sandbox);
  });
  afterEach(async () => {
    await client.close();
    await sandbox.close();
  });

  it('creates a key with keyId; the finished operation carries the key with its key string', async () => {
    const [op] = await client.createKey({
      parent: PARENT,
      keyId: 'conformance-web',
      key: {
        displayName: 'Conformance web key',
        annotations: { suite: 'conformance' },
        restrictions: {
          browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*', '*.example.com/*'] },
        },
      },
    });
    assert.match(op.name ?? '', /^operations\//);
    const [key] = await op.promise();
    assert.equal(key.name, `${PARENT}/keys/conformance-web`);
    assert.equal(key.displayName, 'Conformance web key');
    assert.match(key.keyString ?? '', /^AIza[0-9A-Za-z_-]{35}$/);
    assert.match(key.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.ok(key.etag && key.createTime && key.updateTime);
    assert.deepEqual(key.annotations, { suite: 'conformance' });
    const [fetched] = await client.getKey({ name: key.name });
    assert.equal(fetched.keyString, '', 'GetKey never returns the key string');
    const [ks] = await client.getKeyString({ name: key.name });
    assert.equal(ks.keyString, key.keyString);
  });

  it('creates a key without keyId under a server-assigned UUID, and refuses a duplicate keyId', async () => {
    const [op] = await client.createKey({ parent: PARENT, key: { displayName: 'no id' } });
    const [key] = await op.promise();
    assert.match(
      key.name ?? '',
      new RegExp(`^${PARENT}/keys/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`),
    );
    await rejectsWithCode(
      client.createKey({ parent: PARENT, keyId: 'maps-web', key: {} }),
      ALREADY_EXISTS,
      /already exists/,
    );
  });

  it('lists the demo keys page by page with opaque tokens, hiding deleted keys unless showDeleted', async () => {
    const [all] = await client.listKeys({ parent: PARENT });
    assert.equal(all.length, 15);
    assert.ok(all.every((k) => !k.keyString && k.uid && k.etag && !k.deleteTime));
    const names: string[] = [];
    for await (const k of client.listKeysAsync({ parent: PARENT, pageSize: 4 })) names.push(k.name!);
    assert.deepEqual(
      names,
      all.map((k) => k.name),
    );
    const [page, , response] = await client.listKeys({ parent: PARENT, pageSize: 5 }, { autoPaginate: false });
    assert.equal(page.length, 5);
    assert.ok(response?.nextPageToken);
    const [withDeleted] = await client.listKeys({ parent: PARENT, showDeleted: true });
    // The key deleted 40 days ago is past the 30-day window: purged, so it is not listed at all.
    const deleted = withDeleted.filter((k) => k.deleteTime);
    assert.deepEqual(
      deleted.map((k) => k.name),
      [`${PARENT}/keys/old-maps-key`],
    );
  });

  it('patches with a snake_case updateMask and replaces restriction lists instead of merging them', async () => {
    const name = `${PARENT}/keys/translate-backend`;
    const [before] = await client.getKey({ name });
    assert.equal(before.restrictions?.serverKeyRestrictions?.allowedIps?.length, 3);
    const [op] = await client.updateKey({
      key: { name, displayName: 'Renamed', restrictions: { serverKeyRestrictions: { allowedIps: ['203.0.113.9'] } } },
      updateMask: { paths: ['display_name', 'restrictions'] },
    });
    const [after] = await op.promise();
    assert.equal(after.displayName, 'Renamed');
    assert.deepEqual(after.restrictions?.serverKeyRestrictions?.allowedIps, ['203.0.113.9']);
    assert.equal(after.restrictions?.apiTargets?.length ?? 0, 0, 'restrictions were replaced as a whole');
    assert.notEqual(after.etag, before.etag);
    // A mask naming only display_name leaves restrictions alone.
    const [op2] = await client.updateKey({
      key: { name, displayName: 'Again', restrictions: {} },
      updateMask: { paths: ['display_name'] },
    });
    const [again] = await op2.promise();
    assert.deepEqual(again.restrictions?.serverKeyRestrictions?.allowedIps, ['203.0.113.9']);
  });

  it('refuses an update whose etag is stale with ABORTED', async () => {
    const name = `${PARENT}/keys/maps-web`;
    const [key] = await client.getKey({ name });
    const [op] = await client.updateKey({
      key: { name, displayName: 'first' },
      updateMask: { paths: ['display_name'] },
    });
    await op.promise();
    await rejectsWithCode(
      client.updateKey({
        key: { name, displayName: 'second', etag: key.etag! },
        updateMask: { paths: ['display_name'] },
      }),
      ABORTED,
      /etag/,
    );
  });

  it('deletes with a matching etag, refuses a stale one, undeletes within 30 days and not after', async () => {
    const name = `${PARENT}/keys/cron-reports`;
    const [key] = await client.getKey({ name });
    await rejectsWithCode(client.deleteKey({ name, etag: 'W/"stale=="' }), ABORTED, /etag/);
    const [del] = await client.deleteKey({ name, etag: key.etag! });
    const [deleted] = await del.promise();
    assert.ok(deleted.deleteTime, 'the deleted key carries deleteTime');
    const [listed] = await client.listKeys({ parent: PARENT });
    assert.ok(!listed.some((k) => k.name === name));
    await admin(sandbox, 'clock:advance', { seconds: 29 * 86_400 });
    const [und] = await client.undeleteKey({ name });
    const [restored] = await und.promise();
    assert.equal(restored.name, name);
    assert.ok(!restored.deleteTime);
    const [del2] = await client.deleteKey({ name });
    await del2.promise();
    await admin(sandbox, 'clock:advance', { seconds: 31 * 86_400 });
    await rejectsWithCode(client.undeleteKey({ name }), FAILED_PRECONDITION, /within 30 days/);
  });

  it('cannot undelete the demo key deleted 40 days ago, but can the one deleted 10 days ago', async () => {
    await rejectsWithCode(
      client.undeleteKey({ name: `${PARENT}/keys/legacy-translate` }),
      FAILED_PRECONDITION,
      /40 days ago/,
    );
    const [op] = await client.undeleteKey({ name: `${PARENT}/keys/old-maps-key` });
    const [key] = await op.promise();
    assert.equal(key.displayName, 'Old Maps key (rotated)');
  });

  it('looks a key string up to its project and name', async () => {
    const name = `${PARENT}/keys/gemini-prototype`;
    const [{ keyString }] = await client.getKeyString({ name });
    const [found] = await client.lookupKey({ keyString: keyString! });
    assert.equal(found.name, name);
    assert.equal(found.parent, PARENT);
    await rejectsWithCode(client.lookupKey({ keyString: 'AIzaNotAKeyThatExists000000000000000000' }), NOT_FOUND);
  });

  it('polls a create operation that takes time until it is done (checkCreateKeyProgress)', async () => {
    const [op] = await client.createKey({ parent: PARENT, keyId: 'polled', key: { displayName: 'polled' } });
    const checked = await client.checkCreateKeyProgress(op.name!);
    assert.equal(checked.done, true);
    assert.equal((checked.result as { displayName?: string }).displayName, 'polled');
  });

  describe('seed 001 rules, enforced server-side with INVALID_ARGUMENT naming the bad value', () => {
    const create = (restrictions: object, extra: object = {}) =>
      client.createKey({
        parent: PARENT,
        keyId: `k${Math.floor(Math.random() * 1e9)}`,
        key: { restrictions, ...extra },
      });

    it('refuses a wildcard inside a host but accepts *.domain, ports and path wildcards', async () => {
      await rejectsWithCode(
        create({ browserKeyRestrictions: { allowedReferrers: ['name*.example.com/*'] } }),
        INVALID_ARGUMENT,
        /name\*\.example\.com/,
      );
      await rejectsWithCode(
        create({ browserKeyRestrictions: { allowedReferrers: ['example.*.com/*'] } }),
        INVALID_ARGUMENT,
        /example\.\*\.com/,
      );
      await rejectsWithCode(
        create({ browserKeyRestrictions: { allowedReferrers: ['example.com/*/path'] } }),
        INVALID_ARGUMENT,
        /last character/,
      );
      const [op] = await create({
        browserKeyRestrictions: {
          allowedReferrers: ['*.example.com/*', 'example.com:8443/app/*', 'https://www.example.com/exact/page.html'],
        },
      });
      await op.promise();
    });

    it('refuses two application restriction types together', async () => {
      await rejectsWithCode(
        create({
          browserKeyRestrictions: { allowedReferrers: ['example.com/*'] },
          serverKeyRestrictions: { allowedIps: ['203.0.113.1'] },
        }),
        INVALID_ARGUMENT,
        /Only one application restriction/,
      );
    });

    it('accepts IPv4, IPv6 and CIDR but refuses localhost, internal addresses and garbage', async () => {
      const [op] = await create({
        serverKeyRestrictions: {
          allowedIps: ['104.133.8.78', '2620:15c:2c4:203:2776:1f90:6b3b:217', '198.51.100.0/24', '2001:db8::/32'],
        },
      });
      await op.promise();
      for (const bad of [
        '127.0.0.1',
        'localhost',
        '10.1.2.3',
        '192.168.0.0/16',
        '::1',
        'fd00::1',
        '169.254.1.1',
        'not-an-ip',
        '1.2.3.4/40',
      ]) {
        await rejectsWithCode(
          create({ serverKeyRestrictions: { allowedIps: [bad] } }),
          INVALID_ARGUMENT,
          new RegExp(bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
        );
      }
    });

    it('normalizes 20-byte SHA-1 fingerprints with colons and refuses other lengths', async () => {
      const [op] = await create({
        androidKeyRestrictions: {
          allowedApplications: [
            {
              packageName: 'com.example.app',
              sha1Fingerprint: 'da:39:a3:ee:5e:6b:4b:0d:32:55:bf:ef:95:60:18:90:af:d8:07:09',
            },
          ],
        },
      });
      const [key] = await op.promise();
      assert.equal(
        key.restrictions?.androidKeyRestrictions?.allowedApplications?.[0]?.sha1Fingerprint,
        'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709',
      );
      await rejectsWithCode(
        create({
          androidKeyRestrictions: {
            allowedApplications: [{ packageName: 'com.example.app', sha1Fingerprint: 'DA39A3EE5E6B4B0D3255' }],
          },
        }),
        INVALID_ARGUMENT,
        /20-byte/,
      );
    });

    it('lets a service-account-bound key have only server restrictions', async () => {
      const email = 'caller@cloudbench-demo.iam.gserviceaccount.com';
      // serviceAccountEmail is REST-only (absent from the 2.2.2 protos), so it goes over raw HTTP.
      const bad = await call(sandbox, 'POST', `/v2/${PARENT}/keys?keyId=bound-bad`, {
        body: {
          serviceAccountEmail: email,
          restrictions: { iosKeyRestrictions: { allowedBundleIds: ['com.example.app'] } },
        },
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /only server \(IP address\)/);
      const good = await call(sandbox, 'POST', `/v2/${PARENT}/keys?keyId=bound-good`, {
        body: { serviceAccountEmail: email, restrictions: { serverKeyRestrictions: { allowedIps: ['203.0.113.5'] } } },
      });
      assert.equal(good.status, 200, JSON.stringify(good.body));
      const [key] = await client.getKey({ name: `${PARENT}/keys/bound-good` });
      assert.deepEqual(key.restrictions?.serverKeyRestrictions?.allowedIps, ['203.0.113.5']);
      // An update cannot sneak a browser restriction onto the bound key either.
      await rejectsWithCode(
        client.updateKey({
          key: { name: key.name!, restrictions: { browserKeyRestrictions: { allowedReferrers: ['example.com/*'] } } },
          updateMask: { paths: ['restrictions'] },
        }),
        INVALID_ARGUMENT,
        /service account/,
      );
    });

    it('creates keys only in location global', async () => {
      await rejectsWithCode(
        client.createKey({ parent: `projects/${PROJECT}/locations/us-central1`, key: {} }),
        INVALID_ARGUMENT,
        /global/,
      );
    });

    it('refuses invalid key IDs, API target methods and unknown mask paths', async () => {
      await rejectsWithCode(
        client.createKey({ parent: PARENT, keyId: 'Bad_Id', key: {} }),
        INVALID_ARGUMENT,
        /Key ID "Bad_Id"/,
      );
      await rejectsWithCode(
        client.createKey({ parent: PARENT, keyId: 'ab8a4f0e-1b2c-4d3e-9f00-112233445566', key: {} }),
        INVALID_ARGUMENT,
        /UUID/,
      );
      await rejectsWithCode(
        create({ apiTargets: [{ service: 'translate.googleapis.com', methods: ['Get*Languages'] }] }),
        INVALID_ARGUMENT,
        /last character/,
      );
      await rejectsWithCode(
        client.updateKey({
          key: { name: `${PARENT}/keys/maps-web`, displayName: 'x' },
          updateMask: { paths: ['uid'] },
        }),
        INVALID_ARGUMENT,
        /update mask path "uid"/,
      );
    });
  });

  it('refuses calls without an access token with UNAUTHENTICATED', async () => {
    const port = Number(new URL(sandbox.http).port);
    const anonymous = new ApiKeysClient({
      fallback: 'rest',
      protocol: 'http',
      apiEndpoint: '127.0.0.1',
      port,
      // Sends requests as they are, without any Authorization header.
      authClient: {
        fetch: (url: string, init: RequestInit) => fetch(url, init),
        getRequestHeaders: async () => new Headers(),
      },
    } as unknown as ConstructorParameters<typeof ApiKeysClient>[0]);
    await rejectsWithCode(
      anonymous.getKey({ name: `${PARENT}/keys/maps-web` }),
      UNAUTHENTICATED,
      /authentication credential/,
    );
    await anonymous.close();
  });
});
