// net: IP addresses and CIDR ranges. parseCidr and cidrMatcher also serve `in cidr %list`.
import * as ipaddr from 'ipaddr.js';
import { type ArgCheck, defineFamily, fn } from './types';
import { toStr } from './values';

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

/** A CIDR range written as a string literal must parse. */
const checkCidrArg: ArgCheck = (args, report) => {
  const c = args[1];
  if (c?.type === 'string' && !parseCidr(c.value))
    report(`"${c.value}" is not a CIDR range such as "10.0.0.0/8"`, c, 'bad-cidr');
};

export const NET = defineFamily('net', [
  fn(
    'net.ip_in_range_cidr(ipAddress: STRING, subnetworkRange: STRING): BOOL',
    'net.ip_in_range_cidr($e.principal.ip, "192.0.2.0/24")',
    ([ip, cidr]) => {
      const r = parseCidr(toStr(cidr));
      return r ? ipInCidr(ip, r) : false;
    },
    { checkArgs: checkCidrArg },
  ),
]);
