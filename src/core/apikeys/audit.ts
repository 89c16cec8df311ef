// The key audit: every active key of a project checked against the CIS Google Cloud Platform
// Foundation Benchmark's API key items (1.12-1.15). Pure: the extension lists the keys and shows the
// result; this module decides. Key strings never enter a report: entries are built field by field.
//
// How the benchmark's console wording maps onto the API Keys v2 Key resource:
// - 1.13 "Application restrictions is not set to None": one of browserKeyRestrictions,
//   serverKeyRestrictions, androidKeyRestrictions, iosKeyRestrictions is set and lists something
//   (an empty list restricts nothing). "HTTP referrers ... not set to wild-cards (* or *.[TLD] or
//   *.[TLD]/*)" and "IP addresses ... not set to any host (0.0.0.0 or 0.0.0.0/0 or ::0)": an entry
//   whose host is "*" or "*." plus a single label, or an address range that covers every address
//   (prefix length 0, or the unspecified address), makes the restriction as wide as none.
// - 1.14 "API restrictions is not set to None": apiTargets lists at least one target (with no
//   targets the API Keys service lets the key call every API that accepts keys). "Not set to Google
//   Cloud APIs", which "represents the API collection of all cloud services/APIs offered by Google
//   cloud": a target whose service is cloudapis.googleapis.com (service names are case-insensitive)
//   lets the key call every API, so it is the second 1.14 finding.
// - 1.15 "for every key ensure the creation date is less than 90 days": age from createTime on the
//   service's clock; at the chosen age or older the key is due for rotation. A createTime that is
//   missing, not RFC 3339 or in the future cannot show the key is young enough, so it is a finding too.
// - 1.12 "API keys only exist for active services" is about the project, not a key's fields: the
//   report counts the keys and asks the reviewer to confirm each is still used.
// Deleted keys (deleteTime set) are left out: they cannot be used and are purged after 30 days.
import type { ApiKey, Restrictions } from './types';

export const DEFAULT_MAX_AGE_DAYS = 90;
export const MAX_AGE_DAYS_LIMIT = 3650;
/** The collection the console calls "Google Cloud APIs": a target for it allows every API. */
export const ALL_CLOUD_APIS_SERVICE = 'cloudapis.googleapis.com';
export const AUDIT_FORMAT = 'cloudbench.keyAudit/v1';
export const BENCHMARK = 'CIS Google Cloud Platform Foundation Benchmark, items 1.12-1.15';

const DAY_MS = 86_400_000;
/** A createTime this far ahead of the service's clock is not believed. */
const FUTURE_SKEW_MS = 5 * 60_000;

export type AuditRule =
  | 'application-restriction-missing'
  | 'application-restriction-wide'
  | 'api-restriction-missing'
  | 'api-restriction-all'
  | 'rotation-overdue'
  | 'rotation-unknown';

/** What fixes a finding: the restriction editor, or a successor key. */
export type AuditFix = 'editRestrictions' | 'rotate';

export const AUDIT_RULES: Record<AuditRule, { cis: string; title: string; fix: AuditFix }> = {
  'application-restriction-missing': {
    cis: '1.13',
    title: 'No application restriction',
    fix: 'editRestrictions',
  },
  'application-restriction-wide': {
    cis: '1.13',
    title: 'Application restriction allows any site or host',
    fix: 'editRestrictions',
  },
  'api-restriction-missing': { cis: '1.14', title: 'No API restriction', fix: 'editRestrictions' },
  'api-restriction-all': { cis: '1.14', title: 'API restriction allows every API', fix: 'editRestrictions' },
  'rotation-overdue': { cis: '1.15', title: 'Not rotated', fix: 'rotate' },
  'rotation-unknown': { cis: '1.15', title: 'Age unknown', fix: 'rotate' },
};

export interface AuditFinding {
  rule: AuditRule;
  cis: string;
  title: string;
  /** Plain text; may quote the key's own values (escape it for Markdown or HTML). */
  detail: string;
  fix: AuditFix;
}

export interface KeyAuditEntry {
  name: string;
  keyId: string;
  displayName: string;
  createTime?: string;
  /** Whole days since createTime, when it is a time in the past. */
  ageDays?: number;
  serviceAccountEmail?: string;
  /** The successor a Rotate recorded on this key (annotation rotatedTo). */
  rotatedTo?: string;
  findings: AuditFinding[];
}

export interface AuditOptions {
  /** Now on the service's clock (ms since the epoch). */
  now: number;
  maxAgeDays: number;
}

export interface AuditReport {
  format: typeof AUDIT_FORMAT;
  benchmark: typeof BENCHMARK;
  project: string;
  auditedAt: string;
  maxAgeDays: number;
  /** Deleted keys seen in the list and left out. */
  deletedSkipped: number;
  summary: { keys: number; keysWithFindings: number; findings: number; byRule: Record<AuditRule, number> };
  keys: KeyAuditEntry[];
}

