// Where models serve, for the Models tree's rows and hovers: one endpoint listing per location
// tells which versions are deployed on which endpoint and the endpoints' display names; endpoints
// the listing did not name are read one by one when a hover needs them.
import type { ModelRegistryClient } from '../../core/models/client';
import { trafficSplitOf } from '../../core/models/traffic';
import { splitVersion, type VersionDeployment } from './presentation';

/** What one endpoint listing of a location tells the rows: which models serve, and endpoint display names. */
export interface LocationDeployments {
  /** Resource names (without version) of the models deployed on any endpoint. */
  models: Set<string>;
  /** Endpoint resource name → display name. */
  endpointNames: Map<string, string>;
  /** Model resource name (without version) → where each of its versions serves. */
  byModel: Map<string, VersionDeployment[]>;
  /** Endpoint resource name → its traffic split (deployed model id → percent), as listed or read since. */
  traffic: Map<string, Record<string, number>>;
}

/** The deployments of a location; empty if the endpoints cannot be listed. */
export async function locationDeployments(client: ModelRegistryClient, location: string): Promise<LocationDeployments> {
  const found: LocationDeployments = {
    models: new Set(),
    endpointNames: new Map(),
    byModel: new Map(),
    traffic: new Map(),
  };
  try {
    for await (const endpoint of client.listEndpoints(location)) {
      if (endpoint.name && endpoint.displayName) found.endpointNames.set(endpoint.name, endpoint.displayName);
      if (endpoint.name) found.traffic.set(endpoint.name, trafficSplitOf(endpoint));
      for (const d of endpoint.deployedModels ?? []) {
        if (!d.model) continue;
        const { model, version } = splitVersion(d.model);
        found.models.add(model);
        if (!endpoint.name) continue;
        const versionId = d.modelVersionId || version;
        const list = found.byModel.get(model) ?? [];
        list.push({
          endpoint: endpoint.name,
          ...(versionId ? { versionId } : {}),
          ...(d.id ? { deployedModelId: d.id } : {}),
        });
        found.byModel.set(model, list);
      }
    }
  } catch {
    // The marking is a convenience: without endpoint access the tree still lists every model.
  }
  return found;
}

/** `known` plus the display names of the other `endpoints` (GetEndpoint); undefined when nothing was missing. */
export async function endpointDisplayNames(
  client: ModelRegistryClient | undefined,
  endpoints: readonly string[],
  known: ReadonlyMap<string, string> = new Map(),
): Promise<Map<string, string> | undefined> {
  const missing = [...new Set(endpoints.filter((e) => e && !known.has(e)))];
  if (!missing.length || !client) return undefined;
  const names = new Map(known);
  await Promise.all(
    missing.map(async (endpoint) => {
      try {
        const found = await client.getEndpoint(endpoint);
        if (found.displayName) names.set(endpoint, found.displayName);
      } catch {
        // The hover keeps naming the endpoint by its ID.
      }
    }),
  );
  return names;
}
