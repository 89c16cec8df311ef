import * as vscode from 'vscode';
import { DEFAULT_RETRY, type RetryPolicy } from '../core/google/retry';
import { SECOPS_REGIONS } from '../core/secops/regions';

export interface CloudbenchSettings {
  project: string | undefined;
  locations: string[];
  credentialsFile: string | undefined;
  endpoints: {
    models: string | undefined;
    apiKeys: string | undefined;
    secops: string | undefined;
    resourceManager: string | undefined;
  };
  /**
   * Endpoint overrides that are set but unusable, with the reason. A feature must refuse to call
   * rather than fall back to the production endpoint the user meant to avoid.
   */
  invalidEndpoints: Partial<Record<EndpointKind, string>>;
  universeDomain: string | undefined;
  /** cloudbench.quotaProject: sent as x-goog-user-project (else GOOGLE_CLOUD_QUOTA_PROJECT, else the credentials'). */
  quotaProject: string | undefined;
  /** cloudbench.mtls.*: undefined means "follow the environment variable". */
  mtls: { endpoint: 'auto' | 'always' | 'never' | undefined; clientCertificate: boolean | undefined };
  /** Hosts outside the universe the user allowed to receive Google credentials (user settings only). */
  allowedTokenHosts: string[];
  secops: { region: string; credentialsFile: string | undefined };
  search: { defaultLimit: number; defaultTimeRange: '1h' | '24h' | '7d' };
  retry: RetryPolicy;
  timeoutMs: number;
  sandboxSeed: 'demo' | 'empty';
  /** Items per page of the Models and API Keys trees (cloudbench.pageSize). */
  pageSize: number;
}

export type EndpointKind = 'models' | 'apiKeys' | 'secops' | 'resourceManager';

/** A setting whose value cannot be used; the message names the setting and says what is wrong. */
export interface SettingProblem {
  setting: string;
  message: string;
}

const PROJECT = /^([a-z][a-z0-9-]{4,28}[a-z0-9]|[0-9]{1,20}|[a-z][a-z0-9.:-]*)$/;
const HOST_PORT = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/**
 * Settings that decide where a token goes or whose identity is used. package.json makes them
 * machine scoped and lists them in restrictedConfigurations; here they are read from user (and
 * remote machine) settings only, so no workspace file can set them, trusted or not.
 */
export const SENSITIVE_SETTINGS: readonly string[] = [
  'cloudbench.credentialsFile',
  'cloudbench.secops.credentialsFile',
  'cloudbench.endpoints.models',
  'cloudbench.endpoints.apiKeys',
  'cloudbench.endpoints.secops',
  'cloudbench.endpoints.resourceManager',
  'cloudbench.universeDomain',
  'cloudbench.allowedTokenHosts',
  'cloudbench.quotaProject',
];

/** True for a sensitive setting, also for ones added later under the same families (endpoints, mTLS, credential files). */
export function isSensitiveSetting(key: string): boolean {
  return (
    SENSITIVE_SETTINGS.includes(key) ||
    /^cloudbench\.(endpoints|mtls)\./.test(key) ||
    /^cloudbench\.(.+\.)?credentialsFile$/.test(key)
  );
}

/**
 * The one place sensitive settings are read: the user's value (user or remote machine settings),
 * else the default, never a workspace or folder value. VS Code already drops workspace values of
 * machine-scoped settings, and of restricted ones in Restricted Mode; this keeps it true whatever
 * the editor does with the manifest.
 */
export function userLevelValue<T>(config: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const seen = config.inspect<T>(key);
  return seen?.globalValue ?? seen?.defaultValue;
}

