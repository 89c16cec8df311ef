// Server-side rules for API key bodies (seed 001 and the API Keys v2 reference), each failure an
// INVALID_ARGUMENT that names the offending value so a caller can fix it without guessing.
import ipaddr from 'ipaddr.js';
import { invalidArgument } from '../http/errors';

/** A refused value as the error message shows it: strings as they are, anything else as JSON. */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

export interface AndroidApplication {
  sha1Fingerprint: string;
  packageName: string;
}
export interface ApiTarget {
  service: string;
  methods?: string[];
}
export interface Restrictions {
  browserKeyRestrictions?: { allowedReferrers: string[] };
  serverKeyRestrictions?: { allowedIps: string[] };
  androidKeyRestrictions?: { allowedApplications: AndroidApplication[] };
  iosKeyRestrictions?: { allowedBundleIds: string[] };
  apiTargets?: ApiTarget[];
}

/** The mutable and creatable part of a Key, as it arrives on the wire. */
export interface KeyInput {
  displayName?: string;
  restrictions?: Restrictions;
  annotations?: Record<string, string>;
  serviceAccountEmail?: string;
  etag?: string;
}

const APPLICATION_RESTRICTIONS = [
  'browserKeyRestrictions',
  'serverKeyRestrictions',
  'androidKeyRestrictions',
  'iosKeyRestrictions',
] as const;
/** Only aiplatform accepts service-account-bound keys (seed 001). */
export const BOUND_KEY_SERVICE = 'aiplatform.googleapis.com';

const KEY_OUTPUT_ONLY = new Set(['name', 'uid', 'keyString', 'createTime', 'updateTime', 'deleteTime']);
const KEY_FIELDS = new Set([
  'displayName',
  'restrictions',
  'annotations',
  'serviceAccountEmail',
  'etag',
  ...KEY_OUTPUT_ONLY,
]);

function unknownField(name: string, at: string): never {
  throw invalidArgument(
    `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`,
    at ? `${at}.${name}` : name,
  );
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function expectObject(v: unknown, at: string): Record<string, unknown> {
  if (!isObject(v)) throw invalidArgument(`Invalid value at '${at}': expected a JSON object.`, at);
  return v;
}

function expectStringArray(v: unknown, at: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string'))
    throw invalidArgument(`Invalid value at '${at}': expected an array of strings.`, at);
  return v;
}

/**
 * A restriction that holds one list of strings (referrers, IPs, bundle ids): a copy of the list, or
 * undefined when the restriction is absent. `at` is the restriction's path in the request.
 */
function stringListRestriction(value: unknown, field: string, at: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const r = expectObject(value, at);
  onlyFields(r, [field], at);
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return [...expectStringArray(r[field], `${at}.${snake}`)];
}

function onlyFields(obj: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) unknownField(k, at);
}

/** Checks the shape of a Key body and returns its input fields (output-only fields are ignored, as Google does). */
export function parseKeyBody(body: unknown): KeyInput {
  const obj = expectObject(body, 'key');
  for (const k of Object.keys(obj)) if (!KEY_FIELDS.has(k)) unknownField(k, 'key');
  const out: KeyInput = {};
  if (obj.displayName !== undefined && obj.displayName !== null) {
    if (typeof obj.displayName !== 'string')
      throw invalidArgument(`Invalid value at 'key.display_name': expected a string.`, 'key.display_name');
    if (obj.displayName.length > 63)
      throw invalidArgument(
        `Display name "${obj.displayName.slice(0, 80)}" is ${obj.displayName.length} characters long; the limit is 63.`,
        'key.display_name',
      );
    out.displayName = obj.displayName;
  }
  if (obj.annotations !== undefined && obj.annotations !== null) {
    const a = expectObject(obj.annotations, 'key.annotations');
    for (const [k, v] of Object.entries(a))
      if (typeof v !== 'string')
        throw invalidArgument(`Invalid value at 'key.annotations[${k}]': expected a string.`, 'key.annotations');
    out.annotations = { ...(a as Record<string, string>) };
  }
  if (obj.serviceAccountEmail !== undefined && obj.serviceAccountEmail !== null && obj.serviceAccountEmail !== '') {
    if (typeof obj.serviceAccountEmail !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(obj.serviceAccountEmail)) {
      throw invalidArgument(
        `Service account email "${shown(obj.serviceAccountEmail)}" is not a valid email address.`,
        'key.service_account_email',
      );
    }
    out.serviceAccountEmail = obj.serviceAccountEmail;
  }
  if (obj.etag !== undefined && obj.etag !== null && obj.etag !== '') {
    if (typeof obj.etag !== 'string')
      throw invalidArgument(`Invalid value at 'key.etag': expected a string.`, 'key.etag');
    out.etag = obj.etag;
  }
  if (obj.restrictions !== undefined && obj.restrictions !== null)
    out.restrictions = parseRestrictions(obj.restrictions);
  return out;
}

