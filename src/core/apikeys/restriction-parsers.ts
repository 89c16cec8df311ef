// Parsers of the two address-like restrictions, referrer patterns and IP ranges (seed 001, reference
// B.3). The restriction editor validates with them and the sandbox simulator matches callers with
// them, so what passes the editor is exactly what gets matched.
import * as ipaddr from 'ipaddr.js';

// ---------------------------------------------------------------------------------------------
// Referrers

export interface ReferrerPattern {
  /** Lower-case scheme without "://"; undefined matches http and https. */
  scheme?: string;
  /** True for "*.example.com": every subdomain of hostSuffix, not the bare domain itself. */
  anySubdomain: boolean;
  /** Lower-case host (after "*." when anySubdomain). */
  host: string;
  port?: number;
  /** undefined: host only (matches the origin, path "" or "/"). */
  path?: { prefix: string; wildcard: boolean };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const FILE_URL_PREFIX = '__file_url__//';
/** One DNS label, as host names and service names are made of. */
export const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

function hostProblem(host: string, original: string): string | undefined {
  if (host.length === 0) return `"${original}" has no host; write a site such as example.com or *.example.com.`;
  if (host.startsWith('[')) {
    const inner = host.endsWith(']') ? host.slice(1, -1) : '';
    if (!inner || !ipaddr.IPv6.isValid(inner))
      return `"${original}" has a malformed IPv6 host; write it as [2001:4860::1].`;
    return undefined;
  }
  const labels = host.split('.');
  for (const [i, label] of labels.entries()) {
    if (label.includes('*')) {
      if (label === '*' && i === 0) continue;
      if (label === '*') {
        return `"${original}": a wildcard may only be the first label of the host (like *.example.com), not a later one.`;
      }
      return `"${original}": a wildcard cannot be part of a host label like "${label}"; use it as the whole first label (*.example.com) or in the path.`;
    }
    if (label.length === 0) return `"${original}" has an empty label in the host "${host}".`;
    if (!DNS_LABEL.test(label)) {
      return `"${original}": "${label}" is not a valid host label (letters, digits and inner hyphens, at most 63 characters).`;
    }
  }
  if (labels[0] === '*' && labels.length < 3) {
    return `"${original}": "${host}" would match every site in a top-level domain; name the domain, like *.example.com.`;
  }
  return undefined;
}

/** Parses a referrer pattern; a refusal carries one message that says what to change. */
export function parseReferrer(value: string): Parsed<ReferrerPattern> {
  const fail = (message: string): Parsed<ReferrerPattern> => ({ ok: false, message });
  if (value.trim().length === 0)
    return fail('A referrer cannot be empty; remove the line or write a site such as example.com/*.');
  if (/\s/.test(value)) return fail(`"${value}" contains white space; referrers are URLs without spaces.`);
  if (value === '*' || value === '*/*' || value === '*.*') {
    return fail(
      `"${value}" allows every website; remove the website restriction instead of using a catch-all referrer.`,
    );
  }
  if (value.includes('?'))
    return fail(`"${value}": query strings are ignored when referrers are matched; remove "?" and what follows.`);
  if (value.includes('#'))
    return fail(`"${value}": fragments are never sent in referrers; remove "#" and what follows.`);
  if (value.startsWith(FILE_URL_PREFIX)) {
    // Local files have no host; the API spells file:///path as __file_url__//path.
    const path = value.slice(FILE_URL_PREFIX.length - 1);
    const star = path.indexOf('*');
    if (star >= 0 && star !== path.length - 1)
      return fail(`"${value}": a wildcard in the path may only come last (like __file_url__//docs/*).`);
    return {
      ok: true,
      value: {
        scheme: 'file',
        anySubdomain: false,
        host: '',
        path: { prefix: star >= 0 ? path.slice(0, -1) : path, wildcard: star >= 0 },
      },
    };
  }
  if (/^file:\/\//i.test(value))
    return fail(`"${value}": write local file URLs as __file_url__//path (for example __file_url__//home/me/app/*).`);
  let rest = value;
  let scheme: string | undefined;
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1].toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') {
      return fail(
        `"${value}": only http:// and https:// referrers can be matched; leave the scheme out to allow both.`,
      );
    }
    rest = rest.slice(schemeMatch[0].length);
  } else if (/^[a-z][a-z0-9+-]*:\/(?!\/)/i.test(rest) || /^\*+:\/\//.test(rest)) {
    return fail(`"${value}": write the scheme as http:// or https://, or leave it out to allow both.`);
  }
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const pathText = slash < 0 ? undefined : rest.slice(slash);
  if (authority.includes('@'))
    return fail(`"${value}": user names and passwords are never part of a referrer; remove "…@".`);
  let host = authority;
  let port: number | undefined;
  const portMatch = /^(.*?):([^:\]]*)$/.exec(authority);
  if (portMatch && !(authority.startsWith('[') && !authority.includes(']:'))) {
    host = portMatch[1]!;
    const portText = portMatch[2];
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return fail(
        `"${value}": the port "${portText}" must be a number from 1 to 65535 (a wildcard port is not allowed; leave the port out to allow any port).`,
      );
    }
    port = Number(portText);
  }
  const hostError = hostProblem(host, value);
  if (hostError) return fail(hostError);
  const anySubdomain = host.startsWith('*.');
  const pattern: ReferrerPattern = { anySubdomain, host: (anySubdomain ? host.slice(2) : host).toLowerCase() };
  if (scheme !== undefined) pattern.scheme = scheme;
  if (port !== undefined) pattern.port = port;
  if (pathText !== undefined) {
    const star = pathText.indexOf('*');
    if (star >= 0 && star !== pathText.length - 1) {
      return fail(`"${value}": a wildcard in the path may only come last (like example.com/docs/*).`);
    }
    const wildcard = star >= 0;
    pattern.path = { prefix: wildcard ? pathText.slice(0, -1) : pathText, wildcard };
  }
  return { ok: true, value: pattern };
}

