import { DOCUMENTED_SYNTAX_EXAMPLES } from '../../../src/udm/documented-examples';

export { DOCUMENTED_SYNTAX_EXAMPLES };

/**
 * Queries in the style of the public UDM search documentation (Google SecOps "UDM search",
 * "YARA-L functions", Search API udmSearch examples). Every one must parse and check without errors.
 */
export const VALID_QUERIES: readonly string[] = [
  'metadata.event_type = "NETWORK_CONNECTION" and principal.hostname="jdx"',
  'principal.hostname = "altostrat.com"',
  'principal.ip = "10.1.2.3" and target.port = 443',
  'target.ip != ""',
  'target.hostname = /google/',
  'principal.user.userid = "alice" nocase',
  'metadata.event_type = "PROCESS_LAUNCH" and principal.process.command_line = /powershell.*-enc/ nocase',
  'network.http.user_agent = /curl/ and network.http.response_code >= 400',
  'net.ip_in_range_cidr(principal.ip, "10.0.0.0/8")',
  're.regex(target.url, `.*\\.exe$`)',
  're.regex(target.url, ".*\\.exe$")',
  'principal.hostname in %my_hosts',
  'target.ip in cidr %corp_ranges',
  'target.url in regex %bad_urls',
  'not principal.hostname in %my_hosts',
  'principal.hostname not in %my_hosts',
  'metadata.log_type = "WINDOWS_SYSMON" AND metadata.product_event_type = "4624"',
  'security_result.severity = "HIGH" OR security_result.severity = "CRITICAL"',
  'network.sent_bytes > 1000000',
  'target.port >= 1024 and target.port <= 65535',
  'metadata.event_timestamp.seconds > 1700000000',
  'additional.fields["key"] = "value"',
  'metadata.ingestion_labels["env"] = "prod"',
  '(principal.asset.hostname = "host1" OR principal.hostname = "host1") AND NOT target.port = 22',
  'strings.to_lower(principal.hostname) = "desktop-1"',
  'timestamp.get_hour(metadata.event_timestamp.seconds) >= 22',
  '// failed logins\nmetadata.event_type = "USER_LOGIN" /* any product */\nsecurity_result.action = "BLOCK"',
  'extensions.auth.type = "SSO"',
  'network.application_protocol = "DNS" and network.dns.questions.name = "example.com"',
  'principal.asset.platform_software.platform = "WINDOWS"',
  'target.process.file.full_path = /cmd\\.exe$/ nocase',
  'principal.ip = "2001:db8::1"',
  'metadata.event_type = NETWORK_DNS',
  'network.ip_protocol = "TCP" and network.direction = "OUTBOUND"',
  'target.file.sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"',
  'principal.process.pid = "4242"',
  'network.dns.response = true',
  'udm.principal.hostname = "legacy-prefix"',
  'any principal.ip = "10.0.0.1"',
  'all principal.ip != "10.0.0.1"',
  'metadata.event_type = "NETWORK_DNS"\n$domain = network.dns.questions.name\nmatch:\n  $domain\noutcome:\n  $event_count = count(metadata.id)\norder:\n  $event_count desc\nlimit:\n  20',
  '$user = principal.user.userid\nmetadata.event_type = "USER_LOGIN"\nsecurity_result.action = "BLOCK"\nmatch:\n  $user\noutcome:\n  $failures = count(metadata.id)\n  $hosts = count_distinct(target.hostname)\n  $first = earliest(metadata.event_timestamp)\n  $bytes = sum(network.sent_bytes)\norder:\n  $failures desc, $user asc\nlimit:\n  100',
  'metadata.event_type = "NETWORK_HTTP"\noutcome:\n  $total = count(metadata.id)',
  'principal.hostname = "a\\"quoted\\""',
  'target.hostname = /^(?P<sub>[a-z]+)\\.example\\.com$/',
  're.regex(principal.hostname, `(?i)^WS-`)',
  // Google's select/unselect page writes select: after limit:
  'principal.hostname = "alex-laptop"\nlimit: 10\nselect: network.sent_bytes, security_result.about.email',
  'if(math.random() >= 0 and math.random() < 1) = true',
  'metadata.event_type >= "USER_UNCATEGORIZED" and metadata.event_type <= "USER_RESOURCE_DELETION"',
  're.capture(principal.hostname, ".*") = target.hostname',
  '$ip = principal.ip\ntarget.user.userid = $userid',
  'if(network.sent_bytes > 1000000 or (target.port = 22 and not principal.hostname = /^bastion/), "alert", "ok") = "alert"',
];

