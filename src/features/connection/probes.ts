// The three probes Check Connection runs (one call per service, built from the same pieces the
// features use) and the report they make.
import { ApiKeysClient } from '../../core/apikeys/client';
import { configuredUniverse } from '../../core/google/credentials';
import { planEndpoint, type EndpointPlan } from '../../core/google/endpoints';
import type { ModelRegistryClient } from '../../core/models/client';
import { SecOpsClient } from '../../core/secops/client';
import { getLogger } from '../../platform/log';
import { restClientSettings, type Connection } from '../services';
import { formatConnectionReport, proxyForReport, runConnectionCheck, type ServiceProbe } from './check';

const log = getLogger('connection');

/** Why calls go where they go, and whether the client certificate is presented there. */
function endpointWhy(plan: EndpointPlan): string {
  if (plan.certSource) return `${plan.reason}, with the client certificate`;
  if (plan.mtls) return `${plan.reason}, no client certificate (cloudbench.mtls.clientCertificate)`;
  return plan.reason;
}

/** Where a REST service's probe calls go, and the credentials they use (SecOps' own for `secops`). */
function restProbeTarget(
  connection: Connection,
  service: 'apikeys' | 'secops',
  path: string,
): Pick<ServiceProbe, 'endpoint' | 'destination' | 'tokens'> {
  return {
    endpoint: () => {
      const plan = connection.restEndpoint(service);
      return Promise.resolve({ address: plan.baseUrl, why: endpointWhy(plan) });
    },
    destination: () => Promise.resolve(`${connection.restEndpoint(service).baseUrl}${path}`),
    tokens: () => restClientSettings(connection, service).tokens,
  };
}

/** The three probes for the current settings, built from the same pieces the features use. */
export function connectionProbes(connection: Connection): ServiceProbe[] {
  const s = connection.settings;
  const project = connection.project;
  const location = s.locations[0];
  const noProject = (): never => {
    throw new Error('No project is set: run "Cloudbench: Select Project…" (cloudbench.project).');
  };
  const models: ServiceProbe = {
    service: 'models',
    title: 'Vertex AI Model Registry',
    endpoint: () => {
      const plan = planEndpoint({ ...connection.modelsEndpointOptions(), ...(location ? { location } : {}) });
      return Promise.resolve({ address: plan.address, why: endpointWhy(plan) });
    },
    destination: () => {
      const plan = planEndpoint({ ...connection.modelsEndpointOptions(), ...(location ? { location } : {}) });
      return Promise.resolve(`${plan.plaintext ? 'http' : 'https'}://${plan.address}`);
    },
    tokens: () => connection.cloudTokens(connection.endpoint('models')),
    call: {
      name: location ? `ListModels (${location}, 1 item)` : 'ListLocations',
      run: async (signal) => {
        const p = project ?? noProject();
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const lib = require('../../core/models/client') as { ModelRegistryClient: typeof ModelRegistryClient };
        const client = new lib.ModelRegistryClient({
          tokenSource: connection.cloudTokens(connection.endpoint('models')),
          endpoint: connection.modelsEndpointOptions(),
          retry: { maxRetries: 0 },
          timeoutMs: s.timeoutMs,
        });
        try {
          if (location) {
            const page = await client.listModelsPage(
              { parent: `projects/${p}/locations/${location}`, pageSize: 1 },
              { signal },
            );
            return `${page.items.length ? 'models listed' : 'no models'} in ${location}`;
          }
          let count = 0;
          for await (const _ of client.listLocations(p, { signal })) count++;
          return `${count} locations`;
        } finally {
          client.close();
        }
      },
    },
  };
  const apiKeys: ServiceProbe = {
    service: 'apikeys',
    title: 'API Keys',
    ...restProbeTarget(connection, 'apikeys', '/v2/'),
    call: {
      name: 'ListKeys (1 item)',
      run: async (signal) => {
        const p = project ?? noProject();
        const client = new ApiKeysClient({
          ...restClientSettings(connection, 'apikeys'),
          retry: { ...s.retry, maxRetries: 0 },
        });
        const page = await client.listKeys(p, { pageSize: 1, signal });
        return page.items.length ? 'keys listed' : 'no keys';
      },
    },
  };
  const secops: ServiceProbe = {
    service: 'secops',
    title: `Google SecOps Search (${s.secops.region})`,
    ...restProbeTarget(connection, 'secops', '/v2/lists'),
    call: {
      // A list call, so the hourly udmSearch budget is not spent.
      name: 'ListReferenceLists (1 item)',
      run: async (signal) => {
        const client = new SecOpsClient({
          ...restClientSettings(connection, 'secops'),
          retry: { ...s.retry, maxRetries: 0 },
        });
        const page = await client.listReferenceLists({ pageSize: 1 }, signal);
        return page.lists.length ? 'reference lists listed' : 'no reference lists';
      },
    },
  };
  return [models, apiKeys, secops];
}

/** Runs the check for the current settings and returns the Markdown report. */
export async function checkConnection(connection: Connection, signal?: AbortSignal): Promise<string> {
  const checks = await runConnectionCheck(connectionProbes(connection), {
    // Longer than each call's own deadline, so a slow call ends as that call's DEADLINE_EXCEEDED.
    timeoutMs: connection.settings.timeoutMs + 5_000,
    ...(signal ? { signal } : {}),
  });
  for (const c of checks) log.info(`check ${c.service}: ${c.call.ok ? 'ok' : 'failed'}`);
  return formatConnectionReport(checks, {
    ...(connection.project ? { project: connection.project } : {}),
    universeDomain: configuredUniverse(connection.settings.universeDomain),
    ...(proxyForReport() ? { proxy: proxyForReport()! } : {}),
  });
}
