// Check Connection, without the editor: for each service, where calls go, which credentials are
// used, whether a token comes back, and one cheap read call with its latency. The report is
// Markdown and never holds a token or key material (it is redacted once more at the end).
import { CredentialsError, type CredentialInfo, type TokenSource } from '../../core/google/credentials';
import {
  describeError,
  describeFailure,
  GoogleApiError,
  isCancellation,
  type FailureDescription,
} from '../../core/google/errors';
import { redactSecrets } from '../../core/secrets';
import { DEFAULT_UNIVERSE_DOMAIN, EndpointConfigError, MutualTlsChannelError } from '../../core/google/endpoints';

export type CheckedService = 'models' | 'apikeys' | 'secops';

export interface ServiceProbe {
  service: CheckedService;
  title: string;
  /** Where the calls go (host:port or base URL) and why; throws for an unusable setting. */
  endpoint: () => Promise<{ address: string; why: string }>;
  /** The URL a token is asked for (the token policy checks it). */
  destination: () => Promise<string>;
  tokens: () => TokenSource;
  /** The cheap read call; resolves to a one-line summary of the answer. */
  call: { name: string; run: (signal: AbortSignal) => Promise<string> };
}

export interface ServiceCheck {
  service: CheckedService;
  title: string;
  endpoint?: { address: string; why: string };
  endpointError?: string;
  sandbox: boolean;
  credentials?: CredentialInfo;
  credentialsError?: string;
  token: { ok: boolean; error?: string };
  call: { name: string; ok: boolean; skipped?: boolean; latencyMs?: number; summary?: string; error?: string };
  /** The next step, when something failed. */
  advice?: string;
}

function message(err: unknown): string {
  return redactSecrets(describeError(err));
}

/**
 * The call's failure in the words every other place uses (describeFailure), the next step apart as
 * the report's advice. A check that ran out of time is DEADLINE_EXCEEDED, never a bare "Cancelled".
 */
function callFailure(name: string, err: unknown, deadlineHit: boolean, timeoutMs: number): FailureDescription {
  if (deadlineHit && isCancellation(err))
    return describeFailure(
      new GoogleApiError('DEADLINE_EXCEEDED', `${name} took longer than ${Math.round(timeoutMs / 1000)} s`),
    );
  return describeFailure(err);
}

/** The setting to change when the endpoint cannot be planned, named (the error may not name it). */
export function endpointAdvice(err: unknown): string {
  const said = err instanceof Error ? err.message : String(err);
  if (err instanceof MutualTlsChannelError) {
    if (/universe/i.test(said))
      return `mTLS works only in the ${DEFAULT_UNIVERSE_DOMAIN} universe: set cloudbench.mtls.endpoint to "never" (it wins over GOOGLE_API_USE_MTLS_ENDPOINT), or set cloudbench.universeDomain to ${DEFAULT_UNIVERSE_DOMAIN}. Nothing was sent.`;
    if (/GOOGLE_API_USE_MTLS_ENDPOINT/.test(said))
      return 'Set cloudbench.mtls.endpoint ("never", "auto" or "always"; it wins over GOOGLE_API_USE_MTLS_ENDPOINT), or fix the environment variable. Nothing was sent.';
    return 'Fix the client certificate, or set cloudbench.mtls.clientCertificate to false to call without one (it wins over GOOGLE_API_USE_CLIENT_CERTIFICATE). Nothing was sent.';
  }
  const named =
    (err instanceof EndpointConfigError ? err.variable : undefined) ?? /\bcloudbench\.[\w.]+\w/.exec(said)?.[0];
  if (named) return `Fix ${named}; nothing was sent.`;
  return 'Fix the endpoint settings (cloudbench.endpoints.*, cloudbench.universeDomain, cloudbench.mtls.endpoint); nothing was sent.';
}

/** Runs every probe one after another (each with its own deadline); never throws. */
export async function runConnectionCheck(
  probes: ServiceProbe[],
  options: { timeoutMs?: number; signal?: AbortSignal; now?: () => number } = {},
): Promise<ServiceCheck[]> {
  const now = options.now ?? (() => performance.now());
  const results: ServiceCheck[] = [];
  for (const probe of probes) {
    const timeoutMs = options.timeoutMs ?? 20_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([deadline, ...(options.signal ? [options.signal] : [])]);
    const result: ServiceCheck = {
      service: probe.service,
      title: probe.title,
      sandbox: false,
      token: { ok: false },
      call: { name: probe.call.name, ok: false },
    };
    results.push(result);
    try {
      result.endpoint = await probe.endpoint();
    } catch (err) {
      result.endpointError = message(err);
      result.advice = endpointAdvice(err);
      result.call.skipped = true;
      continue;
    }
    let tokens: TokenSource;
    try {
      tokens = probe.tokens();
      result.sandbox = tokens.kind === 'sandbox';
      if (tokens.describe) result.credentials = await tokens.describe(signal);
    } catch (err) {
      if (isCancellation(err) && options.signal?.aborted) throw err;
      result.credentialsError = message(err);
      result.advice = err instanceof CredentialsError ? undefined : 'Fix the credentials, then check again.';
      result.call.skipped = true;
      continue;
    }
    try {
      await tokens.getAccessToken(await probe.destination(), signal);
      result.token.ok = true;
      if (tokens.describe) result.credentials = await tokens.describe(signal);
    } catch (err) {
      if (isCancellation(err) && options.signal?.aborted) throw err;
      result.token.error = message(err);
      result.call.skipped = true;
      continue;
    }
    const started = now();
    try {
      result.call.summary = redactSecrets(await probe.call.run(signal));
      result.call.ok = true;
    } catch (err) {
      if (isCancellation(err) && options.signal?.aborted) throw err;
      const failure = callFailure(probe.call.name, err, deadline.aborted, timeoutMs);
      result.call.error = redactSecrets(failure.what);
      if (failure.next) result.advice = redactSecrets(failure.next);
    } finally {
      result.call.latencyMs = Math.round(now() - started);
    }
  }
  return results;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const code = (text: string): string => `\`${text.replace(/`/g, "'")}\``;

