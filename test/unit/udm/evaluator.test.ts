import * as assert from 'node:assert/strict';
import { compileQuery } from '../../../src/udm/index';
import { compileStatistics } from '../../../src/udm/stats';

const LISTS = { admins: ['root', 'admin'], corp: ['10.0.0.0/8', '2001:db8::/32'], bad: ['evil\\.example$', '^ftp:'] };

const login = {
  metadata: {
    eventType: 'USER_LOGIN',
    eventTimestamp: '2024-03-01T22:15:30.5Z',
    id: 'AAA=',
    productName: 'Okta',
    ingestionLabels: [{ key: 'env', value: 'prod' }],
  },
  principal: { hostname: 'WS-Alice', ip: ['10.1.2.3', '8.8.8.8'], user: { userid: 'root' } },
  target: { hostname: 'mail.evil.example', port: 443, url: 'https://mail.evil.example/x.exe' },
  network: {
    sentBytes: '54321',
    ipProtocol: 'TCP',
    dns: { questions: [{ name: 'a.example' }, { name: 'b.example' }] },
  },
  securityResult: [{ action: ['ALLOW'] }, { action: ['BLOCK', 'QUARANTINE'], severity: 'HIGH' }],
  additional: { source_zone: 'dmz' },
};

function m(query: string, event: unknown = login): boolean {
  const c = compileQuery(query, { referenceLists: LISTS });
  return c.matches(event);
}

