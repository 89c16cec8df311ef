// JSON shapes of the API Keys v2 REST surface (reference B.2). The wire uses the real field names
// (androidKeyRestrictions, iosKeyRestrictions); the seed calls these platform A and platform B.

export interface BrowserKeyRestrictions {
  allowedReferrers?: string[];
}

export interface ServerKeyRestrictions {
  allowedIps?: string[];
}

export interface AndroidApplication {
  sha1Fingerprint?: string;
  packageName?: string;
}

export interface AndroidKeyRestrictions {
  allowedApplications?: AndroidApplication[];
}

export interface IosKeyRestrictions {
  allowedBundleIds?: string[];
}

export interface ApiTarget {
  service?: string;
  methods?: string[];
}

export interface Restrictions {
  browserKeyRestrictions?: BrowserKeyRestrictions;
  serverKeyRestrictions?: ServerKeyRestrictions;
  androidKeyRestrictions?: AndroidKeyRestrictions;
  iosKeyRestrictions?: IosKeyRestrictions;
  apiTargets?: ApiTarget[];
}

export interface ApiKey {
  name: string;
  uid?: string;
  displayName?: string;
  /** Only present in create results and GetKeyString; never logged or stored. */
  keyString?: string;
  createTime?: string;
  updateTime?: string;
  deleteTime?: string;
  annotations?: Record<string, string>;
  restrictions?: Restrictions;
  etag?: string;
  serviceAccountEmail?: string;
}

export interface ListKeysResponse {
  keys?: ApiKey[];
  nextPageToken?: string;
}

export interface LookupKeyResponse {
  parent?: string;
  name?: string;
}

export interface Status {
  code?: number;
  message?: string;
  details?: unknown[];
}

export interface Operation {
  name: string;
  done?: boolean;
  metadata?: Record<string, unknown>;
  error?: Status;
  response?: Record<string, unknown>;
}

/** The application restriction kinds; at most one per key. */
export type ApplicationRestrictionKind = 'browser' | 'server' | 'android' | 'ios';

export const APPLICATION_RESTRICTION_FIELDS: Record<ApplicationRestrictionKind, keyof Restrictions> = {
  browser: 'browserKeyRestrictions',
  server: 'serverKeyRestrictions',
  android: 'androidKeyRestrictions',
  ios: 'iosKeyRestrictions',
};

export const APPLICATION_RESTRICTION_LABELS: Record<ApplicationRestrictionKind, string> = {
  browser: 'Websites (HTTP referrers)',
  server: 'IP addresses (servers)',
  android: 'Android apps',
  ios: 'iOS apps',
};

/** Days a deleted key can still be undeleted (seed 001, Limits). */
export const UNDELETE_WINDOW_DAYS = 30;

/** The only location keys live in. */
export const KEYS_LOCATION = 'global';

/** The role every administrative call needs (seed 001, Authentication). */
export const API_KEYS_ADMIN_ROLE = 'roles/serviceusage.apiKeysAdmin';

/** The organization policy constraint that blocks binding keys to service accounts. */
export const SERVICE_ACCOUNT_BINDING_CONSTRAINT = 'constraints/iam.managed.disableServiceAccountApiKeyCreation';

/** The only API a key bound to a service account works with (seed 001: the ML platform service). */
export const BOUND_KEY_SERVICE = 'aiplatform.googleapis.com';
