// The read-only tools over Vertex AI models and API keys. They call the same clients as the Models
// and API Keys views, with the connection's settings (user settings only for where credentials go),
// and list, get and read; nothing here creates, changes, copies or deletes. Key strings are never
// asked for.
import { auditKeyList, auditText, keysText } from '../../core/agent/keys';
import { modelsText, modelText, type VersionDetails } from '../../core/agent/models';
import type { ApiKey } from '../../core/apikeys/types';
import { ApiKeysClient } from '../../core/apikeys/client';
import type * as ClientModuleType from '../../core/models/client';
import type { ModelRegistryClient } from '../../core/models/client';
import type { Model } from '../../core/models/types';
import { restClientSettings, type Services } from '../services';

type ClientModule = typeof ClientModuleType;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the gRPC stack loads on first use
const clientModule = (): ClientModule => require('../../core/models/client') as ClientModule;

const NO_PROJECT = 'No Google Cloud project is selected: the user runs "Cloudbench: Select Project…" first.';
const MODEL_NAME = /^projects\/[^/\s]{1,100}\/locations\/[a-z0-9-]{1,63}\/models\/[A-Za-z0-9_-]{1,128}$/;
const MODEL_ID = /^[A-Za-z0-9_-]{1,128}$/;

function project(services: Services): string {
  const p = services.connection().project;
  if (!p) throw new Error(NO_PROJECT);
  return p;
}

async function withModels<T>(services: Services, work: (client: ModelRegistryClient) => Promise<T>): Promise<T> {
  const connection = services.connection();
  const endpoint = connection.endpoint('models');
  const client = new (clientModule().ModelRegistryClient)({
    tokenSource: connection.cloudTokens(endpoint),
    endpoint: connection.modelsEndpointOptions(),
    retry: connection.settings.retry,
    timeoutMs: connection.settings.timeoutMs,
  });
  try {
    return await work(client);
  } finally {
    client.close();
  }
}

function locationOf(services: Services, location: string | undefined): string {
  return location ?? services.connection().settings.locations[0] ?? 'us-central1';
}

export async function listModelsTool(
  services: Services,
  input: { location?: string; limit?: number },
  signal: AbortSignal,
): Promise<string> {
  const parent = `projects/${project(services)}/locations/${locationOf(services, input.location)}`;
  const limit = input.limit ?? 50;
  return withModels(services, async (client) => {
    const models: Model[] = [];
    let pageToken: string | undefined;
    do {
      const page = await client.listModelsPage(
        { parent, pageSize: Math.min(100, limit - models.length), ...(pageToken ? { pageToken } : {}) },
        { signal },
      );
      models.push(...page.items.slice(0, limit - models.length));
      pageToken = page.nextPageToken;
    } while (pageToken && models.length < limit);
    return modelsText(models, parent, pageToken !== undefined);
  });
}

export async function describeModelTool(
  services: Services,
  input: { model: string; location?: string },
  signal: AbortSignal,
): Promise<string> {
  let name: string;
  if (MODEL_NAME.test(input.model)) name = input.model;
  else if (MODEL_ID.test(input.model))
    name = `projects/${project(services)}/locations/${locationOf(services, input.location)}/models/${input.model}`;
  else throw new Error('"model" must be a model ID or projects/P/locations/L/models/ID.');
  return withModels(services, async (client) => {
    const model = await client.getModel({ name }, { signal });
    const versions: VersionDetails[] = [];
    const page = await client.listModelVersionsPage({ name, pageSize: 20 }, { signal });
    for (const version of page.items) {
      const evaluations = await client.listModelEvaluationsPage(
        { parent: `${name}@${version.versionId ?? ''}`, pageSize: 10 },
        { signal },
      );
      versions.push({ version, evaluations: evaluations.items });
    }
    return modelText(model, versions);
  });
}

async function listKeys(
  services: Services,
  limit: number,
  signal: AbortSignal,
): Promise<{ keys: ApiKey[]; more: boolean }> {
  const client = new ApiKeysClient(restClientSettings(services.connection(), 'apikeys'));
  const keys: ApiKey[] = [];
  let pageToken: string | undefined;
  do {
    const page = await client.listKeys(project(services), {
      pageSize: Math.min(300, limit - keys.length),
      ...(pageToken ? { pageToken } : {}),
      signal,
    });
    // The list never carries key strings; dropping the field anyway keeps any answer free of them.
    keys.push(...page.items.slice(0, limit - keys.length).map(({ keyString: _dropped, ...k }) => k));
    pageToken = page.nextPageToken;
  } while (pageToken && keys.length < limit);
  return { keys, more: pageToken !== undefined };
}

export async function listKeysTool(
  services: Services,
  input: { limit?: number },
  signal: AbortSignal,
): Promise<string> {
  const { keys, more } = await listKeys(services, input.limit ?? 100, signal);
  return keysText(keys, project(services), more);
}

export async function auditKeysTool(
  services: Services,
  input: { olderThanDays?: number },
  signal: AbortSignal,
): Promise<string> {
  const days = input.olderThanDays ?? 90;
  const { keys } = await listKeys(services, 1000, signal);
  return auditText(
    auditKeyList(keys, days, Date.now()),
    keys.filter((k) => !k.deleteTime).length,
    days,
    project(services),
  );
}
