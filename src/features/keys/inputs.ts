// The quick-input steps of Create API Key and Check Request; every value is validated as typed with
// the same rules the restriction editor uses.
import * as vscode from 'vscode';
import type { SimulatedRequest } from '../../core/apikeys/check';
import {
  APPLICATION_RESTRICTION_LABELS,
  BOUND_KEY_SERVICE,
  type ApplicationRestrictionKind,
  type Restrictions,
} from '../../core/apikeys/types';
import {
  normalizeRestrictions,
  parseCallerIp,
  validateBundleId,
  validateIp,
  validatePackageName,
  validateReferrer,
  validateRestrictions,
  validateServiceName,
  validateSha1Fingerprint,
} from '../../core/apikeys/validation';
import { checkKeyId } from '../../core/names';

export interface CreateInput {
  keyId?: string;
  displayName?: string;
  serviceAccountEmail?: string;
  restrictions?: Restrictions;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function firstProblem(values: string[], validate: (v: string) => string | undefined): string | undefined {
  for (const v of values) {
    const problem = validate(v);
    if (problem) return problem;
  }
  return undefined;
}

function splitList(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

export async function askCreateRequest(project: string): Promise<CreateInput | undefined> {
  const displayName = await vscode.window.showInputBox({
    title: 'Create API Key (1/5): display name',
    prompt: `A name people recognise; optional. The key is created in ${project}.`,
    validateInput: (v) => (v.length > 63 ? `${v.length} characters; the limit is 63.` : undefined),
  });
  if (displayName === undefined) return undefined;
  const keyId = await vscode.window.showInputBox({
    title: 'Create API Key (2/5): key ID',
    prompt: 'Optional ID for the resource name (lower-case letters, digits, "-"). Empty: the server picks a UUID.',
    validateInput: (v) => (v === '' ? undefined : checkKeyId(v)),
  });
  if (keyId === undefined) return undefined;
  const binding = await vscode.window.showQuickPick(
    [
      { label: 'Standard key', description: 'Ties requests to the project for billing and quota', bound: false },
      {
        label: 'Bind to a service account…',
        description: 'Requests run as the service account (Vertex AI only)',
        bound: true,
      },
    ],
    { title: 'Create API Key (3/5): kind of key' },
  );
  if (!binding) return undefined;
  let serviceAccountEmail: string | undefined;
  if (binding.bound) {
    serviceAccountEmail = await vscode.window.showInputBox({
      title: 'Create API Key (3/5): service account',
      prompt:
        'Email of the service account to bind. The organization policy constraints/iam.managed.disableServiceAccountApiKeyCreation must allow it.',
      placeHolder: 'caller@PROJECT.iam.gserviceaccount.com',
      validateInput: (v) => (EMAIL.test(v.trim()) ? undefined : 'Enter a service account email address.'),
    });
    if (serviceAccountEmail === undefined) return undefined;
    serviceAccountEmail = serviceAccountEmail.trim();
  }
  const kinds: Array<ApplicationRestrictionKind | 'none'> = serviceAccountEmail
    ? ['none', 'server']
    : ['none', 'browser', 'server', 'android', 'ios'];
  const appItems: Array<vscode.QuickPickItem & { restriction: ApplicationRestrictionKind | 'none' }> = kinds.map(
    (kind) => ({
      label: kind === 'none' ? 'No application restriction' : APPLICATION_RESTRICTION_LABELS[kind],
      restriction: kind,
    }),
  );
  const app = await vscode.window.showQuickPick(appItems, {
    title: 'Create API Key (4/5): application restriction',
    placeHolder: serviceAccountEmail
      ? 'A bound key allows only IP address restrictions'
      : 'Which callers may use the key',
  });
  if (!app) return undefined;
  const restrictions: Restrictions = {};
  if (app.restriction !== 'none') {
    const spec = APP_INPUTS[app.restriction];
    const text = await vscode.window.showInputBox({
      title: `Create API Key (4/5): ${APPLICATION_RESTRICTION_LABELS[app.restriction]}`,
      prompt: spec.prompt,
      placeHolder: spec.placeholder,
      ignoreFocusOut: true,
      validateInput: (v) => (splitList(v).length === 0 ? 'Enter at least one value.' : spec.validate(splitList(v))),
    });
    if (text === undefined) return undefined;
    Object.assign(restrictions, spec.build(splitList(text)));
  }
  const apis = await vscode.window.showInputBox({
    title: 'Create API Key (5/5): API restriction',
    prompt:
      'Services the key may call, separated by commas (e.g. translate.googleapis.com). Empty: every API that accepts keys.',
    value: serviceAccountEmail ? BOUND_KEY_SERVICE : '',
    validateInput: (v) =>
      firstProblem(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
        (service) =>
          validateServiceName(service) ??
          (serviceAccountEmail && service.toLowerCase() !== BOUND_KEY_SERVICE
            ? `A key bound to a service account works only with ${BOUND_KEY_SERVICE}.`
            : undefined),
      ),
  });
  if (apis === undefined) return undefined;
  const services = apis
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (services.length > 0) restrictions.apiTargets = services.map((service) => ({ service }));
  const problems = validateRestrictions(restrictions, { serviceAccountBound: !!serviceAccountEmail });
  if (problems.length > 0) throw new Error(problems.map((p) => p.message).join(' '));
  const out: CreateInput = {};
  if (displayName) out.displayName = displayName;
  if (keyId) out.keyId = keyId;
  if (serviceAccountEmail) out.serviceAccountEmail = serviceAccountEmail;
  if (Object.keys(restrictions).length > 0) out.restrictions = normalizeRestrictions(restrictions);
  return out;
}

const APP_INPUTS: Record<
  ApplicationRestrictionKind,
  {
    prompt: string;
    placeholder: string;
    validate: (values: string[]) => string | undefined;
    build: (values: string[]) => Restrictions;
  }
> = {
  browser: {
    prompt: 'Website referrers separated by commas or spaces. "*" may replace the first host label or end the path.',
    placeholder: 'example.com/*, *.example.com/*',
    validate: (values) => firstProblem(values, validateReferrer),
    build: (values) => ({ browserKeyRestrictions: { allowedReferrers: values } }),
  },
  server: {
    prompt: 'External IPv4/IPv6 addresses or CIDR ranges separated by commas or spaces.',
    placeholder: '104.133.8.78, 2001:4860::/32',
    validate: (values) => firstProblem(values, validateIp),
    build: (values) => ({ serverKeyRestrictions: { allowedIps: values } }),
  },
  android: {
    prompt: 'Apps as package=SHA1 pairs separated by commas or spaces (fingerprint with or without colons).',
    placeholder: 'com.example.app=DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09',
    validate: (values) =>
      firstProblem(values, (v) => {
        const [pkg = '', sha = ''] = v.split('=');
        return validatePackageName(pkg) ?? validateSha1Fingerprint(sha);
      }),
    build: (values) => ({
      androidKeyRestrictions: {
        allowedApplications: values.map((v) => {
          const [packageName = '', sha1Fingerprint = ''] = v.split('=');
          return { packageName, sha1Fingerprint };
        }),
      },
    }),
  },
  ios: {
    prompt: 'Bundle IDs separated by commas or spaces.',
    placeholder: 'com.example.app',
    validate: (values) => firstProblem(values, validateBundleId),
    build: (values) => ({ iosKeyRestrictions: { allowedBundleIds: values } }),
  },
};

export async function askSimulatedRequest(restrictions: Restrictions): Promise<SimulatedRequest | undefined> {
  const request: SimulatedRequest = {};
  const ask = async (
    title: string,
    prompt: string,
    value: string,
    validate?: (v: string) => string | undefined,
  ): Promise<string | undefined> =>
    vscode.window.showInputBox({
      title: `Check Request: ${title}`,
      prompt,
      value,
      ignoreFocusOut: true,
      ...(validate ? { validateInput: validate } : {}),
    });
  if (restrictions.browserKeyRestrictions) {
    const referrer = await ask(
      'Referer',
      'The page URL the browser sends in the Referer header.',
      'https://www.example.com/',
      (v) => {
        try {
          new URL(v);
          return undefined;
        } catch {
          return 'Enter a full URL such as https://www.example.com/page.';
        }
      },
    );
    if (referrer === undefined) return undefined;
    request.referrer = referrer;
  } else if (restrictions.serverKeyRestrictions) {
    const ip = await ask(
      'caller IP',
      'The external IP address the request comes from.',
      restrictions.serverKeyRestrictions.allowedIps?.[0]?.split('/')[0] ?? '',
      (v) => (parseCallerIp(v) ? undefined : 'Enter an IPv4 or IPv6 address.'),
    );
    if (ip === undefined) return undefined;
    request.callerIp = ip;
  } else if (restrictions.androidKeyRestrictions) {
    const first = restrictions.androidKeyRestrictions.allowedApplications?.[0];
    const pkg = await ask(
      'X-Android-Package',
      'Package name the app sends (X-Android-Package; X-PlatformA-Package in the service description).',
      first?.packageName ?? '',
    );
    if (pkg === undefined) return undefined;
    const cert = await ask(
      'X-Android-Cert',
      'SHA-1 certificate fingerprint the app sends (X-Android-Cert; X-PlatformA-Cert).',
      first?.sha1Fingerprint ?? '',
    );
    if (cert === undefined) return undefined;
    request.androidPackage = pkg;
    request.androidCert = cert;
  } else if (restrictions.iosKeyRestrictions) {
    const bundle = await ask(
      'X-Ios-Bundle-Identifier',
      'Bundle ID the app sends (X-Ios-Bundle-Identifier; X-PlatformB-Bundle-Identifier).',
      restrictions.iosKeyRestrictions.allowedBundleIds?.[0] ?? '',
    );
    if (bundle === undefined) return undefined;
    request.iosBundleId = bundle;
  }
  const targets = restrictions.apiTargets ?? [];
  const service = await ask(
    'service',
    targets.length > 0
      ? `Service the request calls. Allowed: ${targets.map((t) => t.service).join(', ')}.`
      : 'Service the request calls (the key has no API restriction).',
    targets[0]?.service ?? 'translate.googleapis.com',
  );
  if (service === undefined) return undefined;
  if (service.trim()) request.service = service.trim();
  const method = await ask(
    'method',
    'Method the request calls, short (TranslateText) or fully qualified; empty if it does not matter.',
    '',
  );
  if (method === undefined) return undefined;
  if (method.trim()) request.method = method.trim();
  return request;
}
