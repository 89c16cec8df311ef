// Where a Google credential may go. Every Google token Cloudbench hands out is for one named
// destination, and this module is the one place that decides whether that destination may have it:
// hosts of the configured universe domain (aiplatform.googleapis.com, us-central1-aiplatform…,
// the *.mtls.* and Private Service Connect *.p.* forms, the SecOps regional hosts) over TLS; any
// other host only after the user allowed exactly that host at user level. Loopback destinations
// are the local sandbox and get its fixed token from the caller, never a Google credential.
import * as ipaddr from 'ipaddr.js';
import { isLoopbackHost } from '../loopback';

export const DEFAULT_UNIVERSE = 'googleapis.com';

/** Prefixes under the universe domain that Google's own clients and docs use. */
const UNIVERSE_FORMS: ReadonlyArray<{ middle: string; defaultUniverseOnly: boolean }> = [
  { middle: '', defaultUniverseOnly: false },
  { middle: 'mtls.', defaultUniverseOnly: false },
  { middle: 'p.', defaultUniverseOnly: false },
  { middle: 'sandbox.', defaultUniverseOnly: true },
  { middle: 'mtls.sandbox.', defaultUniverseOnly: true },
];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A destination after parsing: the exact host (lower case, no trailing dot) and port. */
export interface ParsedDestination {
  host: string;
  port: number;
  secure: boolean;
  /** host, or host:port when the port is not the scheme's default; what the user is shown. */
  display: string;
}

export type DestinationVerdict =
  | (ParsedDestination & { kind: 'loopback' })
  | (ParsedDestination & { kind: 'universe' })
  | (ParsedDestination & { kind: 'allowed' })
  | (ParsedDestination & { kind: 'unlisted' })
  | { kind: 'refused'; display: string; reason: string };

/** A Google credential was not attached because the destination may not have it. Nothing was sent. */
export class TokenDestinationError extends Error {
  override readonly name = 'TokenDestinationError';
  constructor(
    message: string,
    readonly destination: string,
  ) {
    super(message);
  }
}

function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host);
}

/**
 * Parses an absolute http(s) URL, or a bare host[:port] (taken as https), the way the HTTP stack
 * will read it. Returns the reason for refusal instead when the destination is malformed or
 * carries user information (a classic way to make one host look like another).
 */
export function parseDestination(destination: string): ParsedDestination | { refused: string } {
  const text = destination.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(withScheme)?.[1] ?? '';
  if (authority.includes('@') || authority.includes('\\'))
    return { refused: 'the address carries user information (an "@" before the host)' };
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { refused: 'it is not a valid address' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { refused: `${url.protocol.replace(/:$/, '')} is not http or https` };
  if (url.username || url.password) return { refused: 'the address carries user information' };
  let host = url.hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || host.endsWith('.') || host.includes('..'))
    return { refused: 'the host name is empty or malformed' };
  const secure = url.protocol === 'https:';
  const port = url.port ? Number(url.port) : secure ? 443 : 80;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { host, port, secure, display: url.port ? `${shownHost}:${port}` : shownHost };
}

/** Checks a universe domain value: at least two DNS labels, no IP address, no wildcard. */
export function checkUniverseDomain(universe: string): string | undefined {
  const value = universe.trim().toLowerCase().replace(/\.$/, '');
  const labels = value.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || isIpLiteral(value) || /^\d+$/.test(labels.at(-1)!))
    return `"${universe}" is not a universe domain such as googleapis.com.`;
  return undefined;
}

/** True when `host` is a service host of `universe`: service.U, service.mtls.U, service.p.U (PSC), … */
export function isUniverseHost(host: string, universe: string): boolean {
  const u = universe.trim().toLowerCase().replace(/\.$/, '');
  if (checkUniverseDomain(u) !== undefined || isIpLiteral(host)) return false;
  for (const form of UNIVERSE_FORMS) {
    if (form.defaultUniverseOnly && u !== DEFAULT_UNIVERSE) continue;
    const suffix = `.${form.middle}${u}`;
    if (!host.endsWith(suffix)) continue;
    const label = host.slice(0, -suffix.length);
    if (LABEL.test(label)) return true;
  }
  return false;
}

