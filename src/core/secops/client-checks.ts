// What the Search API client checks: before it sends, the request shapes, the indicator fields each
// method takes, the time windows and the reference-list arguments; after, what an error or a log
// body says.
import {
  SecOpsParamError,
  checkDomain,
  checkHash,
  checkIp,
  checkMac,
  checkPageSize,
  checkTimeOrder,
  formatTime,
  type TimeInput,
} from './params';
import { GoogleApiError } from '../google/errors';
import type { QueryValue } from '../google/rest';
import type { ReferenceList } from './types';
import { checkReferenceListName, isReferenceListContentType, type ReferenceListContentType } from './reference-lists';
import type { ReferenceListDetails, ReferenceListView } from './reference-list-types';

export interface TimeWindow {
  startTime: TimeInput;
  endTime: TimeInput;
}

export interface UdmSearchRequest extends TimeWindow {
  query: string;
  limit?: number;
  /**
   * Called for each attempt the hourly udmSearch budget was charged for (one the service answered,
   * not with 429): what the search spent, retries included.
   */
  onCharged?: () => void;
}

export interface AssetIndicator {
  hostname?: string;
  assetIpAddress?: string;
  mac?: string;
  /** For ListEvents a combined type and id such as "CS:1234-5678"; for aliases an integer. */
  productId?: string;
}

export interface ListEventsRequest extends TimeWindow {
  asset: AssetIndicator;
  referenceTime?: TimeInput;
  pageSize?: number;
}

export interface ArtifactIndicator {
  domainName?: string;
  destinationIpAddress?: string;
  hashMd5?: string;
  hashSha1?: string;
  hashSha256?: string;
}

export interface ListAssetsRequest extends Partial<TimeWindow> {
  artifact: ArtifactIndicator;
  pageSize?: number;
}

export interface ListAssetAliasesRequest extends Partial<TimeWindow> {
  asset: AssetIndicator;
  pageSize?: number;
}

export interface UserIndicator {
  email?: string;
  username?: string;
  windowsSid?: string;
  employeeId?: string;
  productObjectId?: string;
}

export interface ListUserAliasesRequest extends Partial<TimeWindow> {
  user: UserIndicator;
  pageSize?: number;
}

export interface ListIocsRequest {
  startTime: TimeInput;
  pageSize?: number;
}

export interface ListIocDetailsRequest {
  artifact: Pick<ArtifactIndicator, 'domainName' | 'destinationIpAddress'>;
}

export interface ListAlertsRequest extends TimeWindow {
  pageSize?: number;
}

export const ARTIFACT_FIELDS = {
  domainName: 'artifact.domain_name',
  destinationIpAddress: 'artifact.destination_ip_address',
  hashMd5: 'artifact.hash_md5',
  hashSha1: 'artifact.hash_sha1',
  hashSha256: 'artifact.hash_sha256',
} as const;

export const ASSET_FIELDS = {
  hostname: 'asset.hostname',
  assetIpAddress: 'asset.asset_ip_address',
  mac: 'asset.mac',
  productId: 'asset.product_id',
} as const;

export const USER_FIELDS = {
  email: 'user.email',
  username: 'user.username',
  windowsSid: 'user.windows_sid',
  employeeId: 'user.employee_id',
  productObjectId: 'user.product_object_id',
} as const;

const ARTIFACT_CHECKS: Record<keyof typeof ARTIFACT_FIELDS, (value: string, parameter: string) => void> = {
  domainName: checkDomain,
  destinationIpAddress: checkIp,
  hashMd5: (value, parameter) => checkHash('md5', value, parameter),
  hashSha1: (value, parameter) => checkHash('sha1', value, parameter),
  hashSha256: (value, parameter) => checkHash('sha256', value, parameter),
};

export function checkArtifact(key: keyof typeof ARTIFACT_FIELDS, value: string, parameter: string): void {
  ARTIFACT_CHECKS[key](value, parameter);
}

export function checkAsset(
  key: keyof typeof ASSET_FIELDS,
  value: string,
  parameter: string,
  productIdForm: 'typed' | 'integer',
): void {
  switch (key) {
    case 'assetIpAddress':
      return checkIp(value, parameter);
    case 'mac':
      return checkMac(value, parameter);
    case 'productId':
      if (productIdForm === 'integer' && !/^\d+$/.test(value)) {
        throw new SecOpsParamError(`${parameter} must be an integer, got "${value}"`, parameter);
      }
      if (productIdForm === 'typed' && !/^[A-Za-z]{2}:\S+$/.test(value)) {
        throw new SecOpsParamError(
          `${parameter} must be a two-letter type, a colon and an id (e.g. CS:1234-5678), got "${value}"`,
          parameter,
        );
      }
      return;
    case 'hostname':
      if (/\s/.test(value)) throw new SecOpsParamError(`${parameter} must not contain spaces: "${value}"`, parameter);
      return;
  }
}

