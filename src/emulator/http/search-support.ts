// What the v1 search methods share: their time-window and indicator parameters, how an event's
// nouns and artifacts are matched, and the raw log and alert pieces the answers carry.
import { invalidArgument, notFound } from './errors';
import type { Params } from './request';
import type { EventStore, StoredEvent } from '../events-data/store';
import { idHex, isBase64 } from '../events-data/store';
import type { DirectoryUser, IocEntry } from '../events-data/directory';
import type { Udm } from '../events-data/demo';
import { formatRfc3339, parseRfc3339 } from '../events-data/time';

export const CONSOLE = 'https://cloudbench-sandbox.backstory.chronicle.security';
export const MAX_WINDOW_MS = 90 * 86_400_000;

export type Json = Record<string, unknown>;

export function timeParam(params: Params, names: string[], required: boolean): number | undefined {
  const text = params.getAny(...names);
  if (text === undefined || text === '') {
    if (required)
      throw invalidArgument(`${names[0]} is required (an RFC 3339 time such as 2026-01-02T03:04:05Z).`, names[0]);
    return undefined;
  }
  const t = parseRfc3339(text);
  if (t === undefined) {
    throw invalidArgument(
      `Invalid value at '${names[0]}' (type.googleapis.com/google.protobuf.Timestamp), Field '${names[0]}', Invalid time format: "${text}" is not an RFC 3339 time such as 2026-01-02T03:04:05Z.`,
      names[0],
    );
  }
  return t;
}

export function window(
  params: Params,
  required: boolean,
  now: number,
  names = { start: ['start_time', 'startTime'], end: ['end_time', 'endTime'] },
): { start: number; end: number } {
  const start = timeParam(params, names.start, required);
  const end = timeParam(params, names.end, required);
  const s = start ?? 0;
  const e = end ?? now + 1;
  if (s >= e)
    throw invalidArgument(
      `${names.start[0]} (${formatRfc3339(s)}) must be before ${names.end[0]} (${formatRfc3339(e)}).`,
      names.start[0],
    );
  return { start: s, end: e };
}

/** The single indicator of a set of mutually exclusive parameters. */
export function exactlyOne(
  params: Params,
  fields: Record<string, string[]>,
  what: string,
): { key: string; value: string } {
  const given: Array<{ key: string; value: string }> = [];
  for (const names of Object.values(fields)) {
    const v = params.getAny(...names);
    if (v !== undefined && v.trim() !== '') given.push({ key: names[0], value: v.trim() });
  }
  const all = Object.values(fields)
    .map((n) => n[0])
    .join(', ');
  if (given.length === 0) throw invalidArgument(`Exactly one ${what} is required: one of ${all}.`, all);
  if (given.length > 1)
    throw invalidArgument(
      `Exactly one ${what} is allowed, but the request sets ${given.map((g) => g.key).join(' and ')}.`,
      given[1].key,
    );
  return given[0];
}

/**
 * The parameters of an alias or asset lookup: exactly one of `indicators`, an optional time window and
 * a page size of at most `maxPageSize`; any other parameter is refused.
 */
export function lookupParams(
  params: Params,
  indicators: Record<string, string[]>,
  what: string,
  now: number,
  maxPageSize: number,
): { ind: { key: string; value: string }; start: number; end: number; pageSize: number } {
  const ind = exactlyOne(params, indicators, what);
  const { start, end } = window(params, false, now);
  const pageSize = params.int(['page_size', 'pageSize'], 1, maxPageSize, maxPageSize);
  params.rejectUnknown();
  return { ind, start, end, pageSize };
}

export function nouns(udm: Udm): Json[] {
  const out: Json[] = [];
  for (const k of ['principal', 'src', 'target']) {
    const n = udm[k];
    if (n && typeof n === 'object') out.push(n as Json);
  }
  return out;
}

export function strArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function nounHas(noun: Json, key: string, value: string): boolean {
  const asset = (noun.asset ?? {}) as Json;
  switch (key) {
    case 'hostname':
      return eqi(noun.hostname, value) || eqi(asset.hostname, value);
    case 'ip':
      return strArray(noun.ip).includes(value) || strArray(asset.ip).includes(value);
    case 'mac': {
      const v = value.toLowerCase().replace(/-/g, ':');
      return (
        strArray(noun.mac).some((m) => m.toLowerCase() === v) || strArray(asset.mac).some((m) => m.toLowerCase() === v)
      );
    }
    case 'productId':
      return productIdMatches(asset.assetId, value) || productIdMatches(asset.productObjectId, value);
    default:
      return false;
  }
}

