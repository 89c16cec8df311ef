import { strict as assert } from 'node:assert';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADC_SECOPS_LOGIN_COMMAND,
  CLOUD_PLATFORM_SCOPE,
  CredentialsError,
  SANDBOX_TOKEN,
  SECOPS_SCOPE,
  checkCredentialsFile,
  emailOfIdToken,
  explainTokenError,
  gcloudActiveAccount,
  googleTokenSource,
  locateCredentials,
  tokenSourceFor,
  type CredentialOrigin,
} from '../../../src/core/google/credentials';
import { TokenPolicy } from '../../../src/core/google/token-policy';
import { isLoopbackEndpoint } from '../../../src/core/loopback';
import { redactSecrets } from '../../../src/core/secrets';

const policy = new TokenPolicy({ universeDomain: () => 'googleapis.com', allowedHosts: () => [] });
const DEST = 'https://apikeys.googleapis.com/v2/projects/p/locations/global/keys';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

function serviceAccount(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: 'service_account',
    project_id: 'p',
    private_key_id: 'k1',
    private_key: PRIVATE_KEY,
    client_email: 'svc@p.iam.gserviceaccount.com',
    client_id: '1',
    token_uri: 'https://oauth2.googleapis.com/token',
    ...extra,
  });
}

const USER = JSON.stringify({
  type: 'authorized_user',
  client_id: 'cid.apps.googleusercontent.com',
  client_secret: 'd-FL95Q19q7MQmFpd7hHD0Ty',
  refresh_token: '1//refresh-token-value',
  quota_project_id: 'billing-proj',
});

async function refusal(promise: Promise<unknown>): Promise<CredentialsError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof CredentialsError, String(err));
    assert.ok(!/PRIVATE KEY|refresh-token-value|d-FL95Q19/.test(err.message), `leaks secrets: ${err.message}`);
    assert.equal(redactSecrets(err.message), err.message);
    return err;
  }
  assert.fail('expected a CredentialsError');
}

