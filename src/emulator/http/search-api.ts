// Search API v1 (Google SecOps "Backstory" search), all GET with query parameters, answered from
// the event store (the v2 reference lists are in lists-api.ts). Empty lists and false flags are left
// out of the JSON, as proto3 JSON rendering does on the real service.
import { invalidArgument } from './errors';
import { StreamedJson, type JsonText } from '../../core/json-pieces';
import type { Route } from './route';
import type { EventStore } from '../events-data/store';
import { iocKey, searchResultJson } from '../events-data/store';
import type { IocEntry } from '../events-data/directory';
import type { Udm } from '../events-data/demo';
import { formatRfc3339 } from '../events-data/time';
import { compileSearchQuery } from './udm-query';
import {
  ARTIFACT_JSON_NAMES,
  artifactOf,
  ARTIFACT_INDICATORS,
  ASSET_INDICATORS,
  CONSOLE,
  dropEmpty,
  eventByParam,
  eventsIn,
  exactlyOne,
  indicatorKind,
  lookupParams,
  iocSourcesForMatch,
  type Json,
  USER_INDICATORS,
  MAX_WINDOW_MS,
  nounHas,
  nouns,
  principalAsset,
  rawLogOf,
  strArray,
  timeParam,
  userMatches,
  window,
} from './search-support';

/** The v1 search methods by path: each builds its route from the store and the clock. */
const SEARCH_ROUTES: Record<string, (store: EventStore, now: () => number) => Route> = {
  'v1/events:udmSearch': udmSearch,
  'v1/asset/listevents': listEvents,
  'v1/artifact/listassets': listAssets,
  'v1/alias/listassetaliases': listAssetAliases,
  'v1/alias/listuseraliases': listUserAliases,
  'v1/ioc/listiocs': listIocs,
  'v1/artifact/listiocdetails': listIocDetails,
  'v1/event:get': getEvent,
  'v1/events/log:get/': getLog,
  'v1/events/log:get': getLog,
  'v1/alert/listalerts': listAlerts,
};

export function matchSearchRoute(
  httpMethod: string,
  segments: string[],
  store: EventStore,
  now: () => number,
): Route | undefined {
  if (httpMethod !== 'GET') return undefined;
  const path = segments.join('/');
  return Object.hasOwn(SEARCH_ROUTES, path) ? SEARCH_ROUTES[path](store, now) : undefined;
}

function udmSearch(store: EventStore, now: () => number): Route {
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
        throw invalidArgument('query is required: a UDM search such as metadata.event_type = "NETWORK_DNS".', 'query');
      if (end - start > MAX_WINDOW_MS)
        throw invalidArgument('A UDM search covers at most 90 days; narrow time_range.', 'time_range.start_time');
      const matcher = compileSearchQuery(query, store);
      const { events, lo, hi } = eventsIn(store, start, end);
      const out: JsonText[] = [];
      let more = false;
      for (let i = lo; i < hi; i++) {
        const e = events[i];
        if (!matcher(e.udm)) continue;
        if (out.length === limit) {
          more = true;
          break;
        }
        out.push(searchResultJson(e));
      }
      return new StreamedJson(dropEmpty({ events: out, moreDataAvailable: more }), 'events');
    },
  };
}

function listEvents(store: EventStore, now: () => number): Route {
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
}

function listAssets(store: EventStore, now: () => number): Route {
  return {
    method: 'secops.listAssets',
    handle: ({ params }) => {
      const { ind, start, end, pageSize } = lookupParams(params, ARTIFACT_INDICATORS, 'artifact indicator', now(), 100);
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
}

function listAssetAliases(store: EventStore, now: () => number): Route {
  return {
    method: 'secops.listAssetAliases',
    handle: ({ params }) => {
      const { ind, start, end, pageSize } = lookupParams(params, ASSET_INDICATORS, 'asset indicator', now(), 10_000);
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
}

function listUserAliases(store: EventStore, now: () => number): Route {
  return {
    method: 'secops.listUserAliases',
    handle: ({ params }) => {
      const { ind, start, end, pageSize } = lookupParams(params, USER_INDICATORS, 'user indicator', now(), 10_000);
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
}

function listIocs(store: EventStore): Route {
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
}

function listIocDetails(store: EventStore): Route {
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
}

function getEvent(store: EventStore): Route {
  return {
    method: 'secops.getEvent',
    handle: ({ params }) => ({ udm: eventByParam(store, params).udm }),
  };
}

function getLog(store: EventStore): Route {
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
}

function listAlerts(store: EventStore, now: () => number): Route {
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
