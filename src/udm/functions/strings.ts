// strings: text functions. extract_domain follows the public suffix list (tldts).
import { getDomain } from 'tldts';
import { defineFamily, optional, param } from './types';
import { Bytes, toStr } from './values';

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

function decodeBase64(s: string): Buffer | undefined {
  const t = s.trim();
  if (B64.test(t)) return Buffer.from(t, 'base64');
  if (B64URL.test(t) && t.length % 4 !== 1) return Buffer.from(t, 'base64url');
  return undefined;
}

function urlHost(s: string): string {
  const t = s.trim();
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):(\/\/)?/.exec(t);
  if (scheme && !scheme[2]) {
    // mailto:, tel:... have no authority; Google documents the scheme as the answer ("mailto").
    return scheme[1];
  }
  const m = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:\/\/)?(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)/.exec(t);
  return m?.[1] ?? '';
}

function trim(s: string, cutset: unknown, left: boolean, right: boolean): string {
  const cut = cutset === undefined ? ' \t\r\n' : toStr(cutset);
  let a = 0;
  let b = s.length;
  if (left) while (a < b && cut.includes(s[a])) a++;
  if (right) while (b > a && cut.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

export const STRINGS = defineFamily(
  'strings',
  [
    {
      name: 'strings.base64_decode',
      params: [param('encodedString', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: '"test" = strings.base64_decode($e.principal.domain.name)',
      notes: 'Returns its input unchanged when it is not valid base64.',
      evaluate: ([s]) => {
        const str = toStr(s);
        const buf = decodeBase64(str);
        return buf ? buf.toString('utf8') : str;
      },
    },
    {
      name: 'strings.coalesce',
      params: [param('a', 'STRING')],
      variadic: true,
      returns: 'STRING',
      where: 'Search, Rules',
      example: '"suspicious@gmail.com" = strings.coalesce($e.network.email.from, $e.network.email.to)',
      evaluate: (args) => args.map(toStr).find((s) => s !== '') ?? '',
    },
    {
      name: 'strings.concat',
      params: [param('a', 'STRING', 'FLOAT', 'INT')],
      variadic: true,
      returns: 'STRING',
      where: 'Search, Rules',
      example: '"google:80" = strings.concat($e.principal.hostname, ":", $e.principal.port)',
      evaluate: (args) => args.map(toStr).join(''),
    },
    {
      name: 'strings.contains',
      params: [param('str', 'STRING'), param('substr', 'STRING')],
      returns: 'BOOL',
      where: 'Search, Rules',
      example: 'strings.contains("thisisastring", "is") = true',
      evaluate: ([s, sub]) => toStr(s).includes(toStr(sub)),
    },
    {
      name: 'strings.count_substrings',
      params: [param('string_to_search_in', 'STRING'), param('substring_to_count', 'STRING')],
      returns: 'INT',
      where: 'Search, Rules',
      example: 'strings.count_substrings("fooABAbarABAbazABA", "AB") = 3',
      evaluate: ([s, sub]) => {
        const needle = toStr(sub);
        return needle === '' ? 0 : toStr(s).split(needle).length - 1;
      },
    },
    {
      name: 'strings.ends_with',
      params: [param('value', 'STRING'), param('suffix', 'STRING')],
      returns: 'BOOL',
      where: 'Search, Rules',
      example: 'strings.ends_with(target.hostname, "com") = true',
      evaluate: ([s, suffix]) => toStr(s).endsWith(toStr(suffix)),
    },
    {
      name: 'strings.extract_domain',
      params: [param('url_string', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.extract_domain("https://google.co.in") = "google.co.in"',
      notes: 'Uses public-suffix data (google.co.in stays google.co.in).',
      evaluate: ([s]) => {
        const host = urlHost(toStr(s));
        return getDomain(host, { allowPrivateDomains: false }) ?? '';
      },
    },
    {
      name: 'strings.extract_hostname',
      params: [param('string', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.extract_hostname("1234") = "1234"',
      evaluate: ([s]) => urlHost(toStr(s)),
    },
    {
      name: 'strings.from_base64',
      params: [param('base64_encoded_string', 'STRING')],
      returns: 'BYTES',
      where: 'Search, Rules',
      example: 'strings.from_base64("invalid-value") = b\'',
      // "Function calls with values that cannot be casted return an empty BYTES" (the page)
      evaluate: ([s]) => new Bytes(decodeBase64(toStr(s)) ?? new Uint8Array(0)),
    },
    {
      name: 'strings.from_hex',
      params: [param('hex_string', 'STRING')],
      returns: 'BYTES',
      where: 'Search, Rules',
      example: 'strings.from_hex("1234") // returns 1234 bytes',
      // "str", "" and non-ASCII text give empty bytes (the page's samples)
      evaluate: ([s]) => {
        const t = toStr(s).trim();
        return new Bytes(/^(?:[0-9a-fA-F]{2})*$/.test(t) ? Buffer.from(t, 'hex') : new Uint8Array(0));
      },
    },
    {
      name: 'strings.length',
      params: [param('string_value', 'STRING')],
      returns: 'INT',
      where: 'Search, Rules',
      example: 'strings.length("str") = 3',
      notes:
        'Has its own page (last updated 2025-07-14) and is in the 2025-06-08 syntax page; not in the 2026-04-14 consolidated functions page.',
      evaluate: ([s]) => [...toStr(s)].length,
    },
    {
      name: 'strings.ltrim',
      params: [param('string_to_trim', 'STRING'), param('cutset', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.ltrim("a aastraa aa ", " a") = "straa aa "',
      evaluate: ([s, cut]) => trim(toStr(s), cut, true, false),
    },
    {
      name: 'strings.reverse',
      params: [param('string', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.reverse("str") = "rts"',
      evaluate: ([s]) => [...toStr(s)].reverse().join(''),
    },
    {
      name: 'strings.rtrim',
      params: [param('string_to_trim', 'STRING'), param('cutset', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.rtrim("a aastraa aa ", " a") = "a aasstr"',
      evaluate: ([s, cut]) => trim(toStr(s), cut, false, true),
    },
    {
      name: 'strings.split',
      params: [param('string', 'STRING'), optional('delimiter', 'STRING')],
      returns: 'ARRAY_STRINGS',
      where: 'Search, Rules',
      example: 'strings.split("a:b:c:d", ":") = ["a", "b", "c", "d"]',
      notes: 'The delimiter defaults to a comma (strings.split("a,b,c,d") is a documented call).',
      evaluate: ([s, d]) => toStr(s).split(d === undefined ? ',' : toStr(d)),
    },
    {
      name: 'strings.to_lower',
      params: [param('stringText', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: '"test@google.com" = strings.to_lower($e.network.email.to)',
      evaluate: ([s]) => toStr(s).toLowerCase(),
    },
    {
      name: 'strings.to_upper',
      params: [param('string_val', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.to_upper("example") = "EXAMPLE"',
      evaluate: ([s]) => toStr(s).toUpperCase(),
    },
    {
      name: 'strings.trim',
      params: [param('string_to_trim', 'STRING'), param('cutset', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.trim("a aastraa aa ", " a") = "str"',
      evaluate: ([s, cut]) => trim(toStr(s), cut, true, true),
    },
    {
      name: 'strings.url_decode',
      params: [param('url_string', 'STRING')],
      returns: 'STRING',
      where: 'Search, Rules',
      example: 'strings.url_decode("three%20nine%20four") = "three nine four"',
      // Google's page: "%XX" escapes and UTF-8 are decoded, `+` stays `+` (its sample decodes
      // "%22+1+%3E+2+%22" to "\"+1+>+2+\""), and "Returns empty string if decoding fails".
      evaluate: ([s]) => {
        try {
          return decodeURIComponent(toStr(s));
        } catch {
          return '';
        }
      },
    },
  ],
  {
    'strings.lower': 'strings.to_lower',
    'strings.upper': 'strings.to_upper',
    'strings.tolower': 'strings.to_lower',
    'strings.toupper': 'strings.to_upper',
    'strings.len': 'strings.length',
    'strings.starts_with': 'strings.contains',
  },
);
