import * as ipaddr from 'ipaddr.js';
import { translateRegex } from './regex';

export type ArgType = 'string' | 'number' | 'bool' | 'timestamp' | 'any';

export interface FunctionParam {
  name: string;
  type: ArgType;
  optional?: boolean;
  doc?: string;
}

export interface FunctionDef {
  name: string;
  params: FunctionParam[];
  /** last parameter may repeat */
  variadic?: boolean;
  returns: ArgType;
  doc: string;
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

/** RFC 3339 without Date.parse: the evaluator reads a timestamp per event, so this is hot. */
function fastRfc3339(v: string): number | undefined {
  // YYYY-MM-DDTHH:MM:SS[.frac](Z|+hh:mm|-hh:mm)
  if (v.length < 20 || v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return undefined;
  const sep = v.charCodeAt(10);
  if (sep !== 84 && sep !== 116 && sep !== 32) return undefined;
  const num = (a: number, b: number): number => {
    let n = 0;
    for (let i = a; i < b; i++) {
      const c = v.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return NaN;
      n = n * 10 + c;
    }
    return n;
  };
  const y = num(0, 4);
  const mo = num(5, 7);
  const d = num(8, 10);
  const h = num(11, 13);
  const mi = num(14, 16);
  const se = num(17, 19);
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
    const oh = num(i + 1, i + 3);
    const om = num(i + 4, i + 6);
    if (Number.isNaN(oh + om)) return undefined;
    offset = (z === 43 ? 1 : -1) * (oh * 3600 + om * 60);
  } else return undefined;
  return Date.UTC(y, mo - 1, d, h, mi, se) / 1000 - offset;
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

function dateParts(v: unknown): Date | undefined {
  const secs = timestampSeconds(v);
  return secs === undefined ? undefined : new Date(secs * 1000);
}

function inZone(
  d: Date,
  tz: unknown,
): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  if (typeof tz === 'string' && tz !== '' && tz.toUpperCase() !== 'UTC' && tz.toUpperCase() !== 'GMT') {
    try {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
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
    weekday: d.getUTCDay(),
  };
}

const tsParams: FunctionParam[] = [
  { name: 'unix_seconds', type: 'timestamp', doc: 'A timestamp field (its .seconds) or epoch seconds' },
  {
    name: 'time_zone',
    type: 'string',
    optional: true,
    doc: 'IANA time zone such as "America/Los_Angeles"; UTC when omitted',
  },
];

function regexOf(pattern: unknown): RegExp | undefined {
  return translateRegex(toStr(pattern), false).regex;
}

export const FUNCTIONS: readonly FunctionDef[] = [
  {
    name: 'net.ip_in_range_cidr',
    params: [
      { name: 'ip', type: 'string', doc: 'An IP address field, e.g. principal.ip' },
      { name: 'cidr', type: 'string', doc: 'An IPv4 or IPv6 subnet, e.g. "10.0.0.0/8"' },
    ],
    returns: 'bool',
    doc: 'True when the IP address lies in the subnet.',
    impl: ([ip, cidr]) => {
      const r = parseCidr(toStr(cidr));
      return r ? ipInCidr(ip, r) : false;
    },
  },
  {
    name: 're.regex',
    params: [
      { name: 'text', type: 'string' },
      { name: 'pattern', type: 'string', doc: 'RE2 regular expression; matches anywhere in the text' },
    ],
    returns: 'bool',
    doc: 'True when the regular expression matches part of the text.',
    impl: ([text, pattern]) => regexOf(pattern)?.test(toStr(text)) ?? false,
  },
  {
    name: 're.capture',
    params: [
      { name: 'text', type: 'string' },
      { name: 'pattern', type: 'string', doc: 'RE2 regular expression with at most one capture group' },
    ],
    returns: 'string',
    doc: 'The first capture group of the first match (or the whole match without a group); empty when nothing matches.',
    impl: ([text, pattern]) => {
      const m = regexOf(pattern)?.exec(toStr(text));
      return m ? (m[1] ?? m[0]) : '';
    },
  },
  {
    name: 're.replace',
    params: [
      { name: 'text', type: 'string' },
      { name: 'pattern', type: 'string' },
      { name: 'replacement', type: 'string', doc: 'May refer to groups as \\1' },
    ],
    returns: 'string',
    doc: 'Replaces every match of the pattern.',
    impl: ([text, pattern, repl]) => {
      const r = regexOf(pattern);
      if (!r) return toStr(text);
      return toStr(text).replace(new RegExp(r.source, `${r.flags}g`), toStr(repl).replace(/\\(\d)/g, '$$$1'));
    },
  },
  {
    name: 'strings.concat',
    params: [
      { name: 'value', type: 'any' },
      { name: 'value', type: 'any' },
    ],
    variadic: true,
    returns: 'string',
    doc: 'Concatenates strings and numbers.',
    impl: (args) => args.map(toStr).join(''),
  },
  {
    name: 'strings.coalesce',
    params: [
      { name: 'value', type: 'string' },
      { name: 'value', type: 'string' },
    ],
    variadic: true,
    returns: 'string',
    doc: 'The first argument that is not empty.',
    impl: (args) => args.map(toStr).find((s) => s !== '') ?? '',
  },
  {
    name: 'strings.lower',
    params: [{ name: 'text', type: 'string' }],
    returns: 'string',
    doc: 'The text in lower case.',
    impl: ([s]) => toStr(s).toLowerCase(),
  },
  {
    name: 'strings.upper',
    params: [{ name: 'text', type: 'string' }],
    returns: 'string',
    doc: 'The text in upper case.',
    impl: ([s]) => toStr(s).toUpperCase(),
  },
  {
    name: 'strings.contains',
    params: [
      { name: 'text', type: 'string' },
      { name: 'substring', type: 'string' },
    ],
    returns: 'bool',
    doc: 'True when the text contains the substring (case-sensitive).',
    impl: ([s, sub]) => toStr(s).includes(toStr(sub)),
  },
  {
    name: 'strings.trim',
    params: [
      { name: 'text', type: 'string' },
      { name: 'cutset', type: 'string', optional: true, doc: 'Characters to remove; white space when omitted' },
    ],
    returns: 'string',
    doc: 'Removes the cutset characters from both ends.',
    impl: ([s, cut]) => trim(toStr(s), cut, true, true),
  },
  {
    name: 'strings.ltrim',
    params: [
      { name: 'text', type: 'string' },
      { name: 'cutset', type: 'string', optional: true },
    ],
    returns: 'string',
    doc: 'Removes the cutset characters from the start.',
    impl: ([s, cut]) => trim(toStr(s), cut, true, false),
  },
  {
    name: 'strings.rtrim',
    params: [
      { name: 'text', type: 'string' },
      { name: 'cutset', type: 'string', optional: true },
    ],
    returns: 'string',
    doc: 'Removes the cutset characters from the end.',
    impl: ([s, cut]) => trim(toStr(s), cut, false, true),
  },
  {
    name: 'strings.reverse',
    params: [{ name: 'text', type: 'string' }],
    returns: 'string',
    doc: 'The text reversed.',
    impl: ([s]) => [...toStr(s)].reverse().join(''),
  },
  {
    name: 'strings.base64_decode',
    params: [{ name: 'encoded', type: 'string' }],
    returns: 'string',
    doc: 'Decodes base64 text; empty when it is not valid base64.',
    impl: ([s]) => {
      const str = toStr(s);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(str)) return '';
      return Buffer.from(str, 'base64').toString('utf8');
    },
  },
  {
    name: 'strings.extract_domain',
    params: [{ name: 'url', type: 'string' }],
    returns: 'string',
    doc: 'The registered domain of a URL or host name (approximation: the last two labels).',
    impl: ([s]) => {
      const host = hostOf(toStr(s));
      const labels = host.split('.').filter(Boolean);
      return labels.length <= 2 ? host : labels.slice(-2).join('.');
    },
  },
  {
    name: 'strings.extract_hostname',
    params: [{ name: 'url', type: 'string' }],
    returns: 'string',
    doc: 'The host name part of a URL.',
    impl: ([s]) => hostOf(toStr(s)),
  },
  {
    name: 'strings.count_substrings',
    params: [
      { name: 'text', type: 'string' },
      { name: 'substring', type: 'string' },
    ],
    returns: 'number',
    doc: 'How often the substring occurs (without overlaps).',
    impl: ([s, sub]) => {
      const needle = toStr(sub);
      return needle === '' ? 0 : toStr(s).split(needle).length - 1;
    },
  },
  {
    name: 'timestamp.current_seconds',
    params: [],
    returns: 'number',
    doc: 'The current time in epoch seconds.',
    impl: () => Math.floor(Date.now() / 1000),
  },
  {
    name: 'timestamp.get_minute',
    params: tsParams,
    returns: 'number',
    doc: 'Minute of the hour, 0–59.',
    impl: ([t, tz]) => {
      const d = dateParts(t);
      return d ? inZone(d, tz).minute : undefined;
    },
  },
  {
    name: 'timestamp.get_hour',
    params: tsParams,
    returns: 'number',
    doc: 'Hour of the day, 0–23.',
    impl: ([t, tz]) => {
      const d = dateParts(t);
      return d ? inZone(d, tz).hour : undefined;
    },
  },
  {
    name: 'timestamp.get_day_of_week',
    params: tsParams,
    returns: 'number',
    doc: 'Day of the week, 1 (Sunday) to 7 (Saturday).',
    impl: ([t, tz]) => {
      const d = dateParts(t);
      return d ? inZone(d, tz).weekday + 1 : undefined;
    },
  },
  {
    name: 'timestamp.get_week',
    params: tsParams,
    returns: 'number',
    doc: 'Week of the year, 0–53; weeks start on Sunday.',
    impl: ([t, tz]) => {
      const d = dateParts(t);
      if (!d) return undefined;
      const z = inZone(d, tz);
      const jan1 = new Date(Date.UTC(z.year, 0, 1));
      const dayOfYear = Math.floor((Date.UTC(z.year, z.month - 1, z.day) - jan1.getTime()) / 86400000);
      return Math.floor((dayOfYear + jan1.getUTCDay()) / 7);
    },
  },
  {
    name: 'timestamp.get_date',
    params: tsParams,
    returns: 'string',
    doc: 'The date as "YYYY-MM-DD".',
    impl: ([t, tz]) => {
      const d = dateParts(t);
      if (!d) return undefined;
      const z = inZone(d, tz);
      return `${z.year}-${String(z.month).padStart(2, '0')}-${String(z.day).padStart(2, '0')}`;
    },
  },
  {
    name: 'math.abs',
    params: [{ name: 'number', type: 'number' }],
    returns: 'number',
    doc: 'Absolute value.',
    impl: ([n]) => Math.abs(toNum(n)),
  },
  {
    name: 'math.round',
    params: [
      { name: 'number', type: 'number' },
      { name: 'decimals', type: 'number', optional: true },
    ],
    returns: 'number',
    doc: 'Rounds to the given number of decimal places (0 when omitted).',
    impl: ([n, dp]) => {
      const f = 10 ** Math.max(0, Math.trunc(toNum(dp ?? 0)));
      return Math.round(toNum(n) * f) / f;
    },
  },
];

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

export const FUNCTION_NAMESPACES = [...new Set(FUNCTIONS.map((f) => f.name.split('.')[0]))];

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

function hostOf(s: string): string {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/]*@)?([^/:?#]*)/i.exec(s.trim());
  return (m?.[1] ?? '').toLowerCase();
}