export function validateReferrer(value: string): string | undefined {
  const parsed = parseReferrer(value);
  return parsed.ok ? undefined : parsed.message;
}

// ---------------------------------------------------------------------------------------------
// IP addresses and ranges

export interface IpRange {
  address: ipaddr.IPv4 | ipaddr.IPv6;
  prefixLength: number;
  /** True when written without "/prefix". */
  single: boolean;
}

const ALLOWED_V4_RANGES = new Set(['unicast', 'as112', 'amt']);
const ALLOWED_V6_RANGES = new Set(['unicast', '6to4', 'teredo', 'rfc6052', 'rfc6145', 'as112v6', 'amt']);

const RANGE_EXPLANATIONS: Record<string, string> = {
  loopback: 'is a loopback (localhost) address; requests never come from it',
  private: 'is a private (internal) address; list the external address your servers use on the internet',
  uniqueLocal: 'is a unique-local (internal) IPv6 address; list the external address your servers use on the internet',
  linkLocal: 'is a link-local (internal) address; list the external address your servers use on the internet',
  carrierGradeNat:
    'is a carrier-grade NAT (internal) address; list the external address your servers use on the internet',
  unspecified: 'is the unspecified address; name a real external address',
  broadcast: 'is the broadcast address; name a real external address',
  multicast: 'is a multicast address; requests never come from it',
  reserved: 'is in a reserved range that is never routed on the internet',
  benchmarking: 'is in the benchmarking range that is never routed on the internet',
};

// Documentation ranges (RFC 5737, RFC 3849) are not internal, and examples everywhere use them.
const DOCUMENTATION_RANGES = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32'].map((c) =>
  ipaddr.parseCIDR(c),
);

function isDocumentation(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return DOCUMENTATION_RANGES.some(
    ([network, length]) => network.kind() === address.kind() && (address as ipaddr.IPv4).match(network, length),
  );
}

function rangeProblem(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  if (isDocumentation(address)) return undefined;
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return rangeProblem(v6.toIPv4Address());
    const range = v6.range();
    if (ALLOWED_V6_RANGES.has(range)) return undefined;
    return (
      RANGE_EXPLANATIONS[range] ??
      `is in the special-purpose range "${range}" that cannot be a caller's external address`
    );
  }
  const range = (address as ipaddr.IPv4).range();
  if (ALLOWED_V4_RANGES.has(range)) return undefined;
  return (
    RANGE_EXPLANATIONS[range] ?? `is in the special-purpose range "${range}" that cannot be a caller's external address`
  );
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  // ipaddr.js also accepts "127.1" and hex octets; the API wants plain dotted quads.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return undefined;
}

// Ranges a wide CIDR must not reach into: the seed forbids internal addresses and localhost.
const INTERNAL_RANGES: Array<[string, string]> = [
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'linkLocal'],
  ['100.64.0.0/10', 'carrierGradeNat'],
  ['0.0.0.0/8', 'unspecified'],
  ['::1/128', 'loopback'],
  ['fc00::/7', 'uniqueLocal'],
  ['fe80::/10', 'linkLocal'],
];

