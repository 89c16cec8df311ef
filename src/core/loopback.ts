// The one answer to "is this the local machine?" for the whole extension: which endpoints are the
// sandbox (plaintext, the sandbox token, no proxy, no client certificate) and which destinations
// never get Google credentials. Built on ipaddr.js, which reads every form an address can take
// (127.0.0.0/8, ::1, IPv4-mapped ::ffff:127.0.0.1, the shorthand 127.1), so two checks cannot
// disagree about the same host.
import * as ipaddr from 'ipaddr.js';

/** 127.0.0.0/8, ::1, their IPv4-mapped forms, and the name localhost; with or without [brackets]. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  if (h === 'localhost') return true;
  if (!ipaddr.isValid(h)) return false;
  try {
    return ipaddr.process(h).range() === 'loopback';
  } catch {
    return false;
  }
}

/** The host of a URL, a host:port, a [v6]:port or a bare host; undefined when it cannot be read. */
export function endpointHost(endpoint: string): string | undefined {
  const text = endpoint.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      return new URL(text).hostname;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end > 0 ? text.slice(1, end) : undefined;
  }
  const colons = text.split(':').length - 1;
  // One colon: host:port. More: a bare IPv6 address.
  return colons === 1 ? text.slice(0, text.indexOf(':')) : text;
}

/** True when `endpoint` (URL, host:port or host) points at this machine. */
export function isLoopbackEndpoint(endpoint: string): boolean {
  const host = endpointHost(endpoint);
  return host !== undefined && isLoopbackHost(host);
}
