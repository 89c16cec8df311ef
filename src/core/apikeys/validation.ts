// Restriction validation (seed 001, reference B.3). Pure: the restriction editor calls it on every
// keystroke, the simulator reuses its parsers, so what passes here is exactly what gets matched.
import {
  BOUND_KEY_SERVICE,
  APPLICATION_RESTRICTION_FIELDS,
  APPLICATION_RESTRICTION_LABELS,
  type ApplicationRestrictionKind,
  type Restrictions,
} from './types';
import { DNS_LABEL, formatIpRange, parseIpRestriction, validateIp, validateReferrer } from './restriction-parsers';

// The parsers live in their own module; this one stays the single entry point for validation.
export {
  type ReferrerPattern,
  type Parsed,
  parseReferrer,
  validateReferrer,
  type IpRange,
  formatAddress,
  parseIpRestriction,
  validateIp,
  formatIpRange,
  ipInRange,
  parseCallerIp,
} from './restriction-parsers';

// ---------------------------------------------------------------------------------------------
// Platform A (Android) apps, platform B (iOS) bundles

const PACKAGE_SEGMENT = /^[a-zA-Z][a-zA-Z0-9_]*$/;

export function validatePackageName(value: string): string | undefined {
  if (value.length === 0) return 'The package name cannot be empty; write the application id such as com.example.app.';
  if (/\s/.test(value)) return `Package name "${value}" contains white space.`;
  const segments = value.split('.');
  if (segments.length < 2) return `Package name "${value}" needs at least two dot-separated parts, like com.example.`;
  for (const segment of segments) {
    if (!PACKAGE_SEGMENT.test(segment)) {
      return segment.length === 0
        ? `Package name "${value}" has an empty part between dots.`
        : `Package name "${value}": part "${segment}" must start with a letter and contain only letters, digits and underscores.`;
    }
  }
  return undefined;
}

/** Upper-case, colon-less form, which is how the API returns fingerprints. */
export function normalizeFingerprint(value: string): string {
  return value.replace(/:/g, '').toUpperCase();
}

export function validateSha1Fingerprint(value: string): string | undefined {
  if (value.length === 0) return 'The SHA-1 certificate fingerprint cannot be empty.';
  if (/\s/.test(value)) return `SHA-1 fingerprint "${value}" contains white space.`;
  const hasColons = value.includes(':');
  if (hasColons && !/^[0-9a-f]{2}(:[0-9a-f]{2})*$/i.test(value)) {
    return `SHA-1 fingerprint "${value}": with colons, write pairs of hex digits like DA:39:A3:….`;
  }
  const hex = value.replace(/:/g, '');
  if (!/^[0-9a-f]*$/i.test(hex))
    return `SHA-1 fingerprint "${value}" may contain only hex digits 0-9 and A-F (and colons between pairs).`;
  if (hex.length !== 40) {
    const bytes = hex.length / 2;
    const size = Number.isInteger(bytes) ? `${bytes} bytes` : `${hex.length} hex digits`;
    const hint = hex.length === 64 ? ' (that is a SHA-256 fingerprint; use the SHA-1 one)' : '';
    return `SHA-1 fingerprint "${value}" has ${size}${hint}; it must be 20 bytes: 40 hex digits, with or without colons.`;
  }
  return undefined;
}

