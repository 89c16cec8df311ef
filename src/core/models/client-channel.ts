// The gRPC channel of the Model Registry client: its target, its credentials and the proxy variables
// grpc-js reads while it is built.
import { isIPv4, isIPv6 } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { MutualTlsChannelError, type EndpointChoice } from '../google/endpoints';

let cachedGrpcVersion: string | undefined;
export function grpcVersion(): string {
  if (cachedGrpcVersion === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      cachedGrpcVersion = (require('@grpc/grpc-js/package.json') as { version: string }).version;
    } catch {
      cachedGrpcVersion = 'unknown';
    }
  }
  return cachedGrpcVersion;
}

/**
 * grpc-js reads only the lower-case proxy variables (grpc_proxy, https_proxy, http_proxy and
 * no_grpc_proxy, no_proxy), while REST calls honour HTTPS_PROXY / HTTP_PROXY / NO_PROXY too. So
 * that a proxy set in upper case carries the Vertex AI calls as well, the upper-case values are
 * lent to the lower-case names while a channel is built (grpc-js reads them only then) and taken
 * back at once; lower-case values already set win, as they do for grpc-js.
 */
export function withGrpcProxyVariables<T>(build: () => T, env: NodeJS.ProcessEnv = process.env): T {
  const lent: string[] = [];
  const proxy = env['HTTPS_PROXY'] || env['HTTP_PROXY'];
  if (proxy && !env['grpc_proxy'] && !env['https_proxy'] && !env['http_proxy']) {
    env['https_proxy'] = proxy;
    lent.push('https_proxy');
  }
  if (env['NO_PROXY'] && !env['no_grpc_proxy'] && !env['no_proxy']) {
    env['no_proxy'] = env['NO_PROXY'];
    lent.push('no_proxy');
  }
  try {
    return build();
  } finally {
    for (const name of lent) delete env[name];
  }
}

/**
 * The gRPC channel target. A loopback IP address (the sandbox) goes to grpc-js' IP resolver
 * ("ipv4:127.0.0.1:8080"), which has nothing to look up, so no DNS resolver is created on a cold
 * start; the authority sent is the same host:port. Any other endpoint is a name resolved by DNS.
 */
export function channelTarget(choice: Pick<EndpointChoice, 'address' | 'host' | 'plaintext'>): string {
  if (!choice.plaintext) return choice.address;
  if (isIPv4(choice.host)) return `ipv4:${choice.address}`;
  // Only a string with a colon can be an IPv6 address (and isIPv6's expression is slow to start).
  if (choice.host.includes(':') && isIPv6(choice.host)) return `ipv6:${choice.address}`;
  return choice.address;
}

/** Plaintext for the loopback sandbox; TLS otherwise, with the client certificate when mTLS is chosen. */
export function channelCredentials(choice: EndpointChoice): grpc.ChannelCredentials {
  if (choice.plaintext) return grpc.credentials.createInsecure();
  if (!choice.clientCert) return grpc.credentials.createSsl();
  try {
    return grpc.credentials.createSsl(null, Buffer.from(choice.clientCert.key), Buffer.from(choice.clientCert.cert));
  } catch (err) {
    throw new MutualTlsChannelError(
      `The mutual-TLS channel to ${choice.address} could not be created: ${(err as Error).message}`,
      { cause: err },
    );
  }
}
