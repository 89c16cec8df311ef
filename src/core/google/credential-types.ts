// The vocabulary of credentials shared by the token sources, the advice on failures and the
// features: scopes, credential kinds and origins, problems and their fixes, and what a token source is.

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** The Search API's single OAuth scope (reference C.1). */
export const SECOPS_SCOPE = 'https://www.googleapis.com/auth/chronicle-backstory';
export const SANDBOX_TOKEN = 'cloudbench-sandbox';

export const ADC_LOGIN_COMMAND = 'gcloud auth application-default login';
/** The login that gives user credentials the SecOps scope as well as cloud-platform. */
export const ADC_SECOPS_LOGIN_COMMAND = `gcloud auth application-default login --scopes=${CLOUD_PLATFORM_SCOPE},${SECOPS_SCOPE}`;

export type CredentialType =
  | 'service_account'
  | 'authorized_user'
  | 'external_account'
  | 'external_account_authorized_user'
  | 'impersonated_service_account'
  | 'gdch_service_account'
  | 'metadata_server';

export const FILE_TYPES: readonly string[] = [
  'service_account',
  'authorized_user',
  'external_account',
  'external_account_authorized_user',
  'impersonated_service_account',
  'gdch_service_account',
];

/** Which service the credentials are for: the advice differs (SecOps keys come from SecOps). */
export type CredentialService = 'cloud' | 'secops';

/** What went wrong, for buttons and tests; the message says it in words. */
export type CredentialProblem =
  | 'missing'
  | 'unreadable'
  | 'not-json'
  | 'wrong-type'
  | 'malformed'
  | 'revoked'
  | 'clock-skew'
  | 'unreachable'
  | 'scope-missing'
  | 'universe-mismatch'
  | 'failed';

/** A button that fixes the problem: a command to run, or a command line to copy. */
export interface CredentialFix {
  label: string;
  command?: string;
  args?: unknown[];
  copy?: string;
}

/** Where the credentials came from. */
export interface CredentialOrigin {
  kind: 'setting' | 'env' | 'gcloud' | 'metadata';
  /** The setting that named the file (kind "setting"). */
  setting?: string;
  file?: string;
  /** For messages, e.g. "the file in cloudbench.credentialsFile (/home/a/key.json)". */
  label: string;
  /** A file the user is choosing for the setting, which is not written unless the file passes. */
  chosen?: boolean;
}

export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
  readonly problem: CredentialProblem;
  readonly fixes: readonly CredentialFix[];
  constructor(
    message: string,
    readonly setting?: string,
    details: { problem?: CredentialProblem; fixes?: CredentialFix[]; cause?: unknown } = {},
  ) {
    super(message, details.cause !== undefined ? { cause: details.cause } : undefined);
    this.problem = details.problem ?? 'failed';
    this.fixes = details.fixes ?? [];
  }
}

/** What Check Connection and the status tooltip show; never any token or key material. */
export interface CredentialInfo {
  origin: CredentialOrigin;
  type: CredentialType;
  /** Service-account e-mail (or the impersonation target); for user logins when known. */
  account?: string;
  /**
   * Where the account comes from: the credentials file, the signed-in login itself (the e-mail
   * claim of the ID token the token endpoint returned), or gcloud's active account (its
   * configuration), which names the gcloud login and may differ from the ADC login.
   */
  accountSource?: 'credentials' | 'login' | 'gcloud-config';
  universeDomain: string;
  quotaProject?: string;
  quotaProjectSource?: 'setting' | 'GOOGLE_CLOUD_QUOTA_PROJECT' | 'credentials';
  /** Scopes asked for. */
  requestedScopes: string[];
  /** Scopes the last token carries, when the token endpoint said so. */
  grantedScopes?: string[];
}

export interface TokenSource {
  readonly kind: 'sandbox' | 'google';
  /**
   * A bearer access token for one request to `destination` (the URL the request goes to); never
   * log it. Google sources refuse destinations their TokenPolicy does not allow.
   */
  getAccessToken(destination: string, signal?: AbortSignal): Promise<string>;
  /** Non-secret headers every call made with these credentials carries (x-goog-user-project). */
  requestHeaders?(signal?: AbortSignal): Promise<Record<string, string>>;
  /** The credentials behind the tokens (loads them, never fetches a token). */
  describe?(signal?: AbortSignal): Promise<CredentialInfo>;
}

export function sandboxTokenSource(): TokenSource {
  return { kind: 'sandbox', getAccessToken: () => Promise.resolve(SANDBOX_TOKEN) };
}