export interface BrokenQuery {
  query: string;
  /** substring whose first occurrence is where the error starts (offset), or a number */
  at: string | number;
  code?: string;
  severity?: 'error' | 'warning';
}

export const BROKEN_QUERIES: readonly BrokenQuery[] = [
  { query: 'metadata.event_type = ', at: 21 },
  { query: 'principal.hostnme = "x"', at: 'hostnme', code: 'unknown-field' },
  { query: '(principal.hostname = "x"', at: '(', code: 'unclosed-paren' },
  { query: 'principal.hostname = "x', at: '"x', code: 'lex' },
  { query: 'principal.hostname "x"', at: 'principal', code: 'missing-operator' },
  { query: 'metadata.event_type = /NET/', at: '/NET/', code: 'regex-on-enum' },
  { query: 'target.port = "abc"', at: '"abc"', code: 'type-mismatch' },
  { query: 'principal.hostname = 443', at: '443', code: 'type-mismatch' },
  {
    query: '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\nlimit:\n  20000',
    at: '20000',
    code: 'limit-range',
  },
  {
    query: '$h = principal.hostname\noutcome:\n  $c = count(metadata.id)\nmatch:\n  $h',
    at: 'match:',
    code: 'section-order',
  },
  { query: 'target.hostname = /(?=foo)bar/', at: '(?=', code: 're2' },
  { query: 'target.hostname = /(a)\\1/', at: '\\1', code: 're2' },
  {
    query: 'principal.hostname = "a" and principal.hostname = "b"',
    at: 'principal.hostname = "b"',
    code: 'never-matches',
    severity: 'warning',
  },
  { query: 'network.sent_bytes < 0', at: 0, code: 'never-matches', severity: 'warning' },
  {
    query: 'target.port > 1024 AND target.port < 80',
    at: 'target.port < 80',
    code: 'never-matches',
    severity: 'warning',
  },
  {
    query: 'target.port = 443\ntarget.port >= 8000',
    at: 'target.port >= 8000',
    code: 'never-matches',
    severity: 'warning',
  },
  { query: 'foo.bar = 1', at: 'foo', code: 'unknown-field' },
  { query: 'principal.hostname = "x" and', at: 'and' },
  { query: 'principal.hostname = "x" )', at: ')' },
  { query: 'metadata.event_type == "USER_LOGIN"', at: '==' },
  { query: 'net.ip_in_range(principal.ip, "10.0.0.0/8")', at: 'net.ip_in_range', code: 'unknown-function' },
  { query: 'principal.hostname = "x"\nmatch:\n  $undefined', at: '$undefined', code: 'undefined-placeholder' },
  { query: 'metadata.event_type = "NETWORK_CONECTION"', at: '"NETWORK_CONECTION"', code: 'unknown-enum-value' },
  { query: 'metadata.event_timestamp > 1700000000', at: 'metadata', code: 'timestamp-seconds' },
  { query: 'principal = "x"', at: 'principal', code: 'message-compare' },
  { query: 'metadata.eventType = "USER_LOGIN"', at: 'eventType', code: 'unknown-field' },
  { query: 'principal.hostname = "x" nocase nocase', at: 32 },
  { query: 'principal.ip in %', at: '%' },
  { query: 'net.ip_in_range_cidr(principal.ip, "10.0.0.0/33")', at: '"10.0.0.0/33"', code: 'bad-cidr' },
  { query: 'strings.to_lower(principal.hostname)', at: 'strings.to_lower', code: 'not-a-condition' },
  { query: "principal.hostname = 'x'", at: "'x'", code: 'lex' },
  { query: 'principal.hostname = "x"\norder:\n  $c desc', at: 'order:', code: 'order-without-stats' },
  { query: 'metadata.', at: '.', code: 'empty-segment' },
  { query: 'principal.hostname = "x" AND (target.port = 1 OR)', at: ')' },
  { query: 'count(metadata.id) > 5', at: 'count', code: 'aggregate-in-filter' },
  {
    query: '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = cnt(metadata.id)',
    at: 'cnt',
    code: 'bad-aggregate',
  },
  { query: 'network.dns.response = "yes"', at: '"yes"', code: 'type-mismatch' },
  // invalid forms ../shared/reference/udm-syntax.md and udm-functions.md document
  { query: 'target.port = "80"', at: '"80"', code: 'type-mismatch' },
  { query: 'network.ip_protocol = "TCP" nocase', at: 'nocase', code: 'bad-nocase' },
  { query: '$h = strings.concat("a", "b")', at: 'strings', code: 'placeholder-constant' },
  { query: '$outcome = principal.hostname', at: '$outcome', code: 'keyword-variable' },
  { query: '$max = principal.hostname\nmatch:\n  $max', at: '$max', code: 'keyword-variable' },
  { query: 'any principal.hostname = "x"', at: 'any', code: 'quantifier' },
  { query: 'principal.ip[-1] = "10.0.0.1"', at: '-1', code: 'bad-index' },
  { query: 'principal.ip[1.5] = "10.0.0.1"', at: '1.5', code: 'bad-index' },
  { query: 'principal.hostname[0] = "x"', at: 19, code: 'bad-index' },
  { query: 're.capture(principal.hostname, "(a)(b)") = "a"', at: '"(a)(b)"', code: 'capture-groups' },
  { query: 'principal.hostname = "x"\noutcome:\n  $g = group(principal.ip)', at: 'group', code: 'group-placement' },
  {
    query:
      'network.sent_bytes > 10485760\noutcome:\n  $bytes = cast.as_int(network.sent_bytes)\n  $n = count(metadata.id)',
    at: 'cast.as_int',
    code: 'mixed-outcome',
  },
  {
    query: 'network.sent_bytes > 10485760\noutcome:\n  $n = count(metadata.id) + network.sent_bytes',
    at: 'count(',
    code: 'mixed-outcome',
  },
  {
    query: '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $n = count(metadata.id) + network.sent_bytes',
    at: 'count(',
    code: 'missing-aggregate',
  },
];

