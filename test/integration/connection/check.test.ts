// Check Connection against the local sandbox: every service answers, the report says where the
// calls went and how long they took, and a broken credentials setting is explained in place.
import { strict as assert } from 'node:assert';
import {
  CredentialsError,
  SANDBOX_TOKEN,
  sandboxTokenSource,
  type TokenSource,
} from '../../../src/core/google/credentials';
import { planRestEndpoint } from '../../../src/core/google/endpoints';
import { DEFAULT_RETRY } from '../../../src/core/google/retry';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { formatConnectionReport, type ServiceCheck } from '../../../src/features/connection/check';
import type * as ConnectionModule from '../../../src/features/connection/probes';
import type * as ApiKeysModule from '../../../src/core/apikeys/client';
import type * as KeysTreeModule from '../../../src/features/keys/tree';
import type { Connection } from '../../../src/features/services';
import { useFakeVscode } from '../../unit/fakes/vscode';

useFakeVscode();
const { checkConnection } = require('../../../src/features/connection/probes') as typeof ConnectionModule;

function sandboxConnection(
  sb: Sandbox,
  overrides: { secopsTokens?: () => TokenSource; locations?: string[]; timeoutMs?: number } = {},
): Connection {
  const settings = {
    project: 'cloudbench-demo',
    locations: overrides.locations ?? [],
    endpoints: { models: sb.grpc, apiKeys: sb.http, secops: sb.http },
    invalidEndpoints: {},
    universeDomain: undefined,
    quotaProject: undefined,
    mtls: { endpoint: undefined, clientCertificate: undefined },
    allowedTokenHosts: [],
    secops: { region: 'us', credentialsFile: undefined },
    search: { defaultLimit: 10000, defaultTimeRange: '24h' },
    retry: DEFAULT_RETRY,
    timeoutMs: overrides.timeoutMs ?? 10_000,
    sandboxSeed: 'demo',
  };
  return {
    settings,
    project: 'cloudbench-demo',
    sandbox: true,
    endpoint: (kind: 'models' | 'apiKeys' | 'secops') => settings.endpoints[kind],
    cloudTokens: () => sandboxTokenSource(),
    secopsTokens: overrides.secopsTokens ?? (() => sandboxTokenSource()),
    modelsEndpointOptions: () => ({ apiEndpoint: sb.grpc }),
    restEndpoint: (service: 'apikeys' | 'secops') => planRestEndpoint(service, { override: sb.http }),
  } as unknown as Connection;
}