describe('UDM evaluator', () => {
  it('compares strings exactly unless nocase', () => {
    assert.equal(m('principal.hostname = "WS-Alice"'), true);
    assert.equal(m('principal.hostname = "ws-alice"'), false);
    assert.equal(m('principal.hostname = "ws-alice" nocase'), true);
    assert.equal(m('principal.hostname != "ws-alice"'), true);
  });

  it('treats regexes as a search (partial match), honouring nocase', () => {
    assert.equal(m('target.hostname = /evil/'), true);
    assert.equal(m('target.hostname = /^evil/'), false);
    assert.equal(m('principal.hostname = /^ws-/'), false);
    assert.equal(m('principal.hostname = /^ws-/ nocase'), true);
    assert.equal(m('principal.hostname != /alice/ nocase'), false);
  });

  it('matches repeated fields when any element matches, nested repeats included', () => {
    assert.equal(m('principal.ip = "8.8.8.8"'), true);
    assert.equal(m('principal.ip = "1.1.1.1"'), false);
    assert.equal(m('security_result.action = "QUARANTINE"'), true);
    assert.equal(m('network.dns.questions.name = "b.example"'), true);
    assert.equal(m('all principal.ip = /^10\\./'), false);
    assert.equal(m('all principal.ip != "1.1.1.1"'), true);
  });

  it('compares enums by name and numbers numerically (64-bit integers arrive as strings)', () => {
    assert.equal(m('metadata.event_type = "USER_LOGIN"'), true);
    assert.equal(m('metadata.event_type = USER_LOGIN'), true);
    assert.equal(m('network.ip_protocol != "UDP"'), true);
    assert.equal(m('network.sent_bytes > 50000'), true);
    assert.equal(m('network.sent_bytes > 60000'), false);
    assert.equal(m('target.port >= 443 and target.port < 444'), true);
  });

  it('reads timestamps as epoch seconds', () => {
    const secs = Date.UTC(2024, 2, 1, 22, 15, 30) / 1000;
    assert.equal(m(`metadata.event_timestamp.seconds = ${secs}`), true);
    assert.equal(m(`metadata.event_timestamp.seconds > ${secs}`), false);
    assert.equal(m('metadata.event_timestamp.nanos = 500000000'), true);
    assert.equal(m('timestamp.get_hour(metadata.event_timestamp.seconds) = 22'), true);
    assert.equal(m('timestamp.get_date(metadata.event_timestamp.seconds) = "2024-03-01"'), true);
  });

  it('applies AND, OR, NOT and implicit AND across lines', () => {
    assert.equal(m('principal.hostname = "WS-Alice"\ntarget.port = 22'), false);
    assert.equal(m('principal.hostname = "WS-Alice"\ntarget.port = 443'), true);
    assert.equal(m('target.port = 22 OR target.port = 443'), true);
    assert.equal(m('NOT (target.port = 22 OR target.port = 443)'), false);
    assert.equal(m('not target.port = 22 and principal.ip = "10.1.2.3"'), true);
  });

  it('uses proto3 defaults for missing fields', () => {
    assert.equal(m('src.hostname = ""'), true);
    assert.equal(m('src.hostname != ""'), false);
    assert.equal(m('target.hostname != ""'), true);
    assert.equal(m('network.received_bytes = 0'), true);
    assert.equal(m('network.dns.response = false'), true);
  });

  it('evaluates functions', () => {
    assert.equal(m('net.ip_in_range_cidr(principal.ip, "8.8.0.0/16")'), true);
    assert.equal(m('net.ip_in_range_cidr(principal.ip, "192.168.0.0/16")'), false);
    assert.equal(m('re.regex(target.url, `\\.exe$`)'), true);
    assert.equal(m('strings.to_lower(principal.hostname) = "ws-alice"'), true);
    assert.equal(m('strings.concat(principal.hostname, "-", target.port) = "WS-Alice-443"'), true);
    assert.equal(m('re.capture(target.url, "https://([^/]+)/") = "mail.evil.example"'), true);
    assert.equal(m('strings.extract_domain(target.url) = "evil.example"'), true);
  });

  it('evaluates reference lists: exact, regex, cidr and negated', () => {
    assert.equal(m('principal.user.userid in %admins'), true);
    assert.equal(m('not principal.user.userid in %admins'), false);
    assert.equal(m('principal.hostname in %admins'), false);
    assert.equal(m('target.hostname in regex %bad'), true);
    assert.equal(m('principal.ip in cidr %corp'), true);
    assert.equal(m('principal.ip not in cidr %corp'), false);
    assert.equal(m('principal.ip in cidr %missing'), false);
  });

  it('reads labels and struct keys', () => {
    assert.equal(m('metadata.ingestion_labels["env"] = "prod"'), true);
    assert.equal(m('metadata.ingestion_labels["env"] = "dev"'), false);
    assert.equal(m('additional.fields["source_zone"] = "dmz"'), true);
    assert.equal(m('additional.source_zone = "dmz"'), true);
  });

  it('compares a field with another field', () => {
    const ev = { principal: { hostname: 'a', ip: ['1.1.1.1'] }, target: { hostname: 'a', ip: ['2.2.2.2', '1.1.1.1'] } };
    assert.equal(m('principal.hostname = target.hostname', ev), true);
    assert.equal(m('principal.ip = target.ip', ev), true);
    assert.equal(m('principal.hostname != target.hostname', ev), false);
  });

  it('never throws on odd event shapes', () => {
    const c = compileQuery(
      'principal.ip = "1" and metadata.event_timestamp.seconds > 1 and principal.user.userid in %admins',
      { referenceLists: LISTS },
    );
    for (const ev of [
      null,
      undefined,
      42,
      'x',
      [],
      { principal: 5 },
      { principal: { ip: [null, {}, 3] } },
      { metadata: { eventTimestamp: 'garbage' } },
    ]) {
      assert.equal(c.matches(ev), false);
    }
  });

  it('aggregates statistics sections: groups, counts, order and limit', () => {
    const events = [
      {
        metadata: { eventType: 'USER_LOGIN', id: '1', eventTimestamp: '2024-01-01T00:00:10Z' },
        principal: { user: { userid: 'bob' } },
        target: { hostname: 'h1' },
        network: { sentBytes: '10' },
      },
      {
        metadata: { eventType: 'USER_LOGIN', id: '2', eventTimestamp: '2024-01-01T00:00:05Z' },
        principal: { user: { userid: 'bob' } },
        target: { hostname: 'h2' },
        network: { sentBytes: '30' },
      },
      {
        metadata: { eventType: 'USER_LOGIN', id: '3', eventTimestamp: '2024-01-01T00:00:20Z' },
        principal: { user: { userid: 'eve' } },
        target: { hostname: 'h1' },
        network: { sentBytes: '5' },
      },
      {
        metadata: { eventType: 'USER_LOGIN', id: '4', eventTimestamp: '2024-01-01T00:00:30Z' },
        principal: { user: { userid: 'bob' } },
        target: { hostname: 'h1' },
      },
      { metadata: { eventType: 'NETWORK_DNS', id: '5' }, principal: { user: { userid: 'bob' } } },
    ];
    const c = compileQuery(
      '$user = principal.user.userid\nmetadata.event_type = "USER_LOGIN"\nmatch:\n  $user\noutcome:\n  $logins = count(metadata.id)\n  $hosts = count_distinct(target.hostname)\n  $first = earliest(metadata.event_timestamp)\n  $bytes = sum(network.sent_bytes)\n  $largest = max(network.sent_bytes)\norder:\n  $logins desc\nlimit:\n  5',
    );
    assert.equal(c.hasErrors, false, JSON.stringify(c.diagnostics));
    const rows = c.aggregate!(events);
    assert.deepEqual(rows, [
      { user: 'bob', logins: 3, hosts: 2, first: Date.UTC(2024, 0, 1, 0, 0, 5) / 1000, bytes: 40, largest: 30 },
      { user: 'eve', logins: 1, hosts: 1, first: Date.UTC(2024, 0, 1, 0, 0, 20) / 1000, bytes: 5, largest: 5 },
    ]);
    const limited = compileQuery(
      '$user = principal.user.userid\nmatch:\n  $user\noutcome:\n  $n = count(metadata.id)\norder:\n  $user desc\nlimit:\n  1',
    );
    assert.deepEqual(limited.aggregate!(events), [{ user: 'eve', n: 1 }]);
  });

  it('aggregates with the statistics engine: time buckets, condition: and the same rows as the editor', () => {
    const text =
      'metadata.event_type = "USER_LOGIN"\nmatch:\n  target.hostname by 1h\noutcome:\n  $n = count(metadata.id)\ncondition:\n  $n > 1';
    const events = [
      {
        metadata: { eventType: 'USER_LOGIN', id: '1', eventTimestamp: '2024-01-01T00:10:00Z' },
        target: { hostname: 'h1' },
      },
      {
        metadata: { eventType: 'USER_LOGIN', id: '2', eventTimestamp: '2024-01-01T00:50:00Z' },
        target: { hostname: 'h1' },
      },
      {
        metadata: { eventType: 'USER_LOGIN', id: '3', eventTimestamp: '2024-01-01T01:10:00Z' },
        target: { hostname: 'h1' },
      },
      {
        metadata: { eventType: 'NETWORK_DNS', id: '4', eventTimestamp: '2024-01-01T01:20:00Z' },
        target: { hostname: 'h1' },
      },
    ];
    const compiled = compileQuery(text);
    const rows = compiled.aggregate!(events);
    assert.deepEqual(rows, [{ 'target.hostname': 'h1', time_bucket: Date.UTC(2024, 0, 1) / 1000, n: 2 }]);
    const table = compileStatistics(text)!.engine.run(events, { timeZone: 'UTC', filter: (e) => compiled.matches(e) });
    assert.deepEqual(
      rows.map((r) => Object.values(r)),
      table.rows,
    );
  });

  it('has no aggregate for a plain filter, and one row for an outcome without match', () => {
    assert.equal(compileQuery('principal.hostname = "x"').aggregate, undefined);
    const c = compileQuery('target.port = 443\noutcome:\n  $n = count(metadata.id)');
    assert.deepEqual(c.aggregate!([login, { metadata: { id: 'x' }, target: { port: 80 } }]), [{ n: 1 }]);
  });

  it('filters 200,000 events with a selective query quickly enough for the sandbox', () => {
    const events = Array.from({ length: 200000 }, (_, i) => ({
      metadata: { eventType: i % 2 ? 'NETWORK_DNS' : 'USER_LOGIN', id: String(i) },
      principal: { hostname: `h${i % 100}`, ip: [`10.0.${i % 256}.1`] },
    }));
    const c = compileQuery(
      'metadata.event_type = "USER_LOGIN" and principal.hostname = "h42" and net.ip_in_range_cidr(principal.ip, "10.0.0.0/16")',
    );
    let n = 0;
    for (const e of events) if (c.matches(e)) n++;
    assert.equal(n, 2000);
  });
});
