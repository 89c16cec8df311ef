import { strict as assert } from 'node:assert';
import { redactSecrets } from '../../../src/core/secrets';

describe('redactSecrets', () => {
  const key = 'AIza' + 'Sy'.padEnd(35, 'x');
  const cases: Array<[string, string]> = [
    [`created key ${key}`, key],
    ['authorization: Bearer ya29.a0AfH6SMBtoken', 'ya29.a0AfH6SMBtoken'],
    ['GET /v2/keys:lookupKey?keyString=secretvalue&x=1', 'secretvalue'],
    ['{"keyString":"abc123secret","name":"k"}', 'abc123secret'],
    ['{"private_key":"-----BEGIN PRIVATE KEY-----\\nMIIE\\n-----END PRIVATE KEY-----\\n"}', 'MIIE'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEsecret\n-----END RSA PRIVATE KEY-----', 'MIIEsecret'],
  ];
  for (const [line, secret] of cases) {
    it(`removes ${secret.slice(0, 8)}… from a log line`, () => {
      const out = redactSecrets(line);
      assert.ok(!out.includes(secret), out);
      assert.match(out, /redacted/);
    });
  }

  it('leaves ordinary lines alone', () => {
    const line = '[models] listed 30 models in us-central1';
    assert.equal(redactSecrets(line), line);
  });
});
