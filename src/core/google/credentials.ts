// Every credential and token comes from google-auth-library; the local sandbox accepts any
// non-empty bearer token, so loopback endpoints get a fixed one and no Google sign-in.
//
// Cloudbench finds and checks the credentials file itself before the library sees it, so that
// every failure names its source (the setting and file, or application default credentials and
// where they were found), its cause and the next step that fits the service.
import { createPrivateKey } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AuthClient, GoogleAuth } from 'google-auth-library';
import { CancelledError } from './errors';
import { DEFAULT_UNIVERSE_DOMAIN } from './endpoints';
import { isLoopbackEndpoint } from '../loopback';
import type { TokenPolicy } from './token-policy';
import {
  ADC_LOGIN_COMMAND,
  ADC_SECOPS_LOGIN_COMMAND,
  type CredentialType,
  FILE_TYPES,
  type CredentialService,
  type CredentialOrigin,
  CredentialsError,
  type CredentialInfo,
  type TokenSource,
  sandboxTokenSource,
} from './credential-types';
import { settingOf, chooseFileFix, fail, explainTokenError } from './credential-advice';

export {
  CLOUD_PLATFORM_SCOPE,
  SECOPS_SCOPE,
  SANDBOX_TOKEN,
  ADC_LOGIN_COMMAND,
  ADC_SECOPS_LOGIN_COMMAND,
  CredentialsError,
  sandboxTokenSource,
} from './credential-types';
export type {
  CredentialType,
  CredentialService,
  CredentialProblem,
  CredentialFix,
  CredentialOrigin,
  CredentialInfo,
  TokenSource,
} from './credential-types';
export { explainTokenError } from './credential-advice';

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

// ---- Finding the credentials ---------------------------------------------------------------------

export interface LocateOptions {
  /** The file named by a setting; wins over everything else. */
  keyFile?: string;
  /** The setting that named it, for messages. */
  setting?: string;
  env?: Record<string, string | undefined>;
  /** Home folder (tests pass their own). */
  home?: string;
  platform?: NodeJS.Platform;
}

/** The gcloud configuration folder, where `gcloud auth application-default login` writes. */
export function gcloudConfigDir(
  env: Record<string, string | undefined> = process.env,
  home: string = homedir(),
  platform: NodeJS.Platform = process.platform,
): string {
  if (env['CLOUDSDK_CONFIG']) return env['CLOUDSDK_CONFIG'];
  if (platform === 'win32' && env['APPDATA']) return join(env['APPDATA'], 'gcloud');
  return join(home, '.config', 'gcloud');
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * gcloud's active account (what `gcloud config get account` prints), read from its configuration
 * files: CLOUDSDK_CORE_ACCOUNT, else `account` in the [core] section of the active configuration
 * (CLOUDSDK_ACTIVE_CONFIG_NAME, else the `active_config` file, else "default"). Only an e-mail
 * address is returned; nothing else of the files is read out.
 */
export async function gcloudActiveAccount(
  env: Record<string, string | undefined> = process.env,
  home: string = homedir(),
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const fromEnv = env['CLOUDSDK_CORE_ACCOUNT']?.trim();
  if (fromEnv) return EMAIL.test(fromEnv) ? fromEnv : undefined;
  const dir = gcloudConfigDir(env, home, platform);
  let name = env['CLOUDSDK_ACTIVE_CONFIG_NAME']?.trim();
  if (!name) name = (await readFile(join(dir, 'active_config'), 'utf8').catch(() => '')).trim() || 'default';
  // A configuration name is a plain word; anything else is not looked up (no path from a file).
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(name)) return undefined;
  let text: string;
  try {
    text = await readFile(join(dir, 'configurations', `config_${name}`), 'utf8');
  } catch {
    return undefined;
  }
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const header = line.match(/^\[([^\]]+)\]$/);
    if (header) section = header[1].trim().toLowerCase();
    const entry = line.match(/^account\s*[=:]\s*(.*)$/);
    if (section === 'core' && entry) {
      const account = entry[1].trim();
      return EMAIL.test(account) ? account : undefined;
    }
  }
  return undefined;
}

