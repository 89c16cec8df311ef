// Check Connection (the command's own code, settings to report) against Google's real host names,
// reached only through a local HTTP CONNECT proxy that counts its tunnels, with the real sandbox
// behind local TLS front ends for the API hosts: the Vertex AI gRPC calls, API Keys and SecOps all
// go through the proxy set as HTTPS_PROXY, and on the mTLS hosts, whose front ends require a client
// certificate, the Endpoint Verification certificate is presented over REST and over gRPC.
import { strict as assert } from 'node:assert';
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import {
  connect as connectHttp2,
  createSecureServer,
  type ClientHttp2Session,
  type IncomingHttpHeaders,
} from 'node:http2';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const ROOT = join(__dirname, '..', '..', '..');
const USER_TOKEN = 'ya29.user-token-proxy-tests';
const SA_TOKEN = 'ya29.service-account-token-proxy-tests';
const DEVICE = 'cloudbench-test-device';

interface Pems {
  serverCa: string;
  server: { cert: string; key: string };
  clientCa: string;
  /** The client certificate and key in one file, as a certificate provider prints them. */
  clientBundle: string;
}

function makeCertificates(dir: string): Pems {
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  const ca = (name: string): void =>
    run('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.pem`, '-days', '1', '-subj', `/CN=${name}`); // prettier-ignore
  const leaf = (name: string, cn: string, caName: string, ext: string): void => {
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`); // prettier-ignore
    writeFileSync(join(dir, `${name}.ext`), ext);
    run('x509', '-req', '-in', `${name}.csr`, '-CA', `${caName}.pem`, '-CAkey', `${caName}.key`, '-CAcreateserial', '-out', `${name}.pem`, '-days', '1', '-extfile', `${name}.ext`); // prettier-ignore
  };
  ca('server-ca');
  ca('client-ca');
  leaf(
    'server',
    'googleapis.com',
    'server-ca',
    'subjectAltName=DNS:*.googleapis.com,DNS:*.mtls.googleapis.com\nbasicConstraints=CA:FALSE\n',
  );
  leaf('client', DEVICE, 'client-ca', 'extendedKeyUsage=clientAuth\nbasicConstraints=CA:FALSE\n');
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  writeFileSync(join(dir, 'client-bundle.pem'), read('client.pem') + read('client.key'));
  return {
    serverCa: join(dir, 'server-ca.pem'),
    server: { cert: read('server.pem'), key: read('server.key') },
    clientCa: read('client-ca.pem'),
    clientBundle: join(dir, 'client-bundle.pem'),
  };
}

const listen = (server: Server | ReturnType<typeof createTlsServer>): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

interface FrontEndConnection {
  servername: string;
  alpn: string | false | null;
  /** CN of the client certificate presented, if any. */
  client?: string;
}

describe('Check Connection through an HTTPS_PROXY, and mTLS with a client certificate (sandbox behind)', function () {
  this.timeout(90_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-proxy-'));
  const tunnels: string[] = [];
  const frontEnds: FrontEndConnection[] = [];
  const refusedHandshakes: string[] = [];
  const servers: Array<{ close(): unknown }> = [];
  const upstreams: ClientHttp2Session[] = [];
  const grpcCalls: IncomingHttpHeaders[] = [];
  let sandbox: Sandbox;
  let reports: Record<string, string> = {};
  const report = (name: string): string => {
    const r = reports[name];
    assert.ok(r, `no report for ${name}`);
    return r;
  };
  const section = (name: string, title: RegExp): string => {
    const text = report(name);
    const start = text.search(title);
    assert.ok(start >= 0, `no section ${title} in ${name}`);
    const end = text.indexOf('\n## ', start + 1);
    return text.slice(start, end < 0 ? undefined : end);
  };

  before(async () => {
    const pems = makeCertificates(dir);
    sandbox = await startSandbox({ seed: 'demo' });
    const port = (address: string): number => Number(address.slice(address.lastIndexOf(':') + 1));
    const grpcPort = port(sandbox.grpc);
    const httpPort = port(new URL(sandbox.http).host);

    // The token endpoint: a service-account grant and a gcloud user login (with an ID token).
    const oauth = createHttpsServer(pems.server, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            form.get('grant_type') === 'refresh_token'
              ? {
                  access_token: USER_TOKEN,
                  expires_in: 3599,
                  token_type: 'Bearer',
                  scope:
                    'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/cloud-platform',
                  id_token: `${b64({ alg: 'RS256' })}.${b64({ email: 'ana@example.com' })}.signature`,
                }
              : { access_token: SA_TOKEN, expires_in: 3599, token_type: 'Bearer' },
          ),
        );
      });
    });
    const oauthPort = await listen(oauth);
    servers.push(oauth);

    // Google's front ends: TLS (with a required client certificate on the mTLS hosts) in front of the
    // sandbox's plaintext gRPC (h2) or HTTP port.
    const frontEnd = async (upstream: number, mtls: boolean): Promise<number> => {
      const server = createTlsServer({
        ...pems.server,
        ALPNProtocols: ['h2', 'http/1.1'],
        ...(mtls ? { requestCert: true, rejectUnauthorized: true, ca: pems.clientCa } : {}),
      });
      server.on('secureConnection', (socket: TLSSocket) => {
        const peer = socket.getPeerCertificate();
        const cn = peer?.subject?.CN;
        frontEnds.push({
          servername: (socket as TLSSocket & { servername?: string }).servername ?? '',
          alpn: socket.alpnProtocol,
          ...(typeof cn === 'string' ? { client: cn } : {}),
        });
        const back = connect(upstream, '127.0.0.1');
        socket.pipe(back).pipe(socket);
        back.on('error', () => socket.destroy());
        socket.on('error', () => back.destroy());
      });
      server.on('tlsClientError', (err, socket) => {
        refusedHandshakes.push(`${(socket as TLSSocket & { servername?: string }).servername}: ${err.message}`);
      });
      servers.push(server);
      return listen(server);
    };
    // The regional Vertex AI host decodes HTTP/2, so the test sees the metadata each call carries,
    // and forwards every call to the sandbox.
    const upstream = connectHttp2(`http://127.0.0.1:${grpcPort}`);
    upstreams.push(upstream);
    const vertex = createSecureServer({ ...pems.server, ALPNProtocols: ['h2'] });
    vertex.on('secureConnection', (socket: TLSSocket) =>
      frontEnds.push({
        servername: (socket as TLSSocket & { servername?: string }).servername ?? '',
        alpn: socket.alpnProtocol,
      }),
    );
    vertex.on('stream', (stream, headers) => {
      grpcCalls.push({ ...headers });
      const { ':scheme': _scheme, ...forward } = headers;
      const call = upstream.request(forward);
      let trailers: IncomingHttpHeaders | undefined;
      call.on('response', (h) => {
        const { ':status': status, ...rest } = h;
        stream.respond({ ':status': status, ...rest }, { waitForTrailers: true });
      });
      call.on('trailers', (t) => (trailers = t));
      stream.on('wantTrailers', () => (trailers ? stream.sendTrailers(trailers) : stream.close()));
      call.on('error', () => stream.close());
      stream.on('error', () => call.close());
      stream.pipe(call);
      call.pipe(stream);
    });
    servers.push(vertex);
    const tlsGrpc = await listen(vertex);
    const tlsHttp = await frontEnd(httpPort, false);
    const mtlsGrpc = await frontEnd(grpcPort, true);
    const mtlsHttp = await frontEnd(httpPort, true);

    const proxy = createHttpServer((_req, res) => res.writeHead(405).end());
    proxy.on('connect', (req, socket, head) => {
      const target = req.url ?? '';
      tunnels.push(target);
      const host = target.replace(/:443$/, '');
      const mtls = host.endsWith('.mtls.googleapis.com');
      const to =
        host === 'oauth2.googleapis.com'
          ? oauthPort
          : /-aiplatform\./.test(host)
            ? mtls
              ? mtlsGrpc
              : tlsGrpc
            : /^(apikeys|([a-z0-9-]+-)?backstory)\./.test(host)
              ? mtls
                ? mtlsHttp
                : tlsHttp
              : undefined;
      if (to === undefined || !target.endsWith(':443')) {
        socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        return;
      }
      const upstream = connect(to, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    const proxyPort = await listen(proxy);
    servers.push(proxy);

    // A gcloud user login (with a quota project), a SecOps service-account key the test signed, and
    // the Endpoint Verification metadata whose provider command prints the device certificate.
    const home = join(dir, 'home');
    mkdirSync(join(home, '.config', 'gcloud'), { recursive: true });
    writeFileSync(
      join(home, '.config', 'gcloud', 'application_default_credentials.json'),
      JSON.stringify({
        type: 'authorized_user',
        client_id: 'cid.apps.googleusercontent.com',
        client_secret: 'secret-proxy-tests',
        refresh_token: 'refresh-proxy-tests',
        quota_project_id: 'billing-proj',
      }),
    );
    mkdirSync(join(home, '.secureConnect'));
    writeFileSync(
      join(home, '.secureConnect', 'context_aware_metadata.json'),
      JSON.stringify({ cert_provider_command: ['cat', pems.clientBundle] }),
    );
    const saFile = join(dir, 'secops-sa.json');
    writeFileSync(
      saFile,
      JSON.stringify({
        type: 'service_account',
        project_id: 'secops-proj',
        private_key_id: 'k1',
        private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
          type: 'pkcs8',
          format: 'pem',
        }),
        client_email: 'search@secops-proj.iam.gserviceaccount.com',
        client_id: '1',
        token_uri: 'https://oauth2.googleapis.com/token',
      }),
    );

    const base = {
      project: 'cloudbench-demo',
      locations: ['us-central1'],
      'secops.region': 'europe',
      'secops.credentialsFile': saFile,
    };
    const scenarios = [
      { name: 'proxy', settings: { ...base, 'mtls.clientCertificate': 'off' } },
      { name: 'mtls', settings: { ...base, 'mtls.clientCertificate': 'on' } },
      { name: 'mtls-without-certificate', settings: { ...base, 'mtls.endpoint': 'always', 'mtls.clientCertificate': 'off' } }, // prettier-ignore
    ];
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--require', 'tsx/cjs', join(__dirname, 'check-child.ts'), JSON.stringify(scenarios)],
        {
          cwd: ROOT,
          env: {
            PATH: process.env['PATH'],
            HOME: home,
            // Upper case only: grpc-js itself reads only https_proxy / grpc_proxy.
            HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
            NODE_EXTRA_CA_CERTS: pems.serverCa,
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
    reports = JSON.parse(output.trim().split('\n').pop()!) as Record<string, string>;
  });

  after(async () => {
    for (const u of upstreams) u.close();
    for (const s of servers) s.close();
    await sandbox?.close();
  });

  it('Vertex AI gRPC goes through the proxy to the regional host, and the sandbox behind it answers', () => {
    const models = section('proxy', /## Vertex AI Model Registry/);
    assert.match(models, /## Vertex AI Model Registry: OK/);
    assert.match(models, /`us-central1-aiplatform\.googleapis\.com:443` \(regional\)/);
    assert.match(models, /ListModels \(us-central1, 1 item\) \| OK in \d+ ms: models listed in us-central1/);
    assert.ok(tunnels.includes('us-central1-aiplatform.googleapis.com:443'), tunnels.join(' '));
    const grpc = frontEnds.filter((c) => c.servername === 'us-central1-aiplatform.googleapis.com');
    assert.ok(grpc.length >= 1 && grpc.every((c) => c.alpn === 'h2'), JSON.stringify(grpc));
    // What arrived at the Vertex AI host: the user's token, the quota project of the gcloud login,
    // the routing header and the client header, as Google's own clients send them.
    const listModels = grpcCalls.filter(
      (h) => h[':path'] === '/google.cloud.aiplatform.v1beta1.ModelService/ListModels',
    );
    assert.equal(listModels.length, 1, JSON.stringify(grpcCalls.map((h) => h[':path'])));
    const md = listModels[0];
    assert.equal(md['authorization'], `Bearer ${USER_TOKEN}`);
    assert.equal(md['x-goog-user-project'], 'billing-proj');
    assert.equal(md['x-goog-request-params'], 'parent=projects%2Fcloudbench-demo%2Flocations%2Fus-central1');
    assert.match(String(md['x-goog-api-client']), /^gl-node\/\d+\.\d+\.\d+ grpc\/\d+\.\d+\.\d+ cloudbench\//);
    assert.equal(md[':authority'], 'us-central1-aiplatform.googleapis.com:443');
  });

  it('API Keys and SecOps REST go through the same proxy, each to its own host', () => {
    assert.match(report('proxy'), /Result: 3 of 3 services answered/);
    assert.match(report('proxy'), /- Proxy: `http:\/\/127\.0\.0\.1:\d+`/);
    for (const host of [
      'apikeys.googleapis.com:443',
      'europe-backstory.googleapis.com:443',
      'oauth2.googleapis.com:443',
    ])
      assert.ok(tunnels.includes(host), `${host} in ${tunnels.join(' ')}`);
    assert.match(section('proxy', /## API Keys/), /ListKeys \(1 item\) \| OK in \d+ ms: keys listed/);
    assert.match(
      section('proxy', /## Google SecOps Search/),
      /ListReferenceLists \(1 item\) \| OK in \d+ ms: reference lists listed/,
    );
    // Nothing went around the proxy: every Google host the report names was reached through a tunnel.
    assert.ok(tunnels.every((t) => t.endsWith('.googleapis.com:443')));
  });

  it('names the signed-in account, the file and the quota project, and no token or secret', () => {
    const keys = section('proxy', /## API Keys/);
    assert.match(keys, /\| Account \| `ana@example\.com` \(the signed-in login\) \|/);
    assert.match(
      keys,
      /\| Quota project \| `billing-proj` \(from the credentials file; sent as x-goog-user-project\) \|/,
    );
    assert.match(
      section('proxy', /## Google SecOps Search/),
      /\| Account \| `search@secops-proj\.iam\.gserviceaccount\.com` \|/,
    );
    const all = JSON.stringify(reports);
    for (const secret of [
      USER_TOKEN,
      SA_TOKEN,
      'secret-proxy-tests',
      'refresh-proxy-tests',
      'PRIVATE KEY',
      '.signature',
    ])
      assert.ok(!all.includes(secret), secret);
  });

  it('on the mTLS hosts the device certificate is presented over gRPC and over REST, through the proxy', () => {
    const text = report('mtls');
    assert.match(text, /Result: 3 of 3 services answered/);
    assert.match(text, /`us-central1-aiplatform\.mtls\.googleapis\.com:443` \(mtls, with the client certificate\)/);
    assert.match(text, /`https:\/\/apikeys\.mtls\.googleapis\.com` \(mtls, with the client certificate\)/);
    assert.match(text, /`https:\/\/europe-backstory\.mtls\.googleapis\.com` \(mtls, with the client certificate\)/);
    for (const host of [
      'us-central1-aiplatform.mtls.googleapis.com',
      'apikeys.mtls.googleapis.com',
      'europe-backstory.mtls.googleapis.com',
    ]) {
      assert.ok(tunnels.includes(`${host}:443`), `${host} tunnelled`);
      const seen = frontEnds.filter((c) => c.servername === host);
      assert.ok(seen.length >= 1, `${host} reached`);
      assert.ok(
        seen.every((c) => c.client === DEVICE),
        `${host} saw the client certificate: ${JSON.stringify(seen)}`,
      );
    }
    assert.ok(!text.includes('BEGIN CERTIFICATE') && !text.includes('PRIVATE KEY'));
  });

  it('an mTLS host without a client certificate refuses the handshake, and the report says the calls failed', () => {
    const text = report('mtls-without-certificate');
    assert.match(text, /Result: 0 of 3 services answered/);
    assert.match(
      text,
      /`us-central1-aiplatform\.mtls\.googleapis\.com:443` \(mtls, no client certificate \(cloudbench\.mtls\.clientCertificate\)\)/,
    );
    assert.match(
      section('mtls-without-certificate', /## Vertex AI Model Registry/),
      /ListModels .*\| failed after \d+ ms/,
    );
    assert.match(section('mtls-without-certificate', /## API Keys/), /ListKeys \(1 item\) \| failed after \d+ ms/);
    assert.ok(refusedHandshakes.length >= 2, refusedHandshakes.join('\n'));
    assert.ok(refusedHandshakes.some((r) => r.startsWith('apikeys.mtls.googleapis.com')));
    assert.ok(refusedHandshakes.some((r) => r.startsWith('us-central1-aiplatform.mtls.googleapis.com')));
  });
});