/** getConfiguration('cloudbench') whose get() reads sensitive settings through userLevelValue. */
export function cloudbenchConfiguration(): vscode.WorkspaceConfiguration {
  const config = vscode.workspace.getConfiguration('cloudbench');
  const get = ((key: string, fallback?: unknown): unknown =>
    isSensitiveSetting(`cloudbench.${key}`)
      ? (userLevelValue(config, key) ?? fallback)
      : config.get(key, fallback)) as vscode.WorkspaceConfiguration['get'];
  // A plain object, not a Proxy: VS Code's configuration object is frozen, and a Proxy that answers
  // `get` with another function breaks the Proxy invariants (a TypeError in the real editor).
  const wrapped: vscode.WorkspaceConfiguration = {
    get,
    has: (key: string) => config.has(key),
    inspect: <T>(key: string) => config.inspect<T>(key),
    update: (key, value, target, overrideInLanguage) => config.update(key, value, target, overrideInLanguage),
  };
  return wrapped;
}

function text(config: vscode.WorkspaceConfiguration, key: string): string | undefined {
  const value = config.get<unknown>(key);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function checkUrl(
  kind: EndpointKind,
  value: string | undefined,
  problems: SettingProblem[],
  invalid: Partial<Record<EndpointKind, string>>,
): string | undefined {
  if (value === undefined) return undefined;
  const setting = `cloudbench.endpoints.${kind}`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    if (url.search || url.hash) throw new Error('query or fragment');
    return value.replace(/\/+$/, '');
  } catch {
    const message = `"${value}" is not an http(s) base URL such as https://apikeys.googleapis.com or http://127.0.0.1:8080.`;
    problems.push({ setting, message });
    invalid[kind] = `${setting}: ${message}`;
    return undefined;
  }
}

function readQuotaProject(config: vscode.WorkspaceConfiguration, problems: SettingProblem[]): string | undefined {
  const value = text(config, 'quotaProject');
  if (value !== undefined && !PROJECT.test(value)) {
    problems.push({
      setting: 'cloudbench.quotaProject',
      message: `"${value}" is not a project ID or number; not sent.`,
    });
    return undefined;
  }
  return value;
}

function readMtls(config: vscode.WorkspaceConfiguration, problems: SettingProblem[]): CloudbenchSettings['mtls'] {
  const endpoint = text(config, 'mtls.endpoint') ?? 'default';
  const cert = text(config, 'mtls.clientCertificate') ?? 'default';
  if (!['default', 'auto', 'always', 'never'].includes(endpoint))
    problems.push({
      setting: 'cloudbench.mtls.endpoint',
      message: `"${endpoint}" is not default, auto, always or never; using default.`,
    });
  if (!['default', 'on', 'off'].includes(cert))
    problems.push({
      setting: 'cloudbench.mtls.clientCertificate',
      message: `"${cert}" is not default, on or off; using default.`,
    });
  return {
    endpoint: endpoint === 'auto' || endpoint === 'always' || endpoint === 'never' ? endpoint : undefined,
    clientCertificate: cert === 'on' ? true : cert === 'off' ? false : undefined,
  };
}

function readAllowedHosts(config: vscode.WorkspaceConfiguration, problems: SettingProblem[]): string[] {
  const raw = config.get<unknown>('allowedTokenHosts');
  if (!Array.isArray(raw)) return [];
  const hosts = raw.filter((h): h is string => typeof h === 'string' && HOST_PORT.test(h.trim())).map((h) => h.trim());
  if (hosts.length !== raw.length)
    problems.push({
      setting: 'cloudbench.allowedTokenHosts',
      message: 'Some entries are not host or host:port (IPv6 in brackets) and were ignored.',
    });
  return hosts;
}

