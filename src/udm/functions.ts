import * as ipaddr from 'ipaddr.js';
import { getDomain } from 'tldts';
import { FUNCTION_CATALOG, type CatalogEntry } from './function-catalog';
import { translateRegex } from './regex';

export type ArgType = 'string' | 'number' | 'bool' | 'timestamp' | 'bytes' | 'array' | 'any';

export interface FunctionParam {
  name: string;
  type: ArgType;
  /** the type as Google documents it (STRING, INT|FLOAT, ARRAY_STRINGS...) */
  googleType?: string;
  optional?: boolean;
  doc?: string;
}

export interface FunctionDef {
  name: string;
  params: FunctionParam[];
  /** last parameter may repeat */
  variadic?: boolean;
  returns: ArgType;
  /** the return type as Google documents it */
  googleReturns: string;
  doc: string;
  /** supported in UDM search; false: in detection rules only */
  search: boolean;
  /** "Search, Rules", "Search" or "Rules only", as documented */
  where: string;
  /** the documented example */
  example: string;
  /** Receives one value per argument; may return undefined for "no value". */
  impl: (args: unknown[]) => unknown;
}

export function toStr(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return v.map(toStr).join(',');
  return JSON.stringify(v) ?? '';
}

export function toNum(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v === '') return 0;
    const n = Number(v);
    if (!Number.isNaN(n)) return n;
    const secs = timestampSeconds(v);
    return secs ?? NaN;
  }
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === undefined || v === null) return 0;
  return NaN;
}

/** Seconds since the epoch from an RFC 3339 string, a `{seconds}` object or a number. */
let lastTsText = '';
let lastTsValue: number | undefined;

/** The decimal number written in v[a..b), or NaN when a character there is no digit. */
function digitsAt(v: string, a: number, b: number): number {
  let n = 0;
  for (let i = a; i < b; i++) {
    const c = v.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    n = n * 10 + c;
  }
  return n;
}

/** RFC 3339 without Date.parse: the evaluator reads a timestamp per event, so this is hot. */
function fastRfc3339(v: string): number | undefined {
  // YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)
  if (v.length < 20 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return undefined;
  const sep = v.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return undefined;
  const y = digitsAt(v, 0, 4);
  const mo = digitsAt(v, 5, 7);
  const d = digitsAt(v, 8, 10);
  const h = digitsAt(v, 11, 13);
  const mi = digitsAt(v, 14, 16);
  const se = digitsAt(v, 17, 19);
  if (Number.isNaN(y + mo + d + h + mi + se)) return undefined;
  let i = 19;
  if (v.charCodeAt(i) === 46) {
    i++;
    while (i < v.length && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57) i++;
  }
  let offset = 0;
  const z = v.charCodeAt(i);
  if (z === 90 || z === 122) {
    if (i + 1 !== v.length) return undefined;
  } else if ((z === 43 || z === 45) && v.length === i + 6) {
    const oh = digitsAt(v, i + 1, i + 3);
    const om = digitsAt(v, i + 4, i + 6);
    if (Number.isNaN(oh + om)) return undefined;
    offset = (z === 43 ? 1 : -1) * (oh * 3600 + om * 60);
  } else return undefined;
  return utcSeconds(y, mo, d, h, mi, se) - offset;
}

/**
 * Date.UTC(y, mo - 1, d, h, mi, se) / 1000 for the whole numbers 0–9999 fastRfc3339 reads (out-of-range
 * months, days and times carry over the same way), by calendar arithmetic instead of a Date call.
 */
function utcSeconds(y: number, mo: number, d: number, h: number, mi: number, se: number): number {
  let year = y <= 99 ? 1900 + y : y; // as Date.UTC reads two-digit years
  let month = mo - 1;
  if (month < 0 || month > 11) {
    const carry = Math.floor(month / 12);
    year += carry;
    month -= carry * 12;
  }
  // Days since 1970-01-01 of the first of the month, in the proleptic Gregorian calendar
  // (years counted from March, so the leap day ends a year).
  const yy = month < 2 ? year - 1 : year;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * ((month + 10) % 12) + 2) / 5);
  const days = era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468 + d - 1;
  return days * 86400 + h * 3600 + mi * 60 + se;
}

