// The quick filter's field names in the words people use, and what it says when nothing matches.
import assert from 'node:assert/strict';
import { discoverColumns, defaultColumns } from '../../../../../src/core/secops/results/fields';
import { FieldResolver, filterIndices, parseFilter, SearchIndex } from '../../../../../src/core/secops/results/table';

const rows = [
  {
    name: 'e0',
    udm: {
      metadata: { eventType: 'NETWORK_DNS', eventTimestamp: '2024-01-01T00:00:00Z' },
      principal: { hostname: 'alpha', ip: ['10.0.0.1'] },
      target: { hostname: 'dns.example' },
    },
  },
  {
    name: 'e1',
    udm: {
      metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2024-01-01T00:01:00Z' },
      principal: { hostname: 'beta', ip: ['10.0.0.2'] },
      target: { hostname: 'alpha-files' },
    },
  },
];

function filter(text: string): number[] {
  const fields = new FieldResolver('udm.', defaultColumns('udm'), discoverColumns(rows));
  return [...filterIndices(rows, text, new SearchIndex(rows), fields)];
}

describe('quick filter fields', () => {
  it('takes a UDM path with or without "udm.", in snake_case or camelCase', () => {
    assert.deepEqual(filter('udm.principal.hostname:beta'), [1]);
    assert.deepEqual(filter('principal.hostname:beta'), [1]);
    assert.deepEqual(filter('metadata.event_type:user_login'), [1]);
    assert.deepEqual(filter('metadata.eventType:network'), [0]);
  });

  it('takes a short field name for every path it ends, and a column title', () => {
    // "hostname" is principal.hostname or target.hostname: row 1's target is alpha-files.
    assert.deepEqual(filter('hostname:alpha'), [0, 1]);
    assert.deepEqual(filter('"Event type":dns'), [0]);
    assert.deepEqual(filter('principal:beta'), [1]);
    assert.deepEqual(filter('-hostname:beta'), [0]);
  });

  it('says which fields it searched when nothing matches, and suggests fields as they are typed', () => {
    const fields = new FieldResolver('udm.', defaultColumns('udm'), discoverColumns(rows));
    assert.deepEqual(fields.describe('hostname:gamma'), [
      { field: 'hostname', paths: ['principal.hostname', 'target.hostname'] },
    ]);
    assert.deepEqual(fields.suggest('host'), ['principal.hostname', 'target.hostname']);
    assert.deepEqual(fields.suggest('event_ty'), ['metadata.eventType']);
    assert.deepEqual(parseFilter('"Event type":dns x'), [
      { path: 'Event type', text: 'dns', negate: false },
      { text: 'x', negate: false },
    ]);
  });
});
