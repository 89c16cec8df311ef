import * as assert from 'node:assert/strict';
import { compileQuery } from '../../../src/udm/index';

const EVENT = {
  principal: { hostname: 'WEB-01', ip: ['10.0.0.1', '192.0.2.7'] },
  about: [{ hostname: 'a' }, { hostname: 'b' }],
  additional: { fields: { pod_name: 'p1' } },
  target: { hostname: 'Evil.Example' },
};
const LISTS = { hosts: ['web-01', 'db-01'], nets: ['192.0.2.0/24'], rx: ['^evil\\.'] };

const CASES: Array<[string, boolean]> = [
  ['principal.hostname in %hosts nocase', true],
  ['principal.hostname in %hosts', false],
  ['target.hostname in regex %rx nocase', true],
  ['target.hostname in regex %rx', false],
  ['principal.ip in cidr %nets', true],
  ['not principal.ip in cidr %nets', false],
  ['principal.ip not in cidr %nets', false],
  ['re.regex(target.hostname, "^evil") nocase', true],
  ['re.regex(target.hostname, "^evil")', false],
  ['principal.ip[0] = "10.0.0.1"', true],
  ['principal.ip[1] = "10.0.0.1"', false],
  ['about[1].hostname = "b"', true],
  ['about[0].hostname = "b"', false],
  ['$e.principal.hostname = "WEB-01"', true],
  ['$e.udm.principal.hostname = "WEB-01"', true],
  ['additional.fields["pod_name"] = "p1"', true],
  ['principal.hostname = "web-01" nocase', true],
  ['all principal.ip = "10.0.0.1"', false],
  ['net.ip_in_range_cidr(all principal.ip, "10.0.0.0/8")', false],
  ['net.ip_in_range_cidr(all principal.ip, "0.0.0.0/0")', true],
  ['net.ip_in_range_cidr(any principal.ip, "10.0.0.0/8")', true],
  ['strings.to_lower(principal.hostname) = "web-01"', true],
  ['1024 < arrays.length(principal.ip) + 1023', true],
  ['arrays.length(principal.ip) * 2 = 4', true],
  ['strings.coalesce(principal.ip[1], "x") in cidr %nets', true],
];

describe('UDM evaluator: the documented syntax in the filter', () => {
  for (const [q, expected] of CASES) {
    it(`${q} → ${String(expected)}`, () => {
      const c = compileQuery(q, { referenceLists: LISTS });
      assert.deepEqual(
        c.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
        [],
      );
      assert.equal(c.matches(EVENT), expected);
    });
  }
});

describe('UDM evaluator: enum order, function results against fields, placeholders on the right', () => {
  const login = { metadata: { eventType: 'USER_LOGIN' }, principal: { hostname: 'web' }, target: { hostname: 'web' } };
  const dns = { metadata: { eventType: 'NETWORK_DNS' }, principal: { hostname: 'web' }, target: { hostname: 'db' } };
  const holds = (q: string): boolean[] => {
    const c = compileQuery(q);
    assert.deepEqual(
      c.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      [],
      q,
    );
    return [login, dns].map((ev) => c.matches(ev));
  };

  it('orders enum values by their schema number (USER_* between 15000 and 15014)', () => {
    assert.deepEqual(
      holds('metadata.event_type >= "USER_UNCATEGORIZED" and metadata.event_type <= "USER_RESOURCE_DELETION"'),
      [true, false],
    );
    assert.deepEqual(holds('metadata.event_type > "USER_LOGIN"'), [false, true]);
  });

  it('compares a function result with a field', () => {
    assert.deepEqual(holds('re.capture(principal.hostname, ".*") = target.hostname'), [true, false]);
  });

  it('reads `field = $name` as a definition when $name is defined nowhere else', () => {
    assert.deepEqual(holds('target.hostname = $h\nprincipal.hostname = $h'), [true, false]);
    assert.deepEqual(holds('target.user.userid = $userid\nprincipal.hostname = "web"'), [true, true]);
  });
});