export function eqi(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** "CS:123" matches "CS:123" and, from the alias calls' integer form, "123". */
export function productIdMatches(id: unknown, value: string): boolean {
  if (typeof id !== 'string') return false;
  if (id.toLowerCase() === value.toLowerCase()) return true;
  const colon = id.indexOf(':');
  return colon !== -1 && /^\d+$/.test(value) && id.slice(colon + 1) === value;
}

export const ARTIFACT_INDICATORS: Record<string, string[]> = {
  domain: ['artifact.domain_name'],
  ip: ['artifact.destination_ip_address'],
  md5: ['artifact.hash_md5'],
  sha1: ['artifact.hash_sha1'],
  sha256: ['artifact.hash_sha256'],
};

export const USER_INDICATORS: Record<string, string[]> = {
  email: ['user.email'],
  username: ['user.username'],
  sid: ['user.windows_sid'],
  employee: ['user.employee_id'],
  poid: ['user.product_object_id'],
};

export const ASSET_INDICATORS: Record<string, string[]> = {
  hostname: ['asset.hostname'],
  ip: ['asset.asset_ip_address'],
  mac: ['asset.mac', 'asset.mac_address'],
  productId: ['asset.product_id'],
};

/** Query parameter of an artifact indicator → its field in the response's artifactIndicator. */
export const ARTIFACT_JSON_NAMES: Record<string, string> = {
  'artifact.domain_name': 'domainName',
  'artifact.destination_ip_address': 'destinationIpAddress',
  'artifact.hash_md5': 'hashMd5',
  'artifact.hash_sha1': 'hashSha1',
  'artifact.hash_sha256': 'hashSha256',
};

export function indicatorKind(param: string): string {
  for (const [k, names] of Object.entries(ASSET_INDICATORS)) if (names.includes(param)) return k;
  return param;
}

export function artifactOf(udm: Udm): { domains: string[]; ips: string[]; hashes: string[] } {
  const domains: string[] = [];
  const ips: string[] = [];
  const hashes: string[] = [];
  const target = (udm.target ?? {}) as Json;
  if (typeof target.hostname === 'string') domains.push(target.hostname.toLowerCase());
  if (typeof target.url === 'string') {
    const m = /^[a-z]+:\/\/([^/:?#]+)/i.exec(target.url);
    if (m) domains.push(m[1].toLowerCase());
  }
  const dns = ((udm.network ?? {}) as Json).dns as Json | undefined;
  for (const q of (dns?.questions as Json[] | undefined) ?? [])
    if (typeof q.name === 'string') domains.push(q.name.toLowerCase());
  ips.push(...strArray(target.ip));
  for (const n of nouns(udm)) {
    const file = (((n.process ?? {}) as Json).file ?? n.file) as Json | undefined;
    if (file)
      for (const h of ['md5', 'sha1', 'sha256']) if (typeof file[h] === 'string') hashes.push(file[h].toLowerCase());
  }
  return { domains, ips, hashes };
}

export function principalAsset(udm: Udm): Json | undefined {
  const p = (udm.principal ?? {}) as Json;
  if (typeof p.hostname === 'string') return { hostname: p.hostname };
  const ips = strArray(p.ip);
  if (ips.length > 0) return { assetIpAddress: ips[0] };
  return undefined;
}

export function dropEmpty(obj: Json): Json {
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) delete obj[k];
  }
  return obj;
}

export function eventsIn(
  store: EventStore,
  start: number,
  end: number,
): { events: readonly StoredEvent[]; lo: number; hi: number } {
  const [lo, hi] = store.range(start, end);
  return { events: store.all(), lo, hi };
}

export function rawLogOf(e: StoredEvent): string {
  if (e.rawLog !== undefined) return e.rawLog;
  const u = e.udm;
  const md = (u.metadata ?? {}) as Json;
  const p = (u.principal ?? {}) as Json;
  const t = (u.target ?? {}) as Json;
  const net = (u.network ?? {}) as Json;
  const http = (net.http ?? {}) as Json;
  const dns = (net.dns ?? {}) as Json;
  const q = ((dns.questions as Json[] | undefined) ?? [])[0];
  const sr = ((u.securityResult as Json[] | undefined) ?? [])[0] ?? {};
  const fields: Array<[string, unknown]> = [
    ['product', md.productName],
    ['event', md.productEventType],
    ['src_host', p.hostname],
    ['src_ip', strArray(p.ip)[0]],
    ['src_port', p.port],
    ['dst_host', t.hostname],
    ['dst_ip', strArray(t.ip)[0]],
    ['dst_port', t.port],
    ['url', t.url],
    ['method', http.method],
    ['status', http.responseCode],
    ['query', q?.name],
    ['user', ((t.user ?? p.user ?? {}) as Json).userid],
    ['cmdline', ((t.process ?? {}) as Json).commandLine],
    ['action', strArray(sr.action)[0]],
    ['bytes_out', net.sentBytes],
    ['bytes_in', net.receivedBytes],
  ];
  const kv = fields
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${typeof v === 'string' && /\s/.test(v) ? JSON.stringify(v) : String(v)}`);
  return `${String(md.eventTimestamp)} ${typeof md.vendorName === 'string' ? md.vendorName : 'unknown'} ${kv.join(' ')}`;
}

export function eventByParam(store: EventStore, params: Params): StoredEvent {
  const name = params.get('name');
  params.rejectUnknown();
  if (name === undefined || name === '') throw invalidArgument('name is required: the event ID (metadata.id).', 'name');
  if (!isBase64(name))
    throw invalidArgument(`Invalid value at 'name' (TYPE_BYTES), Base64 decoding failed for "${name}"`, 'name');
  const e = store.getByName(idHex(name));
  if (!e) throw notFound(`Event "${name}" was not found.`);
  return e;
}

export function iocSourcesForMatch(ioc: IocEntry): Json[] {
  return ioc.sources.map((s) => ({
    source: s.source,
    category: s.category,
    rawSeverity: s.rawSeverity,
    confidenceScore: {
      normalizedConfidenceScore: s.confidence >= 80 ? 'High' : s.confidence >= 50 ? 'Medium' : 'Low',
      intRawConfidenceScore: s.confidence,
    },
  }));
}

export function userMatches(u: DirectoryUser, key: string, value: string): boolean {
  switch (key) {
    case 'user.email':
      return u.emailAddresses.some((e) => e.toLowerCase() === value.toLowerCase());
    case 'user.username':
      return u.userid.toLowerCase() === value.toLowerCase();
    case 'user.windows_sid':
      return u.windowsSid === value;
    case 'user.employee_id':
      return u.employeeId === value;
    case 'user.product_object_id':
      return u.productObjectId === value;
    default:
      return false;
  }
}
