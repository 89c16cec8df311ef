import { strict as assert } from 'node:assert';
import {
  TokenDestinationError,
  TokenPolicy,
  classifyDestination,
  parseDestination,
  type ConsentRequest,
} from '../../../src/core/google/token-policy';
import { isLoopbackHost } from '../../../src/core/loopback';

const kindOf = (destination: string, universe = 'googleapis.com', allowed: string[] = []): string =>
  classifyDestination(destination, universe, allowed).kind;

describe('token policy: where a Google credential may go', () => {
  it('allows the universe hosts: global, regional, mTLS, PSC and the SecOps regions', () => {
    for (const d of [
      'https://aiplatform.googleapis.com',
      'https://us-central1-aiplatform.googleapis.com:443',
      'aiplatform.googleapis.com:443',
      'europe-west4-aiplatform.googleapis.com',
      'https://aiplatform.mtls.googleapis.com',
      'https://us-central1-aiplatform.mtls.googleapis.com:443',
      'https://apikeys.googleapis.com/v2/projects/p/locations/global/keys',
      'https://apikeys.mtls.googleapis.com',
      'https://aiplatform-corp.p.googleapis.com',
      'https://us-central1-aiplatform-xyz12.p.googleapis.com',
      'https://backstory.googleapis.com/v1/events:udmSearch?query=a',
      'https://europe-backstory.googleapis.com',
      'https://me-central2-backstory.googleapis.com',
      'https://aiplatform.sandbox.googleapis.com',
      'https://aiplatform.mtls.sandbox.googleapis.com',
    ]) {
      assert.equal(kindOf(d), 'universe', d);
    }
  });

  it('refuses look-alike hosts, other domains and IP addresses', () => {
    for (const d of [
      'https://googleapis.com.attacker.example',
      'https://aiplatform.googleapis.com.attacker.example',
      'https://localhost.attacker.example',
      'https://attacker.example/aiplatform.googleapis.com',
      'https://attacker.example?aiplatform.googleapis.com',
      'https://attacker.example#.googleapis.com',
      'https://googleapis.com',
      'https://evilgoogleapis.com',
      'https://a.b.googleapis.com',
      'https://bucket.storage.googleapis.com',
      'https://aiplatform.googleapis.co',
      'https://142.250.1.1',
      'https://[2607:f8b0::1]',
      'https://0.0.0.0:8080',
      'https://192.0.2.2:443',
      'https://127.0.0.1.nip.io',
    ]) {
      assert.equal(kindOf(d), 'unlisted', d);
    }
  });

  it('treats mixed case and a trailing dot like the host they spell, and the port as the port', () => {
    assert.equal(kindOf('https://AIPlatform.GoogleAPIs.COM'), 'universe');
    assert.equal(kindOf('https://aiplatform.googleapis.com.'), 'universe');
    assert.equal(kindOf('https://aiplatform.googleapis.com.:8443'), 'universe');
    assert.equal(kindOf('https://GOOGLEAPIS.COM.Attacker.Example.'), 'unlisted');
    assert.equal(kindOf('https://aiplatform.googleapis.com..'), 'refused');
    const parsed = parseDestination('https://AIPlatform.GoogleAPIs.com.:8443/x');
    assert.ok('host' in parsed);
    assert.deepEqual(parsed, {
      host: 'aiplatform.googleapis.com',
      port: 8443,
      secure: true,
      display: 'aiplatform.googleapis.com:8443',
    });
  });

  it('refuses user information in the address, which disguises the real host', () => {
    for (const d of [
      'https://aiplatform.googleapis.com@attacker.example',
      'https://user:pass@aiplatform.googleapis.com',
      'https://@aiplatform.googleapis.com',
      'https://attacker.example\\@aiplatform.googleapis.com',
      'aiplatform.googleapis.com@attacker.example:443',
    ]) {
      const v = classifyDestination(d, 'googleapis.com');
      assert.equal(v.kind, 'refused', d);
      assert.ok(v.kind === 'refused' && /user information/.test(v.reason), d);
    }
  });

  it('refuses plaintext http to anything but loopback, even a Google host', () => {
    const v = classifyDestination('http://aiplatform.googleapis.com', 'googleapis.com');
    assert.equal(v.kind, 'refused');
    assert.match(v.kind === 'refused' ? v.reason : '', /plaintext/);
    assert.equal(kindOf('http://gateway.corp.example', 'googleapis.com', ['gateway.corp.example']), 'refused');
    assert.equal(kindOf('ftp://aiplatform.googleapis.com'), 'refused');
  });

  it('knows loopback in every spelling, and nothing that only looks like it', () => {
    for (const d of [
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://localhost:1',
      'http://LOCALHOST.:9',
      'http://[::1]:50051',
      'http://[0:0:0:0:0:0:0:1]',
      'http://[::ffff:127.0.0.1]:80',
      '127.0.0.1:50051',
    ]) {
      assert.equal(kindOf(d), 'loopback', d);
    }
    for (const h of ['localhost.attacker.example', '127.0.0.1.nip.io', '0.0.0.0', '::', 'localhostx', '128.0.0.1'])
      assert.ok(!isLoopbackHost(h), h);
  });

  it('uses the configured universe instead of googleapis.com', () => {
    assert.equal(kindOf('https://aiplatform.example-universe.goog', 'example-universe.goog'), 'universe');
    assert.equal(kindOf('https://us-central1-aiplatform.example-universe.goog', 'Example-Universe.goog.'), 'universe');
    assert.equal(kindOf('https://aiplatform.googleapis.com', 'example-universe.goog'), 'unlisted');
    assert.equal(
      kindOf('https://aiplatform.example-universe.goog.attacker.example', 'example-universe.goog'),
      'unlisted',
    );
    // Google's sandbox hosts exist only in the default universe.
    assert.equal(kindOf('https://aiplatform.sandbox.example-universe.goog', 'example-universe.goog'), 'unlisted');
    // A universe that is a bare suffix would allow half the internet.
    for (const bad of ['com', 'goog', '10.0.0.1', '*.example.com', ''])
      assert.equal(kindOf('https://aiplatform.com', bad), 'refused', bad);
  });

  it('allows other hosts only as listed: by host for any port, or by host:port for that port', () => {
    assert.equal(kindOf('https://gw.corp.example', 'googleapis.com', ['gw.corp.example']), 'allowed');
    assert.equal(kindOf('https://GW.corp.example.:9443', 'googleapis.com', ['gw.corp.example']), 'allowed');
    assert.equal(kindOf('https://gw.corp.example:9443', 'googleapis.com', ['gw.corp.example:9443']), 'allowed');
    assert.equal(kindOf('https://gw.corp.example:8443', 'googleapis.com', ['gw.corp.example:9443']), 'unlisted');
    assert.equal(kindOf('https://gw.corp.example.attacker.example', 'googleapis.com', ['gw.corp.example']), 'unlisted');
    assert.equal(kindOf('https://[fd00::2]:8443', 'googleapis.com', ['[fd00::2]:8443']), 'allowed');
    assert.equal(kindOf('https://gw.corp.example', 'googleapis.com', ['user@gw.corp.example']), 'unlisted');
  });

  describe('TokenPolicy.authorize', () => {
    const asked: ConsentRequest[] = [];
    const policy = (answer: boolean | undefined, allowed: string[] = []): TokenPolicy =>
      new TokenPolicy({
        universeDomain: () => 'googleapis.com',
        allowedHosts: () => allowed,
        ...(answer === undefined
          ? {}
          : {
              askConsent: async (r: ConsentRequest) => {
                asked.push(r);
                await new Promise((resolve) => setTimeout(resolve, 5));
                return answer;
              },
            }),
      });
    beforeEach(() => {
      asked.length = 0;
    });

    it('passes universe and listed hosts without asking', async () => {
      const p = policy(false, ['gw.corp.example']);
      await p.authorize('https://us-central1-aiplatform.googleapis.com:443');
      await p.authorize('https://gw.corp.example/v2/keys');
      assert.equal(asked.length, 0);
    });

    it('refuses an unlisted host when nobody can be asked, naming the host and the setting', async () => {
      await assert.rejects(
        policy(undefined).authorize('https://googleapis.com.attacker.example:8443/v1/x'),
        (e: unknown) =>
          e instanceof TokenDestinationError &&
          e.destination === 'googleapis.com.attacker.example:8443' &&
          /cloudbench\.allowedTokenHosts/.test(e.message) &&
          /Nothing was sent/.test(e.message),
      );
    });

    it('asks once for concurrent calls to the same host, with the exact host, and honours a yes', async () => {
      const p = policy(true);
      await Promise.all([
        p.authorize('https://gw.corp.example:9443/a'),
        p.authorize('https://gw.corp.example:9443/b'),
        p.authorize('https://GW.corp.example.:9443/c'),
      ]);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]?.display, 'gw.corp.example:9443');
      assert.equal(asked[0]?.universeDomain, 'googleapis.com');
    });

    it('remembers a yes per host and port for the session, and asks about another port', async () => {
      const p = policy(true);
      await p.authorize('https://gw.corp.example:9443/a');
      await p.authorize('https://gw.corp.example:9443/later');
      assert.equal(asked.length, 1, 'asked once, before the first call');
      await p.authorize('https://gw.corp.example:9444/a');
      assert.deepEqual(
        asked.map((r) => r.display),
        ['gw.corp.example:9443', 'gw.corp.example:9444'],
      );
      p.reset();
      await p.authorize('https://gw.corp.example:9443/a');
      assert.equal(asked.length, 3, 'asked again once the settings changed');
    });

    it('remembers a no for the session, so a refresh does not ask again', async () => {
      const p = policy(false);
      await assert.rejects(p.authorize('https://evil.example'), TokenDestinationError);
      await assert.rejects(p.authorize('https://evil.example/again'), TokenDestinationError);
      assert.equal(asked.length, 1);
      p.reset();
      await assert.rejects(p.authorize('https://evil.example'), TokenDestinationError);
      assert.equal(asked.length, 2);
    });

    it('never gives a Google credential to loopback or plaintext, and never asks about them', async () => {
      const p = policy(true);
      await assert.rejects(p.authorize('http://127.0.0.1:8080'), /sandbox token/);
      await assert.rejects(p.authorize('http://gw.corp.example'), /plaintext/);
      await assert.rejects(p.authorize('https://a@aiplatform.googleapis.com'), /user information/);
      assert.equal(asked.length, 0);
    });
  });
});