export function timestampSeconds(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') {
    if (v === lastTsText) return lastTsValue;
    const fast = fastRfc3339(v);
    if (fast !== undefined) {
      lastTsText = v;
      lastTsValue = fast;
      return fast;
    }
    if (/^-?\d+(\.\d+)?$/.test(v)) return Number(v);
    const dur = /^(-?\d+(?:\.\d+)?)s$/.exec(v);
    if (dur) return Math.trunc(Number(dur[1]));
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
  }
  if (v && typeof v === 'object' && 'seconds' in v) return toNum(v.seconds);
  return undefined;
}

const cidrCache = new Map<string, [ipaddr.IPv4 | ipaddr.IPv6, number] | null>();
export function parseCidr(cidr: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  let hit = cidrCache.get(cidr);
  if (hit !== undefined) return hit;
  try {
    hit = ipaddr.parseCIDR(cidr.trim());
  } catch {
    try {
      const addr = ipaddr.parse(cidr.trim());
      hit = [addr, addr.kind() === 'ipv4' ? 32 : 128];
    } catch {
      hit = null;
    }
  }
  if (cidrCache.size > 10000) cidrCache.clear();
  cidrCache.set(cidr, hit);
  return hit;
}

/** IPv4 dotted quad to an unsigned 32-bit number, or -1. */
export function ipv4ToInt(s: string): number {
  let n = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || part > 255) return -1;
      n = n * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (c >= 48 && c <= 57) {
      part = part * 10 + (c - 48);
      if (++digits > 3) return -1;
    } else return -1;
  }
  if (dots !== 3 || digits === 0 || part > 255) return -1;
  return n * 256 + part;
}

/** A predicate for "IP in this CIDR" with an allocation-free IPv4 path. */
export function cidrMatcher(range: [ipaddr.IPv4 | ipaddr.IPv6, number]): (ip: unknown) => boolean {
  const [net, bits] = range;
  if (net.kind() === 'ipv4') {
    const base = ipv4ToInt(net.toString());
    const size = 2 ** (32 - bits);
    const lo = Math.floor(base / size) * size;
    const hi = lo + size;
    return (ip) => {
      if (typeof ip !== 'string') return false;
      const n = ipv4ToInt(ip);
      if (n >= 0) return n >= lo && n < hi;
      return ip.includes(':') && ipInCidr(ip, range);
    };
  }
  return (ip) => ipInCidr(ip, range);
}

export function ipInCidr(ip: unknown, range: [ipaddr.IPv4 | ipaddr.IPv6, number]): boolean {
  if (typeof ip !== 'string' || ip === '') return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  const [net] = range;
  if (addr.kind() !== net.kind()) return false;
  return addr.match(range);
}

function inZone(
  d: Date,
  tz: unknown,
): { year: number; month: number; day: number; hour: number; minute: number; second: number; weekday: number } {
  if (typeof tz === 'string' && tz !== '' && tz.toUpperCase() !== 'UTC' && tz.toUpperCase() !== 'GMT') {
    try {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        weekday: 'short',
        hourCycle: 'h23',
      }).formatToParts(d);
      const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '0';
      const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
      return {
        year: Number(get('year')),
        month: Number(get('month')),
        day: Number(get('day')),
        hour: Number(get('hour')),
        minute: Number(get('minute')),
        second: Number(get('second')),
        weekday: days.indexOf(get('weekday')),
      };
    } catch {
      // An unknown zone falls back to UTC; the checker reports it.
    }
  }
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

function regexOf(pattern: unknown): RegExp | undefined {
  return translateRegex(toStr(pattern), false).regex;
}

function num(v: unknown): number {
  return toNum(v);
}

function arr(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return [];
  return [v];
}

/** Element `i` of an array (a negative index counts from the end). */
function at(list: unknown[], i: unknown): unknown {
  const n = Math.trunc(num(i));
  const k = n < 0 ? list.length + n : n;
  return k >= 0 && k < list.length ? list[k] : undefined;
}

/** BYTES values travel as lower-case hex strings; `b'…'` literals hold hex digits or text. */
function bytesOf(v: unknown): Buffer {
  const s = toStr(v);
  return /^(?:[0-9a-fA-F]{2})*$/.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'utf8');
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