describe('credentials', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-cred-'));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

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

  it('names the setting, the file and the cause for missing, broken and wrong files', async () => {
    const missing = await refusal(checkCredentialsFile(join(dir, 'missing.json')));
    assert.match(missing.message, /cloudbench\.credentialsFile cannot be read \(ENOENT\)/);
    // The file was only chosen: the message must not claim the setting holds it.
    assert.match(missing.message, /^The file you chose for cloudbench\.credentialsFile /);
    assert.doesNotMatch(missing.message, /file in cloudbench\.credentialsFile/);
    assert.match(missing.message, /cloudbench\.credentialsFile was not changed\.$/);
    assert.equal(missing.problem, 'missing');
    assert.ok(missing.fixes.some((f) => f.command === 'cloudbench.chooseCredentialsFile'));

    const bad = await refusal(
      checkCredentialsFile(write('bad.json', '{ not json'), 'cloudbench.secops.credentialsFile'),
    );
    assert.match(bad.message, /cloudbench\.secops\.credentialsFile is not valid JSON/);
    assert.match(bad.message, /Google SecOps gave you/);
    assert.equal(bad.problem, 'not-json');

    const untyped = await refusal(checkCredentialsFile(write('nokey.json', '{"hello":1}')));
    assert.match(untyped.message, /no "type" field/);
    assert.equal(untyped.problem, 'wrong-type');

    const oauthClient = await refusal(
      checkCredentialsFile(write('client.json', '{"installed":{"client_id":"x","client_secret":"y"}}')),
    );
    assert.match(oauthClient.message, /OAuth client ID file, not credentials/);

    const userForSecops = await refusal(
      checkCredentialsFile(write('user.json', USER), 'cloudbench.secops.credentialsFile'),
    );
    assert.equal(userForSecops.problem, 'wrong-type');
    assert.match(userForSecops.message, /"authorized_user" credentials; cloudbench\.secops\.credentialsFile takes/);
    assert.ok(userForSecops.message.includes(ADC_SECOPS_LOGIN_COMMAND));

    const badPem = await refusal(
      checkCredentialsFile(
        write(
          'badpem.json',
          serviceAccount({ private_key: '-----BEGIN PRIVATE KEY-----\nMIIEfake\n-----END PRIVATE KEY-----\n' }),
        ),
      ),
    );
    assert.equal(badPem.problem, 'malformed');
    assert.match(badPem.message, /not a valid PEM private key/);

    const noEmail = await refusal(checkCredentialsFile(write('noemail.json', serviceAccount({ client_email: '' }))));
    assert.match(noEmail.message, /without client_email/);

    await checkCredentialsFile(write('good.json', serviceAccount()));
    await checkCredentialsFile(write('user-ok.json', USER));
  });

  it('finds application default credentials the way gcloud and Google clients do', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cb-home-'));
    assert.equal((await locateCredentials({ env: {}, home })).kind, 'metadata');
    mkdirSync(join(home, '.config', 'gcloud'), { recursive: true });
    writeFileSync(join(home, '.config', 'gcloud', 'application_default_credentials.json'), USER);
    const gcloud = await locateCredentials({ env: {}, home });
    assert.equal(gcloud.kind, 'gcloud');
    assert.equal(gcloud.file, join(home, '.config', 'gcloud', 'application_default_credentials.json'));
    const fromEnv = await locateCredentials({ env: { GOOGLE_APPLICATION_CREDENTIALS: '/x/key.json' }, home });
    assert.equal(fromEnv.kind, 'env');
    const configDir = mkdtempSync(join(tmpdir(), 'cb-sdk-'));
    writeFileSync(join(configDir, 'application_default_credentials.json'), USER);
    assert.equal(
      (await locateCredentials({ env: { CLOUDSDK_CONFIG: configDir }, home })).file?.startsWith(configDir),
      true,
    );
    const setting = await locateCredentials({
      keyFile: '/k.json',
      setting: 'cloudbench.credentialsFile',
      env: {},
      home,
    });
    assert.deepEqual([setting.kind, setting.setting], ['setting', 'cloudbench.credentialsFile']);
  });

  it('describes the credentials and picks the quota project: setting, then GOOGLE_CLOUD_QUOTA_PROJECT, then the file', async () => {
    const file = write('adc.json', USER);
    const base = { keyFile: file, scopes: [CLOUD_PLATFORM_SCOPE], setting: 'cloudbench.credentialsFile' };
    const fromFile = googleTokenSource({ policy, ...base, env: {} });
    assert.deepEqual(await fromFile.requestHeaders!(), { 'x-goog-user-project': 'billing-proj' });
    const info = await fromFile.describe!();
    assert.equal(info.type, 'authorized_user');
    assert.equal(info.quotaProjectSource, 'credentials');
    assert.equal(info.universeDomain, 'googleapis.com');

    const fromEnv = googleTokenSource({ policy, ...base, env: { GOOGLE_CLOUD_QUOTA_PROJECT: 'env-proj' } });
    assert.deepEqual(await fromEnv.requestHeaders!(), { 'x-goog-user-project': 'env-proj' });
    const fromSetting = googleTokenSource({
      policy,
      ...base,
      quotaProject: 'setting-proj',
      env: { GOOGLE_CLOUD_QUOTA_PROJECT: 'env-proj' },
    });
    assert.deepEqual(await fromSetting.requestHeaders!(), { 'x-goog-user-project': 'setting-proj' });
    const secops = googleTokenSource({ policy, ...base, sendQuotaProject: false, env: {} });
    assert.deepEqual(await secops.requestHeaders!(), {});

    const sa = googleTokenSource({ policy, ...base, keyFile: write('sa.json', serviceAccount()), env: {} });
    const saInfo = await sa.describe!();
    assert.equal(saInfo.account, 'svc@p.iam.gserviceaccount.com');
    assert.equal(saInfo.quotaProject, undefined);
    assert.ok(!JSON.stringify(saInfo).includes('PRIVATE KEY'));
  });

  it("names gcloud's active account for a gcloud login, from its configuration and nothing else", async () => {
    const home = mkdtempSync(join(tmpdir(), 'cb-acct-'));
    const dir = join(home, '.config', 'gcloud');
    mkdirSync(join(dir, 'configurations'), { recursive: true });
    writeFileSync(join(dir, 'application_default_credentials.json'), USER);
    const source = (env: Record<string, string>) =>
      googleTokenSource({ policy, scopes: [CLOUD_PLATFORM_SCOPE], env, home });
    // No configuration yet: no account, and nothing made up.
    assert.equal(await gcloudActiveAccount({}, home), undefined);
    assert.equal((await source({}).describe!()).account, undefined);

    writeFileSync(
      join(dir, 'configurations', 'config_default'),
      '[compute]\naccount = wrong@example.com\n[core]\nproject = p\naccount = ana@example.com\n',
    );
    const info = await source({}).describe!();
    assert.deepEqual([info.account, info.accountSource], ['ana@example.com', 'gcloud-config']);

    // The active configuration is followed; CLOUDSDK_* variables win as they do for gcloud.
    writeFileSync(join(dir, 'active_config'), 'work\n');
    writeFileSync(join(dir, 'configurations', 'config_work'), '[core]\naccount=bo@corp.example\n');
    assert.equal(await gcloudActiveAccount({}, home), 'bo@corp.example');
    assert.equal(await gcloudActiveAccount({ CLOUDSDK_ACTIVE_CONFIG_NAME: 'default' }, home), 'ana@example.com');
    assert.equal(await gcloudActiveAccount({ CLOUDSDK_CORE_ACCOUNT: 'env@example.com' }, home), 'env@example.com');
    assert.equal(await gcloudActiveAccount({ CLOUDSDK_ACTIVE_CONFIG_NAME: '../../etc' }, home), undefined);
    // A value that is not an e-mail address is not shown.
    writeFileSync(join(dir, 'configurations', 'config_work'), '[core]\naccount = 1//refresh-token-value x\n');
    assert.equal(await gcloudActiveAccount({}, home), undefined);

    // A key file names its own account; gcloud's is not consulted for it.
    const sa = googleTokenSource({
      policy,
      keyFile: write('acct-sa.json', serviceAccount()),
      scopes: [CLOUD_PLATFORM_SCOPE],
      env: { CLOUDSDK_CORE_ACCOUNT: 'env@example.com' },
      home,
    });
    const saInfo = await sa.describe!();
    assert.deepEqual([saInfo.account, saInfo.accountSource], ['svc@p.iam.gserviceaccount.com', 'credentials']);
  });

  it('reads the e-mail claim of an ID token and nothing from anything else', () => {
    const jwt = (claims: unknown): string =>
      `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
    assert.equal(emailOfIdToken(jwt({ email: 'ana@example.com', sub: '1' })), 'ana@example.com');
    assert.equal(emailOfIdToken(jwt({ sub: '1' })), undefined);
    assert.equal(emailOfIdToken(jwt({ email: 'not an address' })), undefined);
    assert.equal(emailOfIdToken('not-a-jwt'), undefined);
    assert.equal(emailOfIdToken('a.%%%.c'), undefined);
    assert.equal(emailOfIdToken(undefined), undefined);
  });

  it('refuses credentials of another universe before any call, naming both universes', async () => {
    const file = write('tpc.json', serviceAccount({ universe_domain: 'example-universe.test' }));
    const source = googleTokenSource({ policy, keyFile: file, scopes: [CLOUD_PLATFORM_SCOPE], env: {} });
    const err = await refusal(source.getAccessToken(DEST));
    assert.equal(err.problem, 'universe-mismatch');
    assert.match(err.message, /"example-universe\.test"/);
    assert.match(err.message, /"googleapis\.com"/);
    const matching = googleTokenSource({
      policy,
      keyFile: file,
      scopes: [CLOUD_PLATFORM_SCOPE],
      universeDomain: 'example-universe.test',
      env: {},
    });
    assert.equal((await matching.describe!()).universeDomain, 'example-universe.test');
    const viaEnv = googleTokenSource({
      policy,
      keyFile: write('plain.json', serviceAccount()),
      scopes: [CLOUD_PLATFORM_SCOPE],
      env: { GOOGLE_CLOUD_UNIVERSE_DOMAIN: 'example-universe.test' },
    });
    assert.equal((await refusal(viaEnv.getAccessToken(DEST))).problem, 'universe-mismatch');
  });

  it('reads a credentials file again once it is fixed on disk', async () => {
    const file = write('later.json', '{ broken');
    const source = googleTokenSource({ policy, keyFile: file, scopes: [CLOUD_PLATFORM_SCOPE], env: {} });
    assert.equal((await refusal(source.describe!())).problem, 'not-json');
    assert.equal((await refusal(source.describe!())).problem, 'not-json');
    await new Promise((r) => setTimeout(r, 15));
    writeFileSync(file, serviceAccount({ client_email: 'fixed@p.iam.gserviceaccount.com' }));
    assert.equal((await source.describe!()).account, 'fixed@p.iam.gserviceaccount.com');
  });

  it('reports missing application default credentials with where it looked and the gcloud command', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cb-empty-'));
    const previous = process.env['METADATA_SERVER_DETECTION'];
    process.env['METADATA_SERVER_DETECTION'] = 'none';
    try {
      const source = googleTokenSource({ policy, scopes: [CLOUD_PLATFORM_SCOPE], env: {}, home, projectId: 'p' });
      const err = await refusal(source.getAccessToken(DEST));
      assert.equal(err.problem, 'missing');
      assert.match(err.message, /No Google Cloud credentials were found/);
      assert.ok(err.message.includes(join(home, '.config', 'gcloud', 'application_default_credentials.json')));
      assert.match(err.message, /gcloud auth application-default login/);
      assert.ok(err.fixes.some((f) => f.copy === 'gcloud auth application-default login'));
      const secops = googleTokenSource({ policy, scopes: [SECOPS_SCOPE], service: 'secops', env: {}, home });
      const secopsErr = await refusal(secops.getAccessToken(DEST));
      assert.match(secopsErr.message, /service-account key file Google SecOps gave you/);
    } finally {
      if (previous === undefined) delete process.env['METADATA_SERVER_DETECTION'];
      else process.env['METADATA_SERVER_DETECTION'] = previous;
    }
  });

  describe('token failures', () => {
    const adc: CredentialOrigin = {
      kind: 'gcloud',
      file: '/h/adc.json',
      label: 'application default credentials (/h/adc.json)',
    };
    const secopsFile: CredentialOrigin = {
      kind: 'setting',
      setting: 'cloudbench.secops.credentialsFile',
      file: '/k/secops.json',
      label: 'the file in cloudbench.secops.credentialsFile (/k/secops.json)',
    };
    const oauth = (error: string, description: string): Error =>
      Object.assign(new Error(`${error}: ${description}`), {
        response: { status: 400, data: { error, error_description: description } },
      });

    it('an expired or revoked gcloud login says so and gives the login command', () => {
      const err = explainTokenError(oauth('invalid_grant', 'Token has been expired or revoked.'), adc, 'cloud', {
        type: 'authorized_user',
      });
      assert.equal(err.problem, 'revoked');
      assert.match(
        err.message,
        /login in application default credentials \(\/h\/adc\.json\) has expired or was revoked/,
      );
      assert.match(err.message, /gcloud auth application-default login/);
    });

    it('a revoked SecOps key points at the SecOps administrator, not gcloud', () => {
      const err = explainTokenError(oauth('invalid_grant', 'Invalid JWT Signature.'), secopsFile, 'secops', {
        type: 'service_account',
        account: 'x@y.iam.gserviceaccount.com',
      });
      assert.equal(err.problem, 'revoked');
      assert.equal(err.setting, 'cloudbench.secops.credentialsFile');
      assert.match(err.message, /x@y\.iam\.gserviceaccount\.com/);
      assert.match(err.message, /Google SecOps administrator for a new service-account key file/);
      assert.doesNotMatch(err.message, /gcloud/);
    });

    it('clock skew and an unreachable token endpoint are told apart', () => {
      const skew = explainTokenError(
        oauth(
          'invalid_grant',
          'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
        ),
        secopsFile,
        'secops',
        { type: 'service_account' },
      );
      assert.equal(skew.problem, 'clock-skew');
      assert.match(skew.message, /clock/);
      const down = explainTokenError(
        Object.assign(new Error('request to https://oauth2.googleapis.com/token failed'), { code: 'ECONNREFUSED' }),
        adc,
        'cloud',
      );
      assert.equal(down.problem, 'unreachable');
      assert.match(down.message, /oauth2\.googleapis\.com could not be reached .*ECONNREFUSED/);
      assert.match(down.message, /HTTPS_PROXY/);
    });
  });
});
