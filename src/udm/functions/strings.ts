// strings: text functions. extract_domain follows the public suffix list (tldts).
import { getDomain } from 'tldts';
import { defineFamily, fn } from './types';
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
    fn(
      'strings.base64_decode(encodedString: STRING): STRING',
      '"test" = strings.base64_decode($e.principal.domain.name)',
      ([s]) => {
        const str = toStr(s);
        const buf = decodeBase64(str);
        return buf ? buf.toString('utf8') : str;
      },
      { notes: 'Returns its input unchanged when it is not valid base64.' },
    ),
    fn(
      'strings.coalesce(a: STRING, ...): STRING',
      '"suspicious@gmail.com" = strings.coalesce($e.network.email.from, $e.network.email.to)',
      (args) => args.map(toStr).find((s) => s !== '') ?? '',
    ),
    fn(
      'strings.concat(a: STRING|FLOAT|INT, ...): STRING',
      '"google:80" = strings.concat($e.principal.hostname, ":", $e.principal.port)',
      (args) => args.map(toStr).join(''),
    ),
    fn(
      'strings.contains(str: STRING, substr: STRING): BOOL',
      'strings.contains("thisisastring", "is") = true',
      ([s, sub]) => toStr(s).includes(toStr(sub)),
    ),
    fn(
      'strings.count_substrings(string_to_search_in: STRING, substring_to_count: STRING): INT',
      'strings.count_substrings("fooABAbarABAbazABA", "AB") = 3',
      ([s, sub]) => {
        const needle = toStr(sub);
        return needle === '' ? 0 : toStr(s).split(needle).length - 1;
      },
    ),
    fn(
      'strings.ends_with(value: STRING, suffix: STRING): BOOL',
      'strings.ends_with(target.hostname, "com") = true',
      ([s, suffix]) => toStr(s).endsWith(toStr(suffix)),
    ),
    // Not on the functions page, but Google's current public rules call it (with ends_with) and
    // compile in SecOps; the page's search list does not have it, so search reports it as a rule
    // function. Evaluated, so Test Rule computes it.
    fn(
      'strings.starts_with(value: STRING, prefix: STRING): BOOL',
      'strings.starts_with($e.target.process.file.full_path, "c:\\\\windows\\\\") = true',
      ([s, prefix]) => toStr(s).startsWith(toStr(prefix)),
      {
        where: 'Rules only',
        documented: false,
        notes:
          "Not on Google's functions page; Google's current public detection rules use it, so it is a rule function. Search does not list it: there, re.regex(value, `^\\Qprefix\\E`) tests the same.",
      },
    ),
    fn(
      'strings.extract_domain(url_string: STRING): STRING',
      'strings.extract_domain("https://google.co.in") = "google.co.in"',
      ([s]) => {
        const host = urlHost(toStr(s));
        return getDomain(host, { allowPrivateDomains: false }) ?? '';
      },
      { notes: 'Uses public-suffix data (google.co.in stays google.co.in).' },
    ),
    fn('strings.extract_hostname(string: STRING): STRING', 'strings.extract_hostname("1234") = "1234"', ([s]) =>
      urlHost(toStr(s)),
    ),
    // "Function calls with values that cannot be casted return an empty BYTES" (the page)
    fn(
      'strings.from_base64(base64_encoded_string: STRING): BYTES',
      'strings.from_base64("invalid-value") = b\'',
      ([s]) => new Bytes(decodeBase64(toStr(s)) ?? new Uint8Array(0)),
    ),
    // "str", "" and non-ASCII text give empty bytes (the page's samples)
    fn('strings.from_hex(hex_string: STRING): BYTES', 'strings.from_hex("1234") // returns 1234 bytes', ([s]) => {
      const t = toStr(s).trim();
      return new Bytes(/^(?:[0-9a-fA-F]{2})*$/.test(t) ? Buffer.from(t, 'hex') : new Uint8Array(0));
    }),
    fn('strings.length(string_value: STRING): INT', 'strings.length("str") = 3', ([s]) => [...toStr(s)].length, {
      notes:
        'Has its own page (last updated 2025-07-14) and is in the 2025-06-08 syntax page; not in the 2026-04-14 consolidated functions page.',
    }),
    fn(
      'strings.ltrim(string_to_trim: STRING, cutset: STRING): STRING',
      'strings.ltrim("a aastraa aa ", " a") = "straa aa "',
      ([s, cut]) => trim(toStr(s), cut, true, false),
    ),
    fn('strings.reverse(string: STRING): STRING', 'strings.reverse("str") = "rts"', ([s]) =>
      [...toStr(s)].reverse().join(''),
    ),
    fn(
      'strings.rtrim(string_to_trim: STRING, cutset: STRING): STRING',
      'strings.rtrim("a aastraa aa ", " a") = "a aasstr"',
      ([s, cut]) => trim(toStr(s), cut, false, true),
    ),
    fn(
      'strings.split(string: STRING, delimiter?: STRING): ARRAY_STRINGS',
      'strings.split("a:b:c:d", ":") = ["a", "b", "c", "d"]',
      ([s, d]) => toStr(s).split(d === undefined ? ',' : toStr(d)),
      { notes: 'The delimiter defaults to a comma (strings.split("a,b,c,d") is a documented call).' },
    ),
    fn(
      'strings.to_lower(stringText: STRING): STRING',
      '"test@google.com" = strings.to_lower($e.network.email.to)',
      ([s]) => toStr(s).toLowerCase(),
    ),
    fn('strings.to_upper(string_val: STRING): STRING', 'strings.to_upper("example") = "EXAMPLE"', ([s]) =>
      toStr(s).toUpperCase(),
    ),
    fn(
      'strings.trim(string_to_trim: STRING, cutset: STRING): STRING',
      'strings.trim("a aastraa aa ", " a") = "str"',
      ([s, cut]) => trim(toStr(s), cut, true, true),
    ),
    // Google's page: "%XX" escapes and UTF-8 are decoded, `+` stays `+` (its sample decodes
    // "%22+1+%3E+2+%22" to "\"+1+>+2+\""), and "Returns empty string if decoding fails".
    fn(
      'strings.url_decode(url_string: STRING): STRING',
      'strings.url_decode("three%20nine%20four") = "three nine four"',
      ([s]) => {
        try {
          return decodeURIComponent(toStr(s));
        } catch {
          return '';
        }
      },
    ),
  ],
  {
    'strings.lower': 'strings.to_lower',
    'strings.upper': 'strings.to_upper',
    'strings.tolower': 'strings.to_lower',
    'strings.toupper': 'strings.to_upper',
    'strings.len': 'strings.length',
  },
);
