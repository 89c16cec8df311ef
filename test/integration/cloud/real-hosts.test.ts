// The real credential path, offline: local HTTPS stand-ins for oauth2.googleapis.com,
// apikeys.googleapis.com and the SecOps regional hosts, reached through a CONNECT proxy with a
// throw-away CA, as api-facts E describes. The production code runs unchanged in a child process
// (NODE_EXTRA_CA_CERTS is read at start-up); the test asserts what arrives and what the user reads.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Seen {
  host: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const ROOT = join(__dirname, '..', '..', '..');
const USER_TOKEN = 'ya29.user-token-for-tests';
const SA_TOKEN = 'ya29.service-account-token-for-tests';
const NO_SCOPE_TOKEN = 'ya29.token-whose-scopes-are-not-said';

function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=cloudbench-test-ca',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=googleapis.com');
  writeFileSync(
    join(dir, 'ext'),
    'subjectAltName=DNS:*.googleapis.com,DNS:*.mtls.googleapis.com,DNS:googleapis.com\nbasicConstraints=CA:FALSE\n',
  );
  run(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '1',
    '-extfile',
    'ext',
  );
  return {
    ca: join(dir, 'ca.pem'),
    cert: readFileSync(join(dir, 'leaf.pem'), 'utf8'),
    key: readFileSync(join(dir, 'leaf.key'), 'utf8'),
  };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

