// Words for keys and restrictions: the tree's one-line summary and what an update will change.
// Shared by the extension and the restriction editor webview, so both say the same thing.
import {
  APPLICATION_RESTRICTION_FIELDS,
  type ApiTarget,
  type ApplicationRestrictionKind,
  type Restrictions,
} from './types';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** "2 referrers · 1 API", "unrestricted", …: the description of a key in the tree. */
export function summarizeRestrictions(restrictions: Restrictions | undefined): string {
  const r = restrictions ?? {};
  const parts: string[] = [];
  if (r.browserKeyRestrictions) parts.push(plural(r.browserKeyRestrictions.allowedReferrers?.length ?? 0, 'referrer'));
  if (r.serverKeyRestrictions)
    parts.push(
      plural(r.serverKeyRestrictions.allowedIps?.length ?? 0, 'IP range')
        .replace('IP ranges', 'IPs')
        .replace('IP range', 'IP'),
    );
  if (r.androidKeyRestrictions)
    parts.push(plural(r.androidKeyRestrictions.allowedApplications?.length ?? 0, 'Android app'));
  if (r.iosKeyRestrictions) parts.push(plural(r.iosKeyRestrictions.allowedBundleIds?.length ?? 0, 'iOS app'));
  const targets = r.apiTargets ?? [];
  if (targets.length > 0)
    parts.push(targets.length === 1 ? (targets[0].service ?? '1 API') : plural(targets.length, 'API'));
  if (parts.length === 0) return 'unrestricted';
  if (targets.length === 0) parts.push('any API');
  else if (parts.length === 1) parts.unshift('any app');
  return parts.join(' · ');
}

/** One line per list for a tooltip or a review. */
export function describeRestrictions(restrictions: Restrictions | undefined): string[] {
  const r = restrictions ?? {};
  const lines: string[] = [];
  if (r.browserKeyRestrictions)
    lines.push(`Websites: ${(r.browserKeyRestrictions.allowedReferrers ?? []).join(', ') || '(none)'}`);
  if (r.serverKeyRestrictions)
    lines.push(`IP addresses: ${(r.serverKeyRestrictions.allowedIps ?? []).join(', ') || '(none)'}`);
  if (r.androidKeyRestrictions) {
    lines.push(
      `Android apps: ${(r.androidKeyRestrictions.allowedApplications ?? []).map((a) => `${a.packageName} (${a.sha1Fingerprint})`).join(', ') || '(none)'}`,
    );
  }
  if (r.iosKeyRestrictions)
    lines.push(`iOS apps: ${(r.iosKeyRestrictions.allowedBundleIds ?? []).join(', ') || '(none)'}`);
  if (lines.length === 0) lines.push('Application restriction: none');
  const targets = r.apiTargets ?? [];
  lines.push(targets.length === 0 ? 'API restriction: none' : `APIs: ${targets.map(formatApiTarget).join('; ')}`);
  return lines;
}

export function formatApiTarget(target: ApiTarget): string {
  const methods = target.methods ?? [];
  return methods.length === 0 ? `${target.service}` : `${target.service} (${methods.join(', ')})`;
}

export interface ListChange {
  /** "Websites", "IP addresses", "Android apps", "iOS apps", "APIs". */
  list: string;
  before: string[];
  after: string[];
  removed: string[];
  added: string[];
}

function entriesOf(r: Restrictions, kind: ApplicationRestrictionKind | 'api'): string[] | undefined {
  switch (kind) {
    case 'browser':
      return r.browserKeyRestrictions ? [...(r.browserKeyRestrictions.allowedReferrers ?? [])] : undefined;
    case 'server':
      return r.serverKeyRestrictions ? [...(r.serverKeyRestrictions.allowedIps ?? [])] : undefined;
    case 'android':
      return r.androidKeyRestrictions
        ? (r.androidKeyRestrictions.allowedApplications ?? []).map((a) => `${a.packageName} ${a.sha1Fingerprint}`)
        : undefined;
    case 'ios':
      return r.iosKeyRestrictions ? [...(r.iosKeyRestrictions.allowedBundleIds ?? [])] : undefined;
    case 'api':
      return r.apiTargets && r.apiTargets.length > 0 ? r.apiTargets.map(formatApiTarget) : undefined;
  }
}

const LIST_LABELS: Record<ApplicationRestrictionKind | 'api', string> = {
  browser: 'Websites',
  server: 'IP addresses',
  android: 'Android apps',
  ios: 'iOS apps',
  api: 'APIs',
};

/**
 * What sending `after` with updateMask=restrictions does to a key that has `before`: every list is
 * replaced whole, so a list absent from `after` disappears. Only lists that change are returned.
 */
export function diffRestrictions(before: Restrictions | undefined, after: Restrictions | undefined): ListChange[] {
  const b = before ?? {};
  const a = after ?? {};
  const changes: ListChange[] = [];
  for (const kind of [
    ...(Object.keys(APPLICATION_RESTRICTION_FIELDS) as ApplicationRestrictionKind[]),
    'api' as const,
  ]) {
    const was = entriesOf(b, kind);
    const will = entriesOf(a, kind);
    if (was === undefined && will === undefined) continue;
    const beforeList = was ?? [];
    const afterList = will ?? [];
    const same =
      was !== undefined &&
      will !== undefined &&
      beforeList.length === afterList.length &&
      beforeList.every((v, i) => v === afterList[i]);
    if (same) continue;
    changes.push({
      list: LIST_LABELS[kind],
      before: beforeList,
      after: afterList,
      removed: beforeList.filter((v) => !afterList.includes(v)),
      added: afterList.filter((v) => !beforeList.includes(v)),
    });
  }
  return changes;
}

/** One sentence per changed list, for confirmations and logs (no secrets in restrictions). */
export function describeChanges(changes: ListChange[]): string[] {
  return changes.map((c) => {
    if (c.after.length === 0)
      return `${c.list}: all ${c.before.length} removed (no ${c.list.toLowerCase()} restriction).`;
    if (c.before.length === 0) return `${c.list}: set to ${c.after.join(', ')}.`;
    const parts = [`${c.list}: replaced (${c.before.length} → ${c.after.length})`];
    if (c.removed.length) parts.push(`removed ${c.removed.join(', ')}`);
    if (c.added.length) parts.push(`added ${c.added.join(', ')}`);
    if (!c.removed.length && !c.added.length) parts.push('reordered');
    return `${parts.join('; ')}.`;
  });
}

/** Parses "service method method…" lines (the editor's API target syntax). */
export function parseApiTargetLines(text: string): ApiTarget[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [service, ...methods] = line.split(/[\s,]+/).filter((p) => p.length > 0);
      const target: ApiTarget = { service: service ?? '' };
      if (methods.length > 0) target.methods = methods;
      return target;
    });
}

export function formatApiTargetLines(targets: ApiTarget[] | undefined): string {
  return (targets ?? []).map((t) => [t.service ?? '', ...(t.methods ?? [])].join(' ')).join('\n');
}