describe('Check Connection against the sandbox', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ seed: 'demo' });
  });
  after(async () => {
    await sb.close();
  });

  it('reports every service with its endpoint, credentials and a timed read call', async function () {
    this.timeout(90_000);
    // The sandbox builds its demo events on the first SecOps call: on a busy machine that can take
    // longer than the 10 s a user's request is given.
    const report = await checkConnection(sandboxConnection(sb, { locations: ['us-central1'], timeoutMs: 60_000 }));
    assert.match(report, /Result: 3 of 3 services answered/);
    assert.match(report, /## Vertex AI Model Registry: OK/);
    assert.match(report, /## API Keys: OK/);
    assert.match(report, /## Google SecOps Search \(us\): OK/);
    assert.ok(report.includes(`\`${sb.grpc}\``), 'the gRPC endpoint is named');
    assert.match(report, /ListModels \(us-central1, 1 item\) \| OK in \d+ ms: models listed/);
    assert.match(report, /ListKeys \(1 item\) \| OK in \d+ ms/);
    assert.match(report, /ListReferenceLists \(1 item\) \| OK in \d+ ms/);
    assert.match(report, /the local sandbox token/);
    assert.ok(!report.includes(SANDBOX_TOKEN), 'no token in the report');
  });

  it('explains a broken SecOps credentials file in place, and the other services still answer', async () => {
    const broken: TokenSource = {
      kind: 'google',
      getAccessToken: () => Promise.reject(new Error('not reached')),
      describe: () =>
        Promise.reject(
          new CredentialsError(
            'The credentials file in cloudbench.secops.credentialsFile is not valid JSON: /k/s.json. Choose the service-account key file Google SecOps gave you (cloudbench.secops.credentialsFile).',
            'cloudbench.secops.credentialsFile',
            { problem: 'not-json' },
          ),
        ),
    };
    const report = await checkConnection(sandboxConnection(sb, { secopsTokens: () => broken }));
    assert.match(report, /Result: 2 of 3 services answered/);
    assert.match(report, /## Google SecOps Search \(us\): FAILED/);
    assert.match(
      report,
      /\| Credentials \| The credentials file in cloudbench\.secops\.credentialsFile is not valid JSON/,
    );
    assert.match(report, /ListReferenceLists \(1 item\) \| not tried/);
  });

  it('a slow call reads as DEADLINE_EXCEEDED with the setting to raise, in the words the keys tree uses', async () => {
    sb.faults.configure([{ method: 'apikeys.keys.list', latencyMs: 1500 }]);
    try {
      const report = await checkConnection(sandboxConnection(sb, { timeoutMs: 500 }));
      const keys = report.slice(report.indexOf('## API Keys'), report.indexOf('## Google SecOps'));
      assert.match(
        keys,
        /ListKeys \(1 item\) \| failed after \d+ ms: apikeys\.keys\.list took longer than 500 ms \(DEADLINE_EXCEEDED\)/,
      );
      assert.match(keys, /\*\*What to do:\*\* Try again, or raise cloudbench\.requests\.timeoutSeconds\./);
      assert.doesNotMatch(keys, /Cancelled/);
      // The tree's description of the same failure carries the same words and the same next step.
      const { ApiKeysClient } = require('../../../src/core/apikeys/client') as typeof ApiKeysModule;
      const { describeKeysFailure } = require('../../../src/features/keys/tree') as typeof KeysTreeModule;
      const client = new ApiKeysClient({
        baseUrl: sb.http,
        tokens: sandboxTokenSource(),
        retry: { ...DEFAULT_RETRY, maxRetries: 0 },
        timeoutMs: 500,
      });
      const err = await client.listKeys('cloudbench-demo', { pageSize: 1 }).then(
        () => assert.fail('the slow list answered'),
        (e: unknown) => e,
      );
      assert.equal(
        describeKeysFailure(err),
        'apikeys.keys.list took longer than 500 ms (DEADLINE_EXCEEDED). Try again, or raise cloudbench.requests.timeoutSeconds.',
      );
    } finally {
      sb.faults.configure([]);
    }
  });

  it('names the account and where it comes from, so a gcloud account is not taken for the ADC login', () => {
    const check = (account?: string, accountSource?: 'credentials' | 'login' | 'gcloud-config'): ServiceCheck => ({
      service: 'apikeys',
      title: 'API Keys',
      endpoint: { address: 'https://apikeys.googleapis.com', why: 'global' },
      sandbox: false,
      credentials: {
        origin: { kind: 'gcloud', file: '/h/adc.json', label: 'application default credentials (/h/adc.json)' },
        type: 'authorized_user',
        ...(account ? { account } : {}),
        ...(accountSource ? { accountSource } : {}),
        universeDomain: 'googleapis.com',
        requestedScopes: ['https://www.googleapis.com/auth/cloud-platform'],
      },
      token: { ok: true },
      call: { name: 'ListKeys (1 item)', ok: true, latencyMs: 5, summary: 'no keys' },
    });
    const report = (c: ServiceCheck): string => formatConnectionReport([c], { universeDomain: 'googleapis.com' });
    assert.match(
      report(check('ana@example.com', 'login')),
      /\| Account \| `ana@example\.com` \(the signed-in login\) \|/,
    );
    assert.match(
      report(check('bo@example.com', 'gcloud-config')),
      /\| Account \| `bo@example\.com` \(gcloud's active account; the application default login may be another\) \|/,
    );
    assert.match(report(check()), /\| Account \| not named in the credentials \|/);
  });

  it('signed out, lists only credentials it found: never the metadata server when none gave a token', () => {
    const label =
      'application default credentials (no file at /h/.config/gcloud/application_default_credentials.json, no GOOGLE_APPLICATION_CREDENTIALS)';
    const check = (tokenOk: boolean): ServiceCheck => ({
      service: 'apikeys',
      title: 'API Keys',
      endpoint: { address: 'https://apikeys.googleapis.com', why: 'global' },
      sandbox: false,
      credentials: {
        origin: { kind: 'metadata', label },
        type: 'metadata_server',
        universeDomain: 'googleapis.com',
        requestedScopes: ['https://www.googleapis.com/auth/cloud-platform'],
      },
      token: tokenOk ? { ok: true } : { ok: false, error: 'Could not load the default credentials.' },
      call: { name: 'ListKeys (1 item)', ok: tokenOk, latencyMs: 5, ...(tokenOk ? { summary: 'no keys' } : {}) },
    });
    const signedOut = formatConnectionReport([check(false)], { universeDomain: 'googleapis.com' });
    assert.doesNotMatch(signedOut, /metadata server \(attached service account\)/);
    assert.match(
      signedOut,
      /\| Credentials \| none found \(no file at \/h\/\.config\/gcloud\/application_default_credentials\.json, no GOOGLE_APPLICATION_CREDENTIALS, no credentials file setting, and no metadata server gave a token\) \|/,
    );
    assert.doesNotMatch(signedOut, /\| Account \|/);
    // On a VM whose metadata server gives a token, the attached service account is what was found.
    const onVm = formatConnectionReport([check(true)], { universeDomain: 'googleapis.com' });
    assert.match(onVm, /\| Credentials \| metadata server \(attached service account\), from /);
  });
});