/** A statistics query with every section udm-syntax.md documents, one section per line. */
export const FULL_STATISTICS_QUERY = [
  'events:',
  '  metadata.event_type = "NETWORK_CONNECTION"',
  '  $host = principal.hostname',
  'match:',
  '  $host, target.ip by 1h',
  'outcome:',
  '  $event_count = count(metadata.id)',
  '  $bytes = math.round(sum(network.sent_bytes) / 1024, 1)',
  '  $first = earliest(metadata.event_timestamp)',
  'condition:',
  '  $event_count > 5 and $bytes > 100',
  'dedup:',
  '  target.hostname',
  'order:',
  '  $event_count desc',
  'limit:',
  '  20',
].join('\n');

/**
 * A catalog example as a query: `call // result` (or `// returns result`) becomes `call = result`,
 * as the page means it. Where Google's sample itself is cut or mistyped, the fix is named.
 */
const SLIPS: Record<string, { query: string; why: string }> = {
  'bytes.to_base64': {
    query:
      'bytes.to_base64(b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000\') = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="',
    why: "the page drops the bytes literal's closing quote",
  },
  'strings.from_base64': {
    query: 'strings.from_base64("invalid-value") = b\'\'',
    why: "the page's sample is cut after b'",
  },
  'strings.from_hex': {
    query: 'strings.from_hex("1234") = b\'1234\'',
    why: 'the page writes the result as prose ("returns 1234 bytes")',
  },
};

function asQuery(example: string): string {
  const m = /^(.*?)\s*\/\/\s*(?:returns\s+)?(.+)$/.exec(example);
  return m ? `${m[1]} = ${m[2]}` : example;
}

/** The documented example of a search function as a query, and why it differs from the page. */
export function documentedFunctionQuery(name: string, example: string): { query: string; why?: string } {
  const slip = SLIPS[name];
  return slip ? { query: slip.query, why: slip.why } : { query: asQuery(example) };
}

/**
 * Results Google's function pages give, each written as a condition that holds exactly when the
 * function gives that result; none reads an event field, so each holds on every event. The page
 * is named before each group. A sample whose literal cannot be written in a query (`"\x01"`, a
 * bytes literal cut by a `"`) is replaced by one showing the same rule, and the line says so.
 */