function internalRangeInside(
  address: ipaddr.IPv4 | ipaddr.IPv6,
  prefix: number,
): { cidr: string; kind: string } | undefined {
  for (const [cidr, kind] of INTERNAL_RANGES) {
    const [network, length] = ipaddr.parseCIDR(cidr);
    if (network.kind() !== address.kind()) continue;
    const overlaps =
      prefix <= length
        ? (network as ipaddr.IPv4).match(address, prefix)
        : (address as ipaddr.IPv4).match(network, length);
    if (overlaps) return { cidr, kind };
  }
  return undefined;
}

function hasHostBits(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): boolean {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) if (bytes[bit >> 3] & (0x80 >> (bit & 7))) return true;
  return false;
}

function networkOf(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray();
  for (let bit = prefix; bit < bytes.length * 8; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7)) & 0xff;
  return ipaddr.fromByteArray(bytes);
}

export function formatAddress(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** Parses an IPv4/IPv6 address or CIDR range an API key may be restricted to. */
export function parseIpRestriction(value: string): Parsed<IpRange> {
  const fail = (message: string): Parsed<IpRange> => ({ ok: false, message });
  if (value.trim().length === 0)
    return fail('An IP address cannot be empty; remove the line or write an address such as 104.133.8.78.');
  if (/\s/.test(value)) return fail(`"${value}" contains white space; write one address or range per entry.`);
  if (value.toLowerCase() === 'localhost')
    return fail('"localhost" is not supported; list the external IP address of your servers.');
  if (value.includes('%'))
    return fail(`"${value}": zone ids (%…) belong to link-local addresses, which are internal and not supported.`);
  const slashIndex = value.indexOf('/');
  const addressText = slashIndex < 0 ? value : value.slice(0, slashIndex);
  const address = parseAddress(addressText);
  if (!address) {
    if (/^[0-9.]+$/.test(addressText))
      return fail(`"${value}" is not a valid IPv4 address; write four numbers 0-255 separated by dots.`);
    if (/^[0-9a-f:.]+$/i.test(addressText)) return fail(`"${value}" is not a valid IPv6 address.`);
    return fail(
      `"${value}" is not an IP address or CIDR range; host names are not accepted, write an address such as 104.133.8.78 or 2001:4860::/32.`,
    );
  }
  const bits = address.kind() === 'ipv6' ? 128 : 32;
  let prefixLength = bits;
  if (slashIndex >= 0) {
    const prefixText = value.slice(slashIndex + 1);
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) {
      return fail(
        `"${value}": the prefix length must be a number from 1 to ${bits} for ${address.kind() === 'ipv6' ? 'IPv6' : 'IPv4'}.`,
      );
    }
    prefixLength = Number(prefixText);
    if (prefixLength === 0) return fail(`"${value}" matches every address; remove the IP restriction instead.`);
    if (hasHostBits(address, prefixLength)) {
      const network = networkOf(address, prefixLength);
      return fail(
        `"${value}" has bits set after the /${prefixLength} prefix; did you mean ${formatAddress(network)}/${prefixLength}?`,
      );
    }
  }
  const problem = rangeProblem(address);
  if (problem) return fail(`"${value}" ${problem}.`);
  if (slashIndex >= 0) {
    const inside = internalRangeInside(address, prefixLength);
    if (inside) {
      const explanation = (RANGE_EXPLANATIONS[inside.kind] ?? 'internal')
        .replace(/^is an? /, '')
        .replace(/ address.*$/, '');
      return fail(`"${value}" includes ${inside.cidr}, which is ${explanation}; use a narrower range.`);
    }
  }
  return { ok: true, value: { address, prefixLength, single: slashIndex < 0 } };
}

export function validateIp(value: string): string | undefined {
  const parsed = parseIpRestriction(value);
  return parsed.ok ? undefined : parsed.message;
}

/** The canonical text of an accepted address or range (RFC 5952 for IPv6). */
export function formatIpRange(range: IpRange): string {
  const text = formatAddress(range.address);
  return range.single ? text : `${text}/${range.prefixLength}`;
}

/** True when `caller` (a plain address) lies inside `range`. IPv4-mapped IPv6 callers count as IPv4. */
export function ipInRange(caller: ipaddr.IPv4 | ipaddr.IPv6, range: IpRange): boolean {
  let subject = caller;
  if (subject.kind() === 'ipv6' && (subject as ipaddr.IPv6).isIPv4MappedAddress())
    subject = (subject as ipaddr.IPv6).toIPv4Address();
  if (subject.kind() !== range.address.kind()) return false;
  return (subject as ipaddr.IPv4).match(range.address, range.prefixLength);
}

export function parseCallerIp(value: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return parseAddress(value.trim());
}