export function parseRestrictions(raw: unknown): Restrictions {
  const at = 'key.restrictions';
  const obj = expectObject(raw, at);
  onlyFields(obj, [...APPLICATION_RESTRICTIONS, 'apiTargets'], at);
  const present = APPLICATION_RESTRICTIONS.filter((k) => obj[k] !== undefined && obj[k] !== null);
  if (present.length > 1) {
    throw invalidArgument(
      `Only one application restriction type can be set on a key, but the request sets ${present.join(' and ')}. Keep one of them (API targets can be combined with it).`,
      at,
    );
  }
  const out: Restrictions = {};
  const referrers = stringListRestriction(
    obj.browserKeyRestrictions,
    'allowedReferrers',
    `${at}.browser_key_restrictions`,
  );
  if (referrers) {
    referrers.forEach(validateReferrer);
    out.browserKeyRestrictions = { allowedReferrers: referrers };
  }
  const ips = stringListRestriction(obj.serverKeyRestrictions, 'allowedIps', `${at}.server_key_restrictions`);
  if (ips) {
    ips.forEach(validateIp);
    out.serverKeyRestrictions = { allowedIps: ips };
  }
  const android = obj.androidKeyRestrictions;
  if (android !== undefined && android !== null) {
    const a = expectObject(android, `${at}.android_key_restrictions`);
    onlyFields(a, ['allowedApplications'], `${at}.android_key_restrictions`);
    const apps = a.allowedApplications ?? [];
    if (!Array.isArray(apps))
      throw invalidArgument(
        `Invalid value at '${at}.android_key_restrictions.allowed_applications': expected an array.`,
      );
    out.androidKeyRestrictions = {
      allowedApplications: apps.map((app, i) => {
        const where = `${at}.android_key_restrictions.allowed_applications[${i}]`;
        const o = expectObject(app, where);
        onlyFields(o, ['sha1Fingerprint', 'packageName'], where);
        if (
          typeof o.packageName !== 'string' ||
          !/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/.test(o.packageName)
        ) {
          throw invalidArgument(
            `Package name "${shown(o.packageName ?? '')}" is not a valid application package name (expected a form like com.example.app).`,
            `${where}.package_name`,
          );
        }
        return {
          packageName: o.packageName,
          sha1Fingerprint: normalizeSha1(o.sha1Fingerprint, `${where}.sha1_fingerprint`),
        };
      }),
    };
  }
  const ids = stringListRestriction(obj.iosKeyRestrictions, 'allowedBundleIds', `${at}.ios_key_restrictions`);
  if (ids) {
    for (const id of ids) {
      if (!/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(id))
        throw invalidArgument(
          `Bundle ID "${id}" is not valid (expected a reverse-DNS form like com.example.app).`,
          `${at}.ios_key_restrictions.allowed_bundle_ids`,
        );
    }
    out.iosKeyRestrictions = { allowedBundleIds: ids };
  }
  if (obj.apiTargets !== undefined && obj.apiTargets !== null) {
    if (!Array.isArray(obj.apiTargets))
      throw invalidArgument(`Invalid value at '${at}.api_targets': expected an array.`, `${at}.api_targets`);
    out.apiTargets = obj.apiTargets.map((t, i) => {
      const where = `${at}.api_targets[${i}]`;
      const o = expectObject(t, where);
      onlyFields(o, ['service', 'methods'], where);
      if (typeof o.service !== 'string' || !/^[a-z0-9][a-z0-9.-]*\.[a-z]{2,}$/i.test(o.service)) {
        throw invalidArgument(
          `API target service "${shown(o.service ?? '')}" is not a service name such as translate.googleapis.com.`,
          `${where}.service`,
        );
      }
      const methods = expectStringArray(o.methods, `${where}.methods`);
      for (const m of methods) {
        const star = m.indexOf('*');
        if (m === '' || (star !== -1 && star !== m.length - 1)) {
          throw invalidArgument(
            `API target method "${m}" is invalid: "*" is allowed only as the last character.`,
            `${where}.methods`,
          );
        }
      }
      const target: ApiTarget = { service: o.service };
      if (methods.length > 0) target.methods = [...methods];
      return target;
    });
  }
  return out;
}

function normalizeSha1(raw: unknown, at: string): string {
  const text = typeof raw === 'string' ? raw : '';
  const hex = text.includes(':')
    ? /^([0-9A-Fa-f]{2}:){19}[0-9A-Fa-f]{2}$/.test(text)
      ? text.replace(/:/g, '')
      : ''
    : text;
  if (!/^[0-9A-Fa-f]{40}$/.test(hex)) {
    throw invalidArgument(
      `SHA-1 fingerprint "${text}" is not a 20-byte SHA-1 fingerprint (40 hex digits, with or without colons).`,
      at,
    );
  }
  return hex.toUpperCase();
}

