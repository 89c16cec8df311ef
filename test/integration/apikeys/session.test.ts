import * as assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { RestrictionSession } from '../../../src/core/apikeys/session';
import { sandboxTokenSource } from '../../../src/core/google/credentials';

const PROJECT = 'cloudbench-test';
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

describe('Restriction editing session against the sandbox', () => {
  let sandbox: Sandbox;
  let client: ApiKeysClient;

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    client = new ApiKeysClient({
      baseUrl: sandbox.http,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
      pollInitialDelayMs: 5,
    });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  it('sends nothing while an entry is invalid, then saves the fixed list as a replacement', async () => {
    const key = await client.createKey(PROJECT, {
      keyId: 'site',
      restrictions: { browserKeyRestrictions: { allowedReferrers: ['old.example.com/*'] } },
    });
    const session = new RestrictionSession(client, await client.getKey(key.name));
    const invalid = await session.save(
      { browserKeyRestrictions: { allowedReferrers: ['example.com/*', 'name*.example.com'] } },
      session.key.etag,
    );
    assert.equal(invalid.kind, 'invalid');
    assert.ok(invalid.kind === 'invalid' && invalid.problems[0].path === 'browserKeyRestrictions.allowedReferrers[1]');
    assert.deepEqual((await client.getKey(key.name)).restrictions, key.restrictions, 'nothing was sent');

    const fixed = { browserKeyRestrictions: { allowedReferrers: ['example.com/*', '*.example.com/*'] } };
    assert.deepEqual(session.preview(fixed), [
      'Websites: replaced (1 → 2); removed old.example.com/*; added example.com/*, *.example.com/*.',
    ]);
    const saved = await session.save(fixed, session.key.etag);
    assert.equal(saved.kind, 'saved');
    assert.deepEqual((await client.getKey(key.name)).restrictions, fixed);
    assert.equal((await session.save(fixed, session.key.etag)).kind, 'unchanged');
  });

  it('on a conflict returns the newer server state and overwrites nothing; saving on top of it then works', async () => {
    const key = await client.createKey(PROJECT, {
      keyId: 'shared',
      restrictions: { serverKeyRestrictions: { allowedIps: ['8.8.8.8'] } },
    });
    const mine = new RestrictionSession(client, await client.getKey(key.name));
    const startedFrom = mine.key.etag;
    // Someone else changes the key meanwhile.
    await client.updateRestrictions(key.name, { serverKeyRestrictions: { allowedIps: ['8.8.4.4'] } }, startedFrom);

    const outcome = await mine.save({ serverKeyRestrictions: { allowedIps: ['1.1.1.1'] } }, startedFrom);
    assert.equal(outcome.kind, 'conflict');
    assert.ok(outcome.kind === 'conflict');
    assert.deepEqual(outcome.key.restrictions, { serverKeyRestrictions: { allowedIps: ['8.8.4.4'] } });
    assert.deepEqual(
      (await client.getKey(key.name)).restrictions,
      { serverKeyRestrictions: { allowedIps: ['8.8.4.4'] } },
      'the other change survives',
    );

    // The user redoes the change knowingly, against the version now shown.
    assert.deepEqual(mine.preview({ serverKeyRestrictions: { allowedIps: ['8.8.4.4', '1.1.1.1'] } }), [
      'IP addresses: replaced (1 → 2); added 1.1.1.1.',
    ]);
    const redo = await mine.save({ serverKeyRestrictions: { allowedIps: ['8.8.4.4', '1.1.1.1'] } }, outcome.key.etag);
    assert.equal(redo.kind, 'saved');
    assert.deepEqual((await client.getKey(key.name)).restrictions, {
      serverKeyRestrictions: { allowedIps: ['8.8.4.4', '1.1.1.1'] },
    });
  });

  it('refuses non-server restrictions for a key bound to a service account before sending', async () => {
    const key = await client.createKey(PROJECT, {
      keyId: 'bound',
      serviceAccountEmail: 'caller@cloudbench-test.iam.gserviceaccount.com',
      restrictions: { serverKeyRestrictions: { allowedIps: ['8.8.8.8'] } },
    });
    const session = new RestrictionSession(client, await client.getKey(key.name));
    const outcome = await session.save({ iosKeyRestrictions: { allowedBundleIds: ['my.app'] } }, session.key.etag);
    assert.equal(outcome.kind, 'invalid');
    assert.ok(outcome.kind === 'invalid' && /bound to a service account/.test(outcome.problems[0].message));
  });
});