/** An entry of the user's allow-list: a host, or host:port for that port only ([v6] in brackets). */
function matchesAllowed(dest: ParsedDestination, entry: string): boolean {
  const text = entry
    .trim()
    .replace(/^https:\/\//i, '')
    .replace(/\/+$/, '');
  const m = /^(\[[^\]]+\]|[^:@/\\]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return false;
  const parsed = parseDestination(`https://${m[1]}`);
  if ('refused' in parsed) return false;
  return parsed.host === dest.host && (m[2] === undefined || Number(m[2]) === dest.port);
}

export interface TokenPolicyOptions {
  /** The configured universe domain (googleapis.com unless the user chose another). */
  universeDomain: () => string;
  /** Hosts the user allowed at user level, each "host" or "host:port". */
  allowedHosts: () => readonly string[];
  /**
   * Asks the user, naming the exact host, whether their credentials may go there; true when they
   * allowed it (and it is then remembered by the caller). Without it, unlisted hosts are refused.
   */
  askConsent?: (request: ConsentRequest) => Promise<boolean>;
}

export interface ConsentRequest {
  /** host or host:port, exactly as the request will address it. */
  display: string;
  host: string;
  port: number;
  universeDomain: string;
}

/** Classifies a destination for a Google credential; pure, no prompting. */
export function classifyDestination(
  destination: string,
  universeDomain: string,
  allowedHosts: readonly string[] = [],
): DestinationVerdict {
  const parsed = parseDestination(destination);
  if ('refused' in parsed) return { kind: 'refused', display: destination, reason: parsed.refused };
  if (isLoopbackHost(parsed.host)) return { ...parsed, kind: 'loopback' };
  if (!parsed.secure)
    return {
      kind: 'refused',
      display: parsed.display,
      reason: 'the connection would be plaintext http, which exposes the token to the network',
    };
  const universeProblem = checkUniverseDomain(universeDomain);
  if (universeProblem) return { kind: 'refused', display: parsed.display, reason: universeProblem };
  if (isUniverseHost(parsed.host, universeDomain)) return { ...parsed, kind: 'universe' };
  if (allowedHosts.some((entry) => matchesAllowed(parsed, entry))) return { ...parsed, kind: 'allowed' };
  return { ...parsed, kind: 'unlisted' };
}

export const ALLOWED_HOSTS_SETTING = 'cloudbench.allowedTokenHosts';

/**
 * The check every Google credential passes before it exists for a request. Prompts for an
 * unlisted host once at a time; the answer holds for the session (a yes is also stored in the
 * user's settings by the prompt, so calls made before the settings are read again are not asked).
 */
export class TokenPolicy {
  private readonly declined = new Set<string>();
  private readonly allowed = new Set<string>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(private readonly options: TokenPolicyOptions) {}

  get universeDomain(): string {
    return this.options.universeDomain();
  }

  classify(destination: string): DestinationVerdict {
    return classifyDestination(destination, this.options.universeDomain(), this.options.allowedHosts());
  }

  /** Resolves when a Google credential may go to `destination`; throws TokenDestinationError otherwise. */
  async authorize(destination: string): Promise<void> {
    const verdict = this.classify(destination);
    const universe = this.options.universeDomain();
    switch (verdict.kind) {
      case 'universe':
      case 'allowed':
        return;
      case 'loopback':
        throw new TokenDestinationError(
          `Cloudbench did not send your Google credentials to ${verdict.display}: loopback addresses are the local sandbox and only get the sandbox token.`,
          verdict.display,
        );
      case 'refused':
        throw new TokenDestinationError(
          `Cloudbench did not send your Google credentials to ${verdict.display}: ${verdict.reason}. Nothing was sent.`,
          verdict.display,
        );
      case 'unlisted': {
        const key = `${verdict.host}:${verdict.port}`;
        if (this.allowed.has(key)) return;
        if (!this.declined.has(key) && this.options.askConsent) {
          let answer = this.pending.get(key);
          if (!answer) {
            answer = this.options
              .askConsent({
                display: verdict.display,
                host: verdict.host,
                port: verdict.port,
                universeDomain: universe,
              })
              .catch(() => false)
              .finally(() => this.pending.delete(key));
            this.pending.set(key, answer);
          }
          if (await answer) {
            this.allowed.add(key);
            return;
          }
          this.declined.add(key);
        }
        throw new TokenDestinationError(
          `Cloudbench did not send your Google credentials to ${verdict.display}: it is not a host of the universe ${universe}, and you have not allowed it. If you set this endpoint yourself and trust that server, add "${verdict.display}" to ${ALLOWED_HOSTS_SETTING} in your user settings; otherwise fix the endpoint setting. Nothing was sent.`,
          verdict.display,
        );
      }
    }
  }

  /** Forgets the answers of this session, e.g. after the allow-list or the endpoints changed. */
  reset(): void {
    this.declined.clear();
    this.allowed.clear();
  }
}
