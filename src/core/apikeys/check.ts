// "Check Request": decides whether a described request would be accepted by a key's restrictions,
// with the same parsers the validation uses, and explains which rule decided.
import {
  ipInRange,
  normalizeFingerprint,
  parseCallerIp,
  parseIpRestriction,
  parseReferrer,
  type ReferrerPattern,
} from './validation';
import type { Restrictions } from './types';

/** Real header names (reference B.3); the seed's neutral names are given alongside for readers of the spec. */
export const HEADERS = {
  apiKey: 'X-Goog-Api-Key',
  referrer: 'Referer',
  androidPackage: 'X-Android-Package',
  androidCert: 'X-Android-Cert',
  iosBundle: 'X-Ios-Bundle-Identifier',
} as const;

export const NEUTRAL_HEADER_NAMES: Record<string, string> = {
  [HEADERS.androidPackage]: 'X-PlatformA-Package',
  [HEADERS.androidCert]: 'X-PlatformA-Cert',
  [HEADERS.iosBundle]: 'X-PlatformB-Bundle-Identifier',
};

export interface SimulatedRequest {
  /** The Referer header the browser sends (a full URL). */
  referrer?: string;
  /** The caller's external IP address. */
  callerIp?: string;
  androidPackage?: string;
  androidCert?: string;
  iosBundleId?: string;
  /** Service name, like translate.googleapis.com. */
  service?: string;
  /** Method name, short (TranslateText) or fully qualified. */
  method?: string;
}

export interface CheckStep {
  rule: 'application' | 'api';
  passed: boolean;
  explanation: string;
}

export interface HeaderRequirement {
  name: string;
  value: string;
  neutralName?: string;
}

export interface CheckResult {
  allowed: boolean;
  /** The explanation of the step that decided: the first failing step, or the last passing one. */
  decidedBy: string;
  steps: CheckStep[];
  /** Headers a caller of this key must send (besides the key itself) for the application restriction. */
  requiredHeaders: HeaderRequirement[];
}

function effectivePort(url: URL): number | undefined {
  if (url.port) return Number(url.port);
  if (url.protocol === 'https:') return 443;
  if (url.protocol === 'http:') return 80;
  return undefined;
}

/** True when a Referer URL matches one referrer pattern (seed 001 rules 1-5). */
export function referrerMatches(pattern: ReferrerPattern, url: URL): boolean {
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (pattern.scheme === 'file' || scheme === 'file') {
    if (pattern.scheme !== scheme || !pattern.path) return false;
    return pattern.path.wildcard ? url.pathname.startsWith(pattern.path.prefix) : url.pathname === pattern.path.prefix;
  }
  if (pattern.scheme ? pattern.scheme !== scheme : scheme !== 'http' && scheme !== 'https') return false;
  const host = url.hostname.toLowerCase();
  if (pattern.anySubdomain ? !host.endsWith(`.${pattern.host}`) : host !== pattern.host) return false;
  if (pattern.port !== undefined && effectivePort(url) !== pattern.port) return false;
  // Query strings are ignored; paths are compared as sent (trailing slashes matter).
  const path = url.pathname;
  if (!pattern.path) return path === '' || path === '/';
  return pattern.path.wildcard ? path.startsWith(pattern.path.prefix) : path === pattern.path.prefix;
}

/** True when `method` (short or fully qualified) is allowed by one method pattern of a target of `service`. */
export function methodMatches(pattern: string, service: string, method: string): boolean {
  const p = pattern.toLowerCase();
  const m = method.toLowerCase();
  const servicePrefix = `${service.toLowerCase()}.`;
  const candidates = [m, m.slice(m.lastIndexOf('.') + 1)];
  const body = p.startsWith(servicePrefix) ? p.slice(servicePrefix.length) : p;
  if (body === '*' || body === '') return true;
  if (body.endsWith('*')) {
    const prefix = body.slice(0, -1);
    return candidates.some((c) => c.startsWith(prefix));
  }
  return candidates.includes(body);
}

/** One application restriction of a key, and the request it is checked against. */
type Allowed<K extends keyof Restrictions> = NonNullable<Restrictions[K]>;
interface Simulation {
  request: SimulatedRequest;
  /** The headers the request needs, for the copyable example; each check adds its own. */
  headers: HeaderRequirement[];
}

const application = (passed: boolean, explanation: string): CheckStep => ({ rule: 'application', passed, explanation });

