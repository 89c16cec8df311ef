// Endpoint choice for the Vertex AI gRPC surface, following the rules Google's generated clients
// apply (AIP-4114): explicit endpoint > mTLS endpoint (env GOOGLE_API_USE_MTLS_ENDPOINT) > regional
// endpoint in the universe domain. Kept apart from the client so every rule is testable without a
// network and without the gRPC library.
import { isLoopbackEndpoint } from '../loopback';
import { checkLocationId } from '../names';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_UNIVERSE_DOMAIN = 'googleapis.com';
export const AIPLATFORM_SERVICE = 'aiplatform';
export const DEFAULT_PORT = 443;

/** PEM text of a client certificate and its private key. */
export interface ClientCertificate {
  cert: string;
  key: string;
}
/** Where a client certificate comes from; may run a helper program, hence async. */
export type ClientCertSource = () => ClientCertificate | Promise<ClientCertificate>;

/** A failure to build the mutual-TLS transport, or a configuration that asks for an impossible one. */
export class MutualTlsChannelError extends Error {
  override readonly name = 'MutualTlsChannelError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An environment variable or option with a value the rules do not allow. */
export class EndpointConfigError extends Error {
  override readonly name = 'EndpointConfigError';
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
  }
}

export type MtlsEndpointMode = 'auto' | 'never' | 'always';

export interface EndpointOptions {
  /** Vertex AI location, e.g. us-central1; selects the regional host. Omitted or "global": the global host. */
  location?: string;
  /** Explicit host[:port] from settings or the caller; always wins. */
  apiEndpoint?: string;
  /** Universe domain option; an empty string counts as unset (a settings default). */
  universeDomain?: string;
  /** Certificate source supplied by the caller; tried before the default one. */
  clientCertSource?: ClientCertSource;
  /**
   * The platform's default certificate source. Undefined: look for the Endpoint Verification
   * metadata file (~/.secureConnect/context_aware_metadata.json). Null: there is none.
   */
  defaultClientCertSource?: ClientCertSource | null;
  /** Environment to read; process.env by default (tests pass their own). */
  env?: Record<string, string | undefined>;
  /** Service prefix of the host; "aiplatform" by default. */
  service?: string;
  /** cloudbench.mtls.endpoint; when set it wins over GOOGLE_API_USE_MTLS_ENDPOINT. */
  mtlsEndpoint?: MtlsEndpointMode;
  /** cloudbench.mtls.clientCertificate; when set it wins over GOOGLE_API_USE_CLIENT_CERTIFICATE. */
  useClientCertificate?: boolean;
}

export interface EndpointChoice {
  /** host:port handed to the gRPC channel. */
  address: string;
  host: string;
  port: number;
  /** The host is the mTLS variant (or an explicit endpoint used with a client certificate). */
  mtls: boolean;
  /** Plaintext is used only for loopback endpoints (the local sandbox). */
  plaintext: boolean;
  universeDomain: string;
  /** Why this endpoint, for logs. */
  reason: 'explicit' | 'mtls' | 'regional' | 'global';
  /** The client certificate to present, when one is in use. */
  clientCert?: ClientCertificate;
}

function readUseClientCertificate(options: EndpointOptions, env: Record<string, string | undefined>): boolean {
  if (options.useClientCertificate !== undefined) return options.useClientCertificate;
  const raw = env['GOOGLE_API_USE_CLIENT_CERTIFICATE'];
  if (raw === undefined || raw === '') return false;
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new EndpointConfigError(
    `GOOGLE_API_USE_CLIENT_CERTIFICATE must be "true" or "false", not "${raw}".`,
    'GOOGLE_API_USE_CLIENT_CERTIFICATE',
  );
}

function readMtlsMode(options: EndpointOptions, env: Record<string, string | undefined>): MtlsEndpointMode {
  if (options.mtlsEndpoint !== undefined) return options.mtlsEndpoint;
  const raw = env['GOOGLE_API_USE_MTLS_ENDPOINT'];
  if (raw === undefined || raw === '') return 'auto';
  const value = raw.toLowerCase();
  if (value === 'auto' || value === 'never' || value === 'always') return value;
  // Google's clients raise the mutual-TLS error for this variable, so callers handle one type.
  throw new MutualTlsChannelError(`GOOGLE_API_USE_MTLS_ENDPOINT must be "never", "auto" or "always", not "${raw}".`);
}

function readUniverseDomain(options: EndpointOptions, env: Record<string, string | undefined>): string {
  const fromOption = options.universeDomain;
  if (fromOption !== undefined && fromOption !== '') {
    if (fromOption.trim() === '')
      throw new EndpointConfigError('The universe domain cannot be blank.', 'cloudbench.universeDomain');
    return fromOption.trim();
  }
  const fromEnv = env['GOOGLE_CLOUD_UNIVERSE_DOMAIN'];
  if (fromEnv !== undefined) {
    if (fromEnv.trim() === '')
      throw new EndpointConfigError('GOOGLE_CLOUD_UNIVERSE_DOMAIN is set but blank.', 'GOOGLE_CLOUD_UNIVERSE_DOMAIN');
    return fromEnv.trim();
  }
  return DEFAULT_UNIVERSE_DOMAIN;
}

