// Bad settings: malformed endpoints, an unknown region, a missing or broken credentials file. Each
// gets a message that names the setting to fix; nothing throws out of the settings reader or the
// clients' constructors, and no secret from a broken key file reaches a message.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshProductModules, loadSettingsModule, scriptConfiguration } from './scripted-config';
import { fakeExtensionContext } from '../unit/fakes/vscode';
import {
  CredentialsError,
  checkCredentialsFile,
  googleTokenSource,
  CLOUD_PLATFORM_SCOPE,
} from '../../src/core/google/credentials';
import { SecOpsConfigError, resolveSecOpsBaseUrl } from '../../src/core/secops/regions';
import { EndpointConfigError } from '../../src/core/google/endpoints';
import { TokenPolicy } from '../../src/core/google/token-policy';
import type * as ServicesModule from '../../src/features/services';
import type * as ControllerModule from '../../src/features/search/controller';
import { ModelRegistryClient } from '../../src/core/models/client';
import { ApiKeysClient } from '../../src/core/apikeys/client';
import { SecOpsClient } from '../../src/core/secops/client';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { redactSecrets } from '../../src/core/secrets';

const FAKE_PRIVATE_KEY =
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCfakefakefake\n-----END PRIVATE KEY-----\n';

describe('reliability: bad settings', () => {
  let undo: (() => void) | undefined;
  afterEach(() => {
    undo?.();
    undo = undefined;
  });

  function problemsFor(values: Record<string, unknown>) {
    undo = scriptConfiguration(values);
    return loadSettingsModule().readSettings();
  }

  const MALFORMED: Array<[string, unknown]> = [
    ['endpoints.models', 'http://exa mple.com/:99x'],
    ['endpoints.models', '[::1'],
    ['endpoints.apiKeys', 'ftp://apikeys.example.com'],
    ['endpoints.apiKeys', 'http//127.0.0.1:8080'],
    ['endpoints.secops', 'not a url'],
    ['project', 'My Project!'],
    ['locations', ['us-central1', 'Mars Base 1']],
    ['requests.timeoutSeconds', 'sixty'],
    ['requests.timeoutSeconds', -5],
    ['requests.maxRetries', 1e9],
    ['requests.initialBackoffMs', Number.NaN],
    ['search.defaultLimit', 0],
  ];
  for (const [key, value] of MALFORMED) {
    it(`cloudbench.${key} = ${JSON.stringify(value)} is reported with the setting's name, and reading goes on`, () => {
      const { settings, problems } = problemsFor({ [key]: value });
      const mine = problems.filter((p) => p.setting === `cloudbench.${key}`);
      assert.equal(mine.length, 1, `problems: ${JSON.stringify(problems)}`);
      assert.ok(mine[0].message.length > 10);
      assert.ok(Number.isFinite(settings.timeoutMs) && settings.timeoutMs >= 1000);
      assert.ok(settings.retry.maxRetries >= 0 && settings.retry.maxRetries <= 10);
      assert.ok(Number.isFinite(settings.retry.initialBackoffMs));
    });
  }

  it('every setting at once of the wrong JSON type: no throw, one problem per unusable value', () => {
    const { problems } = problemsFor({
      project: 42,
      locations: 'us-central1',
      'endpoints.models': { host: 'x' },
      'endpoints.apiKeys': ['http://x'],
      'endpoints.secops': true,
      'secops.region': 7,
      'search.defaultLimit': '100',
      'search.defaultTimeRange': 3,
      'requests.timeoutSeconds': null,
      'requests.maxRetries': {},
      'requests.initialBackoffMs': [],
      'sandbox.seed': 1,
    });
    const named = new Set(problems.map((p) => p.setting));
    for (const s of [
      'cloudbench.search.defaultLimit',
      'cloudbench.requests.maxRetries',
      'cloudbench.requests.initialBackoffMs',
    ])
      assert.ok(named.has(s), `${s} in ${[...named].join(', ')}`);
  });

  it('an unknown cloudbench.secops.region is among the setting problems shown at activation', () => {
    const { problems } = problemsFor({ 'secops.region': 'mars-north1' });
    assert.ok(
      problems.some((p) => p.setting === 'cloudbench.secops.region' && /mars-north1/.test(p.message)),
      JSON.stringify(problems),
    );
  });

  describe('a mistyped endpoint override never becomes the production endpoint', () => {
    function services(values: Record<string, unknown>) {
      undo = scriptConfiguration({ project: 'cloudbench-demo', ...values });
      freshProductModules();
      const { createServices } = require('../../src/features/services') as typeof ServicesModule;
      return createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent'));
    }

    for (const [kind, value] of [
      ['apiKeys', 'http//127.0.0.1:8080'],
      ['models', 'http://127.0.0.1:99999'],
      ['secops', 'htp:/127.0.0.1:8080'],
    ] as const) {
      it(`cloudbench.endpoints.${kind} = ${JSON.stringify(value)}: the connection refuses, naming the setting`, () => {
        const connection = services({ [`endpoints.${kind}`]: value }).connection();
        assert.throws(
          () => connection.endpoint(kind),
          (err: unknown) =>
            err instanceof Error &&
            err.message.includes(`cloudbench.endpoints.${kind}`) &&
            /nothing was sent/.test(err.message),
        );
      });
    }

    it('the search client for a malformed cloudbench.endpoints.secops is refused, not pointed at the region host', () => {
      const s = services({ 'endpoints.secops': 'htp:/127.0.0.1:8080' });
      const { SearchController } = require('../../src/features/search/controller') as typeof ControllerModule;
      const controller = new SearchController(s);
      let baseUrl: string;
      try {
        baseUrl = controller.getClient().baseUrl;
      } catch (err) {
        assert.match((err as Error).message, /cloudbench\.endpoints\.secops/);
        return;
      } finally {
        controller.dispose();
      }
      assert.fail(`a malformed cloudbench.endpoints.secops was replaced by ${baseUrl}`);
    });
  });

  it('an unknown SecOps region is refused naming cloudbench.secops.region and listing the known ones', () => {
    assert.throws(
      () => resolveSecOpsBaseUrl({ region: 'mars-north1' }),
      (err: unknown) => {
        assert.ok(err instanceof SecOpsConfigError);
        assert.equal(err.setting, 'cloudbench.secops.region');
        assert.match(err.message, /mars-north1/);
        assert.match(err.message, /europe/);
        return true;
      },
    );
    assert.throws(
      () => resolveSecOpsBaseUrl({ endpointOverride: 'javascript:alert(1)' }),
      (err: unknown) => err instanceof SecOpsConfigError && err.setting === 'cloudbench.endpoints.secops',
    );
  });

  it('a malformed Model Registry endpoint fails the first call with EndpointConfigError naming the setting, (the port quoted)', async () => {
    const client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: 'host:99999' },
      retry: { maxRetries: 0 },
    });
    try {
      await assert.rejects(client.getModel({ name: 'projects/p/locations/us-central1/models/1' }), (err: unknown) => {
        assert.ok(err instanceof EndpointConfigError, String(err));
        assert.equal(err.variable, 'cloudbench.endpoints.models');
        assert.match(err.message, /99999/);
        return true;
      });
    } finally {
      client.close();
    }
  });

  it('REST clients refuse a malformed base URL at construction with a TypeError quoting it', () => {
    for (const baseUrl of ['not a url', 'ftp://x.example.com', 'file:///etc/passwd']) {
      assert.throws(
        () => new ApiKeysClient({ baseUrl, tokens: sandboxTokenSource() }),
        (err: unknown) => err instanceof TypeError && err.message.includes(baseUrl),
      );
      assert.throws(
        () => new SecOpsClient({ baseUrl, tokens: sandboxTokenSource() }),
        (err: unknown) => err instanceof TypeError && err.message.includes(baseUrl),
      );
    }
  });

  describe('credentials files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudbench-creds-'));
    const write = (name: string, text: string): string => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };

    async function refusal(path: string, setting: string): Promise<CredentialsError> {
      const policy = new TokenPolicy({ universeDomain: () => 'googleapis.com', allowedHosts: () => [] });
      const source = googleTokenSource({ keyFile: path, scopes: [CLOUD_PLATFORM_SCOPE], setting, policy });
      try {
        await source.getAccessToken('https://aiplatform.googleapis.com');
      } catch (err) {
        assert.ok(err instanceof CredentialsError, `${String(err)}`);
        assert.equal(err.setting, setting);
        assert.ok(!/PRIVATE KEY|MIIEvQ/.test(err.message), `the message leaks key material: ${err.message}`);
        assert.equal(redactSecrets(err.message), err.message, 'nothing in the message needs redacting');
        return err;
      }
      assert.fail('expected a CredentialsError');
    }

    it('a missing key file names the setting and the path', async () => {
      const err = await refusal(join(dir, 'missing.json'), 'cloudbench.credentialsFile');
      assert.match(err.message, /cloudbench\.credentialsFile/);
      assert.match(err.message, /ENOENT/);
    });

    it('a key file that is not JSON names the setting, without echoing its contents', async () => {
      const err = await refusal(
        write('broken.json', `{"type":"service_account","private_key":"${FAKE_PRIVATE_KEY.replace(/\n/g, '\\n')}"`),
        'cloudbench.secops.credentialsFile',
      );
      assert.match(err.message, /cloudbench\.secops\.credentialsFile/);
      assert.match(err.message, /not valid JSON/);
    });

    it('JSON without a "type" is refused before google-auth-library sees it', async () => {
      await assert.rejects(
        checkCredentialsFile(write('untyped.json', '{"client_email":"a@b.iam.gserviceaccount.com"}')),
        (err: unknown) => err instanceof CredentialsError && /"type"/.test(err.message),
      );
      await assert.rejects(checkCredentialsFile(write('array.json', '[1,2]')), CredentialsError);
      await assert.rejects(checkCredentialsFile(write('null.json', 'null')), CredentialsError);
    });

    it('a service-account file with a broken private key fails with the setting named and no key material in the message', async () => {
      const path = write(
        'bad-key.json',
        JSON.stringify({
          type: 'service_account',
          project_id: 'p',
          private_key_id: 'abc',
          private_key: FAKE_PRIVATE_KEY,
          client_email: 'svc@p.iam.gserviceaccount.com',
          client_id: '1',
          token_uri: 'http://127.0.0.1:9/token',
        }),
      );
      await refusal(path, 'cloudbench.credentialsFile');
    });
  });
});
