// Validation of Search API parameters before anything is sent, so a typo is explained locally
// (naming the parameter) instead of costing a rate-limited round trip.
import * as ipaddr from 'ipaddr.js';

export class SecOpsParamError extends Error {
  override readonly name = 'SecOpsParamError';
  constructor(
    message: string,
    /** The API's query parameter (or the argument) at fault. */
    readonly parameter: string,
  ) {
    super(message);
  }
}

/** A time given as a Date, epoch milliseconds, or an RFC 3339 string. */
export type TimeInput = Date | number | string;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Normalises a time to the RFC 3339 UTC form the service documents ("...Z"). Strings must already be
 * RFC 3339 (offsets are converted to UTC); anything else is refused with the parameter's name.
 */
export function formatTime(value: TimeInput, parameter: string): string {
  let ms: number;
  if (value instanceof Date) {
    ms = value.getTime();
  } else if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const m = RFC3339.exec(value.trim());
    if (!m)
      throw new SecOpsParamError(
        `${parameter} must be an RFC 3339 time such as 2024-05-01T12:00:00Z, got "${value}"`,
        parameter,
      );
    const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
      throw new SecOpsParamError(`${parameter} has an out-of-range date or time field: "${value}"`, parameter);
    }
    ms = Date.parse(value.trim().toUpperCase());
  } else {
    throw new SecOpsParamError(`${parameter} must be a time`, parameter);
  }
  if (!Number.isFinite(ms)) throw new SecOpsParamError(`${parameter} is not a valid time`, parameter);
  return new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

export function checkTimeOrder(start: string, end: string, startParam: string, endParam: string): void {
  if (Date.parse(start) >= Date.parse(end)) {
    throw new SecOpsParamError(`${startParam} (${start}) must be before ${endParam} (${end})`, startParam);
  }
}

export function checkPageSize(
  value: number | undefined,
  min: number,
  max: number,
  parameter: string,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SecOpsParamError(`${parameter} must be an integer from ${min} to ${max}, got ${value}`, parameter);
  }
  return value;
}

/**
 * Picks the single indicator set among `fields` (option key → API parameter). The API accepts exactly
 * one; zero or several is a caller error worth naming.
 */
export function exactlyOne<K extends string>(
  given: Partial<Record<K, string | number | undefined>>,
  fields: Record<K, string>,
  what: string,
): { key: K; parameter: string; value: string } {
  const set = (Object.keys(fields) as K[]).filter((k) => {
    const v = given[k];
    return v !== undefined && v !== null && String(v).trim() !== '';
  });
  const names = Object.values(fields).join(', ');
  if (set.length === 0) throw new SecOpsParamError(`Give exactly one ${what}: one of ${names}`, names);
  if (set.length > 1) {
    const chosen = set.map((k) => fields[k]).join(' and ');
    throw new SecOpsParamError(`Give exactly one ${what}, not ${chosen}`, fields[set[1]]);
  }
  const key = set[0];
  return { key, parameter: fields[key], value: String(given[key]).trim() };
}

const HEX = { md5: 32, sha1: 40, sha256: 64 } as const;

export function checkHash(kind: keyof typeof HEX, value: string, parameter: string): void {
  const re = new RegExp(`^[0-9a-fA-F]{${HEX[kind]}}$`);
  if (!re.test(value))
    throw new SecOpsParamError(
      `${parameter} must be ${HEX[kind]} hexadecimal digits (${kind.toUpperCase()}), got "${value}"`,
      parameter,
    );
}

export function checkIp(value: string, parameter: string): void {
  if (!ipaddr.isValid(value))
    throw new SecOpsParamError(`${parameter} must be an IPv4 or IPv6 address, got "${value}"`, parameter);
}

export function checkMac(value: string, parameter: string): void {
  if (!/^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/.test(value)) {
    throw new SecOpsParamError(
      `${parameter} must be a MAC address such as 00:1a:2b:3c:4d:5e, got "${value}"`,
      parameter,
    );
  }
}

export function checkDomain(value: string, parameter: string): void {
  // Internationalised names arrive as Unicode or punycode; refuse only what can never be a domain.
  if (value.length > 253 || /[\s/\\?#@]/.test(value) || value.startsWith('.') || value.includes('..')) {
    throw new SecOpsParamError(`${parameter} is not a domain name: "${value}"`, parameter);
  }
}

export function checkNonEmpty(value: string | undefined, parameter: string): string {
  if (value === undefined || value.trim() === '') throw new SecOpsParamError(`${parameter} is required`, parameter);
  return value;
}
