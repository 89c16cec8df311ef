// Check Connection's advice when the endpoint cannot be planned names the setting to change: the
// mTLS refusal outside googleapis.com names cloudbench.mtls.endpoint and cloudbench.universeDomain.
import { strict as assert } from 'node:assert';
import { EndpointConfigError, planEndpoint } from '../../../../src/core/google/endpoints';
import { endpointAdvice, runConnectionCheck, type ServiceProbe } from '../../../../src/features/connection/check';

function probeOf(endpoint: () => unknown): ServiceProbe {
  return {
    service: 'models',
    title: 'Vertex AI Model Registry',
    endpoint: () => Promise.resolve().then(endpoint) as never,
    destination: () => Promise.reject(new Error('not reached')),
    tokens: () => {
      throw new Error('not reached');
    },
    call: { name: 'ListModels', run: () => Promise.reject(new Error('not reached')) },
  };
}

describe('Check Connection endpoint advice', () => {
  it('names cloudbench.mtls.endpoint and cloudbench.universeDomain when mTLS is asked for in another universe', async () => {
    const [check] = await runConnectionCheck([
      probeOf(() => planEndpoint({ universeDomain: 'example-universe.test', mtlsEndpoint: 'always', env: {} })),
    ]);
    assert.match(check.endpointError ?? '', /mTLS is not supported/);
    assert.match(check.advice ?? '', /cloudbench\.mtls\.endpoint/);
    assert.match(check.advice ?? '', /cloudbench\.universeDomain/);
    assert.doesNotMatch(check.advice ?? '', /named above/);
    assert.equal(check.call.skipped, true);
  });

  it('names the setting an endpoint error carries, or one its message names', () => {
    assert.equal(
      endpointAdvice(new EndpointConfigError('The universe domain cannot be blank.', 'cloudbench.universeDomain')),
      'Fix cloudbench.universeDomain; nothing was sent.',
    );
    assert.equal(
      endpointAdvice(new Error('"x:y" in cloudbench.endpoints.apiKeys is not a URL.')),
      'Fix cloudbench.endpoints.apiKeys; nothing was sent.',
    );
    assert.match(endpointAdvice(new Error('broken')), /cloudbench\.endpoints\.\*/);
  });
});