/** The e-mail claim of an ID token (a JWT), without verifying it: it is shown, never trusted. */
export function emailOfIdToken(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  const payload = idToken.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { email?: unknown };
    return typeof claims.email === 'string' && EMAIL.test(claims.email) ? claims.email : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where application default credentials come from, in Google's order: the setting's file,
 * GOOGLE_APPLICATION_CREDENTIALS, gcloud's well-known file, then the metadata server.
 */
export async function locateCredentials(options: LocateOptions = {}): Promise<CredentialOrigin> {
  const env = options.env ?? process.env;
  if (options.keyFile) {
    const setting = options.setting ?? 'cloudbench.credentialsFile';
    return { kind: 'setting', setting, file: options.keyFile, label: `the file in ${setting} (${options.keyFile})` };
  }
  const fromEnv = env['GOOGLE_APPLICATION_CREDENTIALS'];
  if (fromEnv) return { kind: 'env', file: fromEnv, label: `GOOGLE_APPLICATION_CREDENTIALS (${fromEnv})` };
  const wellKnown = join(gcloudConfigDir(env, options.home, options.platform), 'application_default_credentials.json');
  try {
    await stat(wellKnown);
    return { kind: 'gcloud', file: wellKnown, label: `application default credentials (${wellKnown})` };
  } catch {
    return {
      kind: 'metadata',
      label: `application default credentials (no file at ${wellKnown}, no GOOGLE_APPLICATION_CREDENTIALS)`,
    };
  }
}

interface ParsedFile {
  json: Record<string, unknown>;
  type: CredentialType;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads and checks a credentials file; every refusal names the source and says what to do. */
async function readCredentialsFile(origin: CredentialOrigin, service: CredentialService): Promise<ParsedFile> {
  const path = origin.file!;
  const where = origin.chosen
    ? `The file you chose for ${origin.setting}`
    : origin.kind === 'setting'
      ? `The credentials file in ${origin.setting}`
      : `The credentials file of ${origin.label}`;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    const problem = code === 'ENOENT' ? 'missing' : 'unreadable';
    throw fail(origin, service, problem, `${where} cannot be read (${code}): ${path}.`, err);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail(origin, service, 'not-json', `${where} is not valid JSON: ${path}.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw fail(origin, service, 'not-json', `${where} is not a JSON object: ${path}.`);
  }
  const obj = json as Record<string, unknown>;
  if (obj['installed'] !== undefined || obj['web'] !== undefined) {
    throw fail(
      origin,
      service,
      'wrong-type',
      `${where} is an OAuth client ID file, not credentials: ${path}. Use a service-account key, or the file \`${ADC_LOGIN_COMMAND}\` writes.`,
    );
  }
  const type = obj['type'];
  if (typeof type !== 'string') {
    throw fail(
      origin,
      service,
      'wrong-type',
      `${where} has no "type" field; expected a service-account or authorized-user key: ${path}.`,
    );
  }
  if (!FILE_TYPES.includes(type)) {
    throw fail(origin, service, 'wrong-type', `${where} has the unknown credentials type "${type}": ${path}.`);
  }
  if (service === 'secops' && origin.kind === 'setting' && type !== 'service_account') {
    throw fail(
      origin,
      service,
      'wrong-type',
      `${where} holds "${type}" credentials; cloudbench.secops.credentialsFile takes the service-account key file (type "service_account") that Google SecOps gives out: ${path}. For a user login use application default credentials with the SecOps scope (\`${ADC_SECOPS_LOGIN_COMMAND}\`) and leave the setting empty.`,
    );
  }
  const missing = (fields: string[]): string[] => fields.filter((f) => str(obj[f]) === undefined);
  if (type === 'service_account') {
    const absent = missing(['client_email', 'private_key']);
    if (absent.length)
      throw fail(
        origin,
        service,
        'malformed',
        `${where} is a service-account key without ${absent.join(' and ')}: ${path}.`,
      );
    try {
      createPrivateKey(obj['private_key'] as string);
    } catch {
      throw fail(
        origin,
        service,
        'malformed',
        `${where} has a private_key that is not a valid PEM private key (the file is damaged or was edited): ${path}.`,
      );
    }
  } else if (type === 'authorized_user') {
    const absent = missing(['client_id', 'client_secret', 'refresh_token']);
    if (absent.length)
      throw fail(origin, service, 'malformed', `${where} is a user login without ${absent.join(', ')}: ${path}.`);
  }
  return { json: obj, type: type as CredentialType };
}

/**
 * Checks a key file the user is choosing for `setting`, before the setting is written: a wrong
 * file gets a message that says the choice was refused and the setting left as it was.
 */
export async function checkCredentialsFile(
  path: string,
  setting = 'cloudbench.credentialsFile',
  service: CredentialService = setting === 'cloudbench.secops.credentialsFile' ? 'secops' : 'cloud',
): Promise<void> {
  await readCredentialsFile(
    { kind: 'setting', setting, file: path, label: `the file chosen for ${setting} (${path})`, chosen: true },
    service,
  );
}

// ---- Token sources -------------------------------------------------------------------------------

export interface GoogleTokenOptions {
  keyFile?: string;
  scopes: string[];
  /** Setting that named the key file, for messages. */
  setting?: string;
  /** Decides which destinations may get the token (token-policy.ts); checked before any credential is read. */
  policy: TokenPolicy;
  /** Which service the tokens are for: SecOps advice and scope checks differ. Default "cloud". */
  service?: CredentialService;
  /** Project ID given to the auth library, so it never probes the metadata server for one. */
  projectId?: string;
  /** The configured universe (setting); GOOGLE_CLOUD_UNIVERSE_DOMAIN, then googleapis.com otherwise. */
  universeDomain?: string;
  /** cloudbench.quotaProject; GOOGLE_CLOUD_QUOTA_PROJECT, then the credentials' quota_project_id otherwise. */
  quotaProject?: string;
  /** Send x-goog-user-project (Vertex AI and API Keys; not SecOps). Default true. */
  sendQuotaProject?: boolean;
  env?: Record<string, string | undefined>;
  home?: string;
}

/** The configured universe domain: the setting, GOOGLE_CLOUD_UNIVERSE_DOMAIN, then googleapis.com. */
export function configuredUniverse(
  setting: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string {
  return setting?.trim() || env['GOOGLE_CLOUD_UNIVERSE_DOMAIN']?.trim() || DEFAULT_UNIVERSE_DOMAIN;
}

interface Loaded {
  /** Identity of the file version: re-read when it changes on disk. */
  stamp: string;
  origin: CredentialOrigin;
  info: CredentialInfo;
  auth: GoogleAuth;
  client?: Promise<AuthClient>;
}

async function stampOf(origin: CredentialOrigin): Promise<string> {
  if (!origin.file) return `${origin.kind}`;
  try {
    const s = await stat(origin.file);
    return `${origin.file}\n${s.mtimeMs}\n${s.size}\n${s.ino}`;
  } catch (err) {
    return `${origin.file}\n${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/** Reads and checks the credentials behind `origin` and builds the auth library's client for them. */
async function buildLoaded(
  options: GoogleTokenOptions,
  service: CredentialService,
  env: Record<string, string | undefined>,
  origin: CredentialOrigin,
  stamp: string,
): Promise<Loaded> {
  const universe = configuredUniverse(options.universeDomain, env);
  let json: Record<string, unknown> | undefined;
  let type: CredentialType = 'metadata_server';
  if (origin.file) ({ json, type } = await readCredentialsFile(origin, service));
  const fileUniverse = str(json?.['universe_domain']) ?? DEFAULT_UNIVERSE_DOMAIN;
  if (json && fileUniverse !== universe) {
    throw fail(
      origin,
      service,
      'universe-mismatch',
      `The credentials in ${origin.label} belong to the universe "${fileUniverse}", but Cloudbench is set to "${universe}" (cloudbench.universeDomain or GOOGLE_CLOUD_UNIVERSE_DOMAIN); nothing was sent. Use credentials of "${universe}" or change the setting.`,
    );
  }
  const fileAccount =
    str(json?.['client_email']) ??
    str(json?.['service_account_impersonation_url'])?.match(/serviceAccounts\/([^:/]+)/)?.[1] ??
    str(json?.['account']);
  // A gcloud user login names no account in its file; gcloud's own configuration does.
  const gcloudAccount =
    !fileAccount && type === 'authorized_user' && origin.kind === 'gcloud'
      ? await gcloudActiveAccount(env, options.home)
      : undefined;
  const account = fileAccount
    ? { account: fileAccount, accountSource: 'credentials' as const }
    : gcloudAccount
      ? { account: gcloudAccount, accountSource: 'gcloud-config' as const }
      : {};
  const quota = options.quotaProject?.trim()
    ? { quotaProject: options.quotaProject.trim(), quotaProjectSource: 'setting' as const }
    : env['GOOGLE_CLOUD_QUOTA_PROJECT']?.trim()
      ? {
          quotaProject: env['GOOGLE_CLOUD_QUOTA_PROJECT'].trim(),
          quotaProjectSource: 'GOOGLE_CLOUD_QUOTA_PROJECT' as const,
        }
      : str(json?.['quota_project_id'])
        ? { quotaProject: str(json?.['quota_project_id'])!, quotaProjectSource: 'credentials' as const }
        : {};
  const info: CredentialInfo = {
    origin,
    type,
    ...account,
    universeDomain: universe,
    ...quota,
    requestedScopes: options.scopes,
  };
  // google-auth-library is loaded on the first token request, so sandbox-only sessions and cold
  // starts never pay for it.
  const lib = await import('google-auth-library');
  const projectId = options.projectId ?? str(json?.['project_id']);
  const auth = new lib.GoogleAuth({
    scopes: options.scopes,
    ...(json ? { credentials: json as never } : {}),
    ...(projectId ? { projectId } : {}),
    universeDomain: universe,
  });
  return { stamp, origin, info, auth };
}

/** Takes the identity and granted scopes from the client; a user login short of a scope is refused. */
function checkScopes(options: GoogleTokenOptions, service: CredentialService, l: Loaded, client: AuthClient): void {
  const credentials = (client as { credentials?: { scope?: unknown; id_token?: unknown } }).credentials;
  // A user login asked for openid/email (gcloud does) gets an ID token: its e-mail is the identity.
  const email = l.info.type === 'authorized_user' ? emailOfIdToken(credentials?.id_token) : undefined;
  if (email) {
    l.info.account = email;
    l.info.accountSource = 'login';
  }
  const scope = credentials?.scope;
  if (typeof scope !== 'string' || scope === '') return;
  const granted = scope.split(/\s+/).filter(Boolean);
  l.info.grantedScopes = granted;
  const needed = options.scopes.filter((s) => !granted.includes(s));
  // Only user logins carry the scopes of the login; a service account gets what it asks for.
  if (needed.length && l.info.type === 'authorized_user') {
    const command = service === 'secops' ? ADC_SECOPS_LOGIN_COMMAND : ADC_LOGIN_COMMAND;
    throw new CredentialsError(
      `The Google login in ${l.origin.label} has no ${needed.join(' ')} scope${service === 'secops' ? ', which the SecOps Search API needs' : ''}. Sign in again with the scope: \`${command}\`${service === 'secops' ? ', or choose the SecOps service-account key file in cloudbench.secops.credentialsFile' : ''}.`,
      settingOf(l.origin),
      {
        problem: 'scope-missing',
        fixes: [{ label: 'Copy Command', copy: command }, ...(service === 'secops' ? [chooseFileFix('secops')] : [])],
      },
    );
  }
}

/** Application default credentials, or a key file, through google-auth-library. */
export function googleTokenSource(options: GoogleTokenOptions): TokenSource {
  const service = options.service ?? 'cloud';
  const env = options.env ?? process.env;
  let loaded: Promise<Loaded> | undefined;
  let loadedStamp: string | undefined;
  let failedStamp: string | undefined;
  let failure: unknown;

  const load = async (): Promise<Loaded> => {
    const origin = await locateCredentials({
      ...(options.keyFile ? { keyFile: options.keyFile } : {}),
      ...(options.setting ? { setting: options.setting } : {}),
      env,
      ...(options.home ? { home: options.home } : {}),
    });
    const stamp = `${origin.kind}\n${await stampOf(origin)}`;
    // A file fixed (or broken) on disk is read again; an unchanged file is not.
    if (loaded && loadedStamp === stamp) return loaded;
    if (failedStamp === stamp) throw failure;
    loadedStamp = stamp;
    loaded = buildLoaded(options, service, env, origin, stamp);
    loaded.catch((err: unknown) => {
      failedStamp = stamp;
      failure = err;
      loaded = undefined;
      loadedStamp = undefined;
    });
    return loaded;
  };

  return {
    kind: 'google',
    async getAccessToken(destination, signal) {
      await abortable(options.policy.authorize(destination), signal);
      const l = await abortable(load(), signal);
      const token = await abortable(
        (async () => {
          let client: AuthClient;
          try {
            client = await (l.client ??= l.auth.getClient());
          } catch (err) {
            l.client = undefined;
            throw explainTokenError(err, l.origin, service, { type: l.info.type });
          }
          let value: string | null | undefined;
          try {
            value = (await client.getAccessToken()).token;
          } catch (err) {
            throw explainTokenError(err, l.origin, service, {
              type: l.info.type,
              ...(l.info.account ? { account: l.info.account } : {}),
              tokenHost: `oauth2.${l.info.universeDomain}`,
            });
          }
          checkScopes(options, service, l, client);
          return value;
        })(),
        signal,
      );
      if (!token)
        throw new CredentialsError(
          `Google sign-in with ${l.origin.label} returned no access token.`,
          settingOf(l.origin),
        );
      return token;
    },
    async requestHeaders(signal): Promise<Record<string, string>> {
      const headers: Record<string, string> = {};
      if (options.sendQuotaProject === false) return headers;
      const l = await abortable(load(), signal);
      if (l.info.quotaProject) headers['x-goog-user-project'] = l.info.quotaProject;
      return headers;
    },
    async describe(signal) {
      const l = await abortable(load(), signal);
      return { ...l.info, origin: { ...l.info.origin }, requestedScopes: [...l.info.requestedScopes] };
    },
  };
}

/** Picks the sandbox token for loopback endpoints and Google credentials for everything else. */
export function tokenSourceFor(endpoint: string | undefined, options: GoogleTokenOptions): TokenSource {
  return endpoint && isLoopbackEndpoint(endpoint) ? sandboxTokenSource() : googleTokenSource(options);
}
