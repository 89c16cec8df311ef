// The gRPC channel target: the loopback sandbox's IP address goes to grpc-js' IP resolver (no DNS
// resolver on a cold start), every other endpoint is resolved by name as before.
import { strict as assert } from 'node:assert';
import { channelTarget } from '../../../src/core/models/client';
import { planEndpoint } from '../../../src/core/google/endpoints';

describe('gRPC channel target', () => {
  it('names a loopback IP address by its IP scheme, with the same host:port', () => {
    assert.equal(channelTarget(planEndpoint({ apiEndpoint: '127.0.0.1:8085', env: {} })), 'ipv4:127.0.0.1:8085');
    assert.equal(channelTarget(planEndpoint({ apiEndpoint: '[::1]:8085', env: {} })), 'ipv6:[::1]:8085');
  });

  it('leaves names, and every TLS endpoint, to DNS', () => {
    assert.equal(channelTarget(planEndpoint({ apiEndpoint: 'localhost:8085', env: {} })), 'localhost:8085');
    const regional = planEndpoint({ location: 'europe-west4', env: {} });
    assert.equal(regional.plaintext, false);
    assert.equal(channelTarget(regional), regional.address);
    assert.equal(channelTarget({ address: '10.0.0.1:443', host: '10.0.0.1', plaintext: false }), '10.0.0.1:443');
  });
});