/** The mTLS variant of a googleapis.com host, as Google's generated clients derive it. */
export function mtlsHostFor(host: string): string {
  if (host.includes('.mtls.')) return host;
  const sandbox = host.match(/^(.*)\.sandbox\.googleapis\.com$/);
  if (sandbox) return `${sandbox[1]}.mtls.sandbox.googleapis.com`;
  const prod = host.match(/^(.*)\.googleapis\.com$/);
  if (prod) return `${prod[1]}.mtls.googleapis.com`;
  return host;
}

/** Splits "host", "host:port", "[v6]:port" or a URL; the port defaults to 443. */
export function splitHostPort(endpoint: string): { host: string; port: number } {
  let text = endpoint.trim();
  const url = text.match(/^[a-z][a-z0-9+.-]*:\/\/([^/]+)/i);
  if (url) text = url[1]!;
  let host = text;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0)
      throw new EndpointConfigError(
        `"${endpoint}" is not a valid host:port (unclosed "[").`,
        'cloudbench.endpoints.models',
      );
    host = text.slice(1, end);
    const rest = text.slice(end + 1);
    if (rest.startsWith(':')) portText = rest.slice(1);
    else if (rest !== '')
      throw new EndpointConfigError(`"${endpoint}" is not a valid host:port.`, 'cloudbench.endpoints.models');
  } else {
    const parts = text.split(':');
    if (parts.length === 2) {
      host = parts[0]!;
      portText = parts[1];
    } else if (parts.length > 2) {
      // A bare IPv6 address without brackets has no port.
      host = text;
    }
  }
  if (host === '' || /[\s/]/.test(host))
    throw new EndpointConfigError(`"${endpoint}" is not a valid host:port.`, 'cloudbench.endpoints.models');
  let port = DEFAULT_PORT;
  if (portText !== undefined) {
    const n = Number(portText);
    if (portText === '' || !Number.isInteger(n) || n < 1 || n > 65535) {
      throw new EndpointConfigError(`"${endpoint}" has an invalid port "${portText}".`, 'cloudbench.endpoints.models');
    }
    port = n;
  }
  return { host, port };
}