export function validateBundleId(value: string): string | undefined {
  if (value.length === 0) return 'A bundle ID cannot be empty; write one such as com.example.app.';
  if (/\s/.test(value)) return `Bundle ID "${value}" contains white space.`;
  if (value.includes('*')) return `Bundle ID "${value}": wildcards are not supported; list each app's bundle ID.`;
  if (!/^[A-Za-z0-9.-]+$/.test(value))
    return `Bundle ID "${value}" may contain only letters, digits, hyphens and dots.`;
  const segments = value.split('.');
  if (segments.some((s) => s.length === 0)) return `Bundle ID "${value}" has an empty part between dots.`;
  if (segments.length < 2) return `Bundle ID "${value}" should be in reverse-DNS form, like com.example.app.`;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// API targets

export function validateServiceName(value: string): string | undefined {
  if (value.length === 0) return 'The service name cannot be empty; write one such as translate.googleapis.com.';
  if (/\s/.test(value)) return `Service name "${value}" contains white space.`;
  if (value.includes('*'))
    return `Service name "${value}": wildcards are not allowed in service names; list each service.`;
  if (value.includes('/') || value.includes(':'))
    return `Service name "${value}" must be a bare service name such as translate.googleapis.com, not a URL.`;
  const labels = value.split('.');
  if (labels.length < 2 || labels.some((l) => !DNS_LABEL.test(l))) {
    return `"${value}" is not a service name; write the canonical name such as translate.googleapis.com.`;
  }
  return undefined;
}

export function validateMethod(value: string): string | undefined {
  if (value.length === 0) return 'A method cannot be empty; remove it or write a method name such as TranslateText.';
  if (/\s/.test(value)) return `Method "${value}" contains white space.`;
  if (value.includes('/'))
    return `Method "${value}": write fully qualified methods with dots (package.Service.Method), not as a path.`;
  const star = value.indexOf('*');
  if (star >= 0 && star !== value.length - 1)
    return `Method "${value}": a wildcard "*" is allowed only as the last character (like Get*).`;
  const body = star >= 0 ? value.slice(0, -1) : value;
  if (body.length === 0) return undefined;
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_-]*)*\.?$/.test(body) || (star < 0 && body.endsWith('.'))) {
    return `Method "${value}" is not a method name; use letters, digits and underscores, with dots between the parts of a fully qualified name.`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Whole restrictions

export interface Problem {
  /** A path into the restrictions, like "browserKeyRestrictions.allowedReferrers[2]". */
  path: string;
  message: string;
}

export interface ValidationOptions {
  /** The key is bound to a service account: only server (IP) restrictions are available. */
  serviceAccountBound?: boolean;
}

export function applicationRestrictionKinds(restrictions: Restrictions | undefined): ApplicationRestrictionKind[] {
  if (!restrictions) return [];
  return (Object.keys(APPLICATION_RESTRICTION_FIELDS) as ApplicationRestrictionKind[]).filter(
    (kind) =>
      restrictions[APPLICATION_RESTRICTION_FIELDS[kind]] !== undefined &&
      restrictions[APPLICATION_RESTRICTION_FIELDS[kind]] !== null,
  );
}

function checkList(
  problems: Problem[],
  path: string,
  values: string[] | undefined,
  validate: (value: string) => string | undefined,
  normalize: (value: string) => string,
  emptyMessage: string,
): void {
  if (!values || values.length === 0) {
    problems.push({ path, message: emptyMessage });
    return;
  }
  const seen = new Map<string, number>();
  values.forEach((value, i) => {
    const message = typeof value === 'string' ? validate(value) : `Entry ${i + 1} must be text.`;
    if (message) {
      problems.push({ path: `${path}[${i}]`, message });
      return;
    }
    const key = normalize(value);
    const first = seen.get(key);
    if (first !== undefined)
      problems.push({ path: `${path}[${i}]`, message: `"${value}" is listed twice (also entry ${first + 1}).` });
    else seen.set(key, i);
  });
}

function normalizedIp(value: string): string {
  const parsed = parseIpRestriction(value);
  return parsed.ok ? formatIpRange(parsed.value) : value;
}

/** Every problem of a restrictions object, in display order; empty when it may be sent. */
export function validateRestrictions(
  restrictions: Restrictions | undefined,
  options: ValidationOptions = {},
): Problem[] {
  const problems: Problem[] = [];
  if (!restrictions) return problems;
  const kinds = applicationRestrictionKinds(restrictions);
  if (kinds.length > 1) {
    problems.push({
      path: 'restrictions',
      message: `A key can have only one application restriction type; found ${kinds.map((k) => APPLICATION_RESTRICTION_LABELS[k]).join(' and ')}. Keep one.`,
    });
  }
  if (options.serviceAccountBound) {
    for (const kind of kinds) {
      if (kind !== 'server') {
        problems.push({
          path: APPLICATION_RESTRICTION_FIELDS[kind],
          message: `This key is bound to a service account, which allows only IP address (server) restrictions, not ${APPLICATION_RESTRICTION_LABELS[kind]}.`,
        });
      }
    }
  }
  if (restrictions.browserKeyRestrictions) {
    checkList(
      problems,
      'browserKeyRestrictions.allowedReferrers',
      restrictions.browserKeyRestrictions.allowedReferrers,
      validateReferrer,
      (v) => v.toLowerCase(),
      'Add at least one website referrer, or choose no application restriction.',
    );
  }
  if (restrictions.serverKeyRestrictions) {
    checkList(
      problems,
      'serverKeyRestrictions.allowedIps',
      restrictions.serverKeyRestrictions.allowedIps,
      validateIp,
      normalizedIp,
      'Add at least one IP address or range, or choose no application restriction.',
    );
  }
  if (restrictions.androidKeyRestrictions) {
    const apps = restrictions.androidKeyRestrictions.allowedApplications;
    const path = 'androidKeyRestrictions.allowedApplications';
    if (!apps || apps.length === 0) {
      problems.push({
        path,
        message:
          'Add at least one Android app (package name and SHA-1 fingerprint), or choose no application restriction.',
      });
    } else {
      const seen = new Map<string, number>();
      apps.forEach((app, i) => {
        const packageProblem = validatePackageName(app?.packageName ?? '');
        const fingerprintProblem = validateSha1Fingerprint(app?.sha1Fingerprint ?? '');
        if (packageProblem) problems.push({ path: `${path}[${i}].packageName`, message: packageProblem });
        if (fingerprintProblem) problems.push({ path: `${path}[${i}].sha1Fingerprint`, message: fingerprintProblem });
        if (packageProblem || fingerprintProblem) return;
        const key = `${app.packageName}|${normalizeFingerprint(app.sha1Fingerprint!)}`;
        const first = seen.get(key);
        if (first !== undefined)
          problems.push({
            path: `${path}[${i}]`,
            message: `App ${app.packageName} with this fingerprint is listed twice (also entry ${first + 1}).`,
          });
        else seen.set(key, i);
      });
    }
  }
  if (restrictions.iosKeyRestrictions) {
    checkList(
      problems,
      'iosKeyRestrictions.allowedBundleIds',
      restrictions.iosKeyRestrictions.allowedBundleIds,
      validateBundleId,
      (v) => v,
      'Add at least one bundle ID, or choose no application restriction.',
    );
  }
  if (restrictions.apiTargets) {
    const seen = new Map<string, number>();
    restrictions.apiTargets.forEach((target, i) => {
      const path = `apiTargets[${i}]`;
      const serviceProblem = validateServiceName(target?.service ?? '');
      if (serviceProblem) problems.push({ path: `${path}.service`, message: serviceProblem });
      else if (options.serviceAccountBound && target.service!.toLowerCase() !== BOUND_KEY_SERVICE) {
        problems.push({
          path: `${path}.service`,
          message: `A key bound to a service account works only with ${BOUND_KEY_SERVICE}, not ${target.service}.`,
        });
      } else {
        const key = target.service!.toLowerCase();
        const first = seen.get(key);
        if (first !== undefined)
          problems.push({
            path: `${path}.service`,
            message: `Service ${target.service} is listed twice (also target ${first + 1}); put all its methods in one target.`,
          });
        else seen.set(key, i);
      }
      const methodSeen = new Set<string>();
      (target?.methods ?? []).forEach((method, j) => {
        const message = validateMethod(method);
        if (message) problems.push({ path: `${path}.methods[${j}]`, message });
        else if (methodSeen.has(method.toLowerCase()))
          problems.push({ path: `${path}.methods[${j}]`, message: `Method "${method}" is listed twice.` });
        else methodSeen.add(method.toLowerCase());
      });
    });
  }
  return problems;
}

/** Returns the restrictions in the form the API stores: fingerprints colon-less upper case, IPs canonical. */
export function normalizeRestrictions(restrictions: Restrictions): Restrictions {
  const out: Restrictions = {};
  if (restrictions.browserKeyRestrictions)
    out.browserKeyRestrictions = {
      allowedReferrers: [...(restrictions.browserKeyRestrictions.allowedReferrers ?? [])],
    };
  if (restrictions.serverKeyRestrictions) {
    out.serverKeyRestrictions = { allowedIps: (restrictions.serverKeyRestrictions.allowedIps ?? []).map(normalizedIp) };
  }
  if (restrictions.androidKeyRestrictions) {
    out.androidKeyRestrictions = {
      allowedApplications: (restrictions.androidKeyRestrictions.allowedApplications ?? []).map((a) => ({
        packageName: a.packageName ?? '',
        sha1Fingerprint: normalizeFingerprint(a.sha1Fingerprint ?? ''),
      })),
    };
  }
  if (restrictions.iosKeyRestrictions)
    out.iosKeyRestrictions = { allowedBundleIds: [...(restrictions.iosKeyRestrictions.allowedBundleIds ?? [])] };
  if (restrictions.apiTargets && restrictions.apiTargets.length > 0) {
    out.apiTargets = restrictions.apiTargets.map((t) => {
      const target: { service: string; methods?: string[] } = { service: t.service ?? '' };
      if (t.methods && t.methods.length > 0) target.methods = [...t.methods];
      return target;
    });
  }
  return out;
}