describe('real Google hosts through a proxy (local stand-ins)', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-real-'));
  const seen: Seen[] = [];
  const tunnels: string[] = [];
  let google: Server;
  let proxy: Server;
  let proxyPort = 0;
  let results: Array<{
    name: string;
    ok: boolean;
    error?: string;
    problem?: string;
    baseUrl?: string;
    account?: string;
    accountSource?: string;
    fixes?: Array<{ label: string; copy?: string; command?: string }>;
  }> = [];
  const result = (name: string): (typeof results)[number] => {
    const r = results.find((x) => x.name === name);
    assert.ok(r, `no result for ${name}`);
    return r;
  };

  before(async () => {
    const certs = makeCertificates(dir);
    google = createHttpsServer({ cert: certs.cert, key: certs.key }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const host = (req.headers.host ?? '').replace(/:443$/, '');
        seen.push({ host, path: req.url ?? '', headers: req.headers, body });
        const json = (status: number, value: unknown): void => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (host === 'oauth2.googleapis.com' && req.url === '/token') {
          const form = new URLSearchParams(body);
          if (form.get('grant_type') === 'refresh_token') {
            if (form.get('refresh_token') === 'revoked')
              return json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
            // A token endpoint that does not say which scopes the token carries.
            if (form.get('refresh_token') === 'noscope')
              return json(200, { access_token: NO_SCOPE_TOKEN, expires_in: 3599, token_type: 'Bearer' });
            return json(200, {
              access_token: USER_TOKEN,
              expires_in: 3599,
              token_type: 'Bearer',
              scope: `openid https://www.googleapis.com/auth/userinfo.email ${'https://www.googleapis.com/auth/cloud-platform'}`,
              // What Google returns to a login that asked for openid and email, as gcloud's does.
              id_token: `${b64({ alg: 'RS256' })}.${b64({ email: 'ana@example.com', sub: '1' })}.signature`,
            });
          }
          return json(200, { access_token: SA_TOKEN, expires_in: 3599, token_type: 'Bearer' });
        }
        const auth = req.headers.authorization ?? '';
        if (!auth.startsWith('Bearer '))
          return json(401, { error: { code: 401, message: 'no token', status: 'UNAUTHENTICATED' } });
        if (host === 'apikeys.googleapis.com') {
          if (auth === `Bearer ${USER_TOKEN}` && !req.headers['x-goog-user-project'])
            return json(403, {
              error: {
                code: 403,
                message:
                  'Your application is authenticating by using local Application Default Credentials. The apikeys.googleapis.com API requires a quota project, which is not set by default.',
                status: 'PERMISSION_DENIED',
              },
            });
          return json(200, { keys: [] });
        }
        if (/backstory\.googleapis\.com$/.test(host) && auth === `Bearer ${NO_SCOPE_TOKEN}`)
          return json(403, {
            error: {
              code: 403,
              message: 'Request had insufficient authentication scopes.',
              status: 'PERMISSION_DENIED',
              details: [
                {
                  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                  reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
                  domain: 'googleapis.com',
                },
              ],
            },
          });
        if (/backstory\.googleapis\.com$/.test(host)) return json(200, { lists: [] });
        return json(404, { error: { code: 404, message: 'unknown host', status: 'NOT_FOUND' } });
      });
    });
    const googlePort = await listen(google);
    proxy = createHttpServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, socket, head) => {
      tunnels.push(req.url ?? '');
      const upstream = connect(googlePort, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    proxyPort = await listen(proxy);

    // An authorized-user ADC file where gcloud writes it, and service-account keys the test signed.
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'gcloud'), { recursive: true });
    const user = {
      type: 'authorized_user',
      client_id: 'cid.apps.googleusercontent.com',
      client_secret: 'secret-for-tests',
      refresh_token: 'good',
      quota_project_id: 'billing-proj',
    };
    writeFileSync(join(home, '.config', 'gcloud', 'application_default_credentials.json'), JSON.stringify(user));
    const noScopeHome = join(dir, 'noscope-home');
    mkdirSync(join(noScopeHome, '.config', 'gcloud'), { recursive: true });
    writeFileSync(
      join(noScopeHome, '.config', 'gcloud', 'application_default_credentials.json'),
      JSON.stringify({ ...user, refresh_token: 'noscope' }),
    );
    const revokedHome = join(dir, 'revoked');
    mkdirSync(join(revokedHome, '.config', 'gcloud'), { recursive: true });
    writeFileSync(
      join(revokedHome, '.config', 'gcloud', 'application_default_credentials.json'),
      JSON.stringify({ ...user, refresh_token: 'revoked' }),
    );
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    const saFile = join(dir, 'secops-sa.json');
    writeFileSync(
      saFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'secops-proj',
        private_key_id: 'k1',
        private_key: key,
        client_email: 'search@secops-proj.iam.gserviceaccount.com',
        client_id: '1',
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
    );
    const secopsSetting = { keyFile: saFile, setting: 'cloudbench.secops.credentialsFile' };
    const scenarios = [
      { name: 'user-apikeys', service: 'apikeys', tokens: { env: {}, home, projectId: 'proj-1' } },
      { name: 'user-apikeys-no-quota', service: 'apikeys', tokens: { env: {}, home: join(dir, 'noquota') } },
      { name: 'secops-sa', service: 'secops', region: 'europe', calls: 2, tokens: { ...secopsSetting, env: {} } },
      { name: 'secops-user', service: 'secops', tokens: { env: {}, home } },
      { name: 'secops-user-403', service: 'secops', tokens: { env: {}, home: noScopeHome } },
      { name: 'revoked', service: 'apikeys', tokens: { env: {}, home: revokedHome } },
      {
        name: 'unreachable',
        service: 'secops',
        proxy: 'http://127.0.0.1:9',
        tokens: { keyFile: saFile, setting: 'cloudbench.secops.credentialsFile', env: {}, quotaProject: 'x-proj' },
      },
    ];
    // The "no quota project" login: the same user file without quota_project_id.
    mkdirSync(join(dir, 'noquota', '.config', 'gcloud'), { recursive: true });
    const { quota_project_id: _q, ...noQuota } = user;
    writeFileSync(
      join(dir, 'noquota', '.config', 'gcloud', 'application_default_credentials.json'),
      JSON.stringify(noQuota),
    );

    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--require', 'tsx/cjs', join(__dirname, 'child.ts'), JSON.stringify(scenarios)],
        {
          cwd: ROOT,
          env: {
            PATH: process.env['PATH'],
            HOME: join(dir, 'nohome'),
            HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
            NODE_EXTRA_CA_CERTS: certs.ca,
            METADATA_SERVER_DETECTION: 'none',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
    });
    results = JSON.parse(output.trim().split('\n').pop()!) as typeof results;
  });

  after(() => {
    google?.close();
    proxy?.close();
  });

  const apiCalls = (host: string): Seen[] => seen.filter((s) => s.host === host);

  it('a gcloud user login lists keys, with its quota project sent as x-goog-user-project', () => {
    assert.deepEqual(result('user-apikeys'), {
      name: 'user-apikeys',
      ok: true,
      baseUrl: 'https://apikeys.googleapis.com',
      // The signed-in identity, from the ID token of the login (the file itself names no account).
      account: 'ana@example.com',
      accountSource: 'login',
    });
    const call = apiCalls('apikeys.googleapis.com').find(
      (s) => s.headers.authorization === `Bearer ${USER_TOKEN}` && s.headers['x-goog-user-project'],
    );
    assert.ok(call, 'API Keys saw the user token');
    assert.equal(call.headers['x-goog-user-project'], 'billing-proj');
    assert.match(String(call.headers['x-goog-api-client']), /^gl-node\/\d+\.\d+\.\d+ rest\/undici cloudbench\//);
    assert.ok(tunnels.includes('oauth2.googleapis.com:443') && tunnels.includes('apikeys.googleapis.com:443'));
  });

  it('without a quota project the 403 is explained with the setting to set', () => {
    const r = result('user-apikeys-no-quota');
    assert.equal(r.ok, false);
    assert.match(r.error ?? '', /requires a quota project/);
    assert.match(r.error ?? '', /Set cloudbench\.quotaProject \(or GOOGLE_CLOUD_QUOTA_PROJECT\)/);
  });

  it('a SecOps service-account file works on its own: regional host, chronicle scope, one token for two calls', () => {
    assert.deepEqual(result('secops-sa'), {
      name: 'secops-sa',
      ok: true,
      baseUrl: 'https://europe-backstory.googleapis.com',
      account: 'search@secops-proj.iam.gserviceaccount.com',
      accountSource: 'credentials',
    });
    const calls = apiCalls('europe-backstory.googleapis.com');
    assert.equal(calls.length, 2);
    for (const c of calls) {
      assert.equal(c.headers.authorization, `Bearer ${SA_TOKEN}`);
      assert.equal(c.headers['x-goog-user-project'], undefined, 'no quota project to SecOps');
      assert.equal(c.path, '/v2/lists?page_size=1');
    }
    const grants = seen.filter((s) => s.host === 'oauth2.googleapis.com' && s.body.includes('jwt-bearer'));
    assert.equal(grants.length, 1, 'the token is cached between calls');
    const assertion = new URLSearchParams(grants[0].body).get('assertion')!;
    const claims = JSON.parse(Buffer.from(assertion.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    assert.equal(claims['scope'], 'https://www.googleapis.com/auth/chronicle-backstory');
    assert.equal(claims['iss'], 'search@secops-proj.iam.gserviceaccount.com');
  });

  it('a gcloud login without the SecOps scope is refused with the login command that adds it', () => {
    const r = result('secops-user');
    assert.equal(r.problem, 'scope-missing');
    assert.match(r.error ?? '', /no https:\/\/www\.googleapis\.com\/auth\/chronicle-backstory scope/);
    assert.match(
      r.error ?? '',
      /--scopes=https:\/\/www\.googleapis\.com\/auth\/cloud-platform,https:\/\/www\.googleapis\.com\/auth\/chronicle-backstory/,
    );
    assert.equal(
      apiCalls('backstory.googleapis.com').filter((s) => s.headers.authorization === `Bearer ${USER_TOKEN}`).length,
      0,
      'nothing reached SecOps',
    );
  });

  it('a 403 for a missing scope from SecOps itself explains the scoped login, with a button to copy it', () => {
    const r = result('secops-user-403');
    assert.equal(r.ok, false);
    assert.match(r.error ?? '', /insufficient authentication scopes\..*--scopes=.*chronicle-backstory/);
    assert.deepEqual(r.fixes, [
      {
        label: 'Copy Command',
        copy: 'gcloud auth application-default login --scopes=https://www.googleapis.com/auth/cloud-platform,https://www.googleapis.com/auth/chronicle-backstory',
      },
      { label: 'Choose SecOps Key File…', command: 'cloudbench.chooseSecOpsCredentialsFile' },
    ]);
    assert.equal(
      apiCalls('backstory.googleapis.com').filter((s) => s.headers.authorization === `Bearer ${NO_SCOPE_TOKEN}`).length,
      1,
      'SecOps was asked once and refused',
    );
  });

  it('an expired or revoked login and an unreachable token endpoint say what is wrong and what to do', () => {
    const revoked = result('revoked');
    assert.equal(revoked.problem, 'revoked');
    assert.match(revoked.error ?? '', /has expired or was revoked .*gcloud auth application-default login/);
    const down = result('unreachable');
    assert.equal(down.problem, 'unreachable');
    assert.match(
      down.error ?? '',
      /oauth2\.googleapis\.com could not be reached for the file in cloudbench\.secops\.credentialsFile/,
    );
  });

  it('no token, refresh token, secret or key material appears in any message', () => {
    const text = JSON.stringify(results);
    for (const secret of [
      USER_TOKEN,
      SA_TOKEN,
      NO_SCOPE_TOKEN,
      'secret-for-tests',
      'PRIVATE KEY',
      '"good"',
      '.signature',
    ])
      assert.ok(!text.includes(secret), secret);
  });
});
