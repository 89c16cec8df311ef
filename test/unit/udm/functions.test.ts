import * as assert from 'node:assert/strict';
import { FUNCTIONS, findFunction } from '../../../src/udm/functions';
import { analyze, compileQuery } from '../../../src/udm/index';

/**
 * The documented example of every search function (../shared/reference/udm-functions.md), as a
 * query: examples written `call // result` become `call = result`; where the page's sample has a
 * slip, the line says so. Each must check without errors and hold on the event given.
 */
const EVENT = {
  principal: { hostname: 'google', port: 80, ip: ['10.0.0.1', '192.0.2.7'], domain: { name: 'dGVzdA==' } },
  target: { hostname: 'www.example.com' },
  network: {
    email: { from: 'email@google.com', to: 'TEST@google.com' },
    sentBytes: '600000000',
    tls: { server: { certificate: { notAfter: '2020-01-01T00:00:00Z' } } },
  },
  metadata: { eventTimestamp: '2024-02-22T15:43:00Z', id: 'AAAA' },
};

const SEARCH_EXAMPLES: Record<string, string> = {
  'arrays.concat': 'arrays.concat(["test1", "test2"], ["test3"]) = ["test1", "test2", "test3"]',
  'arrays.index_to_float': 'arrays.index_to_float([1.2, 2.1, 3.5, 4.6], 1) = 2.1',
  'arrays.index_to_int': 'arrays.index_to_int([1, 2, 3], 0) = 1',
  'arrays.index_to_str': 'arrays.index_to_str(["test1", "test2", "test3", "test4"], 1) = "test2"',
  'arrays.join_string': 'arrays.join_string(["foo", "bar"], ",") = "foo,bar"',
  'arrays.length': 'arrays.length($e.principal.ip) = 2',
  'arrays.max': 'arrays.max([10, 20]) = 20.000000',
  'arrays.min': 'arrays.min([10.000000, 20.000000, 0.0], true) = 10.000000',
  'arrays.size': 'arrays.size(["test1", "test2"]) = 2',
  // the page drops the closing quote of the bytes literal
  'bytes.to_base64':
    'bytes.to_base64(b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000\') = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="',
  'cast.as_bool': 'cast.as_bool("TRUE") = true',
  'cast.as_float': 'cast.as_float("1.012345678") > 1.0123456',
  'cast.as_int': 'cast.as_int("2.012345678") = 2',
  'cast.as_string': 'cast.as_string(123) = "123"',
  'math.abs': '300 < math.abs($e.metadata.event_timestamp.seconds - 1643687343)',
  'math.ceil': 'math.ceil(2.000000) = 2',
  'math.floor': 'math.floor(1.234568) = 1',
  'math.is_increasing': 'math.is_increasing(1716769112, 1716769113, 1716769114) = true',
  'math.log': 'math.log($e.network.sent_bytes) > 20',
  'math.pow': 'math.pow(2.200000, 3) > 10.6479',
  'math.random': 'if(math.random() >= 0 and math.random() < 1) = true',
  'math.round': 'math.round(10.7) = 11',
  'math.sqrt': 'math.sqrt(3) > 1.73205',
  'net.ip_in_range_cidr': 'net.ip_in_range_cidr($e.principal.ip, "192.0.2.0/24")',
  're.capture': '"google.com" = re.capture($e.network.email.from , "@(.*)")',
  're.capture_all': 'arrays.index_to_str(re.capture_all("a=b.conf c=d.conf", `=([^ ]*.conf)`), 1) = "d.conf"',
  're.regex': 're.regex($e.principal.hostname, "google")',
  're.replace': '"email@google.org" = re.replace($e.network.email.from, "com", "org")',
  'strings.base64_decode': '"test" = strings.base64_decode($e.principal.domain.name)',
  'strings.coalesce': '"email@google.com" = strings.coalesce($e.network.email.from, $e.network.email.to)',
  'strings.concat': '"google:80" = strings.concat($e.principal.hostname, ":", $e.principal.port)',
  'strings.contains': 'strings.contains("thisisastring", "is") = true',
  'strings.count_substrings': 'strings.count_substrings("fooABAbarABAbazABA", "AB") = 3',
  'strings.ends_with': 'strings.ends_with(target.hostname, "com") = true',
  'strings.extract_domain': 'strings.extract_domain("https://google.co.in") = "google.co.in"',
  'strings.extract_hostname': 'strings.extract_hostname("1234") = "1234"',
  // the page's sample is cut after b'
  'strings.from_base64': 'strings.from_base64("invalid-value") = b\'\'',
  'strings.from_hex': 'strings.from_hex("1234") = b\'1234\'',
  'strings.length': 'strings.length("str") = 3',
  'strings.ltrim': 'strings.ltrim("a aastraa aa ", " a") = "straa aa "',
  'strings.reverse': 'strings.reverse("str") = "rts"',
  // the page prints "a aasstr", which no trim of "a aastraa aa " gives
  'strings.rtrim': 'strings.rtrim("a aastraa aa ", " a") = "a aastr"',
  'strings.split': 'strings.split("a:b:c:d", ":") = ["a", "b", "c", "d"]',
  'strings.to_lower': '"test@google.com" = strings.to_lower($e.network.email.to)',
  'strings.to_upper': 'strings.to_upper("example") = "EXAMPLE"',
  'strings.trim': 'strings.trim("a aastraa aa ", " a") = "str"',
  'strings.url_decode': 'strings.url_decode("three%20nine%20four") = "three nine four"',
  'timestamp.as_unix_seconds': 'timestamp.as_unix_seconds("2024-02-22 10:43:00", "America/New_York") = 1708616580',
  // the page's not_after path is network.tls.server.certificate.not_after in the UDM schema
  'timestamp.current_seconds':
    '86400 < timestamp.current_seconds() - $e.network.tls.server.certificate.not_after.seconds',
  'timestamp.get_date':
    '$ts = metadata.event_timestamp.seconds\ntimestamp.get_date($ts, "America/Los_Angeles") = "2024-02-22"',
  'timestamp.get_day_of_week': '$ts = metadata.event_timestamp.seconds\ntimestamp.get_day_of_week($ts) = 5',
  'timestamp.get_hour': '$ts = metadata.event_timestamp.seconds\ntimestamp.get_hour($ts, "America/Los_Angeles") = 7',
  'timestamp.get_minute': '$ts = metadata.event_timestamp.seconds\ntimestamp.get_minute($ts) = 43',
  'timestamp.get_timestamp':
    '$ts = metadata.event_timestamp.seconds\ntimestamp.get_timestamp($ts, "%F %T", "America/Los_Angeles") = "2024-02-22 07:43:00"',
  'timestamp.get_week': '$ts = metadata.event_timestamp.seconds\ntimestamp.get_week($ts) = 7',
  'timestamp.now': 'timestamp.now() > 1716401819',
  'window.range': 'window.range([1, 2, 3, 4], false) = [1.000000, 4.000000]',
};