/** Referrer rules: "*" may replace the first host label or the end of the path, never sit inside a host. */
export function validateReferrer(pattern: string): void {
  const at = 'key.restrictions.browser_key_restrictions.allowed_referrers';
  const fail = (why: string): never => {
    throw invalidArgument(`Referrer "${pattern}" is invalid: ${why}`, at);
  };
  if (pattern.trim() === '' || /\s/.test(pattern)) fail('it is empty or contains whitespace.');
  if (pattern === '*') return;
  let rest = pattern;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  const slash = rest.indexOf('/');
  const hostPort = slash === -1 ? rest : rest.slice(0, slash);
  const path = slash === -1 ? '' : rest.slice(slash);
  // A bracketed IPv6 host carries colons of its own: only a ":port" after "]" is a port.
  const bracketEnd = hostPort.startsWith('[') ? hostPort.indexOf(']') : -1;
  if (hostPort.startsWith('[') && bracketEnd === -1) fail('the IPv6 host has no closing "]".');
  const portMatch = bracketEnd >= 0 ? /^(\[[^\]]*\]):([^:]*)$/.exec(hostPort) : /^(.*):([^:\]]*)$/.exec(hostPort);
  if (bracketEnd >= 0 && !portMatch && bracketEnd !== hostPort.length - 1)
    fail('only ":port" may follow an IPv6 host in brackets.');
  const host = portMatch ? portMatch[1] : hostPort;
  if (portMatch) {
    const port = portMatch[2];
    if (port !== '*' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
      fail(`"${port}" is not a port number.`);
  }
  if (host === '') fail('it has no host.');
  if (host.includes('*')) {
    if (host !== '*' && !(host.startsWith('*.') && !host.slice(2).includes('*'))) {
      fail(
        'a wildcard may replace a whole subdomain ("*.example.com") but may not be inserted in the middle of a host.',
      );
    }
  }
  if (!/^(\*|(\*\.)?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\])$/.test(host))
    fail(`"${host}" is not a valid host name.`);
  const star = path.indexOf('*');
  if (star !== -1 && star !== path.length - 1) fail('a wildcard in the path may only be the last character.');
}

const INTERNAL_RANGES = new Set([
  'unspecified',
  'broadcast',
  'multicast',
  'linkLocal',
  'loopback',
  'carrierGradeNat',
  'private',
  'uniqueLocal',
  'deprecatedSiteLocal',
]);

/** IPv4, IPv6 or a CIDR subnet of either, never localhost or an internal address. */
export function validateIp(entry: string): void {
  const at = 'key.restrictions.server_key_restrictions.allowed_ips';
  const fail = (why: string): never => {
    throw invalidArgument(`IP address "${entry}" is invalid: ${why}`, at);
  };
  if (entry.toLowerCase() === 'localhost')
    fail('localhost is not supported; use the external address of the calling server.');
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  const slash = entry.indexOf('/');
  const base = slash === -1 ? entry : entry.slice(0, slash);
  const strictV4 = ipaddr.IPv4.isValidFourPartDecimal(base);
  if (!strictV4 && !ipaddr.IPv6.isValid(base))
    fail('expected an IPv4 address, an IPv6 address or a CIDR subnet such as 203.0.113.0/24.');
  if (slash !== -1) {
    try {
      addr = ipaddr.parseCIDR(entry)[0];
    } catch {
      return fail('the CIDR prefix length is out of range.');
    }
  } else {
    addr = ipaddr.parse(base);
  }
  let range = addr.range();
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    range = (addr as ipaddr.IPv6).toIPv4Address().range();
  if (range === 'loopback') fail('localhost addresses are not supported.');
  if (INTERNAL_RANGES.has(range))
    fail(`internal (${range}) addresses are not supported; use the external address of the calling server.`);
}

/** Rules that depend on the whole key, not one field. */
export function validateKeyCombination(
  serviceAccountEmail: string | undefined,
  restrictions: Restrictions | undefined,
): void {
  if (!serviceAccountEmail || !restrictions) return;
  const other = APPLICATION_RESTRICTIONS.filter((k) => k !== 'serverKeyRestrictions' && restrictions[k] !== undefined);
  if (other.length > 0) {
    throw invalidArgument(
      `A key bound to a service account (${serviceAccountEmail}) accepts only server (IP address) application restrictions, but the request sets ${other.join(', ')}.`,
      'key.restrictions',
    );
  }
  for (const t of restrictions.apiTargets ?? []) {
    if (t.service.toLowerCase() !== BOUND_KEY_SERVICE) {
      throw invalidArgument(
        `A key bound to a service account works only with ${BOUND_KEY_SERVICE}; API target "${t.service}" is not allowed on it.`,
        'key.restrictions.api_targets',
      );
    }
  }
}

export const KEY_ID_PATTERN = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function validateKeyId(keyId: string): void {
  if (!KEY_ID_PATTERN.test(keyId) || UUID_LIKE.test(keyId)) {
    throw invalidArgument(
      `Key ID "${keyId}" is invalid: it must be 1-63 lowercase letters, digits or hyphens, start with a letter, not end with a hyphen, and not look like a UUID.`,
      'key_id',
    );
  }
}
