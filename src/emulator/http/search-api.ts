// Search API v1 (Google SecOps "Backstory" search), all GET with query parameters, answered from
// the event store (the v2 reference lists are in lists-api.ts). Empty lists and false flags are left
// out of the JSON, as proto3 JSON rendering does on the real service.
import { invalidArgument, notFound } from './errors';
import type { Params } from './request';
import { StreamedJson } from './json-stream';
import type { Route } from './route';
import type { EventStore, StoredEvent } from '../events-data/store';
import { idHex, iocKey, isBase64 } from '../events-data/store';
import type { DirectoryUser, IocEntry } from '../events-data/directory';
import type { Udm } from '../events-data/demo';
import { formatRfc3339, parseRfc3339 } from '../events-data/time';
import { compileSearchQuery } from './udm-query';

const CONSOLE = 'https://cloudbench-sandbox.backstory.chronicle.security';
const MAX_WINDOW_MS = 90 * 86_400_000;

type Json = Record<string, unknown>;

function timeParam(params: Params, names: string[], required: boolean): number | undefined {
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

function window(
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
function exactlyOne(params: Params, fields: Record<string, string[]>, what: string): { key: string; value: string } {
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

function nouns(udm: Udm): Json[] {
  const out: Json[] = [];
  for (const k of ['principal', 'src', 'target']) {
    const n = udm[k];
    if (n && typeof n === 'object') out.push(n as Json);
  }
  return out;
}

function strArray(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function nounHas(noun: Json, key: string, value: string): boolean {
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

function eqi(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** "CS:123" matches "CS:123" and, from the alias calls' integer form, "123". */
function productIdMatches(id: unknown, value: string): boolean {
  if (typeof id !== 'string') return false;
  if (id.toLowerCase() === value.toLowerCase()) return true;
  const colon = id.indexOf(':');
  return colon !== -1 && /^\d+$/.test(value) && id.slice(colon + 1) === value;
}

const ASSET_INDICATORS: Record<string, string[]> = {
  hostname: ['asset.hostname'],
  ip: ['asset.asset_ip_address'],
  mac: ['asset.mac', 'asset.mac_address'],
  productId: ['asset.product_id'],
};

/** Query parameter of an artifact indicator → its field in the response's artifactIndicator. */
const ARTIFACT_JSON_NAMES: Record<string, string> = {
  'artifact.domain_name': 'domainName',
  'artifact.destination_ip_address': 'destinationIpAddress',
  'artifact.hash_md5': 'hashMd5',
  'artifact.hash_sha1': 'hashSha1',
  'artifact.hash_sha256': 'hashSha256',
};

function indicatorKind(param: string): string {
  for (const [k, names] of Object.entries(ASSET_INDICATORS)) if (names.includes(param)) return k;
  return param;
}

function artifactOf(udm: Udm): { domains: string[]; ips: string[]; hashes: string[] } {
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

function principalAsset(udm: Udm): Json | undefined {
  const p = (udm.principal ?? {}) as Json;
  if (typeof p.hostname === 'string') return { hostname: p.hostname };
  const ips = strArray(p.ip);
  if (ips.length > 0) return { assetIpAddress: ips[0] };
  return undefined;
}

function dropEmpty(obj: Json): Json {
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === false || (Array.isArray(v) && v.length === 0)) delete obj[k];
  }
  return obj;
}

function eventsIn(
  store: EventStore,
  start: number,
  end: number,
): { events: readonly StoredEvent[]; lo: number; hi: number } {
  const [lo, hi] = store.range(start, end);
  return { events: store.all(), lo, hi };
}

function rawLogOf(e: StoredEvent): string {
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

function eventByParam(store: EventStore, params: Params): StoredEvent {
  const name = params.get('name');
  params.rejectUnknown();
  if (name === undefined || name === '') throw invalidArgument('name is required: the event ID (metadata.id).', 'name');
  if (!isBase64(name))
    throw invalidArgument(`Invalid value at 'name' (TYPE_BYTES), Base64 decoding failed for "${name}"`, 'name');
  const e = store.getByName(idHex(name));
  if (!e) throw notFound(`Event "${name}" was not found.`);
  return e;
}

function iocSourcesForMatch(ioc: IocEntry): Json[] {
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

function userMatches(u: DirectoryUser, key: string, value: string): boolean {
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

export function matchSearchRoute(
  httpMethod: string,
  segments: string[],
  store: EventStore,
  now: () => number,
): Route | undefined {
  if (httpMethod !== 'GET') return undefined;
  const path = segments.join('/');
  switch (path) {
    case 'v1/events:udmSearch':
      return {
        method: 'secops.udmSearch',
        handle: ({ params }) => {
          const query = params.get('query');
          const { start, end } = window(params, true, now(), {
            start: ['time_range.start_time', 'timeRange.startTime'],
            end: ['time_range.end_time', 'timeRange.endTime'],
          });
          const limit = params.int(['limit'], 1, 10_000, 10_000);
          params.rejectUnknown();
          if (query === undefined || query.trim() === '')
            throw invalidArgument(
              'query is required: a UDM search such as metadata.event_type = "NETWORK_DNS".',
              'query',
            );
          if (end - start > MAX_WINDOW_MS)
            throw invalidArgument('A UDM search covers at most 90 days; narrow time_range.', 'time_range.start_time');
          const matcher = compileSearchQuery(query, store);
          const { events, lo, hi } = eventsIn(store, start, end);
          const out: Json[] = [];
          let more = false;
          for (let i = lo; i < hi; i++) {
            const e = events[i];
            if (!matcher(e.udm)) continue;
            if (out.length === limit) {
              more = true;
              break;
            }
            out.push({ name: e.name, udm: e.udm });
          }
          return new StreamedJson(dropEmpty({ events: out, moreDataAvailable: more }), 'events');
        },
      };
    case 'v1/asset/listevents':
      return {
        method: 'secops.listEvents',
        handle: ({ params }) => {
          const ind = exactlyOne(params, ASSET_INDICATORS, 'asset indicator');
          const { start, end } = window(params, true, now());
          timeParam(params, ['reference_time', 'referenceTime'], false);
          const pageSize = params.int(['page_size', 'pageSize'], 1, 10_000, 10_000);
          params.rejectUnknown();
          const kind = indicatorKind(ind.key);
          if (kind === 'productId' && !/^[A-Za-z]{2}:\S+$/.test(ind.value)) {
            throw invalidArgument(
              `asset.product_id must be a two-letter type, a colon and an ID (such as CS:1234-5678), got "${ind.value}".`,
              'asset.product_id',
            );
          }
          const { events, lo, hi } = eventsIn(store, start, end);
          const out: Udm[] = [];
          let more = false;
          for (let i = lo; i < hi; i++) {
            const e = events[i];
            if (!nouns(e.udm).some((n) => nounHas(n, kind, ind.value))) continue;
            if (out.length === pageSize) {
              more = true;
              break;
            }
            out.push(e.udm);
          }
          const uri = `${CONSOLE}/assetResults?assetIdentifier=${encodeURIComponent(ind.value)}&startTime=${encodeURIComponent(formatRfc3339(start))}&endTime=${encodeURIComponent(formatRfc3339(end))}`;
          return dropEmpty({ events: out, uri: [uri], moreDataAvailable: more });
        },
      };
    case 'v1/artifact/listassets':
      return {
        method: 'secops.listAssets',
        handle: ({ params }) => {
          const ind = exactlyOne(
            params,
            {
              domain: ['artifact.domain_name'],
              ip: ['artifact.destination_ip_address'],
              md5: ['artifact.hash_md5'],
              sha1: ['artifact.hash_sha1'],
              sha256: ['artifact.hash_sha256'],
            },
            'artifact indicator',
          );
          const { start, end } = window(params, false, now());
          const pageSize = params.int(['page_size', 'pageSize'], 1, 100, 100);
          params.rejectUnknown();
          const value = ind.value.toLowerCase();
          const hashLen: Record<string, number> = {
            'artifact.hash_md5': 32,
            'artifact.hash_sha1': 40,
            'artifact.hash_sha256': 64,
          };
          const want = hashLen[ind.key];
          if (want !== undefined && !new RegExp(`^[0-9a-f]{${want}}$`).test(value))
            throw invalidArgument(`${ind.key} must be ${want} hexadecimal digits, got "${ind.value}".`, ind.key);
          const indicatorKey = ARTIFACT_JSON_NAMES[ind.key];
          const seen = new Map<string, { asset: Json; first: number; last: number }>();
          const { events, lo, hi } = eventsIn(store, start, end);
          for (let i = lo; i < hi; i++) {
            const e = events[i];
            const a = artifactOf(e.udm);
            const hit =
              ind.key === 'artifact.domain_name'
                ? a.domains.includes(value)
                : ind.key === 'artifact.destination_ip_address'
                  ? a.ips.includes(ind.value)
                  : a.hashes.includes(value);
            if (!hit) continue;
            const asset = principalAsset(e.udm);
            if (!asset) continue;
            const k = JSON.stringify(asset);
            const s = seen.get(k);
            if (!s) seen.set(k, { asset, first: e.t, last: e.t });
            else s.last = e.t;
          }
          const info = (t: number): Json => ({
            artifactIndicator: { [indicatorKey]: ind.value },
            seenTime: formatRfc3339(t),
          });
          const assets = [...seen.values()]
            .sort((x, y) => x.first - y.first)
            .slice(0, pageSize)
            .map((s) => ({ asset: s.asset, firstSeenArtifactInfo: info(s.first), lastSeenArtifactInfo: info(s.last) }));
          const kind =
            ind.key === 'artifact.domain_name'
              ? 'domainResults?domain'
              : ind.key === 'artifact.destination_ip_address'
                ? 'ipResults?ip'
                : 'hashResults?hash';
          return dropEmpty({ assets, uri: [`${CONSOLE}/${kind}=${encodeURIComponent(ind.value)}`] });
        },
      };
    case 'v1/alias/listassetaliases':
      return {
        method: 'secops.listAssetAliases',
        handle: ({ params }) => {
          const ind = exactlyOne(params, ASSET_INDICATORS, 'asset indicator');
          const { start, end } = window(params, false, now());
          const pageSize = params.int(['page_size', 'pageSize'], 1, 10_000, 10_000);
          params.rejectUnknown();
          const kind = indicatorKind(ind.key);
          if (kind === 'productId' && !/^\d+$/.test(ind.value))
            throw invalidArgument(`asset.product_id must be an integer, got "${ind.value}".`, 'asset.product_id');
          // Each (hostname, ip, mac) combination seen on one machine is an alias with the interval it was seen in.
          const combos = new Map<string, { asset: Json; first: number; last: number }>();
          const { events, lo, hi } = eventsIn(store, start, end);
          for (let i = lo; i < hi; i++) {
            const e = events[i];
            for (const n of nouns(e.udm)) {
              if (typeof n.hostname !== 'string' || strArray(n.ip).length === 0) continue;
              if (!nounHas(n, kind, ind.value)) continue;
              const asset = (n.asset ?? {}) as Json;
              const ip = strArray(n.ip);
              const entity: Json = { hostname: n.hostname, ip };
              const mac = strArray(n.mac);
              if (mac.length > 0) entity.mac = mac;
              if (typeof asset.assetId === 'string') entity.assetId = asset.assetId;
              const k = `${n.hostname}|${strArray(n.ip).join(',')}|${mac.join(',')}`;
              const c = combos.get(k);
              if (!c) combos.set(k, { asset: entity, first: e.t, last: e.t });
              else c.last = e.t;
            }
          }
          const aliases = [...combos.values()]
            .sort((a, b) => a.first - b.first)
            .slice(0, pageSize)
            .map((c) => ({
              metadata: { interval: { startTime: formatRfc3339(c.first), endTime: formatRfc3339(c.last) } },
              entity: { asset: c.asset },
            }));
          return dropEmpty({ aliases });
        },
      };
    case 'v1/alias/listuseraliases':
      return {
        method: 'secops.listUserAliases',
        handle: ({ params }) => {
          const ind = exactlyOne(
            params,
            {
              email: ['user.email'],
              username: ['user.username'],
              sid: ['user.windows_sid'],
              employee: ['user.employee_id'],
              poid: ['user.product_object_id'],
            },
            'user indicator',
          );
          const { start, end } = window(params, false, now());
          const pageSize = params.int(['page_size', 'pageSize'], 1, 10_000, 10_000);
          params.rejectUnknown();
          store.entitiesReady();
          const userAliases = store.users
            .filter((u) => userMatches(u, ind.key, ind.value) && u.startTime < end && u.endTime >= start)
            .slice(0, pageSize)
            .map((u) => {
              const user: Json = {
                userid: u.userid,
                userDisplayName: u.userDisplayName,
                productObjectId: u.productObjectId || undefined,
                emailAddresses: u.emailAddresses,
                windowsSid: u.windowsSid || undefined,
                employeeId: u.employeeId || undefined,
                title: u.title || undefined,
                companyName: u.companyName || undefined,
                department: u.department,
              };
              for (const k of Object.keys(user)) if (user[k] === undefined) delete user[k];
              const alias: Json = {
                metadata: {
                  productEntityId: u.productObjectId || u.userid,
                  collectedTimestamp: formatRfc3339(Math.min(now(), u.endTime)),
                  entityType: 'USER',
                  creationTimestamp: formatRfc3339(u.startTime),
                  interval: { startTime: formatRfc3339(u.startTime), endTime: formatRfc3339(u.endTime) },
                },
                entity: { user },
              };
              if (u.hosts.length > 0)
                alias.relations = u.hosts.map((h) => ({
                  entity: { hostname: h, asset: { hostname: h } },
                  entityType: 'ASSET',
                  relationship: 'OWNS',
                }));
              return alias;
            });
          return dropEmpty({ userAliases });
        },
      };
    case 'v1/ioc/listiocs':
      return {
        method: 'secops.listIocs',
        handle: ({ params }) => {
          const start = timeParam(params, ['start_time', 'startTime'], true)!;
          const pageSize = params.int(['page_size', 'pageSize'], 1, 10_000, 10_000);
          params.rejectUnknown();
          store.entitiesReady();
          const found = new Map<string, { ioc: IocEntry; first: number; last: number }>();
          const { events, lo, hi } = eventsIn(store, start, Number.MAX_SAFE_INTEGER);
          if (store.iocs.size > 0) {
            for (let i = lo; i < hi; i++) {
              const e = events[i];
              const a = artifactOf(e.udm);
              const keys = [...a.domains.map((d) => iocKey('domain', d)), ...a.ips.map((ip) => iocKey('ip', ip))];
              for (const k of keys) {
                const ioc = store.iocs.get(k);
                if (!ioc) continue;
                const f = found.get(k);
                if (!f) found.set(k, { ioc, first: e.t, last: e.t });
                else f.last = e.t;
              }
            }
          }
          const all = [...found.values()].sort((a, b) => a.first - b.first);
          const matches = all.slice(0, pageSize).map((f) => ({
            artifact: f.ioc.kind === 'domain' ? { domainName: f.ioc.value } : { destinationIpAddress: f.ioc.value },
            sources: iocSourcesForMatch(f.ioc),
            iocIngestTime: formatRfc3339(f.ioc.ingestTime),
            firstSeenTime: formatRfc3339(f.first),
            lastSeenTime: formatRfc3339(f.last),
            uri: [
              `${CONSOLE}/${f.ioc.kind === 'domain' ? 'domainResults?domain' : 'ipResults?ip'}=${encodeURIComponent(f.ioc.value)}`,
            ],
          }));
          return dropEmpty({ matches, moreDataAvailable: all.length > pageSize });
        },
      };
    case 'v1/artifact/listiocdetails':
      return {
        method: 'secops.listIocDetails',
        handle: ({ params }) => {
          const ind = exactlyOne(
            params,
            { domain: ['artifact.domain_name'], ip: ['artifact.destination_ip_address'] },
            'artifact indicator',
          );
          params.rejectUnknown();
          store.entitiesReady();
          const isDomain = ind.key === 'artifact.domain_name';
          const ioc = store.iocs.get(iocKey(isDomain ? 'domain' : 'ip', ind.value));
          const sources = (ioc?.sources ?? []).map((s) => ({
            addresses: [isDomain ? { domain: ioc!.value, port: s.ports } : { ipAddress: ioc!.value, port: s.ports }],
            category: s.category,
            confidenceScore: { strRawConfidenceScore: String(s.confidence) },
            firstActiveTime: formatRfc3339(s.firstActiveTime),
            lastActiveTime: formatRfc3339(s.lastActiveTime),
            rawSeverity: s.rawSeverity,
            sourceUrl: s.sourceUrl,
          }));
          return dropEmpty({
            sources,
            uri: [`${CONSOLE}/${isDomain ? 'domainResults?domain' : 'ipResults?ip'}=${encodeURIComponent(ind.value)}`],
          });
        },
      };
    case 'v1/event:get':
      return {
        method: 'secops.getEvent',
        handle: ({ params }) => ({ udm: eventByParam(store, params).udm }),
      };
    case 'v1/events/log:get/':
    case 'v1/events/log:get':
      return {
        method: 'secops.getLog',
        handle: ({ params }) => {
          const e = eventByParam(store, params);
          const md = (e.udm.metadata ?? {}) as Json;
          return {
            log: {
              sourceProduct: typeof md.productName === 'string' ? md.productName : 'Unknown',
              logBytes: Buffer.from(rawLogOf(e), 'utf8').toString('base64'),
              type: typeof md.logType === 'string' ? md.logType : 'UNKNOWN',
            },
          };
        },
      };
    case 'v1/alert/listalerts':
      return {
        method: 'secops.listAlerts',
        handle: ({ params }) => {
          const { start, end } = window(params, true, now());
          const pageSize = params.int(['page_size', 'pageSize'], 1, 100_000, 100_000);
          params.rejectUnknown();
          const byAsset = new Map<string, { asset: Json; alertInfos: Json[] }>();
          const byUser = new Map<string, { user: Json; alertInfos: Json[] }>();
          let n = 0;
          const { events, lo, hi } = eventsIn(store, start, end);
          for (let i = lo; i < hi && n < pageSize; i++) {
            const e = events[i];
            const results = (e.udm.securityResult as Json[] | undefined) ?? [];
            const alert = results.find((r) => r.alertState === 'ALERTING');
            if (!alert) continue;
            n++;
            const md = (e.udm.metadata ?? {}) as Json;
            const sev =
              typeof alert.severity === 'string'
                ? alert.severity.charAt(0) + alert.severity.slice(1).toLowerCase()
                : 'Unspecified';
            const info: Json = {
              name: typeof alert.ruleName === 'string' ? alert.ruleName : 'Alert',
              sourceProduct: md.productName,
              severity: sev,
              timestamp: md.eventTimestamp,
              rawLog: Buffer.from(rawLogOf(e), 'utf8').toString('base64'),
              uri: [`${CONSOLE}/alert?eventId=${encodeURIComponent(e.name)}`],
              udmEvent: e.udm,
            };
            const asset = principalAsset(e.udm);
            if (asset) {
              const k = JSON.stringify(asset);
              const a = byAsset.get(k) ?? { asset, alertInfos: [] };
              a.alertInfos.push(info);
              byAsset.set(k, a);
              continue;
            }
            const user = ((e.udm.principal ?? {}) as Json).user as Json | undefined;
            const email = strArray(user?.emailAddresses)[0];
            const key = email ?? (typeof user?.userid === 'string' ? user.userid : 'unknown');
            const u = byUser.get(key) ?? { user: email ? { email } : { username: key }, alertInfos: [] };
            u.alertInfos.push(info);
            byUser.set(key, u);
          }
          return dropEmpty({ alerts: [...byAsset.values()], userAlerts: [...byUser.values()] });
        },
      };
  }
  return undefined;
}
