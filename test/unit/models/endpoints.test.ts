import { strict as assert } from 'node:assert';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chooseEndpoint,
  EndpointConfigError,
  findDefaultClientCertSource,
  mtlsHostFor,
  MutualTlsChannelError,
  splitHostPort,
  type ClientCertificate,
} from '../../../src/core/google/endpoints';
import { channelCredentials, ModelRegistryClient } from '../../../src/core/models/client';

const CERT: ClientCertificate = { cert: '-----BEGIN CERTIFICATE-----\nsupplied\n-----END CERTIFICATE-----', key: 'k' };
const DEFAULT_CERT: ClientCertificate = {
  cert: '-----BEGIN CERTIFICATE-----\ndefault\n-----END CERTIFICATE-----',
  key: 'k',
};

describe('models endpoint choice (seed 000 Authentication 3-6)', () => {
  it('uses the regional host on port 443 by default', async () => {
    const c = await chooseEndpoint({ location: 'us-central1', env: {}, defaultClientCertSource: null });
    assert.equal(c.address, 'us-central1-aiplatform.googleapis.com:443');
    assert.equal(c.mtls, false);
    assert.equal(c.plaintext, false);
    assert.equal(c.reason, 'regional');
  });

  it('uses the global host for project-level calls and the "global" location', async () => {
    assert.equal(
      (await chooseEndpoint({ env: {}, defaultClientCertSource: null })).address,
      'aiplatform.googleapis.com:443',
    );
    assert.equal(
      (await chooseEndpoint({ location: 'global', env: {}, defaultClientCertSource: null })).address,
      'aiplatform.googleapis.com:443',
    );
  });

  it('lets an explicit endpoint win over env variables and universe domain', async () => {
    const c = await chooseEndpoint({
      location: 'europe-west4',
      apiEndpoint: 'vertex.example.com:8443',
      universeDomain: 'example.goog',
      env: { GOOGLE_API_USE_MTLS_ENDPOINT: 'always' },
      defaultClientCertSource: null,
    });
    assert.equal(c.address, 'vertex.example.com:8443');
    assert.equal(c.reason, 'explicit');
    assert.equal(c.mtls, false);
    assert.equal(c.plaintext, false);
  });

  it('uses plaintext only for loopback endpoints', async () => {
    for (const ep of ['127.0.0.1:9000', 'localhost:1', '[::1]:4000']) {
      const c = await chooseEndpoint({
        apiEndpoint: ep,
        env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
        clientCertSource: () => CERT,
      });
      assert.equal(c.plaintext, true, ep);
      assert.equal(c.clientCert, undefined, ep);
    }
    const remote = await chooseEndpoint({ apiEndpoint: '10.0.0.5:9000', env: {}, defaultClientCertSource: null });
    assert.equal(remote.plaintext, false);
  });

  it('GOOGLE_API_USE_MTLS_ENDPOINT=always picks the mTLS host even without a certificate', async () => {
    const c = await chooseEndpoint({
      location: 'us-central1',
      env: { GOOGLE_API_USE_MTLS_ENDPOINT: 'always' },
      defaultClientCertSource: null,
    });
    assert.equal(c.address, 'us-central1-aiplatform.mtls.googleapis.com:443');
    assert.equal(c.mtls, true);
    assert.equal(c.clientCert, undefined);
  });

  it('GOOGLE_API_USE_MTLS_ENDPOINT=never keeps the regular host even with a certificate (still presented)', async () => {
    const c = await chooseEndpoint({
      location: 'us-central1',
      env: { GOOGLE_API_USE_MTLS_ENDPOINT: 'never', GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
      clientCertSource: () => CERT,
    });
    assert.equal(c.address, 'us-central1-aiplatform.googleapis.com:443');
    assert.equal(c.mtls, false);
    assert.deepEqual(c.clientCert, CERT);
  });

  it('auto (the default) switches to mTLS only when a client certificate exists', async () => {
    const withCert = await chooseEndpoint({
      location: 'asia-east1',
      env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
      clientCertSource: () => CERT,
    });
    assert.equal(withCert.host, 'asia-east1-aiplatform.mtls.googleapis.com');
    assert.equal(withCert.mtls, true);
    const noCert = await chooseEndpoint({
      location: 'asia-east1',
      env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
      defaultClientCertSource: null,
    });
    assert.equal(noCert.host, 'asia-east1-aiplatform.googleapis.com');
    assert.equal(noCert.mtls, false);
  });

  it('ignores certificate sources unless GOOGLE_API_USE_CLIENT_CERTIFICATE is true', async () => {
    let called = false;
    const c = await chooseEndpoint({
      location: 'us-east1',
      env: {},
      clientCertSource: () => {
        called = true;
        return CERT;
      },
    });
    assert.equal(called, false);
    assert.equal(c.mtls, false);
    assert.equal(
      (
        await chooseEndpoint({
          location: 'us-east1',
          env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'FALSE' },
          clientCertSource: () => CERT,
        })
      ).mtls,
      false,
    );
  });

  it('prefers the supplied certificate source, then falls back to the default one', async () => {
    const env = { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'True' };
    const supplied = await chooseEndpoint({
      location: 'us-east1',
      env,
      clientCertSource: () => CERT,
      defaultClientCertSource: () => DEFAULT_CERT,
    });
    assert.deepEqual(supplied.clientCert, CERT);
    const fallback = await chooseEndpoint({
      location: 'us-east1',
      env,
      defaultClientCertSource: async () => DEFAULT_CERT,
    });
    assert.deepEqual(fallback.clientCert, DEFAULT_CERT);
    assert.equal(fallback.mtls, true);
  });

  it('finds the default certificate provider through the Endpoint Verification metadata file', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cb-home-'));
    assert.equal(findDefaultClientCertSource(home), null);
    mkdirSync(join(home, '.secureConnect'));
    const script = join(home, 'provider.js');
    writeFileSync(
      script,
      "process.stdout.write('-----BEGIN CERTIFICATE-----\\nAAA\\n-----END CERTIFICATE-----\\n-----BEGIN PRIVATE KEY-----\\nBBB\\n-----END PRIVATE KEY-----\\n')",
    );
    writeFileSync(
      join(home, '.secureConnect', 'context_aware_metadata.json'),
      JSON.stringify({ cert_provider_command: [process.execPath, script] }),
    );
    const source = findDefaultClientCertSource(home);
    assert.ok(source);
    const cert = await source();
    assert.match(cert.cert, /AAA/);
    assert.match(cert.key, /BBB/);
  });

  it('applies the universe domain from the option, then GOOGLE_CLOUD_UNIVERSE_DOMAIN', async () => {
    assert.equal(
      (
        await chooseEndpoint({
          location: 'u1',
          universeDomain: 'example.goog',
          env: { GOOGLE_CLOUD_UNIVERSE_DOMAIN: 'other.goog' },
        })
      ).host,
      'u1-aiplatform.example.goog',
    );
    assert.equal(
      (
        await chooseEndpoint({
          location: 'u1',
          universeDomain: '',
          env: { GOOGLE_CLOUD_UNIVERSE_DOMAIN: 'other.goog' },
        })
      ).host,
      'u1-aiplatform.other.goog',
    );
    await assert.rejects(chooseEndpoint({ env: { GOOGLE_CLOUD_UNIVERSE_DOMAIN: '  ' } }), EndpointConfigError);
    await assert.rejects(chooseEndpoint({ universeDomain: '   ', env: {} }), EndpointConfigError);
  });

  it('refuses the universe domain together with mTLS', async () => {
    await assert.rejects(
      chooseEndpoint({
        location: 'u1',
        universeDomain: 'example.goog',
        env: { GOOGLE_API_USE_MTLS_ENDPOINT: 'always' },
      }),
      (err: unknown) => err instanceof MutualTlsChannelError && /universe/.test(err.message),
    );
    await assert.rejects(
      chooseEndpoint({
        location: 'u1',
        universeDomain: 'example.goog',
        env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
        clientCertSource: () => CERT,
      }),
      MutualTlsChannelError,
    );
  });

  it('refuses malformed environment values', async () => {
    await assert.rejects(chooseEndpoint({ env: { GOOGLE_API_USE_MTLS_ENDPOINT: 'sometimes' } }), MutualTlsChannelError);
    await assert.rejects(chooseEndpoint({ env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'yes' } }), EndpointConfigError);
  });

  it('reports a failing certificate source as a mutual-TLS channel error', async () => {
    await assert.rejects(
      chooseEndpoint({
        location: 'u1',
        env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
        clientCertSource: () => {
          throw new Error('no smart card');
        },
      }),
      (err: unknown) => err instanceof MutualTlsChannelError && /no smart card/.test(err.message),
    );
  });

  it('raises MutualTlsChannelError when the mTLS channel cannot be built from the certificate', async () => {
    const choice = await chooseEndpoint({
      location: 'u1',
      env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
      clientCertSource: () => ({ cert: 'not a pem', key: 'not a key' }),
    });
    assert.throws(() => channelCredentials(choice), MutualTlsChannelError);
  });

  it('derives mTLS hosts like the generated clients and parses host:port forms', () => {
    assert.equal(mtlsHostFor('aiplatform.googleapis.com'), 'aiplatform.mtls.googleapis.com');
    assert.equal(mtlsHostFor('aiplatform.sandbox.googleapis.com'), 'aiplatform.mtls.sandbox.googleapis.com');
    assert.equal(mtlsHostFor('vertex.example.com'), 'vertex.example.com');
    assert.deepEqual(splitHostPort('h.example:80'), { host: 'h.example', port: 80 });
    assert.deepEqual(splitHostPort('h.example'), { host: 'h.example', port: 443 });
    assert.deepEqual(splitHostPort('https://h.example:8443/'), { host: 'h.example', port: 8443 });
    assert.deepEqual(splitHostPort('[::1]:9'), { host: '::1', port: 9 });
    assert.throws(() => splitHostPort('h:99999'), EndpointConfigError);
    assert.throws(() => splitHostPort('h:'), EndpointConfigError);
  });
});

