// How function arguments and event values are read: text, numbers, timestamps and lists. Every
// family module and the evaluator use these, so a value reads the same everywhere.

/**
 * A BYTES value (what `b'…'`, strings.from_base64 and strings.from_hex give). Kept apart from
 * strings so that cast.as_string and bytes.to_base64 read the bytes themselves; as text it is its
 * lower-case hex, the way a `b'…'` literal is written, so comparisons with literals hold.
 */
export class Bytes {
  constructor(readonly data: Uint8Array) {}
  toString(): string {
    return Buffer.from(this.data.buffer, this.data.byteOffset, this.data.byteLength).toString('hex');
  }
  toJSON(): string {
    return this.toString();
  }
}

const HEX_PAIRS = /^(?:[0-9a-fA-F]{2})*$/;

/** A `b'…'` literal: hex digits in pairs are the bytes they spell (Google's samples); other text is its UTF-8. */
export function bytesOfLiteral(text: string): Bytes {
  return new Bytes(HEX_PAIRS.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'utf8'));
}

export function toStr(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v instanceof Bytes) return v.toString();
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

/** A number from a value (as toNum). */
export function num(v: unknown): number {
  return toNum(v);
}

/** A value as a list: an array as is, nothing as [], anything else as [value]. */
export function arr(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return [];
  return [v];
}

/** The numbers of a list, values that read as no number left out. */
export function numbers(v: unknown): number[] {
  return arr(v)
    .map(num)
    .filter((n) => !Number.isNaN(n));
}
