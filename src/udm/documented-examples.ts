// Google's documented search examples, as whole queries: the product ranks enum values by how
// often these examples use them (completion offers the common ones first), and the tests open and
// run every one of them.

/**
 * udm-syntax.md (../shared/reference, collected from Google's UDM search pages), section by
 * section: the examples written as whole queries.
 */
export const DOCUMENTED_SYNTAX_EXAMPLES: ReadonlyArray<readonly [string, string]> = [
  ['a literal may stand on the left', '1024 < target.port'],
  ['either side may be a field', 'principal.hostname != target.hostname'],
  ['either side may be a function call', 're.capture(principal.hostname, ".*") = target.hostname'],
  [
    'enums allow ordering comparisons',
    'metadata.event_type >= "USER_UNCATEGORIZED" and metadata.event_type <= "USER_RESOURCE_DELETION"',
  ],
  ['booleans unquoted and case-insensitive', 'network.dns.response = TRUE'],
  ['int64 fields compare as numbers', 'network.sent_bytes > 10485760'],
  ['double-quoted strings interpret escapes', 'principal.hostname = "a\\\\b\\"c\\td"'],
  ['back-quoted strings are raw', 'principal.hostname = `a\\b`'],
  ['regex literal, (?s) allowed', 'target.hostname = /(?s)web.01/'],
  ['re.regex with a double-quoted pattern', 're.regex(target.url, ".*\\\\.exe$")'],
  ['nocase after a string comparison', 'principal.hostname = "WEB-01" nocase'],
  ['nocase after a regex literal', 'principal.hostname = /web/ nocase'],
  ['nocase after re.regex', 're.regex(principal.hostname, "web") nocase'],
  ['nocase after in %list', 'principal.hostname in %hosts nocase'],
  ['AND OR NOT in any case', 'principal.hostname = "a" And NOT target.port = 22 oR target.port = 23'],
  ['an explicit or between lines', 'principal.hostname = "a"\nor principal.hostname = "b"\ntarget.port = 22'],
  ['comments', '// failed logins\nmetadata.event_type = "USER_LOGIN" /* any product */'],
  ['the event variable prefix is optional', '$e.principal.hostname = "x"'],
  ['$e.udm. also appears', '$e.udm.additional.fields["k"] = "v"'],
  ['placeholders on either side', '$ip = principal.ip\ntarget.user.userid = $userid'],
  ['a placeholder from a function of an event field', '$h = strings.concat(principal.hostname, "x")'],
  ['arithmetic inside expressions', '300 < math.abs(metadata.event_timestamp.seconds - 1643687343)'],
  ['any before a repeated field', 'any principal.ip = "192.0.2.1"'],
  ['not all before a repeated field', 'not all principal.ip = "192.0.2.1"'],
  ['all inside function arguments', 'net.ip_in_range_cidr(all principal.ip, "192.0.2.0/8")'],
  ['index on a repeated field', 'principal.ip[0] = "10.0.0.1"'],
  ['index on a repeated message', 'about[1].hostname = "x"'],
  ['index then a field', 'security_result[0].description = "x"'],
  ['map access on a Struct', 'additional.fields["pod_name"] = "p1"'],
  ['map access on labels', 'metadata.ingestion_labels["key"] = "v"'],
  ['array literals as function arguments', 'arrays.size(["a", "b"]) = 2'],
  ['bytes literals as function arguments', 'bytes.to_base64(b\'00\') = "AA=="'],
  ['field in %list', 'principal.hostname in %hosts'],
  ['field in regex %list', 'target.url in regex %bad_urls'],
  ['field in cidr %list', 'principal.ip in cidr %corp_ranges'],
  ['not before in %list', 'not principal.hostname in %hosts'],
  ['a function result tested against a list', 'strings.coalesce(principal.ip, "x") in %ip_watchlist'],
  [
    'events: header, sections in order',
    'events:\n  metadata.event_type = "USER_LOGIN"\n  $u = principal.user.userid\nmatch:\n  $u\noutcome:\n  $n = count(metadata.id)\ncondition:\n  $n > 5\ndedup:\n  target.hostname\norder:\n  $n desc\nlimit:\n  20',
  ],
  [
    'section names are case-insensitive',
    '$u = principal.user.userid\nMATCH:\n  $u\nOutcome:\n  $n = count(metadata.id)',
  ],
  ['match by 2h', '$u = principal.user.userid\nmatch:\n  $u by 2h'],
  ['match by minute', '$u = principal.user.userid\nmatch:\n  $u by minute'],
  ['match over every day', '$u = principal.user.userid\nmatch:\n  $u over every day'],
  ['match over every first week', '$u = principal.user.userid\nmatch:\n  $u over every first w'],
  ['match by month', '$u = principal.user.userid\nmatch:\n  $u by mo'],
  [
    'a function around an aggregate',
    '$u = principal.user.userid\nmatch:\n  $u\noutcome:\n  $total = cast.as_int(sum(network.sent_bytes))',
  ],
  [
    'every aggregate',
    '$u = principal.user.userid\nmatch:\n  $u\noutcome:\n  $a = count(metadata.id)\n  $b = count_distinct(target.ip)\n  $c = sum(network.sent_bytes)\n  $d = min(network.sent_bytes)\n  $f = max(network.sent_bytes)\n  $g = avg(network.sent_bytes)\n  $h = stddev(network.sent_bytes)\n  $i = array(target.hostname)\n  $j = array_distinct(target.hostname)\n  $k = earliest(metadata.event_timestamp)\n  $l = latest(metadata.event_timestamp)',
  ],
  [
    'plain per-event values without match:',
    'network.sent_bytes > 10485760\noutcome:\n  $bytes = cast.as_int(network.sent_bytes)',
  ],
  [
    'placeholders in outcomes',
    '$first = principal.user.first_name\n$last = principal.user.last_name\nmatch:\n  $first, $last\noutcome:\n  $who = array_distinct(strings.concat($first, " ", $last))',
  ],
  ['dedup keeps one event per value', 'principal.hostname = "x"\ndedup:\n  target.hostname'],
  [
    'group() assigned to a placeholder, then matched on',
    'metadata.id != ""\n$ip = group(principal.ip, about.ip, target.ip)\nmatch:\n  $ip',
  ],
];

/** The sample query of the Search API's udmSearch documentation (api-facts.md). */
export const SEARCH_API_SAMPLE = 'metadata.event_type = "NETWORK_CONNECTION" and principal.hostname="jdx"';