/** Annotation a Rotate puts on the old key and on its successor. */
export const ROTATED_TO_ANNOTATION = 'rotatedTo';
export const ROTATED_FROM_ANNOTATION = 'rotatedFrom';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A createTime as ms since the epoch, or undefined when it is not an RFC 3339 time. */
export function parseCreateTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length > 40 || !RFC3339.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The maximum age from a setting or an answer: a whole number of days from 1 to 3650. */
export function parseMaxAgeDays(value: unknown): { days: number } | { problem: string } {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_AGE_DAYS_LIMIT)
    return { problem: `Enter a whole number of days from 1 to ${MAX_AGE_DAYS_LIMIT} (the benchmark asks for 90).` };
  return { days: n };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** "*", "*.com", "https://*.org:443/*": a referrer that lets every site (of a top-level domain) use the key. */
export function isWideReferrer(referrer: string): boolean {
  const withoutScheme = referrer.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const hostAndPort = withoutScheme.split('/')[0] ?? '';
  const host = hostAndPort.replace(/:\d*$/, '').toLowerCase();
  if (host === '*') return true;
  return /^\*\.[^.*]+\.?$/.test(host);
}

function isZeroAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (/^0+(\.0+){3}$/.test(a)) return true;
  // Every IPv6 spelling of the unspecified address: only zeros and colons (with at least one "::"
  // or eight groups), e.g. "::", "::0", "0:0:0:0:0:0:0:0".
  return /^[0:]+$/.test(a) && a.includes(':') && (a.includes('::') || a.split(':').length === 8);
}

/** "0.0.0.0", "0.0.0.0/0", "::0", "::/0", "10.0.0.0/0": an entry that admits every caller. */
export function isAnyHostIp(entry: string): boolean {
  const value = entry.trim();
  const slash = value.indexOf('/');
  if (slash >= 0 && /^0+$/.test(value.slice(slash + 1))) return true;
  return isZeroAddress(slash >= 0 ? value.slice(0, slash) : value);
}

function applicationFindings(r: Restrictions): AuditFinding[] {
  const referrers = r.browserKeyRestrictions ? strings(r.browserKeyRestrictions.allowedReferrers) : undefined;
  const ips = r.serverKeyRestrictions ? strings(r.serverKeyRestrictions.allowedIps) : undefined;
  const apps = r.androidKeyRestrictions
    ? Array.isArray(r.androidKeyRestrictions.allowedApplications)
      ? r.androidKeyRestrictions.allowedApplications
      : []
    : undefined;
  const bundles = r.iosKeyRestrictions ? strings(r.iosKeyRestrictions.allowedBundleIds) : undefined;
  const lists: unknown[][] = [referrers, ips, apps, bundles].filter((l) => l !== undefined);
  if (lists.length === 0 || lists.every((l) => l.length === 0))
    return [
      finding(
        'application-restriction-missing',
        lists.length === 0
          ? 'Any website, server or app can use this key. Restrict it to the sites (HTTP referrers), server IP addresses, Android apps or iOS apps that use it.'
          : 'The application restriction lists nothing, so it restricts nothing. List the sites, IP addresses or apps that use the key.',
      ),
    ];
  const out: AuditFinding[] = [];
  const wideReferrers = (referrers ?? []).filter(isWideReferrer);
  if (wideReferrers.length)
    out.push(
      finding(
        'application-restriction-wide',
        `Website restriction ${quoteList(wideReferrers)} matches every site${
          wideReferrers.some((w) =>
            w
              .trim()
              .replace(/^[a-z]+:\/\//i, '')
              .startsWith('*.'),
          )
            ? ' of a top-level domain'
            : ''
        }. Name the sites that use the key.`,
      ),
    );
  const anyHost = (ips ?? []).filter(isAnyHostIp);
  if (anyHost.length)
    out.push(
      finding(
        'application-restriction-wide',
        `IP restriction ${quoteList(anyHost)} admits every address. List the external addresses of the servers that use the key.`,
      ),
    );
  return out;
}

function apiFindings(r: Restrictions): AuditFinding[] {
  const targets = Array.isArray(r.apiTargets) ? r.apiTargets : [];
  if (targets.length === 0)
    return [
      finding(
        'api-restriction-missing',
        'The key can call every API the project has enabled that accepts API keys. Restrict it to the APIs it needs.',
      ),
    ];
  const all = targets.some(
    (t) => typeof t?.service === 'string' && t.service.trim().toLowerCase() === ALL_CLOUD_APIS_SERVICE,
  );
  return all
    ? [
        finding(
          'api-restriction-all',
          `The API restriction includes ${ALL_CLOUD_APIS_SERVICE} ("Google Cloud APIs"), the collection of every Google Cloud API. Replace it with the APIs the key needs.`,
        ),
      ]
    : [];
}

