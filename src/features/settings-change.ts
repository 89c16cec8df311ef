// What a settings change touches, and which settings the connection relied on that are gone. A
// page-size change must not rebuild credentials or clients; an endpoint that disappears (removed by
// hand, or dropped by the editor because a machine setting sat in the wrong settings file) must
// never turn into a silent switch to Google's hosts.
import { configuredUniverse } from '../core/google/credentials';
import { planEndpoint, planRestEndpoint, type EndpointOptions } from '../core/google/endpoints';
import type { CloudbenchSettings } from '../platform/settings';

export type SettingsPart = keyof CloudbenchSettings;

/** Parts that decide where calls go and whose credentials they carry: a change re-checks sign-in. */
const CREDENTIAL_PARTS: readonly SettingsPart[] = [
  'credentialsFile',
  'endpoints',
  'invalidEndpoints',
  'universeDomain',
  'quotaProject',
  'mtls',
  'allowedTokenHosts',
  'secops',
];
/** Parts the service clients are built from (besides the credential parts): a change rebuilds clients. */
const CLIENT_PARTS: readonly SettingsPart[] = ['project', 'locations', 'retry', 'timeoutMs'];

export interface SettingsChange {
  readonly changed: ReadonlySet<SettingsPart>;
  /** Endpoints, credentials, universe, quota project, mTLS or allowed hosts changed. */
  readonly credentials: boolean;
  /** Something the clients are built from changed (project, locations, retry policy, deadline, or the above). */
  readonly clients: boolean;
}

export function compareSettings(before: CloudbenchSettings, after: CloudbenchSettings): SettingsChange {
  const changed = new Set<SettingsPart>();
  for (const key of Object.keys(after) as SettingsPart[])
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changed.add(key);
  const credentials = CREDENTIAL_PARTS.some((p) => changed.has(p));
  return { changed, credentials, clients: credentials || CLIENT_PARTS.some((p) => changed.has(p)) };
}

/** The sensitive settings in use, by setting name: what a later start compares with. */
export type ReliedOn = Record<string, string>;

export function reliedOn(settings: CloudbenchSettings): ReliedOn {
  const values: Record<string, string | undefined> = {
    'cloudbench.endpoints.models': settings.endpoints.models,
    'cloudbench.endpoints.apiKeys': settings.endpoints.apiKeys,
    'cloudbench.endpoints.secops': settings.endpoints.secops,
    'cloudbench.credentialsFile': settings.credentialsFile,
    'cloudbench.secops.credentialsFile': settings.secops.credentialsFile,
    'cloudbench.universeDomain': settings.universeDomain,
    'cloudbench.quotaProject': settings.quotaProject,
  };
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}

export interface DroppedSetting {
  setting: string;
  /** What Cloudbench uses now instead, in words. */
  now: string;
}

/**
 * Settings that were in use and are now unset (not merely changed, and not unusable: an unusable
 * value has its own message and sends nothing), each with what Cloudbench uses instead.
 */
export function droppedSettings(
  before: ReliedOn,
  after: CloudbenchSettings,
  env: Record<string, string | undefined> = process.env,
): DroppedSetting[] {
  const now = reliedOn(after);
  const unusable = new Set(Object.keys(after.invalidEndpoints).map((k) => `cloudbench.endpoints.${k}`));
  return Object.keys(before)
    .filter((setting) => now[setting] === undefined && !unusable.has(setting))
    .map((setting) => ({ setting, now: fallbackOf(setting, after, env) }));
}

function fallbackOf(setting: string, s: CloudbenchSettings, env: Record<string, string | undefined>): string {
  const common: Pick<EndpointOptions, 'universeDomain' | 'mtlsEndpoint' | 'useClientCertificate' | 'env'> = {
    env,
    ...(s.universeDomain ? { universeDomain: s.universeDomain } : {}),
    ...(s.mtls.endpoint ? { mtlsEndpoint: s.mtls.endpoint } : {}),
    ...(s.mtls.clientCertificate !== undefined ? { useClientCertificate: s.mtls.clientCertificate } : {}),
  };
  const host = (plan: () => string, what: string): string => {
    try {
      return `${what} ${plan()}`;
    } catch {
      return what;
    }
  };
  switch (setting) {
    case 'cloudbench.endpoints.models': {
      const location = s.locations[0] ?? 'us-central1';
      return host(
        () => `(${planEndpoint({ ...common, location, defaultClientCertSource: null }).address} for ${location})`,
        "Google's Vertex AI hosts",
      );
    }
    case 'cloudbench.endpoints.apiKeys':
      return host(
        () => planRestEndpoint('apikeys', { ...common, defaultClientCertSource: null }).baseUrl,
        "Google's API Keys host",
      );
    case 'cloudbench.endpoints.secops':
      return host(
        () => planRestEndpoint('secops', { ...common, region: s.secops.region, defaultClientCertSource: null }).baseUrl,
        "Google's SecOps host",
      );
    case 'cloudbench.credentialsFile':
      return 'application default credentials (GOOGLE_APPLICATION_CREDENTIALS, the gcloud login, the metadata server)';
    case 'cloudbench.secops.credentialsFile':
      return s.credentialsFile
        ? `the credentials of cloudbench.credentialsFile (${s.credentialsFile})`
        : 'application default credentials';
    case 'cloudbench.universeDomain':
      return `the universe ${configuredUniverse(undefined, env)}`;
    case 'cloudbench.quotaProject':
      return "GOOGLE_CLOUD_QUOTA_PROJECT, else the credentials' quota project";
    default:
      return 'its default';
  }
}

/** The warning for one dropped setting; in a remote window it also says where machine settings live. */
export function droppedSettingMessage(dropped: DroppedSetting, remote: boolean): string {
  const where = remote
    ? ' In a remote window (SSH, WSL, containers, code-server) this setting is read from the remote machine\'s settings (the "Remote" tab of the Settings editor), not from User settings.'
    : '';
  return `Cloudbench setting ${dropped.setting} is no longer set; Cloudbench now uses ${dropped.now}.${where}`;
}