function decodeBase64(s: string): Buffer | undefined {
  const t = s.trim();
  if (B64.test(t)) return Buffer.from(t, 'base64');
  if (B64URL.test(t) && t.length % 4 !== 1) return Buffer.from(t, 'base64url');
  return undefined;
}

function zoneParts(secs: number, tz: unknown): ReturnType<typeof inZone> {
  return inZone(new Date(secs * 1000), tz);
}

/** Epoch seconds of a wall-clock time in a time zone (`timestamp.as_unix_seconds`). */
function wallClockToEpoch(text: string, tz: unknown): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return timestampSeconds(text);
  const asUtc = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)) / 1000;
  // Find the zone's offset at that instant (twice, for times near a DST change).
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const z = zoneParts(guess, tz);
    const shown = Date.UTC(z.year, z.month - 1, z.day, z.hour, z.minute, z.second) / 1000;
    guess += asUtc - shown;
  }
  return guess;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** strftime subset used by timestamp.get_timestamp, or a granularity name. */
function formatTimestamp(secs: number, format: unknown, tz: unknown): string {
  const z = zoneParts(secs, tz);
  const fmt = format === undefined ? '%F %T' : toStr(format);
  const date = `${z.year}-${pad(z.month)}-${pad(z.day)}`;
  switch (fmt.toUpperCase()) {
    case 'SECOND':
      return `${date} ${pad(z.hour)}:${pad(z.minute)}:${pad(z.second)}`;
    case 'MINUTE':
      return `${date} ${pad(z.hour)}:${pad(z.minute)}:00`;
    case 'HOUR':
      return `${date} ${pad(z.hour)}:00:00`;
    case 'DATE':
      return date;
    case 'MONTH':
      return `${z.year}-${pad(z.month)}-01`;
    case 'YEAR':
      return `${z.year}-01-01`;
    case 'WEEK': {
      const d = new Date(Date.UTC(z.year, z.month - 1, z.day - z.weekday));
      return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    }
    default:
      break;
  }
  const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const monthNames = [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  return fmt.replace(/%([a-zA-Z%])/g, (all, c: string) => {
    switch (c) {
      case 'F':
        return date;
      case 'T':
        return `${pad(z.hour)}:${pad(z.minute)}:${pad(z.second)}`;
      case 'Y':
        return String(z.year);
      case 'm':
        return pad(z.month);
      case 'd':
        return pad(z.day);
      case 'H':
        return pad(z.hour);
      case 'M':
        return pad(z.minute);
      case 'S':
        return pad(z.second);
      case 'y':
        return pad(z.year % 100);
      case 'A':
        return dayNames[z.weekday];
      case 'a':
        return dayNames[z.weekday].slice(0, 3);
      case 'B':
        return monthNames[z.month - 1];
      case 'b':
        return monthNames[z.month - 1].slice(0, 3);
      case 's':
        return String(Math.floor(secs));
      case '%':
        return '%';
      default:
        return all;
    }
  });
}

function weekOfYear(secs: number, tz: unknown): number {
  const z = zoneParts(secs, tz);
  const jan1 = new Date(Date.UTC(z.year, 0, 1));
  const dayOfYear = Math.floor((Date.UTC(z.year, z.month - 1, z.day) - jan1.getTime()) / 86400000);
  return Math.floor((dayOfYear + jan1.getUTCDay()) / 7);
}

function tsArg(v: unknown): number | undefined {
  return timestampSeconds(v);
}

function regexFor(pattern: unknown, global = false): RegExp | undefined {
  const r = regexOf(pattern);
  return r && global ? new RegExp(r.source, `${r.flags.replace('g', '')}g`) : r;
}

function numbers(v: unknown): number[] {
  return arr(v)
    .map(num)
    .filter((n) => !Number.isNaN(n));
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

/** Evaluation of every search function, by name. Rules-only functions have none. */
const IMPLS: Record<string, (args: unknown[]) => unknown> = {
  // arrays
  'arrays.concat': ([a, b]) => [...arr(a), ...arr(b)],
  'arrays.index_to_float': ([a, i]) => {
    const v = at(arr(a), i);
    return v === undefined ? 0 : num(v);
  },
  'arrays.index_to_int': ([a, i]) => {
    const v = at(arr(a), i);
    return v === undefined ? 0 : Math.trunc(num(v)) || 0;
  },
  'arrays.index_to_str': ([a, i]) => toStr(at(arr(a), i)),
  'arrays.join_string': ([a, d]) =>
    arr(a)
      .map(toStr)
      .join(d === undefined ? '' : toStr(d)),
  'arrays.length': ([a]) => arr(a).length,
  'arrays.max': ([a]) => {
    const n = numbers(a);
    return n.length ? Math.max(...n) : 0;
  },
  'arrays.min': ([a, ignoreZeros]) => {
    const n = numbers(a).filter((x) => !(ignoreZeros === true && x === 0));
    return n.length ? Math.min(...n) : 0;
  },
  'arrays.size': ([a]) => arr(a).length,
  // bytes
  'bytes.to_base64': ([b, dflt]) => {
    const buf = bytesOf(b);
    return buf.length === 0 && dflt !== undefined ? toStr(dflt) : buf.toString('base64');
  },
  // cast
  'cast.as_bool': ([v]) => {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    const s = toStr(v).trim().toLowerCase();
    return s === 'true' || s === '1' || s === 't';
  },
  'cast.as_float': ([v]) => {
    const n = num(v);
    return Number.isNaN(n) ? 0 : n;
  },
  'cast.as_int': ([v]) => {
    const n = num(v);
    return Number.isNaN(n) ? 0 : Math.trunc(n);
  },
  'cast.as_string': ([v, dflt]) => {
    if (v === undefined || v === null || v === '') return dflt === undefined ? '' : toStr(dflt);
    return toStr(v);
  },
  // group: every value of every argument (the placeholder takes each in turn)
  group: (args) => args.flatMap(arr),
  // math
  'math.abs': ([n]) => Math.abs(num(n)),
  'math.ceil': ([n]) => Math.ceil(num(n)),
  'math.floor': ([n]) => Math.floor(num(n)),
  'math.is_increasing': ([a, b, c]) => num(a) < num(b) && num(b) < num(c),
  'math.log': ([n]) => Math.log(num(n)),
  'math.pow': ([a, b]) => num(a) ** num(b),
  'math.random': () => Math.random(),
  'math.round': ([n, dp]) => {
    const f = 10 ** Math.max(0, Math.trunc(num(dp ?? 0)));
    const x = num(n) * f;
    // half away from zero, as SQL ROUND does
    return (Math.sign(x) * Math.round(Math.abs(x))) / f;
  },
  'math.sqrt': ([n]) => Math.sqrt(num(n)),
  // net
  'net.ip_in_range_cidr': ([ip, cidr]) => {
    const r = parseCidr(toStr(cidr));
    return r ? ipInCidr(ip, r) : false;
  },
  // re
  're.capture': ([text, pattern]) => {
    const m = regexOf(pattern)?.exec(toStr(text));
    return m ? (m[1] ?? m[0]) : '';
  },
  're.capture_all': ([text, pattern]) => {
    const r = regexFor(pattern, true);
    if (!r) return [];
    return [...toStr(text).matchAll(r)].map((m) => m[1] ?? m[0]);
  },
  're.regex': ([text, pattern]) => regexOf(pattern)?.test(toStr(text)) ?? false,
  're.replace': ([text, pattern, repl]) => {
    const r = regexFor(pattern, true);
    if (!r) return toStr(text);
    return toStr(text).replace(
      r,
      toStr(repl)
        .replace(/\$/g, '$$$$')
        .replace(/\\(\d)/g, '$$$1'),
    );
  },
  // strings
  'strings.base64_decode': ([s]) => {
    const str = toStr(s);
    const buf = decodeBase64(str);
    return buf ? buf.toString('utf8') : str;
  },
  'strings.coalesce': (args) => args.map(toStr).find((s) => s !== '') ?? '',
  'strings.concat': (args) => args.map(toStr).join(''),
  'strings.contains': ([s, sub]) => toStr(s).includes(toStr(sub)),
  'strings.count_substrings': ([s, sub]) => {
    const needle = toStr(sub);
    return needle === '' ? 0 : toStr(s).split(needle).length - 1;
  },
  'strings.ends_with': ([s, suffix]) => toStr(s).endsWith(toStr(suffix)),
  'strings.extract_domain': ([s]) => {
    const host = urlHost(toStr(s));
    return getDomain(host, { allowPrivateDomains: false }) ?? '';
  },
  'strings.extract_hostname': ([s]) => urlHost(toStr(s)),
  'strings.from_base64': ([s]) => decodeBase64(toStr(s))?.toString('hex') ?? '',
  'strings.from_hex': ([s]) => {
    const t = toStr(s).trim();
    return /^(?:[0-9a-fA-F]{2})*$/.test(t) ? t.toLowerCase() : '';
  },
  'strings.length': ([s]) => [...toStr(s)].length,
  'strings.ltrim': ([s, cut]) => trim(toStr(s), cut, true, false),
  'strings.reverse': ([s]) => [...toStr(s)].reverse().join(''),
  'strings.rtrim': ([s, cut]) => trim(toStr(s), cut, false, true),
  'strings.split': ([s, d]) => toStr(s).split(d === undefined ? ',' : toStr(d)),
  'strings.to_lower': ([s]) => toStr(s).toLowerCase(),
  'strings.to_upper': ([s]) => toStr(s).toUpperCase(),
  'strings.trim': ([s, cut]) => trim(toStr(s), cut, true, true),
  'strings.url_decode': ([s]) => {
    const t = toStr(s);
    try {
      return decodeURIComponent(t.replace(/\+/g, ' '));
    } catch {
      return t;
    }
  },
  // timestamp
  'timestamp.as_unix_seconds': ([t, tz]) => wallClockToEpoch(toStr(t), tz),
  'timestamp.current_seconds': () => Math.floor(Date.now() / 1000),
  'timestamp.now': () => Math.floor(Date.now() / 1000),
  'timestamp.get_date': ([t, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : formatTimestamp(s, 'DATE', tz);
  },
  'timestamp.get_day_of_week': ([t, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : zoneParts(s, tz).weekday + 1;
  },
  'timestamp.get_hour': ([t, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : zoneParts(s, tz).hour;
  },
  'timestamp.get_minute': ([t, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : zoneParts(s, tz).minute;
  },
  'timestamp.get_timestamp': ([t, fmt, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : formatTimestamp(s, fmt, tz);
  },
  'timestamp.get_week': ([t, tz]) => {
    const s = tsArg(t);
    return s === undefined ? undefined : weekOfYear(s, tz);
  },
  // window
  'window.range': ([v, ignoreZeros]) => {
    const n = numbers(v).filter((x) => !(ignoreZeros === true && x === 0));
    return n.length ? [Math.min(...n), Math.max(...n)] : [];
  },
};

/** Google's type names to the checker's kinds. */
function argTypeOf(types: readonly string[]): ArgType {
  const kinds = new Set(
    types.map((t) => {
      if (t === 'STRING') return 'string';
      if (t === 'INT' || t === 'FLOAT' || t === 'NUMBER') return 'number';
      if (t === 'BOOL') return 'bool';
      if (t === 'TIMESTAMP') return 'timestamp';
      if (t === 'BYTES') return 'bytes';
      if (t.startsWith('ARRAY') || t === 'LIST') return 'array';
      return 'any';
    }),
  );
  return kinds.size === 1 ? [...kinds][0] : 'any';
}

function returnTypeOf(google: string): ArgType {
  const first = google.split(/[\s(]/)[0];
  if (first === 'NUMBER') return 'number';
  return argTypeOf([first]);
}

function docOf(e: CatalogEntry): string {
  const parts: string[] = [];
  if (e.notes) parts.push(e.notes);
  return parts.join(' ');
}

export const FUNCTIONS: readonly FunctionDef[] = FUNCTION_CATALOG.map((e): FunctionDef => {
  const impl = IMPLS[e.name];
  return {
    name: e.name,
    params: e.params.map((p) => ({
      name: p.name,
      type: argTypeOf(p.types),
      googleType: p.types.join('|'),
      ...(p.optional ? { optional: true } : {}),
    })),
    ...(e.variadic ? { variadic: true } : {}),
    returns: returnTypeOf(e.returns),
    googleReturns: e.returns,
    doc: docOf(e),
    search: e.search,
    where: e.where,
    example: e.example,
    impl: impl ?? (() => undefined),
  };
});

/** Names that are not UDM functions but are often written for one. */
export const RENAMED_FUNCTIONS: Readonly<Record<string, string>> = {
  'strings.lower': 'strings.to_lower',
  'strings.upper': 'strings.to_upper',
  'strings.tolower': 'strings.to_lower',
  'strings.toupper': 'strings.to_upper',
  'strings.len': 'strings.length',
  'strings.starts_with': 'strings.contains',
  'timestamp.current': 'timestamp.current_seconds',
};

export interface AggregateDef {
  name: string;
  params: FunctionParam[];
  returns: ArgType | 'array';
  doc: string;
}

/** Aggregates of the outcome: section. */
export const AGGREGATES: readonly AggregateDef[] = [
  { name: 'count', params: [{ name: 'field', type: 'any' }], returns: 'number', doc: 'Number of values in the group.' },
  {
    name: 'count_distinct',
    params: [{ name: 'field', type: 'any' }],
    returns: 'number',
    doc: 'Number of distinct values in the group.',
  },
  { name: 'sum', params: [{ name: 'field', type: 'number' }], returns: 'number', doc: 'Sum of the values.' },
  { name: 'min', params: [{ name: 'field', type: 'number' }], returns: 'number', doc: 'Smallest value.' },
  { name: 'max', params: [{ name: 'field', type: 'number' }], returns: 'number', doc: 'Largest value.' },
  { name: 'avg', params: [{ name: 'field', type: 'number' }], returns: 'number', doc: 'Mean of the values.' },
  {
    name: 'stddev',
    params: [{ name: 'field', type: 'number' }],
    returns: 'number',
    doc: 'Standard deviation of the values.',
  },
  { name: 'array', params: [{ name: 'field', type: 'any' }], returns: 'array', doc: 'All values (at most 25).' },
  {
    name: 'array_distinct',
    params: [{ name: 'field', type: 'any' }],
    returns: 'array',
    doc: 'Distinct values (at most 25).',
  },
  {
    name: 'earliest',
    params: [{ name: 'timestamp', type: 'timestamp' }],
    returns: 'number',
    doc: 'Earliest timestamp, epoch seconds.',
  },
  {
    name: 'latest',
    params: [{ name: 'timestamp', type: 'timestamp' }],
    returns: 'number',
    doc: 'Latest timestamp, epoch seconds.',
  },
];

const FN_BY_NAME = new Map(FUNCTIONS.map((f) => [f.name, f]));
const AGG_BY_NAME = new Map(AGGREGATES.map((f) => [f.name, f]));

export function findFunction(name: string): FunctionDef | undefined {
  return FN_BY_NAME.get(name);
}

export function findAggregate(name: string): AggregateDef | undefined {
  return AGG_BY_NAME.get(name.toLowerCase());
}

/** Families (`arrays`, `cast`, ...) of the search functions; `group` has none. */
export const FUNCTION_NAMESPACES = [
  ...new Set(FUNCTIONS.filter((f) => f.search && f.name.includes('.')).map((f) => f.name.split('.')[0])),
];

/** Families that exist only in detection rules (`hash`, `metrics`, `optimization`). */
export const RULES_ONLY_NAMESPACES = [
  ...new Set(FUNCTIONS.filter((f) => f.name.includes('.')).map((f) => f.name.split('.')[0])),
].filter((ns) => !FUNCTION_NAMESPACES.includes(ns));

export function signatureLabel(f: {
  name: string;
  params: FunctionParam[];
  variadic?: boolean;
  returns: string;
}): string {
  const params = f.params.map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type}`);
  if (f.variadic) params.push('...');
  return `${f.name}(${params.join(', ')}): ${f.returns}`;
}

function trim(s: string, cutset: unknown, left: boolean, right: boolean): string {
  const cut = cutset === undefined ? ' \t\r\n' : toStr(cutset);
  let a = 0;
  let b = s.length;
  if (left) while (a < b && cut.includes(s[a])) a++;
  if (right) while (b > a && cut.includes(s[b - 1])) b--;
  return s.slice(a, b);
}