function checkApplication(
  restrictions: Restrictions,
  request: SimulatedRequest,
  headers: HeaderRequirement[],
): CheckStep {
  const browser = restrictions.browserKeyRestrictions;
  if (browser) return checkBrowser(browser, { request, headers });
  const server = restrictions.serverKeyRestrictions;
  if (server) return checkServer(server, request);
  const android = restrictions.androidKeyRestrictions;
  if (android) return checkAndroid(android, { request, headers });
  const ios = restrictions.iosKeyRestrictions;
  if (ios) return checkIos(ios, { request, headers });
  return application(true, 'The key has no application restriction: any website, server or app may use it.');
}

function checkBrowser(browser: Allowed<'browserKeyRestrictions'>, { request, headers }: Simulation): CheckStep {
  const referrers = browser.allowedReferrers ?? [];
  headers.push({ name: HEADERS.referrer, value: request.referrer || '<page URL on an allowed site>' });
  if (!request.referrer)
    return application(false, 'The key is restricted to websites, and the request has no Referer header.');
  let url: URL;
  try {
    url = new URL(request.referrer);
  } catch {
    return application(
      false,
      `"${request.referrer}" is not a full URL; a browser sends the page URL, like https://www.example.com/page.`,
    );
  }
  for (const referrer of referrers) {
    const parsed = parseReferrer(referrer);
    if (parsed.ok && referrerMatches(parsed.value, url)) {
      return application(true, `Referer ${request.referrer} matches the allowed referrer "${referrer}".`);
    }
  }
  const hint =
    referrers.some((r) => {
      const p = parseReferrer(r);
      return p.ok && p.value.path && !p.value.path.wildcard;
    }) &&
    (url.pathname === '/' || url.pathname === '')
      ? ' Browsers that send only the origin cannot use keys restricted to page-specific URLs.'
      : '';
  return application(
    false,
    `Referer ${request.referrer} matches none of the ${referrers.length} allowed referrers.${hint}`,
  );
}

function checkServer(server: Allowed<'serverKeyRestrictions'>, request: SimulatedRequest): CheckStep {
  const ips = server.allowedIps ?? [];
  if (!request.callerIp)
    return application(false, "The key is restricted to IP addresses; give the caller's external IP address.");
  const caller = parseCallerIp(request.callerIp);
  if (!caller) return application(false, `"${request.callerIp}" is not an IPv4 or IPv6 address.`);
  for (const entry of ips) {
    const parsed = parseIpRestriction(entry);
    if (parsed.ok && ipInRange(caller, parsed.value)) {
      return application(
        true,
        `Caller ${request.callerIp} is ${parsed.value.single ? 'the allowed address' : 'inside the allowed range'} ${entry}.`,
      );
    }
  }
  return application(false, `Caller ${request.callerIp} is in none of the ${ips.length} allowed addresses and ranges.`);
}

function checkAndroid(android: Allowed<'androidKeyRestrictions'>, { request, headers }: Simulation): CheckStep {
  const apps = android.allowedApplications ?? [];
  headers.push(
    {
      name: HEADERS.androidPackage,
      value: request.androidPackage || apps[0]?.packageName || '<package name>',
      neutralName: NEUTRAL_HEADER_NAMES[HEADERS.androidPackage],
    },
    {
      name: HEADERS.androidCert,
      value: request.androidCert || apps[0]?.sha1Fingerprint || '<SHA-1 fingerprint>',
      neutralName: NEUTRAL_HEADER_NAMES[HEADERS.androidCert],
    },
  );
  if (!request.androidPackage || !request.androidCert) {
    return application(
      false,
      `The key is restricted to Android apps; the request must send both ${HEADERS.androidPackage} and ${HEADERS.androidCert}.`,
    );
  }
  const cert = normalizeFingerprint(request.androidCert);
  const samePackage = apps.filter((a) => a.packageName === request.androidPackage);
  const match = samePackage.find((a) => normalizeFingerprint(a.sha1Fingerprint ?? '') === cert);
  if (match) return application(true, `App ${request.androidPackage} with that certificate fingerprint is allowed.`);
  if (samePackage.length > 0) {
    return application(
      false,
      `App ${request.androidPackage} is listed, but not with the certificate fingerprint ${request.androidCert}.`,
    );
  }
  return application(false, `App ${request.androidPackage} is not among the ${apps.length} allowed Android apps.`);
}

function checkIos(ios: Allowed<'iosKeyRestrictions'>, { request, headers }: Simulation): CheckStep {
  const bundles = ios.allowedBundleIds ?? [];
  headers.push({
    name: HEADERS.iosBundle,
    value: request.iosBundleId || bundles[0] || '<bundle ID>',
    neutralName: NEUTRAL_HEADER_NAMES[HEADERS.iosBundle],
  });
  if (!request.iosBundleId)
    return application(false, `The key is restricted to iOS apps; the request must send ${HEADERS.iosBundle}.`);
  if (bundles.includes(request.iosBundleId)) return application(true, `Bundle ID ${request.iosBundleId} is allowed.`);
  return application(false, `Bundle ID ${request.iosBundleId} is not among the ${bundles.length} allowed bundle IDs.`);
}

