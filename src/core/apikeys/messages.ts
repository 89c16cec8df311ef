// The restriction editor's protocol: messages between the webview and the extension, as
// discriminated unions checked on arrival by both sides (never trust a posted object's shape).
import type { AndroidApplication, ApiTarget, Restrictions } from './types';
import type { Problem } from './validation';

/** The part of a key the editor needs; never the key string. */
export interface EditorKey {
  name: string;
  keyId: string;
  displayName: string;
  etag: string;
  serviceAccountEmail?: string;
  restrictions: Restrictions;
}

export type ToWebview =
  | { type: 'init'; key: EditorKey }
  | { type: 'saving' }
  | { type: 'saved'; key: EditorKey; changes: string[] }
  /** The key changed on the server: `key` is its newer state; the user decides what to do. */
  | { type: 'conflict'; key: EditorKey; message: string }
  | { type: 'error'; message: string; problems: Problem[] };

export type FromWebview =
  { type: 'ready' } | { type: 'save'; restrictions: Restrictions; etag: string } | { type: 'cancel' };

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);

function hasOnly(obj: Record<string, unknown>, keys: string[]): boolean {
  return Object.keys(obj).every((k) => keys.includes(k));
}

/** An object with no fields but `fields`, each absent or passing its check. */
function hasOptionalFields(v: unknown, fields: Record<string, (x: unknown) => boolean>): v is Record<string, unknown> {
  return (
    isObject(v) &&
    hasOnly(v, Object.keys(fields)) &&
    Object.entries(fields).every(([k, check]) => v[k] === undefined || check(v[k]))
  );
}

function isAndroidApp(v: unknown): v is AndroidApplication {
  return hasOptionalFields(v, { packageName: isString, sha1Fingerprint: isString });
}

function isApiTarget(v: unknown): v is ApiTarget {
  return hasOptionalFields(v, { service: isString, methods: isStringArray });
}

function listObject(v: unknown, field: string, check: (item: unknown) => boolean): boolean {
  if (v === undefined) return true;
  if (!isObject(v) || !hasOnly(v, [field])) return false;
  const list = v[field];
  return list === undefined || (Array.isArray(list) && list.every(check));
}

/** Structural check of a restrictions object (values are checked by validateRestrictions). */
export function isRestrictions(v: unknown): v is Restrictions {
  if (!isObject(v)) return false;
  if (
    !hasOnly(v, [
      'browserKeyRestrictions',
      'serverKeyRestrictions',
      'androidKeyRestrictions',
      'iosKeyRestrictions',
      'apiTargets',
    ])
  )
    return false;
  return (
    listObject(v['browserKeyRestrictions'], 'allowedReferrers', isString) &&
    listObject(v['serverKeyRestrictions'], 'allowedIps', isString) &&
    listObject(v['androidKeyRestrictions'], 'allowedApplications', isAndroidApp) &&
    listObject(v['iosKeyRestrictions'], 'allowedBundleIds', isString) &&
    (v['apiTargets'] === undefined || (Array.isArray(v['apiTargets']) && v['apiTargets'].every(isApiTarget)))
  );
}

function isEditorKey(v: unknown): v is EditorKey {
  return (
    isObject(v) &&
    isString(v['name']) &&
    isString(v['keyId']) &&
    isString(v['displayName']) &&
    isString(v['etag']) &&
    (v['serviceAccountEmail'] === undefined || isString(v['serviceAccountEmail'])) &&
    isRestrictions(v['restrictions'])
  );
}

function isProblem(v: unknown): v is Problem {
  return isObject(v) && isString(v['path']) && isString(v['message']);
}

/** The extension's check of what the webview posted; undefined for anything malformed. */
export function parseFromWebview(raw: unknown): FromWebview | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw['type']) {
    case 'ready':
    case 'cancel':
      return hasOnly(raw, ['type']) ? { type: raw['type'] } : undefined;
    case 'save':
      return hasOnly(raw, ['type', 'restrictions', 'etag']) &&
        isRestrictions(raw['restrictions']) &&
        isString(raw['etag'])
        ? { type: 'save', restrictions: raw['restrictions'], etag: raw['etag'] }
        : undefined;
    default:
      return undefined;
  }
}

/** The webview's check of what the extension posted. */
export function parseToWebview(raw: unknown): ToWebview | undefined {
  if (!isObject(raw)) return undefined;
  switch (raw['type']) {
    case 'init':
      return isEditorKey(raw['key']) ? { type: 'init', key: raw['key'] } : undefined;
    case 'saving':
      return { type: 'saving' };
    case 'saved':
      return isEditorKey(raw['key']) && isStringArray(raw['changes'])
        ? { type: 'saved', key: raw['key'], changes: raw['changes'] }
        : undefined;
    case 'conflict':
      return isEditorKey(raw['key']) && isString(raw['message'])
        ? { type: 'conflict', key: raw['key'], message: raw['message'] }
        : undefined;
    case 'error':
      return isString(raw['message']) && Array.isArray(raw['problems']) && raw['problems'].every(isProblem)
        ? { type: 'error', message: raw['message'], problems: raw['problems'] }
        : undefined;
    default:
      return undefined;
  }
}
