// Shared set-up for the conformance tests: a fresh in-process sandbox per test and the OFFICIAL
// @google-cloud/aiplatform v1beta1 clients pointed at it (options from reference/real-editor-testing.md).
import * as assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { v1beta1 } from '@google-cloud/aiplatform';
import { googleAuthLibrary, type ClientOptions } from 'google-gax';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { SeedName } from '../../../src/emulator/types';

export const PROJECT = 'cloudbench-demo';
export const PROJECT_NUMBER = '123456789012';
export const US = `projects/${PROJECT}/locations/us-central1`;
export const EU = `projects/${PROJECT}/locations/europe-west4`;

export type ModelClient = InstanceType<typeof v1beta1.ModelServiceClient>;
export type EndpointClient = InstanceType<typeof v1beta1.EndpointServiceClient>;

export interface Harness {
  sandbox: Sandbox;
  models: ModelClient;
  endpoints: EndpointClient;
  /** A client that sends no credentials at all. */
  anonymous(): ModelClient;
  close(): Promise<void>;
}

function clientOptions(port: number, withToken: boolean): ClientOptions {
  return {
    apiEndpoint: '127.0.0.1',
    port,
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new googleAuthLibrary.OAuth2Client(),
    ...(withToken
      ? {
          'grpc.callInvocationTransformer': (p: { metadata: grpc.Metadata }) => {
            p.metadata.set('authorization', 'Bearer sandbox-test-token');
            return p;
          },
        }
      : {}),
  };
}

export async function openHarness(seed: SeedName = 'demo'): Promise<Harness> {
  const sandbox = await startSandbox({ seed });
  const port = Number(sandbox.grpc.split(':').pop());
  const models = new v1beta1.ModelServiceClient(clientOptions(port, true));
  const endpoints = new v1beta1.EndpointServiceClient(clientOptions(port, true));
  const extra: ModelClient[] = [];
  return {
    sandbox,
    models,
    endpoints,
    anonymous() {
      const client = new v1beta1.ModelServiceClient(clientOptions(port, false));
      extra.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled([models.close(), endpoints.close(), ...extra.map((c) => c.close())]);
      await sandbox.close();
    },
  };
}

/** Asserts that a promise rejects with a gRPC status (by name) and, optionally, a message pattern. */
export async function rejectsWith(
  promise: Promise<unknown>,
  status: keyof typeof grpc.status,
  message?: RegExp,
): Promise<Error & { code: number; details?: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as Error & { code: number; details?: string };
    assert.equal(grpc.status[e.code], status, `expected ${status}, got ${grpc.status[e.code]}: ${e.message}`);
    if (message) assert.match(e.message, message);
    return e;
  }
  assert.fail(`expected the call to fail with ${status}`);
}

/** The ids of models in a location, through the official client's auto-paging iterator. */
export async function allModels(
  client: ModelClient,
  parent: string,
  filter = '',
): Promise<Array<{ name?: string | null; displayName?: string | null; labels?: Record<string, string> | null }>> {
  const out = [];
  for await (const model of client.listModelsAsync({ parent, filter, pageSize: 7 })) out.push(model);
  return out;
}

/** A model id of the demo seed by display name (ids are numeric except a few chosen ones). */
export async function modelByDisplayName(client: ModelClient, parent: string, displayName: string): Promise<string> {
  const [models] = await client.listModels({ parent, filter: `display_name="${displayName}"` });
  assert.equal(models.length, 1, `demo model ${displayName}`);
  return models[0].name!;
}

/** Waits for an operation the sandbox is running by moving the sandbox clock past its running time. */
export async function finish<T>(sandbox: Sandbox, op: { promise(): Promise<T> }): Promise<T> {
  sandbox.clock.advance(600);
  return op.promise();
}

/** Before any test: pay the official client's ~2 s proto parse once, outside test timeouts. */
export function warmUp(): void {
  new v1beta1.ModelServiceClient(clientOptions(1, true)).close().catch(() => undefined);
}

/** The operations mixin's request types are generated classes; plain objects are what gax sends anyway. */
export function opRequest<T>(request: Record<string, unknown>): T {
  return request as T;
}

/**
 * Registers a describe block's hooks: the warm-up once, then a fresh demo sandbox with its clients
 * before each test, closed after it. The returned object always stands for the current test's harness.
 */
export function useHarness(): Harness {
  let current: Harness | undefined;
  before(warmUp);
  beforeEach(async () => {
    current = await openHarness();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as Harness, {
    get: (_target, prop) => {
      if (!current) throw new Error('the sandbox harness is only there inside a test');
      return current[prop as keyof Harness];
    },
  });
}