describe('models client endpoint wiring (no network)', () => {
  it('picks the regional endpoint per location from each request name', async () => {
    const client = new ModelRegistryClient({
      tokenSource: { kind: 'sandbox', getAccessToken: async () => 't' },
      endpoint: { env: {}, defaultClientCertSource: null },
    });
    try {
      assert.equal((await client.endpointFor('europe-west4')).address, 'europe-west4-aiplatform.googleapis.com:443');
      assert.equal((await client.endpointFor(undefined)).address, 'aiplatform.googleapis.com:443');
    } finally {
      client.close();
    }
    const universe = new ModelRegistryClient({
      tokenSource: { kind: 'sandbox', getAccessToken: async () => 't' },
      endpoint: { universeDomain: 'example.goog', env: {}, defaultClientCertSource: null },
    });
    try {
      assert.equal((await universe.endpointFor('u1')).host, 'u1-aiplatform.example.goog');
    } finally {
      universe.close();
    }
  });

  it('fails the call with MutualTlsChannelError when the mTLS transport cannot be built', async () => {
    const client = new ModelRegistryClient({
      tokenSource: { kind: 'sandbox', getAccessToken: async () => 't' },
      endpoint: {
        env: { GOOGLE_API_USE_CLIENT_CERTIFICATE: 'true' },
        clientCertSource: () => ({ cert: 'garbage', key: 'garbage' }),
      },
      retry: { maxRetries: 0 },
    });
    try {
      await assert.rejects(
        client.getModel({ name: 'projects/p/locations/us-central1/models/1' }),
        MutualTlsChannelError,
      );
    } finally {
      client.close();
    }
  });
});