describe('UDM functions as Google documents them', () => {
  it("knows all 91 documented functions, 58 of them for search, and the rule functions of Google's own rules", () => {
    const documented = FUNCTIONS.filter((f) => f.documented);
    assert.equal(documented.length, 91);
    assert.equal(documented.filter((f) => f.search).length, 58);
    // reference/yaral-rules.md: strings.starts_with is used by Google's current rules, a rule function.
    assert.deepEqual(
      FUNCTIONS.filter((f) => !f.documented).map((f) => [f.name, f.search]),
      [['strings.starts_with', false]],
    );
  });

  for (const f of FUNCTIONS.filter((x) => x.search && x.name !== 'group')) {
    it(`${f.name}: the documented example checks and holds`, () => {
      const q = SEARCH_EXAMPLES[f.name];
      assert.ok(q, `no example for ${f.name}`);
      const compiled = compileQuery(q);
      assert.deepEqual(
        compiled.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
        [],
        q,
      );
      assert.equal(compiled.matches(EVENT), true, q);
    });
  }

  it('group(...) defines a placeholder matched on', () => {
    const q = 'metadata.id != ""\n$ip = group(principal.ip, about.ip, target.ip)\nmatch:\n  $ip';
    assert.deepEqual(
      analyze(q).diagnostics.map((d) => d.message),
      [],
    );
  });

  it('a function that holds is not a function that always holds', () => {
    for (const q of [
      'strings.to_upper("example") = "example"',
      're.regex($e.principal.hostname, "yahoo")',
      'net.ip_in_range_cidr($e.principal.ip, "198.51.100.0/24")',
      'strings.extract_domain("https://a.b.google.co.uk/x") = "b.google.co.uk"',
    ])
      assert.equal(compileQuery(q).matches(EVENT), false, q);
  });

  it('follows the public suffix list and the documented edge cases', () => {
    const ev = (q: string): boolean => compileQuery(q).matches(EVENT);
    assert.ok(ev('strings.extract_domain("https://a.b.google.co.uk/x") = "google.co.uk"'));
    assert.ok(ev('strings.extract_hostname("mailto:someone@example.com") = "mailto"'));
    assert.ok(ev('strings.base64_decode("not base64!") = "not base64!"'));
    assert.ok(ev('net.ip_in_range_cidr("2001:db8::1", "2001:db8::/32")'));
    assert.ok(ev('strings.split("a,b,c,d") = ["a", "b", "c", "d"]'));
    assert.ok(ev('math.round(1.2567, 2) = 1.26'));
  });

  it('says a rules-only function is for rules, and where strings.lower went', () => {
    const rules = analyze('hash.sha256(principal.hostname) = "x"').diagnostics;
    assert.equal(rules[0].code, 'rules-only');
    assert.match(rules[0].message, /hash\.sha256 is available in detection rules, not in search/);
    const lower = analyze('strings.lower(principal.hostname) = "web-01"').diagnostics;
    assert.equal(lower.length, 1);
    assert.equal(lower[0].code, 'unknown-function');
    assert.deepEqual((lower[0].data as { replacements: string[] }).replacements, ['strings.to_lower']);
    assert.equal(findFunction('strings.lower'), undefined);
  });

  it('checks arity and argument types', () => {
    assert.equal(analyze('strings.trim("a") = "a"').diagnostics[0]?.code, 'arity');
    assert.equal(analyze('math.sqrt("3") = 1').diagnostics[0]?.code, 'type-mismatch');
    assert.equal(analyze('arrays.size("a") = 1').diagnostics[0]?.code, 'type-mismatch');
    assert.equal(analyze('"a" = "a"').diagnostics[0]?.code, 'literal-compare');
  });
});
