// Hosts are built from two things that can come from outside: location segments of resource names
// (responses name operations, copies and listings) and endpoint settings. A hostile name must be
// refused before any host is built from it or any token is asked for; and every part of the
// extension must agree on what is the local machine.
import { strict as assert } from 'node:assert';
import { ResourceNameError, checkLocationId, isLocationId } from '../../../src/core/names';
import { ModelRegistryClient, locationOfName } from '../../../src/core/models/client';
import { planEndpoint, planRestEndpoint } from '../../../src/core/google/endpoints';
import { tokenSourceFor } from '../../../src/core/google/credentials';
import { TokenPolicy, classifyDestination } from '../../../src/core/google/token-policy';
import { googleDispatcher } from '../../../src/core/google/rest';
import { endpointHost, isLoopbackEndpoint, isLoopbackHost } from '../../../src/core/loopback';

const policy = new TokenPolicy({ universeDomain: () => 'googleapis.com', allowedHosts: () => [] });

const HOSTILE_LOCATIONS = [
  'attacker.example?',
  'attacker.example#',
  'us-central1.attacker.example',
  'evil.example:443',
  'US-CENTRAL1',
  '1us',
  '-us',
  'us central1',
  'us_central1',
  'us%2ecentral1',
  'us\u0000',
  '',
  'a'.repeat(51),
];

describe('names checked before they become hosts', () => {
  it('location ids follow the seed grammar [a-z][a-z0-9-]*', () => {
    for (const ok of ['us-central1', 'europe-west4', 'global', 'asia-northeast1', 'u1'])
      assert.ok(isLocationId(ok), ok);
    for (const bad of HOSTILE_LOCATIONS) assert.ok(!isLocationId(bad), JSON.stringify(bad));
    assert.throws(() => checkLocationId('attacker.example?'), /no host is built from it/);
  });

  it('locationOfName refuses a hostile location segment instead of routing by it', () => {
    assert.equal(locationOfName('projects/p/locations/us-central1/models/m@2'), 'us-central1');
    for (const bad of HOSTILE_LOCATIONS) {
      const name = `projects/p/locations/${bad}/operations/1`;
      assert.throws(() => locationOfName(name), ResourceNameError, JSON.stringify(name));
    }
    assert.throws(() => locationOfName('projects/p/locations/us@attacker.example/models/1'), ResourceNameError);
  });

  it('no regional host is planned for a location that is not a location id', () => {
    assert.equal(planEndpoint({ location: 'us-central1', env: {} }).host, 'us-central1-aiplatform.googleapis.com');
    for (const bad of HOSTILE_LOCATIONS.filter((l) => l !== ''))
      assert.throws(() => planEndpoint({ location: bad, env: {} }), ResourceNameError, JSON.stringify(bad));
    assert.throws(() => planRestEndpoint('secops', { region: 'eu.attacker.example', env: {} }), ResourceNameError);
  });

  it('a hostile operation or model name never reaches the token source (and so never the consent dialog)', async () => {
    const asked: string[] = [];
    const client = new ModelRegistryClient({
      tokenSource: {
        kind: 'google',
        getAccessToken: async (destination: string) => {
          asked.push(destination);
          throw new Error(`a token was asked for ${destination}`);
        },
      },
      endpoint: { env: {}, defaultClientCertSource: null },
      retry: { maxRetries: 0 },
    });
    try {
      await assert.rejects(
        client.getOperation('projects/p/locations/attacker.example?/operations/1'),
        ResourceNameError,
      );
      await assert.rejects(
        client.getModel({ name: 'projects/p/locations/us-central1.attacker.example/models/1' }),
        ResourceNameError,
      );
      await assert.rejects(
        client.resumeOperation('delete', 'projects/p/locations/evil.example:443/operations/9'),
        ResourceNameError,
      );
      assert.deepEqual(asked, []);
    } finally {
      client.close();
    }
  });
});

describe('one loopback definition', () => {
  const LOOPBACK = [
    '127.0.0.1',
    '127.1.2.3',
    '127.1',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:127.0.0.1',
    'localhost',
    'LOCALHOST.',
  ];
  const NOT_LOOPBACK = [
    '10.0.0.1',
    '::ffff:10.0.0.1',
    '0.0.0.0',
    '::',
    '128.0.0.1',
    '127.0.0.1.nip.io',
    'localhost.attacker.example',
    'localhostx',
    'aiplatform.googleapis.com',
  ];
  /** Every way an endpoint setting can spell a host. */
  const spellings = (host: string): string[] => {
    const bracketed = host.includes(':') ? `[${host}]` : host;
    return [
      bracketed,
      `${bracketed}:50051`,
      `http://${bracketed}:8080`,
      `https://${bracketed}/v1`,
      ...(host.includes(':') ? [host] : []),
    ];
  };

  it('reads the host out of URLs, host:port and [v6]:port', () => {
    assert.equal(endpointHost('http://[::ffff:127.0.0.1]:8080/x'), '[::ffff:7f00:1]');
    assert.equal(endpointHost('[::1]:443'), '::1');
    assert.equal(endpointHost('127.0.0.1:50051'), '127.0.0.1');
    assert.equal(endpointHost('::1'), '::1');
    assert.equal(endpointHost('not a url://'), 'not a url');
    assert.ok(!isLoopbackEndpoint('not a url://'));
  });

  for (const host of LOOPBACK)
    it(`${host} is loopback everywhere: endpoints, tokens, channels, proxies, destinations`, () => {
      assert.ok(isLoopbackHost(host), host);
      for (const e of spellings(host)) {
        assert.ok(isLoopbackEndpoint(e), e);
        assert.equal(tokenSourceFor(e, { scopes: [], policy }).kind, 'sandbox', e);
      }
      const explicit = host.includes(':') ? `[${host}]:50051` : `${host}:50051`;
      assert.equal(planEndpoint({ apiEndpoint: explicit, env: {} }).plaintext, true, explicit);
      assert.equal(
        googleDispatcher(undefined, { HTTPS_PROXY: 'http://proxy.example:3128' }, `http://${explicit}`),
        undefined,
      );
      assert.equal(classifyDestination(`http://${explicit}`, 'googleapis.com', []).kind, 'loopback', explicit);
    });

  for (const host of NOT_LOOPBACK)
    it(`${host} is not loopback anywhere`, () => {
      assert.ok(!isLoopbackHost(host), host);
      for (const e of spellings(host)) assert.ok(!isLoopbackEndpoint(e), e);
      const explicit = host.includes(':') ? `[${host}]:443` : `${host}:443`;
      assert.equal(planEndpoint({ apiEndpoint: explicit, env: {} }).plaintext, false, explicit);
      assert.notEqual(classifyDestination(`https://${explicit}`, 'googleapis.com', []).kind, 'loopback', explicit);
    });
});
