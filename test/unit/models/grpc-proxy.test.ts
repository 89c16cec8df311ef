import { strict as assert } from 'node:assert';
import { withGrpcProxyVariables } from '../../../src/core/models/client';

describe('proxy variables for gRPC channels', () => {
  it('lends HTTPS_PROXY and NO_PROXY to the lower-case names grpc-js reads, only while a channel is built', () => {
    const env: NodeJS.ProcessEnv = { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'internal.example' };
    const during = withGrpcProxyVariables(() => ({ https: env['https_proxy'], no: env['no_proxy'] }), env);
    assert.deepEqual(during, { https: 'http://proxy:3128', no: 'internal.example' });
    assert.deepEqual(env, { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: 'internal.example' });
  });

  it('falls back to HTTP_PROXY, leaves lower-case values alone, and puts things back after a throw', () => {
    const env: NodeJS.ProcessEnv = { HTTP_PROXY: 'http://plain:8080' };
    assert.equal(
      withGrpcProxyVariables(() => env['https_proxy'], env),
      'http://plain:8080',
    );
    const mine: NodeJS.ProcessEnv = { HTTPS_PROXY: 'http://upper:1', grpc_proxy: 'http://grpc:2', no_proxy: 'a' };
    withGrpcProxyVariables(() => {
      assert.equal(mine['https_proxy'], undefined);
      assert.equal(mine['no_proxy'], 'a');
    }, mine);
    assert.throws(() =>
      withGrpcProxyVariables(() => {
        throw new Error('channel failed');
      }, env),
    );
    assert.deepEqual(env, { HTTP_PROXY: 'http://plain:8080' });
    assert.equal(
      withGrpcProxyVariables(() => JSON.stringify({}), {}),
      '{}',
    );
  });
});