/** Reads every cloudbench.* setting, keeping what is usable and listing what is not. */
export function readSettings(): { settings: CloudbenchSettings; problems: SettingProblem[] } {
  const config = cloudbenchConfiguration();
  const problems: SettingProblem[] = [];

  let project = text(config, 'project');
  if (project !== undefined && !PROJECT.test(project)) {
    problems.push({ setting: 'cloudbench.project', message: `"${project}" is not a project ID or number.` });
    project = undefined;
  }

  const rawLocations = config.get<unknown>('locations');
  const locations = Array.isArray(rawLocations)
    ? rawLocations.filter((l): l is string => typeof l === 'string' && /^[a-z][a-z0-9-]*$/.test(l))
    : [];
  if (Array.isArray(rawLocations) && locations.length !== rawLocations.length) {
    problems.push({
      setting: 'cloudbench.locations',
      message: 'Some entries are not location ids such as us-central1 and were ignored.',
    });
  }

  const invalidEndpoints: Partial<Record<EndpointKind, string>> = {};
  let models = text(config, 'endpoints.models');
  if (models !== undefined) {
    const stripped = models.replace(/^(https?|grpcs?|dns):(\/\/\/?)?/, '');
    const port = /:(\d+)$/.exec(stripped)?.[1];
    if (!HOST_PORT.test(stripped) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
      const message = `"${models}" is not host:port, e.g. us-central1-aiplatform.googleapis.com:443 or 127.0.0.1:50051.`;
      problems.push({ setting: 'cloudbench.endpoints.models', message });
      invalidEndpoints.models = `cloudbench.endpoints.models: ${message}`;
      models = undefined;
    } else {
      models = stripped;
    }
  }

  let region = text(config, 'secops.region') ?? 'us';
  if (!SECOPS_REGIONS.some((r) => r.id === region)) {
    problems.push({
      setting: 'cloudbench.secops.region',
      message: `"${region}" is not a SecOps region; use one of ${SECOPS_REGIONS.map((r) => r.id).join(', ')}. Using "us" until it is fixed.`,
    });
    region = 'us';
  }
  const limit = config.get<number>('search.defaultLimit', 10000);
  const range = config.get<string>('search.defaultTimeRange', '24h');
  const timeoutSeconds = config.get<number>('requests.timeoutSeconds', 60);
  const maxRetries = config.get<number>('requests.maxRetries', DEFAULT_RETRY.maxRetries);
  const initialBackoffMs = config.get<number>('requests.initialBackoffMs', DEFAULT_RETRY.initialBackoffMs);
  const seed = config.get<string>('sandbox.seed', 'demo');

  const numberIn = (setting: string, value: unknown, min: number, max: number, fallback: number): number => {
    if (typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max) return value;
    problems.push({ setting, message: `must be a number from ${min} to ${max}; using ${fallback}.` });
    return fallback;
  };

  const settings: CloudbenchSettings = {
    project,
    locations,
    credentialsFile: text(config, 'credentialsFile'),
    endpoints: {
      models,
      apiKeys: checkUrl('apiKeys', text(config, 'endpoints.apiKeys'), problems, invalidEndpoints),
      secops: checkUrl('secops', text(config, 'endpoints.secops'), problems, invalidEndpoints),
      resourceManager: checkUrl(
        'resourceManager',
        text(config, 'endpoints.resourceManager'),
        problems,
        invalidEndpoints,
      ),
    },
    invalidEndpoints,
    universeDomain: text(config, 'universeDomain'),
    quotaProject: readQuotaProject(config, problems),
    mtls: readMtls(config, problems),
    allowedTokenHosts: readAllowedHosts(config, problems),
    secops: { region, credentialsFile: text(config, 'secops.credentialsFile') },
    search: {
      defaultLimit: Math.round(numberIn('cloudbench.search.defaultLimit', limit, 1, 10000, 10000)),
      defaultTimeRange: range === '1h' || range === '7d' ? range : '24h',
    },
    retry: {
      ...DEFAULT_RETRY,
      maxRetries: Math.round(numberIn('cloudbench.requests.maxRetries', maxRetries, 0, 10, DEFAULT_RETRY.maxRetries)),
      initialBackoffMs: numberIn(
        'cloudbench.requests.initialBackoffMs',
        initialBackoffMs,
        10,
        60000,
        DEFAULT_RETRY.initialBackoffMs,
      ),
    },
    timeoutMs: numberIn('cloudbench.requests.timeoutSeconds', timeoutSeconds, 1, 600, 60) * 1000,
    sandboxSeed: seed === 'empty' ? 'empty' : 'demo',
    pageSize: Math.round(numberIn('cloudbench.pageSize', config.get<number>('pageSize', 50), 1, 1000, 50)),
  };
  return { settings, problems };
}
