import assert from 'node:assert/strict';
import { pivotRequest } from '../../../../../src/core/secops/results/pivot-requests';
import { PIVOT_ACTIONS, pivotResultKind } from '../../../../../src/core/secops/results/pivots';

describe('what a pivot asks for', () => {
  it('asks each call with the indicator field its action names', () => {
    assert.deepEqual(pivotRequest('assetEvents.hostname', 'h1'), { call: 'assetEvents', asset: { hostname: 'h1' } });
    assert.deepEqual(pivotRequest('assetEvents.ip', '10.0.0.1'), {
      call: 'assetEvents',
      asset: { assetIpAddress: '10.0.0.1' },
    });
    assert.deepEqual(pivotRequest('assetEvents.mac', 'aa:bb'), { call: 'assetEvents', asset: { mac: 'aa:bb' } });
    assert.deepEqual(pivotRequest('assetEvents.productId', 'CS:12'), {
      call: 'assetEvents',
      asset: { productId: 'CS:12' },
    });
    assert.deepEqual(pivotRequest('assets.domain', 'x.test'), { call: 'assets', artifact: { domainName: 'x.test' } });
    assert.deepEqual(pivotRequest('assets.ip', '1.2.3.4'), {
      call: 'assets',
      artifact: { destinationIpAddress: '1.2.3.4' },
    });
    assert.deepEqual(pivotRequest('assets.md5', 'm'), { call: 'assets', artifact: { hashMd5: 'm' } });
    assert.deepEqual(pivotRequest('assets.sha1', 's1'), { call: 'assets', artifact: { hashSha1: 's1' } });
    assert.deepEqual(pivotRequest('assets.sha256', 's2'), { call: 'assets', artifact: { hashSha256: 's2' } });
    assert.deepEqual(pivotRequest('iocDetails.domain', 'x.test'), {
      call: 'iocDetails',
      artifact: { domainName: 'x.test' },
    });
    assert.deepEqual(pivotRequest('iocDetails.ip', '1.2.3.4'), {
      call: 'iocDetails',
      artifact: { destinationIpAddress: '1.2.3.4' },
    });
    assert.deepEqual(pivotRequest('assetAliases.mac', 'aa'), { call: 'assetAliases', asset: { mac: 'aa' } });
    assert.deepEqual(pivotRequest('userAliases.email', 'a@b'), { call: 'userAliases', user: { email: 'a@b' } });
    assert.deepEqual(pivotRequest('userAliases.username', 'al'), { call: 'userAliases', user: { username: 'al' } });
    assert.deepEqual(pivotRequest('userAliases.windowsSid', 'S-1'), {
      call: 'userAliases',
      user: { windowsSid: 'S-1' },
    });
    assert.deepEqual(pivotRequest('userAliases.employeeId', 'E1'), { call: 'userAliases', user: { employeeId: 'E1' } });
    assert.deepEqual(pivotRequest('userAliases.productObjectId', 'p'), {
      call: 'userAliases',
      user: { productObjectId: 'p' },
    });
    assert.deepEqual(pivotRequest('rawLog', 'events/1'), { call: 'rawLog', name: 'events/1' });
    assert.deepEqual(pivotRequest('fullEvent', 'events/1'), { call: 'fullEvent', name: 'events/1' });
  });

  it('gives the alias call the number alone of an events-style product ID', () => {
    assert.deepEqual(pivotRequest('assetAliases.productId', 'CS:1234'), {
      call: 'assetAliases',
      asset: { productId: '1234' },
    });
    assert.deepEqual(pivotRequest('assetAliases.productId', '1234'), {
      call: 'assetAliases',
      asset: { productId: '1234' },
    });
    assert.deepEqual(pivotRequest('assetAliases.productId', 'CS:12-34'), {
      call: 'assetAliases',
      asset: { productId: 'CS:12-34' },
    });
  });

  it('every action asks for exactly one indicator value, and calls what its result kind shows', () => {
    for (const action of PIVOT_ACTIONS) {
      const request = pivotRequest(action, 'v');
      const kind = pivotResultKind(action);
      assert.equal(request.call, kind === 'text' ? 'rawLog' : kind === 'json' ? 'fullEvent' : kind, action);
      const indicator = 'asset' in request ? request.asset : 'artifact' in request ? request.artifact : undefined;
      const user = 'user' in request ? request.user : undefined;
      const values = Object.values(indicator ?? user ?? { name: (request as { name: string }).name });
      assert.deepEqual(values, ['v'], action);
    }
  });
});
