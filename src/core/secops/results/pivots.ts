// Which follow-up searches a value offers, decided from its field path and its shape.
import type { ResultKind } from './fields';

export type PivotAction =
  | 'assetEvents.hostname'
  | 'assetEvents.ip'
  | 'assetEvents.mac'
  | 'assetEvents.productId'
  | 'assets.domain'
  | 'assets.ip'
  | 'assets.md5'
  | 'assets.sha1'
  | 'assets.sha256'
  | 'iocDetails.domain'
  | 'iocDetails.ip'
  | 'assetAliases.hostname'
  | 'assetAliases.ip'
  | 'assetAliases.mac'
  | 'assetAliases.productId'
  | 'userAliases.email'
  | 'userAliases.username'
  | 'userAliases.windowsSid'
  | 'userAliases.employeeId'
  | 'userAliases.productObjectId'
  | 'rawLog'
  | 'fullEvent';

export const PIVOT_ACTIONS: readonly PivotAction[] = [
  'assetEvents.hostname',
  'assetEvents.ip',
  'assetEvents.mac',
  'assetEvents.productId',
  'assets.domain',
  'assets.ip',
  'assets.md5',
  'assets.sha1',
  'assets.sha256',
  'iocDetails.domain',
  'iocDetails.ip',
  'assetAliases.hostname',
  'assetAliases.ip',
  'assetAliases.mac',
  'assetAliases.productId',
  'userAliases.email',
  'userAliases.username',
  'userAliases.windowsSid',
  'userAliases.employeeId',
  'userAliases.productObjectId',
  'rawLog',
  'fullEvent',
];

export const PIVOT_LABELS: Record<PivotAction, string> = {
  'assetEvents.hostname': 'Events for this host',
  'assetEvents.ip': 'Events for this IP',
  'assetEvents.mac': 'Events for this MAC',
  'assetEvents.productId': 'Events for this asset product ID',
  'assets.domain': 'Assets that saw this domain',
  'assets.ip': 'Assets that contacted this IP',
  'assets.md5': 'Assets with this MD5',
  'assets.sha1': 'Assets with this SHA-1',
  'assets.sha256': 'Assets with this SHA-256',
  'iocDetails.domain': 'IoC details for this domain',
  'iocDetails.ip': 'IoC details for this IP',
  'assetAliases.hostname': 'Aliases of this host',
  'assetAliases.ip': 'Aliases of this IP',
  'assetAliases.mac': 'Aliases of this MAC',
  'assetAliases.productId': 'Aliases of this asset product ID',
  'userAliases.email': 'Aliases of this user (email)',
  'userAliases.username': 'Aliases of this user',
  'userAliases.windowsSid': 'Aliases of this Windows SID',
  'userAliases.employeeId': 'Aliases of this employee ID',
  'userAliases.productObjectId': 'Aliases of this user product object ID',
  rawLog: 'Raw log',
  fullEvent: 'Full event',
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-fA-F:]+$/;
const MAC = /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/;
/** An asset product ID as ListEvents takes it: a two-letter type, a colon and an id (CS:1234-5678). */
export const PRODUCT_ID = /^[A-Za-z]{2}:\S+$/;
const DOMAIN = /^(?=.{1,253}$)([a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,63}\.?$/;

function isIp(value: string): boolean {
  return IPV4.test(value) || (value.includes(':') && IPV6.test(value) && !MAC.test(value));
}

/** The pivots that make sense for one value at a dotted path of a UDM event (or other result row). */
export function pivotsFor(path: string, value: string): PivotAction[] {
  const v = value.trim();
  if (v === '' || v.length > 2048) return [];
  const last = path.split('.').pop()!.toLowerCase();
  const out: PivotAction[] = [];
  if (path.endsWith('metadata.id') || path === 'name') return ['rawLog', 'fullEvent'];
  if (last === 'hostname') {
    out.push('assetEvents.hostname', 'assetAliases.hostname');
    if (DOMAIN.test(v)) out.push('assets.domain', 'iocDetails.domain');
    return out;
  }
  if (
    last === 'ip' ||
    last === 'assetipaddress' ||
    last === 'ipaddress' ||
    last === 'destinationipaddress' ||
    last === 'natip'
  ) {
    if (isIp(v)) out.push('assetEvents.ip', 'assets.ip', 'iocDetails.ip', 'assetAliases.ip');
    return out;
  }
  if (last === 'mac') {
    if (MAC.test(v)) out.push('assetEvents.mac', 'assetAliases.mac');
    return out;
  }
  if (last === 'md5' && /^[0-9a-fA-F]{32}$/.test(v)) return ['assets.md5'];
  if (last === 'sha1' && /^[0-9a-fA-F]{40}$/.test(v)) return ['assets.sha1'];
  if (last === 'sha256' && /^[0-9a-fA-F]{64}$/.test(v)) return ['assets.sha256'];
  if (last === 'emailaddresses' || last === 'email') {
    if (/^[^\s@]+@[^\s@]+$/.test(v)) out.push('userAliases.email');
    return out;
  }
  if (last === 'userid') return ['userAliases.username'];
  if (last === 'employeeid') return ['userAliases.employeeId'];
  // A user's product object ID pivots to user aliases; an asset's is not a product ID of the API.
  if (last === 'productobjectid') return /(^|\.)user\./.test(path) ? ['userAliases.productObjectId'] : [];
  if (last === 'assetid' || last === 'productid') {
    if (PRODUCT_ID.test(v)) out.push('assetEvents.productId', 'assetAliases.productId');
    return out;
  }
  if (last === 'windowssid') return ['userAliases.windowsSid'];
  if (last === 'domainname' || last === 'name' || last === 'domain' || last === 'administrativedomain') {
    if (DOMAIN.test(v)) out.push('assets.domain', 'iocDetails.domain');
    return out;
  }
  if (isIp(v)) return ['assets.ip', 'iocDetails.ip'];
  return out;
}

/** What a pivot opens as a result view, so the panel knows its columns. */
export function pivotResultKind(action: PivotAction): ResultKind | 'text' | 'json' {
  if (action.startsWith('assetEvents.')) return 'assetEvents';
  if (action.startsWith('assets.')) return 'assets';
  if (action.startsWith('iocDetails.')) return 'iocDetails';
  if (action.startsWith('assetAliases.')) return 'assetAliases';
  if (action.startsWith('userAliases.')) return 'userAliases';
  return action === 'rawLog' ? 'text' : 'json';
}

export function isPivotAction(value: unknown): value is PivotAction {
  return typeof value === 'string' && (PIVOT_ACTIONS as readonly string[]).includes(value);
}
