import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CredentialsError,
  SANDBOX_TOKEN,
  checkCredentialsFile,
  isLoopbackEndpoint,
  tokenSourceFor,
} from '../../../src/core/google/credentials';
import { TokenPolicy } from '../../../src/core/google/token-policy';

const policy = new TokenPolicy({ universeDomain: () => 'googleapis.com', allowedHosts: () => [] });

describe('credentials', () => {
  it('recognises loopback endpoints in every form', () => {
    for (const e of [
      '127.0.0.1:50051',
      'localhost:8080',
      'http://127.0.0.1:9000',
      'http://[::1]:80',
      '[::1]:443',
      '127.1.2.3',
    ]) {
      assert.ok(isLoopbackEndpoint(e), e);
    }
    for (const e of [
      'us-central1-aiplatform.googleapis.com:443',
      'https://apikeys.googleapis.com',
      '10.0.0.1:80',
      'http://127.0.0.1.evil.com',
      'not a url://',
    ]) {
      assert.ok(!isLoopbackEndpoint(e), e);
    }
  });

  it('uses the sandbox token for loopback endpoints and Google credentials otherwise', async () => {
    const sandbox = tokenSourceFor('http://127.0.0.1:1234', { scopes: ['s'], policy });
    assert.equal(sandbox.kind, 'sandbox');
    assert.equal(await sandbox.getAccessToken('http://127.0.0.1:1234/v2/keys'), SANDBOX_TOKEN);
    assert.equal(tokenSourceFor('https://apikeys.googleapis.com', { scopes: ['s'], policy }).kind, 'google');
  });

  it('names the setting when a key file is missing, not JSON or not a key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-cred-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ not json');
    const notKey = join(dir, 'nokey.json');
    writeFileSync(notKey, '{"hello":1}');
    const good = join(dir, 'good.json');
    writeFileSync(good, '{"type":"service_account"}');
    await assert.rejects(
      checkCredentialsFile(join(dir, 'missing.json')),
      (e: unknown) =>
        e instanceof CredentialsError && /cloudbench.credentialsFile cannot be read \(ENOENT\)/.test(e.message),
    );
    await assert.rejects(
      checkCredentialsFile(bad, 'cloudbench.secops.credentialsFile'),
      /cloudbench.secops.credentialsFile is not valid JSON/,
    );
    await assert.rejects(checkCredentialsFile(notKey), /no "type" field/);
    await checkCredentialsFile(good);
  });

  it('reports a missing key file through the token source without calling Google', async () => {
    const source = tokenSourceFor('https://apikeys.googleapis.com', {
      scopes: ['s'],
      keyFile: '/nonexistent/key.json',
      setting: 'cloudbench.credentialsFile',
      policy,
    });
    await assert.rejects(
      source.getAccessToken('https://apikeys.googleapis.com/v2/keys'),
      (e: unknown) => e instanceof CredentialsError && e.setting === 'cloudbench.credentialsFile',
    );
  });
});