function formatAddress(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

const METADATA_FILE = join('.secureConnect', 'context_aware_metadata.json');

/**
 * The Endpoint Verification certificate provider that gcloud and Google's clients use by default:
 * a metadata file naming a command that prints the certificate and key as PEM.
 */
export function findDefaultClientCertSource(home: string = homedir()): ClientCertSource | null {
  const file = join(home, METADATA_FILE);
  if (!existsSync(file)) return null;
  return async () => {
    let command: string[];
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { cert_provider_command?: unknown };
      if (!Array.isArray(json.cert_provider_command) || json.cert_provider_command.length === 0)
        throw new Error('no cert_provider_command');
      command = json.cert_provider_command.map(String);
    } catch (err) {
      throw new MutualTlsChannelError(
        `The client certificate metadata ${file} is unusable: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const output = await new Promise<string>((resolve, reject) => {
      execFile(command[0], command.slice(1), { timeout: 30_000 }, (err, stdout) => {
        if (err) reject(err instanceof Error ? err : new Error('the certificate provider failed'));
        else resolve(stdout);
      });
    }).catch((err: unknown) => {
      throw new MutualTlsChannelError(`The client certificate provider failed: ${(err as Error).message}`, {
        cause: err,
      });
    });
    const cert = output.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/);
    const key = output.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/);
    if (!cert || !key)
      throw new MutualTlsChannelError('The client certificate provider printed no certificate and key.');
    return { cert: cert[0], key: key[0] };
  };
}

/** The endpoint decision without the certificate itself (loading it may run a helper program). */
export interface EndpointPlan extends Omit<EndpointChoice, 'clientCert'> {
  /** Where the client certificate comes from, when one is to be presented. */
  certSource?: ClientCertSource;
}

/**
 * Picks the endpoint for one location, exactly as seed 000 "Authentication" 3-6 describes:
 * an explicit endpoint wins; otherwise the mTLS mode (cloudbench.mtls.endpoint, else
 * GOOGLE_API_USE_MTLS_ENDPOINT, auto by default) decides between the mTLS and the regular host; a
 * client certificate is used only when cloudbench.mtls.clientCertificate (else
 * GOOGLE_API_USE_CLIENT_CERTIFICATE) is on, the supplied source first, then the default one;
 * the universe domain is refused together with mTLS.
 */
export function planEndpoint(options: EndpointOptions = {}): EndpointPlan {
  const env = options.env ?? process.env;
  const useClientCert = readUseClientCertificate(options, env);
  const mode = readMtlsMode(options, env);
  const universeDomain = readUniverseDomain(options, env);
  const explicit = options.apiEndpoint?.trim();

  // Loopback (the sandbox) never presents certificates and never talks TLS.
  if (explicit && isLoopbackEndpoint(explicit)) {
    const { host, port } = splitHostPort(explicit);
    return {
      address: formatAddress(host, port),
      host,
      port,
      mtls: false,
      plaintext: true,
      universeDomain,
      reason: 'explicit',
    };
  }

  let certSource: ClientCertSource | undefined;
  if (useClientCert) {
    const defaultSource =
      options.defaultClientCertSource === undefined ? findDefaultClientCertSource() : options.defaultClientCertSource;
    certSource = options.clientCertSource ?? defaultSource ?? undefined;
  }
  const withCert = certSource ? { certSource } : {};

  if (explicit) {
    const { host, port } = splitHostPort(explicit);
    return {
      address: formatAddress(host, port),
      host,
      port,
      mtls: certSource !== undefined,
      plaintext: false,
      universeDomain,
      reason: 'explicit',
      ...withCert,
    };
  }

  const service = options.service ?? AIPLATFORM_SERVICE;
  const location = options.location && options.location !== 'global' ? checkLocationId(options.location) : undefined;
  const useMtls = mode === 'always' || (mode === 'auto' && certSource !== undefined);
  if (useMtls) {
    if (universeDomain !== DEFAULT_UNIVERSE_DOMAIN) {
      throw new MutualTlsChannelError(
        `mTLS is not supported in any universe other than ${DEFAULT_UNIVERSE_DOMAIN} (the universe domain is ${universeDomain}).`,
      );
    }
    const host = mtlsHostFor(
      location ? `${location}-${service}.${DEFAULT_UNIVERSE_DOMAIN}` : `${service}.${DEFAULT_UNIVERSE_DOMAIN}`,
    );
    return {
      address: formatAddress(host, DEFAULT_PORT),
      host,
      port: DEFAULT_PORT,
      mtls: true,
      plaintext: false,
      universeDomain,
      reason: 'mtls',
      ...withCert,
    };
  }
  const host = location ? `${location}-${service}.${universeDomain}` : `${service}.${universeDomain}`;
  // A certificate found while the mTLS endpoint is "never" is still presented, as Google's clients do.
  return {
    address: formatAddress(host, DEFAULT_PORT),
    host,
    port: DEFAULT_PORT,
    mtls: false,
    plaintext: false,
    universeDomain,
    reason: location ? 'regional' : 'global',
    ...withCert,
  };
}

/** Loads the client certificate a plan names, with the mutual-TLS error type for every failure. */
export async function loadClientCertificate(source: ClientCertSource): Promise<ClientCertificate> {
  try {
    return await source();
  } catch (err) {
    if (err instanceof MutualTlsChannelError) throw err;
    throw new MutualTlsChannelError(`The client certificate could not be loaded: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** planEndpoint, then the client certificate loaded: what a gRPC channel needs. */
export async function chooseEndpoint(options: EndpointOptions = {}): Promise<EndpointChoice> {
  const { certSource, ...plan } = planEndpoint(options);
  if (!certSource) return plan;
  return { ...plan, clientCert: await loadClientCertificate(certSource) };
}

/** The https:// (or, for the loopback sandbox, http://) base URL of a REST plan. */
export function restBaseUrl(plan: EndpointPlan, explicitUrl?: string): string {
  if (plan.reason === 'explicit' && explicitUrl) return explicitUrl.replace(/\/+$/, '');
  const scheme = plan.plaintext ? 'http' : 'https';
  const host = plan.host.includes(':') ? `[${plan.host}]` : plan.host;
  return plan.port === DEFAULT_PORT && !plan.plaintext ? `${scheme}://${host}` : `${scheme}://${host}:${plan.port}`;
}

export type RestService = 'apikeys' | 'secops' | 'resourcemanager';

export interface RestEndpointOptions extends Omit<EndpointOptions, 'service' | 'location' | 'apiEndpoint'> {
  /** The endpoint override (a base URL); always wins. */
  override?: string;
  /** SecOps region id ("us" has no host prefix). */
  region?: string;
}

/**
 * The base URL of API Keys, Resource Manager or the SecOps Search API with every rule of the gRPC endpoints:
 * override, mTLS host, the SecOps region prefix and the universe domain.
 */
export function planRestEndpoint(
  service: RestService,
  options: RestEndpointOptions = {},
): EndpointPlan & { baseUrl: string } {
  const { override, region, ...rest } = options;
  const plan = planEndpoint({
    ...rest,
    service: service === 'secops' ? 'backstory' : service === 'resourcemanager' ? 'cloudresourcemanager' : 'apikeys',
    ...(service === 'secops' && region && region !== 'us' ? { location: region } : {}),
    ...(override ? { apiEndpoint: override } : {}),
  });
  return { ...plan, baseUrl: restBaseUrl(plan, override) };
}
