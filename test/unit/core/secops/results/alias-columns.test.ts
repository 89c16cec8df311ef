// The Aliases pivots' table shows every value the API returned: one alias per (hostname, IP, MAC)
// seen together, so a laptop that gets a new DHCP lease each day has rows that differ only in
// their IP, and the table must not reduce them to identical hostname rows.
import assert from 'node:assert/strict';
import { cellText, defaultColumns } from '../../../../../src/core/secops/results/fields';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-20T00:00:00Z');

/** ListAssetAliases' `aliases`, in the documented shape, one DHCP lease a day. */
const ASSET_ALIASES = [70, 77, 84, 91, 98, 105, 112].map((last, d) => ({
  metadata: {
    interval: {
      startTime: new Date(T0 + d * DAY).toISOString(),
      endTime: new Date(T0 + (d + 1) * DAY - 1).toISOString(),
    },
  },
  entity: { asset: { hostname: 'lt-ben-02', ip: [`10.20.1.${last}`], mac: ['00:1a:2b:3c:4d:5e'], assetId: 'CS:7712' } },
}));

const table = (kind: 'assetAliases' | 'userAliases', rows: unknown[]): string[][] =>
  rows.map((row) => defaultColumns(kind).map((c) => cellText(row, c)));

describe('aliases tables: every value the API returned', () => {
  it('an asset alias row shows its hostname, IP, MAC and asset id, so daily IP changes are visible', () => {
    assert.deepEqual(
      defaultColumns('assetAliases').map((c) => c.label),
      ['Hostname', 'IP', 'MAC', 'Asset ID', 'From', 'To'],
    );
    const rows = table('assetAliases', ASSET_ALIASES);
    assert.deepEqual(
      rows.map((r) => r[1]),
      ['10.20.1.70', '10.20.1.77', '10.20.1.84', '10.20.1.91', '10.20.1.98', '10.20.1.105', '10.20.1.112'],
    );
    assert.equal(new Set(rows.map((r) => r.join('|'))).size, 7, 'no two rows read the same');
    assert.deepEqual(rows[0], [
      'lt-ben-02',
      '10.20.1.70',
      '00:1a:2b:3c:4d:5e',
      'CS:7712',
      '2026-11-20T00:00:00.000Z',
      '2026-11-20T23:59:59.999Z',
    ]);
  });

  it("the documentation's example (a hostname and an interval only) leaves the other columns empty", () => {
    const doc = { metadata: { interval: { startTime: 'a', endTime: 'b' } }, entity: { asset: { hostname: 'h' } } };
    assert.deepEqual(table('assetAliases', [doc])[0], ['h', '', '', '', 'a', 'b']);
  });

  it('a user alias row shows its user id and its email addresses, each in a column', () => {
    const row = {
      metadata: { interval: { startTime: 'a', endTime: 'b' } },
      entity: {
        user: { userid: 'ben', emailAddresses: ['ben@example.com', 'b.k@example.com'], userDisplayName: 'Ben K' },
      },
    };
    const cells = Object.fromEntries(defaultColumns('userAliases').map((c) => [c.label, cellText(row, c)]));
    assert.equal(cells.User, 'ben');
    assert.equal(cells.Email, 'ben@example.com, b.k@example.com');
    assert.equal(cells.Name, 'Ben K');
  });
});