function describeCredentials(info: CredentialInfo): string {
  const what =
    info.type === 'service_account'
      ? 'service-account key'
      : info.type === 'authorized_user'
        ? 'user login (gcloud)'
        : info.type === 'metadata_server'
          ? 'metadata server (attached service account)'
          : info.type.replace(/_/g, ' ');
  return `${what}, from ${info.origin.label}`;
}

/** What was looked for, when no file was found and no metadata server gave a token. */
function noCredentialsFound(info: CredentialInfo): string {
  const looked = /^application default credentials \((.*)\)$/.exec(info.origin.label)?.[1] ?? info.origin.label;
  return `none found (${looked}, no credentials file setting, and no metadata server gave a token)`;
}

function account(info: CredentialInfo): string {
  if (!info.account) return 'not named in the credentials';
  if (info.accountSource === 'login') return `${code(info.account)} (the signed-in login)`;
  if (info.accountSource === 'gcloud-config')
    return `${code(info.account)} (gcloud's active account; the application default login may be another)`;
  return code(info.account);
}

function quota(info: CredentialInfo, service: CheckedService): string {
  if (service === 'secops') return 'not sent to SecOps';
  if (!info.quotaProject) return 'none (user credentials may be refused by API Keys: set cloudbench.quotaProject)';
  const from =
    info.quotaProjectSource === 'setting'
      ? 'cloudbench.quotaProject'
      : info.quotaProjectSource === 'GOOGLE_CLOUD_QUOTA_PROJECT'
        ? 'GOOGLE_CLOUD_QUOTA_PROJECT'
        : 'the credentials file';
  return `${code(info.quotaProject)} (from ${from}; sent as x-goog-user-project)`;
}

/** The Markdown report; nothing in it is secret. */
export function formatConnectionReport(
  checks: ServiceCheck[],
  meta: { project?: string; universeDomain: string; proxy?: string; time?: Date },
): string {
  const lines: string[] = ['# Cloudbench connection check', ''];
  lines.push(`- Time: ${(meta.time ?? new Date()).toISOString()}`);
  lines.push(`- Project: ${meta.project ? code(meta.project) : 'not set (cloudbench.project)'}`);
  lines.push(`- Universe domain: ${code(meta.universeDomain)}`);
  lines.push(`- Proxy: ${meta.proxy ? code(meta.proxy) : 'none'}`);
  const ok = checks.filter((c) => c.call.ok).length;
  lines.push(`- Result: ${ok} of ${checks.length} services answered`, '');
  for (const c of checks) {
    const status = c.call.ok ? 'OK' : 'FAILED';
    lines.push(`## ${c.title}: ${status}`, '', '| | |', '|---|---|');
    lines.push(
      `| Endpoint | ${c.endpoint ? `${code(c.endpoint.address)} (${cell(c.endpoint.why)})` : cell(c.endpointError ?? '')} |`,
    );
    if (c.sandbox) {
      lines.push('| Credentials | the local sandbox token (loopback endpoint) |');
    } else if (c.credentials && c.credentials.origin.kind === 'metadata' && !c.token.ok) {
      // The metadata server is only the last place looked: without a token from it, nothing was found.
      lines.push(`| Credentials | ${cell(noCredentialsFound(c.credentials))} |`);
    } else if (c.credentials) {
      const info = c.credentials;
      lines.push(`| Credentials | ${cell(describeCredentials(info))} |`);
      lines.push(`| Account | ${account(info)} |`);
      if (info.origin.file) lines.push(`| File | ${code(info.origin.file)} |`);
      lines.push(`| Universe | ${code(info.universeDomain)} |`);
      lines.push(`| Quota project | ${cell(quota(info, c.service))} |`);
      const scopes = info.grantedScopes
        ? `granted: ${info.grantedScopes.map(code).join(', ')}`
        : `asked for: ${info.requestedScopes.map(code).join(', ')}`;
      lines.push(`| Scopes | ${scopes} |`);
    } else if (c.credentialsError) {
      lines.push(`| Credentials | ${cell(c.credentialsError)} |`);
    }
    if (c.endpoint && !c.credentialsError)
      lines.push(`| Token | ${c.token.ok ? 'obtained (not shown)' : cell(c.token.error ?? 'not tried')} |`);
    const call = c.call.skipped
      ? 'not tried'
      : c.call.ok
        ? `OK in ${c.call.latencyMs} ms: ${cell(c.call.summary ?? '')}`
        : `failed after ${c.call.latencyMs} ms: ${cell(c.call.error ?? '')}`;
    lines.push(`| ${cell(c.call.name)} | ${call} |`);
    if (c.advice) lines.push('', `**What to do:** ${c.advice}`);
    lines.push('');
  }
  return redactSecrets(lines.join('\n'));
}

/** A proxy URL without any user name or password in it. */
export function proxyForReport(env: Record<string, string | undefined> = process.env): string | undefined {
  const raw = env['HTTPS_PROXY'] ?? env['https_proxy'] ?? env['HTTP_PROXY'] ?? env['http_proxy'];
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '(set, not a URL)';
  }
}
