// What every SecOps page protocol checks first: a message is an object with a string type.
import assert from 'node:assert/strict';
import { assertTypedMessage, isRecord } from '../../../../src/core/secops/page-message';

class ProtocolError extends Error {}

describe('page messages', () => {
  it('are records: objects, not null and not arrays', () => {
    assert.equal(isRecord({}), true);
    assert.equal(isRecord({ type: 'ready' }), true);
    for (const v of [null, undefined, [], 'ready', 1, true]) assert.equal(isRecord(v), false, String(v));
  });

  it("pass with a string type and are refused otherwise, with the protocol's own error", () => {
    assert.doesNotThrow(() => assertTypedMessage({ type: 'ready' }, ProtocolError));
    for (const bad of [null, [], 'ready', {}, { type: 1 }, { type: null }, [{ type: 'ready' }]])
      assert.throws(
        () => assertTypedMessage(bad, ProtocolError),
        (err: unknown) => err instanceof ProtocolError && err.message === 'a message must be an object with a type',
        JSON.stringify(bad),
      );
  });
});