function ageFindings(key: ApiKey, options: AuditOptions): { ageDays?: number; findings: AuditFinding[] } {
  const created = parseCreateTime(key.createTime);
  if (created === undefined)
    return {
      findings: [
        finding(
          'rotation-unknown',
          key.createTime === undefined || key.createTime === ''
            ? 'The service gave no creation time, so the key cannot be shown to be younger than the limit. Rotate it to be sure.'
            : `The creation time "${cut(String(key.createTime), 60)}" is not a valid time, so the key cannot be shown to be younger than the limit. Rotate it to be sure.`,
        ),
      ],
    };
  if (created > options.now + FUTURE_SKEW_MS)
    return {
      findings: [
        finding(
          'rotation-unknown',
          `The creation time ${cut(String(key.createTime), 60)} is in the future on the service's clock, so the key's age is unknown. Rotate it to be sure.`,
        ),
      ],
    };
  const ageMs = Math.max(0, options.now - created);
  const ageDays = Math.floor(ageMs / DAY_MS);
  if (ageMs < options.maxAgeDays * DAY_MS) return { ageDays, findings: [] };
  return {
    ageDays,
    findings: [
      finding(
        'rotation-overdue',
        `Created ${ageDays} days ago (${key.createTime}); keys should be rotated every ${options.maxAgeDays} days. Create a successor, replace this key where it is used, then delete it.`,
      ),
    ],
  };
}

function finding(rule: AuditRule, detail: string): AuditFinding {
  const { cis, title, fix } = AUDIT_RULES[rule];
  return { rule, cis, title, detail, fix };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function quoteList(values: string[]): string {
  const shown = values.slice(0, 5).map((v) => `"${cut(v, 100)}"`);
  return values.length > 5 ? `${shown.join(', ')} and ${values.length - 5} more` : shown.join(', ');
}

function keyIdOf(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** One key's findings, in the benchmark's order (1.13, 1.14, 1.15). */
export function auditKey(key: ApiKey, options: AuditOptions): KeyAuditEntry {
  const restrictions: Restrictions =
    typeof key.restrictions === 'object' && key.restrictions !== null ? key.restrictions : {};
  const age = ageFindings(key, options);
  const name = typeof key.name === 'string' ? key.name : '';
  const entry: KeyAuditEntry = {
    name,
    keyId: keyIdOf(name),
    displayName: typeof key.displayName === 'string' ? key.displayName : '',
    findings: [...applicationFindings(restrictions), ...apiFindings(restrictions), ...age.findings],
  };
  if (typeof key.createTime === 'string') entry.createTime = key.createTime;
  if (age.ageDays !== undefined) entry.ageDays = age.ageDays;
  if (typeof key.serviceAccountEmail === 'string' && key.serviceAccountEmail)
    entry.serviceAccountEmail = key.serviceAccountEmail;
  const rotatedTo = key.annotations?.[ROTATED_TO_ANNOTATION];
  if (typeof rotatedTo === 'string' && rotatedTo) entry.rotatedTo = rotatedTo;
  return entry;
}

function emptyCounts(): Record<AuditRule, number> {
  return Object.fromEntries(Object.keys(AUDIT_RULES).map((r) => [r, 0])) as Record<AuditRule, number>;
}

function summarize(keys: KeyAuditEntry[]): AuditReport['summary'] {
  const byRule = emptyCounts();
  let findings = 0;
  for (const k of keys)
    for (const f of k.findings) {
      byRule[f.rule]++;
      findings++;
    }
  return { keys: keys.length, keysWithFindings: keys.filter((k) => k.findings.length > 0).length, findings, byRule };
}

/** Audits the keys of a list (deleted ones are counted and left out). */
export function auditKeys(project: string, keys: readonly ApiKey[], options: AuditOptions): AuditReport {
  const active = keys.filter((k) => !k.deleteTime);
  const entries = active.map((k) => auditKey(k, options));
  return {
    format: AUDIT_FORMAT,
    benchmark: BENCHMARK,
    project,
    auditedAt: new Date(options.now).toISOString(),
    maxAgeDays: options.maxAgeDays,
    deletedSkipped: keys.length - active.length,
    summary: summarize(entries),
    keys: entries,
  };
}

/**
 * The report after one key changed (restrictions edited, a successor created, a key deleted):
 * that key audited again, added or dropped, the rest as they were.
 */
export function updateReport(report: AuditReport, key: ApiKey, now: number): AuditReport {
  const others = report.keys.filter((k) => k.name !== key.name);
  const index = report.keys.findIndex((k) => k.name === key.name);
  const keys = key.deleteTime
    ? others
    : index >= 0
      ? report.keys.map((k, i) => (i === index ? auditKey(key, { now, maxAgeDays: report.maxAgeDays }) : k))
      : [...report.keys, auditKey(key, { now, maxAgeDays: report.maxAgeDays })];
  return { ...report, keys, summary: summarize(keys) };
}

const MAX_KEY_ID = 63;

/** "maps-web" → "maps-web-r20261207" (then -2, -3 … when taken): a valid key id that says what it is. */
export function successorKeyIds(oldId: string, now: number): string[] {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  const base = oldId
    .toLowerCase()
    .replace(/-r\d{8}(-\d+)?$/, '')
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^[^a-z]+/, '');
  const suffix = `-r${day}`;
  const stem = (base || 'key').slice(0, MAX_KEY_ID - suffix.length - 3).replace(/-+$/, '');
  return [`${stem}${suffix}`, ...[2, 3, 4, 5].map((n) => `${stem}${suffix}-${n}`)];
}
