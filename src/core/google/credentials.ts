// Every credential and token comes from google-auth-library; the local sandbox accepts any
// non-empty bearer token, so loopback endpoints get a fixed one and no Google sign-in.
import { readFile } from 'node:fs/promises';
import type { GoogleAuth } from 'google-auth-library';
import { CancelledError } from './errors';
import type { TokenPolicy } from './token-policy';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The Search API's single OAuth scope (reference C.1). */
export const SECOPS_SCOPE = 'https://www.googleapis.com/auth/chronicle-backstory';
export const SANDBOX_TOKEN = 'cloudbench-sandbox';

export interface TokenSource {
  readonly kind: 'sandbox' | 'google';
  /**
   * A bearer access token for one request to `destination` (the URL the request goes to); never
   * log it. Google sources refuse destinations their TokenPolicy does not allow.
   */
  getAccessToken(destination: string, signal?: AbortSignal): Promise<string>;
}

export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

/** True for 127.0.0.0/8, ::1 and localhost, given a host, host:port or URL. */
export function isLoopbackEndpoint(endpoint: string): boolean {
  let host = endpoint.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) {
    try {
      host = new URL(host).hostname;
    } catch {
      return false;
    }
  } else if (host.startsWith('[')) {
    host = host.slice(1, host.indexOf(']'));
  } else if (host.split(':').length === 2) {
    host = host.split(':')[0]!;
  }
  host = host.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export function sandboxTokenSource(): TokenSource {
  return { kind: 'sandbox', getAccessToken: () => Promise.resolve(SANDBOX_TOKEN) };
}

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

/**
 * Checks a service-account or authorized-user key file before google-auth-library sees it, so a
 * wrong path or a broken file gets a message that names the setting instead of a stack trace.
 */
export async function checkCredentialsFile(path: string, setting = 'cloudbench.credentialsFile'): Promise<void> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new CredentialsError(
      `The credentials file in ${setting} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}): ${path}`,
      setting,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CredentialsError(`The credentials file in ${setting} is not valid JSON: ${path}`, setting);
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof json !== 'object' || json === null || typeof type !== 'string') {
    throw new CredentialsError(
      `The credentials file in ${setting} has no "type" field; expected a service-account or authorized-user key: ${path}`,
      setting,
    );
  }
}

export interface GoogleTokenOptions {
  keyFile?: string;
  scopes: string[];
  /** Setting that named the key file, for messages. */
  setting?: string;
  /** Decides which destinations may get the token (token-policy.ts); checked before any credential is read. */
  policy: TokenPolicy;
}

/** Application default credentials, or a key file, through google-auth-library. */
export function googleTokenSource(options: GoogleTokenOptions): TokenSource {
  // google-auth-library is loaded on the first token request, so sandbox-only sessions and cold
  // starts never pay for it.
  let auth: Promise<GoogleAuth> | undefined;
  const getAuth = (): Promise<GoogleAuth> =>
    (auth ??= import('google-auth-library').then(
      (lib) =>
        new lib.GoogleAuth({ scopes: options.scopes, ...(options.keyFile ? { keyFilename: options.keyFile } : {}) }),
    ));
  let checked: Promise<void> | undefined;
  return {
    kind: 'google',
    async getAccessToken(destination, signal) {
      await abortable(options.policy.authorize(destination), signal);
      if (options.keyFile) {
        checked ??= checkCredentialsFile(options.keyFile, options.setting);
        await checked;
      }
      const token = await abortable(
        getAuth()
          .then((a) => a.getAccessToken())
          .catch((err: unknown) => {
            throw new CredentialsError(
              `No Google Cloud credentials: ${(err as Error).message}. Run \`gcloud auth application-default login\` or choose a credentials file.`,
              options.setting,
            );
          }),
        signal,
      );
      if (!token) throw new CredentialsError('Google sign-in returned no access token.', options.setting);
      return token;
    },
  };
}

/** Picks the sandbox token for loopback endpoints and Google credentials for everything else. */
export function tokenSourceFor(endpoint: string | undefined, options: GoogleTokenOptions): TokenSource {
  return endpoint && isLoopbackEndpoint(endpoint) ? sandboxTokenSource() : googleTokenSource(options);
}