export const DOCUMENTED_RESULTS: ReadonlyArray<readonly [string, string]> = [
  // strings.url_decode: `+` stays `+`; "Returns empty string if decoding fails"
  ['strings.url_decode', 'strings.url_decode("three%20nine%20four") = "three nine four"'],
  ['strings.url_decode', 'strings.url_decode("") = ""'],
  ['strings.url_decode', 'strings.url_decode("%E4%B8%8A%E6%B5%B7%2B%E4%B8%AD%E5%9C%8B") = "上海+中國"'],
  [
    'strings.url_decode',
    'strings.url_decode("http://www.google.com%3Fparam1%3D%22+1+%3E+2+%22%26param2%3D2%3B") = "http://www.google.com?param1=\\"+1+>+2+\\"&param2=2;"',
  ],
  ['strings.url_decode (decoding fails)', 'strings.url_decode("100%zz") = ""'],
  // strings.from_base64 / strings.from_hex: BYTES, which cast.as_string reads as text
  [
    'strings.from_base64',
    'strings.from_base64("AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA=") = b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000\'',
  ],
  ['strings.from_base64', 'strings.from_base64("invalid-value") = b\'\''],
  ['strings.from_base64 then cast.as_string', 'cast.as_string(strings.from_base64("dGVzdA==")) = "test"'],
  ['strings.from_hex', 'strings.from_hex("str") = b\'\''],
  ['strings.from_hex', 'strings.from_hex("") = b\'\''],
  ['strings.from_hex', 'strings.from_hex("1234") = b\'1234\''],
  ['strings.from_hex', 'strings.from_hex("筒纸.中国") = b\'\''],
  ['strings.from_hex then cast.as_string', 'cast.as_string(strings.from_hex("74657374")) = "test"'],
  // bytes.to_base64: the standard alphabet; the default string when the value holds no bytes
  [
    'bytes.to_base64',
    'bytes.to_base64(b\'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000\') = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="',
  ],
  ['bytes.to_base64 (standard alphabet)', 'bytes.to_base64(strings.from_hex("fbff")) = "+/8="'],
  ['bytes.to_base64 (the default string)', 'bytes.to_base64("not base64!", "invalid bytes") = "invalid bytes"'],
  // cast.as_bool: TRUE only for the integer 1 and the string "true" in any case
  ['cast.as_bool', 'cast.as_bool("123") = false'],
  ['cast.as_bool', 'cast.as_bool(1) = true'],
  ['cast.as_bool', 'cast.as_bool("true") = true'],
  ['cast.as_bool', 'cast.as_bool("TRUE") = true'],
  ['cast.as_bool', 'cast.as_bool(0-1) = false'],
  ['cast.as_bool', 'cast.as_bool(0) = false'],
  ['cast.as_bool', 'cast.as_bool("") = false'],
  ['cast.as_bool', 'cast.as_bool("FALSE") = false'],
  // cast.as_string (the page's b'01 → "\x01" sample, with bytes whose text a query can write)
  ['cast.as_string', 'cast.as_string(123) = "123"'],
  ['cast.as_string', 'cast.as_string(2.25) = "2.25"'],
  ['cast.as_string', 'cast.as_string(b\'74657374\', "") = "test"'],
  ['cast.as_string', 'cast.as_string(true, "") = "true"'],
  ['cast.as_string', 'cast.as_string(9223372036854775808, "casting error") = "casting error"'],
  // timestamp.get_*: time_zone "(+|-)H[H][:M[M]]"; 1708626600 is 2024-02-22T18:30:00Z
  ['timestamp.get_date', 'timestamp.get_date(1708626600, "+05:30") = "2024-02-23"'],
  ['timestamp.get_date', 'timestamp.get_date(1708626600, "-08:00") = "2024-02-22"'],
  ['timestamp.get_hour', 'timestamp.get_hour(1708626600, "+05:30") = 0'],
  ['timestamp.get_hour', 'timestamp.get_hour(1708626600, "-8") = 10'],
  ['timestamp.get_minute', 'timestamp.get_minute(1708626600, "+5:45") = 15'],
  ['timestamp.get_day_of_week', 'timestamp.get_day_of_week(1708626600, "+05:30") = 6'],
  ['timestamp.get_timestamp', 'timestamp.get_timestamp(1708626600, "%F %T", "+05:30") = "2024-02-23 00:00:00"'],
  // window.range over an array
  ['window.range', 'window.range([0, 0, 0, 394, 1], true) = [1.000000, 394.000000]'],
];