export function optionalWindow(req: Partial<TimeWindow>): Record<string, string> {
  const out: Record<string, string> = {};
  if (req.startTime !== undefined) out.start_time = formatTime(req.startTime, 'start_time');
  if (req.endTime !== undefined) out.end_time = formatTime(req.endTime, 'end_time');
  if (out.start_time && out.end_time) checkTimeOrder(out.start_time, out.end_time, 'start_time', 'end_time');
  return out;
}

export function requiredWindow(
  req: TimeWindow,
  startParam = 'start_time',
  endParam = 'end_time',
): Record<string, string> {
  if (req.startTime === undefined) throw new SecOpsParamError(`${startParam} is required`, startParam);
  if (req.endTime === undefined) throw new SecOpsParamError(`${endParam} is required`, endParam);
  const start = formatTime(req.startTime, startParam);
  const end = formatTime(req.endTime, endParam);
  checkTimeOrder(start, end, startParam, endParam);
  return { [startParam]: start, [endParam]: end };
}

/** A method's query with its page_size, checked against the method's own maximum. */
export function paged(
  query: Record<string, QueryValue>,
  pageSize: number | undefined,
  max: number,
): Record<string, QueryValue> {
  return { ...query, page_size: checkPageSize(pageSize, 1, max, 'page_size') };
}

export function arrayOf<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

export function checkView(view: string): ReferenceListView {
  if (view !== 'BASIC' && view !== 'FULL')
    throw new SecOpsParamError(`view must be BASIC or FULL, got "${view}"`, 'view');
  return view;
}

export function checkListName(name: string): string {
  const problem = checkReferenceListName(typeof name === 'string' ? name : '');
  if (problem) throw new SecOpsParamError(problem, 'name');
  return name;
}

export function checkContentType(type: unknown): ReferenceListContentType {
  if (!isReferenceListContentType(type))
    throw new SecOpsParamError(
      `content_type must be CONTENT_TYPE_DEFAULT_STRING, REGEX or CIDR, got ${JSON.stringify(type)}`,
      'content_type',
    );
  return type;
}

export function checkLines(lines: readonly string[]): string[] {
  if (!Array.isArray(lines) || !lines.every((l) => typeof l === 'string'))
    throw new SecOpsParamError('lines must be an array of strings', 'lines');
  return [...lines];
}

/** proto3 JSON leaves out a default enum, so a missing content type is CONTENT_TYPE_DEFAULT_STRING. */
export function normalizeList(body: Partial<ReferenceList>, fallbackName: string): ReferenceListDetails {
  const contentType = isReferenceListContentType(body.contentType) ? body.contentType : 'CONTENT_TYPE_DEFAULT_STRING';
  return {
    ...body,
    name: typeof body.name === 'string' && body.name ? body.name : fallbackName,
    description: typeof body.description === 'string' ? body.description : '',
    contentType,
    lines: arrayOf<string>(body.lines),
  };
}

/**
 * Retry-After only has whole seconds; a google.rpc.RetryInfo detail, when present, says exactly how
 * long to wait, which matters when the wait is far below a second.
 */
export function withPreciseRetryDelay(err: unknown): unknown {
  if (!(err instanceof GoogleApiError) || err.status !== 'RESOURCE_EXHAUSTED') return err;
  for (const detail of err.details) {
    const d = detail as { '@type'?: unknown; retryDelay?: unknown };
    if (typeof d?.['@type'] !== 'string' || !d['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const m = typeof d.retryDelay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(d.retryDelay) : null;
    if (m)
      return new GoogleApiError(err.status, err.message, {
        ...err.options,
        retryAfterMs: Math.ceil(Number(m[1]) * 1000),
      });
  }
  return err;
}

export function isServerTimeout(err: unknown): boolean {
  if (!(err instanceof GoogleApiError)) return false;
  if (err.status === 'DEADLINE_EXCEEDED' || err.httpStatus === 504) return true;
  return (
    /time[- ]?out|timed out|deadline/i.test(err.message) &&
    (err.status === 'INTERNAL' || err.status === 'UNKNOWN' || err.status === 'UNAVAILABLE')
  );
}

/** Decodes GetLog's base64 logBytes to text (UTF-8, invalid sequences replaced). */
export function decodeLogBytes(logBytes: string | undefined): string {
  if (!logBytes) return '';
  const normalized = logBytes.replace(/-/g, '+').replace(/_/g, '/').replace(/\s+/g, '');
  return Buffer.from(normalized, 'base64').toString('utf8');
}
