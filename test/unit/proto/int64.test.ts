import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { decodeMessage, encodeMessage, messageType } from '../../../src/core/proto';

const TIMESTAMP = 'google.protobuf.Timestamp';
const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

describe('proto: int64 fields read as numbers when small, as Longs otherwise', () => {
  const seconds = (value: bigint): string =>
    decodeMessage<{ seconds: string }>(TIMESTAMP, encodeMessage(TIMESTAMP, { seconds: String(value) })).seconds;

  it('gives the exact decimal string of every int64', () => {
    const edges = [0n, 1n, 127n, 128n, 2n ** 49n - 1n, 2n ** 49n, 2n ** 53n + 1n, MAX, -1n, -(2n ** 49n), MIN];
    for (const v of edges) assert.equal(seconds(v), String(v));
    fc.assert(
      fc.property(fc.bigInt({ min: MIN, max: MAX }), (v) => seconds(v) === String(v)),
      { numRuns: 2000 },
    );
  });

  it('reads values below 2^49 without a Long, and larger or negative ones with one', () => {
    const raw = (value: bigint): unknown =>
      (
        messageType(TIMESTAMP).decode(encodeMessage(TIMESTAMP, { seconds: String(value), nanos: 7 })) as unknown as {
          seconds: unknown;
        }
      ).seconds;
    assert.equal(raw(1_795_771_333n), 1_795_771_333);
    assert.equal(raw(2n ** 49n - 1n), 2 ** 49 - 1);
    for (const v of [2n ** 49n, MAX, -1n]) {
      const long = raw(v) as { toString(): string };
      assert.equal(typeof long, 'object');
      assert.equal(long.toString(), String(v));
    }
  });

  it('still refuses a varint cut short', () => {
    assert.throws(() => decodeMessage(TIMESTAMP, Uint8Array.from([0x08, 0xff])), RangeError);
    assert.throws(() => decodeMessage(TIMESTAMP, Uint8Array.from([0x08, 0x80, 0x80])), RangeError);
  });
});
