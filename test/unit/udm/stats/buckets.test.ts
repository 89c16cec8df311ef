import * as assert from 'node:assert/strict';
import { bucketStart, formatInZone, parseBucket, ZoneOffsets } from '../../../../src/udm/stats';
import type { TimeBucketSpec } from '../../../../src/udm/stats';
import { BucketNumbers } from '../../../../src/udm/stats/buckets';

const at = (iso: string): number => Date.parse(iso) / 1000;
const H: TimeBucketSpec = { count: 1, unit: 'hour' };
const DAY: TimeBucketSpec = { count: 1, unit: 'day' };

function label(iso: string, spec: TimeBucketSpec, zone: ZoneOffsets): string {
  return formatInZone(bucketStart(at(iso), spec, zone), zone);
}

describe('statistics: time buckets', () => {
  it('parses the documented units and abbreviations', () => {
    assert.deepEqual(parseBucket('2h'), { count: 2, unit: 'hour' });
    assert.deepEqual(parseBucket('minute'), { count: 1, unit: 'minute' });
    assert.deepEqual(parseBucket('15m'), { count: 15, unit: 'minute' });
    assert.deepEqual(parseBucket('mo'), { count: 1, unit: 'month' });
    assert.deepEqual(parseBucket('1w'), { count: 1, unit: 'week' });
    assert.deepEqual(parseBucket('d'), { count: 1, unit: 'day' });
    assert.equal(parseBucket('0h'), undefined);
    assert.equal(parseBucket('5s'), undefined);
  });

  it('UTC: minute, hour, 2h, day buckets start on the clock', () => {
    const utc = new ZoneOffsets('UTC');
    assert.equal(label('2024-03-01T22:15:30Z', { count: 1, unit: 'minute' }, utc), '2024-03-01 22:15 +00:00');
    assert.equal(label('2024-03-01T22:15:30Z', { count: 15, unit: 'minute' }, utc), '2024-03-01 22:15 +00:00');
    assert.equal(label('2024-03-01T22:29:59Z', { count: 15, unit: 'minute' }, utc), '2024-03-01 22:15 +00:00');
    assert.equal(label('2024-03-01T22:15:30Z', H, utc), '2024-03-01 22:00 +00:00');
    assert.equal(label('2024-03-01T23:15:30Z', { count: 2, unit: 'hour' }, utc), '2024-03-01 22:00 +00:00');
    assert.equal(label('2024-03-01T23:59:59Z', DAY, utc), '2024-03-01 00:00 +00:00');
  });

  it('a day in Tokyo starts at local midnight (15:00 UTC the day before)', () => {
    const tokyo = new ZoneOffsets('Asia/Tokyo');
    assert.equal(bucketStart(at('2024-03-01T14:59:59Z'), DAY, tokyo), at('2024-02-29T15:00:00Z'));
    assert.equal(bucketStart(at('2024-03-01T15:00:00Z'), DAY, tokyo), at('2024-03-01T15:00:00Z'));
  });

  it('hour buckets in a half-hour zone (Kolkata, +05:30) start at local full hours', () => {
    const kolkata = new ZoneOffsets('Asia/Kolkata');
    // 10:40 UTC is 16:10 local: the bucket starts 16:00 local = 10:30 UTC
    assert.equal(bucketStart(at('2024-03-01T10:40:00Z'), H, kolkata), at('2024-03-01T10:30:00Z'));
  });

  it('weeks start on a local Sunday, months on the local first', () => {
    const ny = new ZoneOffsets('America/New_York');
    // Wednesday 2024-03-06 12:00 local -> Sunday 2024-03-03 00:00 EST (05:00Z)
    assert.equal(bucketStart(at('2024-03-06T17:00:00Z'), { count: 1, unit: 'week' }, ny), at('2024-03-03T05:00:00Z'));
    // 2024-03-01 03:00Z is still February 29 in New York
    assert.equal(bucketStart(at('2024-03-01T03:00:00Z'), { count: 1, unit: 'month' }, ny), at('2024-02-01T05:00:00Z'));
    // April's first starts in daylight time (-04:00)
    assert.equal(bucketStart(at('2024-04-20T12:00:00Z'), { count: 1, unit: 'month' }, ny), at('2024-04-01T04:00:00Z'));
    assert.equal(label('2024-04-20T12:00:00Z', { count: 1, unit: 'month' }, ny), '2024-04-01 00:00 -04:00');
  });

  it('spring forward in New York: the day is 23 hours, the skipped hour has no bucket', () => {
    const ny = new ZoneOffsets('America/New_York');
    // 2024-03-10: 02:00 EST jumps to 03:00 EDT (07:00Z)
    assert.equal(bucketStart(at('2024-03-10T06:30:00Z'), H, ny), at('2024-03-10T06:00:00Z')); // 01:30 EST
    assert.equal(bucketStart(at('2024-03-10T07:30:00Z'), H, ny), at('2024-03-10T07:00:00Z')); // 03:30 EDT
    assert.equal(label('2024-03-10T07:30:00Z', H, ny), '2024-03-10 03:00 -04:00');
    const dayStart = bucketStart(at('2024-03-10T20:00:00Z'), DAY, ny);
    const nextDay = bucketStart(at('2024-03-11T20:00:00Z'), DAY, ny);
    assert.equal(dayStart, at('2024-03-10T05:00:00Z'));
    assert.equal((nextDay - dayStart) / 3600, 23);
    // a 2h bucket whose local start (02:00) does not exist starts at the change
    assert.equal(bucketStart(at('2024-03-10T07:30:00Z'), { count: 2, unit: 'hour' }, ny), at('2024-03-10T07:00:00Z'));
  });

  it('fall back in New York: the repeated 01:00 hour is two buckets, the day is 25 hours', () => {
    const ny = new ZoneOffsets('America/New_York');
    // 2024-11-03: 02:00 EDT goes back to 01:00 EST (06:00Z)
    const first = bucketStart(at('2024-11-03T05:30:00Z'), H, ny); // 01:30 EDT
    const second = bucketStart(at('2024-11-03T06:30:00Z'), H, ny); // 01:30 EST
    assert.equal(first, at('2024-11-03T05:00:00Z'));
    assert.equal(second, at('2024-11-03T06:00:00Z'));
    assert.equal(formatInZone(first, ny), '2024-11-03 01:00 -04:00');
    assert.equal(formatInZone(second, ny), '2024-11-03 01:00 -05:00');
    const dayStart = bucketStart(at('2024-11-03T12:00:00Z'), DAY, ny);
    const nextDay = bucketStart(at('2024-11-04T12:00:00Z'), DAY, ny);
    assert.equal((nextDay - dayStart) / 3600, 25);
    // a 2h bucket spanning the change keeps one start (00:00 EDT) for both 01:30s
    const two: TimeBucketSpec = { count: 2, unit: 'hour' };
    assert.equal(bucketStart(at('2024-11-03T05:30:00Z'), two, ny), at('2024-11-03T04:00:00Z'));
    assert.equal(bucketStart(at('2024-11-03T06:30:00Z'), two, ny), at('2024-11-03T04:00:00Z'));
  });

  it('numbered buckets of many events start where bucketStart says, across clock changes and odd offsets', () => {
    const specs: TimeBucketSpec[] = [
      H,
      DAY,
      { count: 2, unit: 'hour' },
      { count: 15, unit: 'minute' },
      { count: 7, unit: 'minute' },
      { count: 1, unit: 'week' },
      { count: 1, unit: 'month' },
    ];
    const cases: Array<[string, string]> = [
      ['America/New_York', '2024-11-02T00:00:00Z'], // fall back
      ['America/New_York', '2024-03-09T00:00:00Z'], // spring forward
      ['Australia/Lord_Howe', '2024-04-06T00:00:00Z'], // a half-hour clock change
      ['Asia/Kathmandu', '2024-01-01T00:00:00Z'], // +05:45
      ['Africa/Monrovia', '1970-01-01T00:00:00Z'], // -00:44:30 until 1972
      ['America/New_York', '1880-01-01T00:00:00Z'], // local mean time, -04:56:02
    ];
    for (const [timeZone, from] of cases) {
      const zone = new ZoneOffsets(timeZone);
      for (const spec of specs) {
        const numbers = new BucketNumbers(spec, zone);
        const seen: number[] = [];
        // Two passes over three days (every 97 s), the second one reading the cached quarter hours.
        for (let pass = 0; pass < 2; pass++)
          for (let t = at(from); t < at(from) + 3 * 86_400; t += 97) {
            const n = numbers.of(t);
            assert.equal(
              numbers.starts[n],
              bucketStart(t, spec, zone),
              `${timeZone} ${spec.count}${spec.unit} at ${t}`,
            );
            if (!seen.includes(n)) seen.push(n);
          }
        assert.deepEqual(
          seen,
          seen.map((_, i) => i),
          'numbered in the order first seen',
        );
        assert.equal(new Set(numbers.starts).size, numbers.starts.length, 'one number per bucket');
      }
    }
  });

  it('refuses an unknown time zone', () => {
    assert.throws(() => new ZoneOffsets('Mars/Olympus'), RangeError);
  });
});