function checkApi(restrictions: Restrictions, request: SimulatedRequest): CheckStep {
  const targets = restrictions.apiTargets ?? [];
  if (targets.length === 0)
    return {
      rule: 'api',
      passed: true,
      explanation: 'The key has no API restriction: every API that accepts API keys may be called.',
    };
  if (!request.service)
    return {
      rule: 'api',
      passed: false,
      explanation: 'The key is restricted to specific APIs; name the service the request calls.',
    };
  const service = request.service.toLowerCase();
  const target = targets.find((t) => (t.service ?? '').toLowerCase() === service);
  if (!target) {
    return {
      rule: 'api',
      passed: false,
      explanation: `Service ${request.service} is not among the allowed APIs (${targets.map((t) => t.service).join(', ')}).`,
    };
  }
  const methods = target.methods ?? [];
  if (methods.length === 0)
    return { rule: 'api', passed: true, explanation: `Service ${request.service} is allowed with all its methods.` };
  if (!request.method)
    return {
      rule: 'api',
      passed: false,
      explanation: `Only some methods of ${request.service} are allowed (${methods.join(', ')}); name the method.`,
    };
  const matched = methods.find((m) => methodMatches(m, service, request.method!));
  if (matched)
    return {
      rule: 'api',
      passed: true,
      explanation: `Method ${request.method} of ${request.service} matches the allowed method "${matched}".`,
    };
  return {
    rule: 'api',
    passed: false,
    explanation: `Method ${request.method} matches none of the allowed methods of ${request.service} (${methods.join(', ')}).`,
  };
}

/** Simulates a request made with a key that has `restrictions`. */
export function checkRequest(restrictions: Restrictions | undefined, request: SimulatedRequest): CheckResult {
  const r = restrictions ?? {};
  const requiredHeaders: HeaderRequirement[] = [];
  const application = checkApplication(r, request, requiredHeaders);
  const api = checkApi(r, request);
  const steps = [application, api];
  const failed = steps.find((s) => !s.passed);
  return {
    allowed: !failed,
    decidedBy: (failed ?? (api.explanation.startsWith('The key has no API') ? application : api)).explanation,
    steps,
    requiredHeaders,
  };
}

/** A Markdown report of a check: verdict, the deciding rule, every step and the headers to send. */
export function formatCheckReport(
  keyLabel: string,
  keyName: string,
  request: SimulatedRequest,
  result: CheckResult,
): string {
  // Values come from users and servers; keep them inside code spans so Markdown cannot reinterpret them.
  const plain = (v: string): string => v.replace(/`/g, 'ˋ');
  const code = (v: string): string => `\`${plain(v)}\``;
  const out: string[] = [];
  out.push(`# Check request against key ${code(keyLabel)}`, '', `Key: ${code(keyName)}`, '');
  out.push(
    result.allowed ? '## Accepted: the key would be accepted' : '## Refused: the key would be refused',
    '',
    `**Decided by:** ${plain(result.decidedBy)}`,
    '',
  );
  out.push('## Request', '');
  const described: Array<[string, string | undefined]> = [
    ['Referer', request.referrer],
    ['Caller IP', request.callerIp],
    ['Android package', request.androidPackage],
    ['Android certificate', request.androidCert],
    ['iOS bundle ID', request.iosBundleId],
    ['Service', request.service],
    ['Method', request.method],
  ];
  const given = described.filter(([, v]) => v);
  if (given.length === 0) out.push('- (nothing described)');
  for (const [label, value] of given) out.push(`- ${label}: ${code(value!)}`);
  out.push('', '## Rules', '');
  for (const step of result.steps) {
    out.push(
      `- ${step.passed ? 'PASS' : 'FAIL'} ${step.rule === 'application' ? 'Application restriction' : 'API restriction'}: ${plain(step.explanation)}`,
    );
  }
  out.push('', '## Headers a caller must send', '');
  out.push(`- ${code(`${HEADERS.apiKey}: <API_KEY>`)} (or the \`key=\` query parameter)`);
  for (const header of result.requiredHeaders) {
    out.push(
      `- ${code(`${header.name}: ${header.value}`)}${header.neutralName ? ` (called ${code(header.neutralName)} in the service description)` : ''}`,
    );
  }
  if (result.requiredHeaders.length === 0 && !result.steps[0]?.explanation.startsWith('The key has no application')) {
    out.push("- The caller's external IP address must be in the allowed list; no extra header proves it.");
  }
  return `${out.join('\n')}\n`;
}
