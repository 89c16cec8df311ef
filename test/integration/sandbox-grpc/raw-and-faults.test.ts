// The sandbox through a plain grpc-js client built from the shared descriptor: calls the official
// client does not expose (WaitOperation), metadata-level auth checks, fault injection and admin calls.
import * as assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { AIPLATFORM, ServiceNames, decodeMessage, grpcServiceDefinition, unpackAny } from '../../../src/core/proto';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';

const US = 'projects/cloudbench-demo/locations/us-central1';
type Obj = Record<string, any>;

class Raw {
  private readonly clients = new Map<string, grpc.Client>();
  constructor(private readonly address: string) {}

  call(service: string, method: string, request: Obj, token: string | null = 'Bearer raw-test'): Promise<Obj> {
    let client = this.clients.get(service);
    if (!client) {
      const Ctor = grpc.makeGenericClientConstructor(grpcServiceDefinition(service), service);
      client = new Ctor(this.address, grpc.credentials.createInsecure());
      this.clients.set(service, client);
    }
    const metadata = new grpc.Metadata();
    if (token !== null) metadata.set('authorization', token);
    return new Promise((resolve, reject) => {
      (
        client as unknown as Record<
          string,
          (r: Obj, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, v: Obj) => void) => void
        >
      )[method](request, metadata, (err, value) => (err ? reject(err) : resolve(value)));
    });
  }

  close(): void {
    for (const c of this.clients.values()) c.close();
  }
}

async function fails(promise: Promise<unknown>, status: keyof typeof grpc.status): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    const e = err as grpc.ServiceError;
    assert.equal(grpc.status[e.code], status, e.message);
    return e;
  }
  assert.fail(`expected ${status}`);
}

async function admin(sandbox: Sandbox, method: 'GET' | 'POST', action: string, body?: unknown): Promise<Obj> {
  const response = await fetch(`${sandbox.http}/sandbox/v1/${action}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as Obj;
}

describe('sandbox gRPC through a plain grpc-js client: waits, auth metadata, faults, admin calls', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let raw: Raw;
  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    raw = new Raw(sandbox.grpc);
  });
  afterEach(async () => {
    raw.close();
    await sandbox.close();
  });

  it('refuses missing, empty or non-bearer authorization with UNAUTHENTICATED and an ErrorInfo', async () => {
    const get = (token: string | null) =>
      raw.call(ServiceNames.model, 'GetModel', { name: `${US}/models/churn-predictor` }, token);
    const err = await fails(get(null), 'UNAUTHENTICATED');
    const status = decodeMessage<Obj>('google.rpc.Status', err.metadata.get('grpc-status-details-bin')[0] as Buffer);
    assert.equal(unpackAny<Obj>(status.details[0], 'google.rpc.ErrorInfo').reason, 'CREDENTIALS_MISSING');
    await fails(get('Bearer '), 'UNAUTHENTICATED');
    await fails(get('Basic dXNlcjpwYXNz'), 'UNAUTHENTICATED');
    assert.equal((await get('Bearer anything')).displayName, 'churn-predictor');
  });

  it('carries BadRequest field violations on INVALID_ARGUMENT', async () => {
    const err = await fails(
      raw.call(ServiceNames.model, 'ListModels', { parent: US, pageToken: '!!' }),
      'INVALID_ARGUMENT',
    );
    const status = decodeMessage<Obj>('google.rpc.Status', err.metadata.get('grpc-status-details-bin')[0] as Buffer);
    assert.equal(unpackAny<Obj>(status.details[0], 'google.rpc.BadRequest').fieldViolations[0].field, 'page_token');
  });

  it('WaitOperation returns once the clock moves the operation past its running time', async () => {
    const models = await raw.call(ServiceNames.model, 'ListModels', {
      parent: US,
      filter: 'display_name=lead-scoring',
    });
    const op = await raw.call(ServiceNames.model, 'ExportModel', {
      name: models.models[0].name,
      outputConfig: { artifactDestination: { outputUriPrefix: 'gs://demo-exports/lead' } },
    });
    assert.equal(op.done, false);
    const short = await raw.call(ServiceNames.operations, 'WaitOperation', {
      name: op.name,
      timeout: { nanos: 1_000_000 },
    });
    assert.equal(short.done, false, 'a short wait returns the running operation');
    const waiting = raw.call(ServiceNames.operations, 'WaitOperation', { name: op.name, timeout: { seconds: 20 } });
    await admin(sandbox, 'POST', 'clock:advance', { seconds: 3600 });
    const done = await waiting;
    assert.equal(done.done, true);
    assert.equal(done.result, 'response');
    const metadata = unpackAny<Obj>(done.metadata, `${AIPLATFORM}.ExportModelOperationMetadata`);
    assert.match(metadata.outputInfo.artifactOutputUri, /^gs:\/\/demo-exports\/lead\/model-export-lead-scoring-/);
    assert.ok(
      Number(metadata.genericMetadata.updateTime.seconds) >= Number(metadata.genericMetadata.createTime.seconds),
    );
    await fails(raw.call(ServiceNames.operations, 'WaitOperation', { name: `${US}/operations/1` }), 'NOT_FOUND');
  });

  it('reports deployment stages while a deployment runs', async () => {
    const endpoints = await raw.call(ServiceNames.endpoint, 'ListEndpoints', {
      parent: US,
      filter: 'display_name=staging-sandbox',
    });
    const models = await raw.call(ServiceNames.model, 'ListModels', {
      parent: US,
      filter: 'display_name=lead-scoring',
    });
    const op = await raw.call(ServiceNames.endpoint, 'DeployModel', {
      endpoint: endpoints.endpoints[0].name,
      deployedModel: {
        model: models.models[0].name,
        dedicatedResources: { machineSpec: { machineType: 'n1-standard-4' }, minReplicaCount: 1 },
      },
    });
    const first = unpackAny<Obj>(op.metadata, `${AIPLATFORM}.DeployModelOperationMetadata`);
    assert.equal(first.deploymentStage, 'STARTING_DEPLOYMENT');
    sandbox.clock.advance(30);
    const later = await raw.call(ServiceNames.operations, 'GetOperation', { name: op.name });
    assert.notEqual(unpackAny<Obj>(later.metadata).deploymentStage, 'STARTING_DEPLOYMENT');
    sandbox.clock.advance(600);
    const done = await raw.call(ServiceNames.operations, 'GetOperation', { name: op.name });
    assert.equal(unpackAny<Obj>(done.metadata).deploymentStage, 'DEPLOYMENT_TERMINATED');
    assert.equal(
      unpackAny<Obj>(done.response, `${AIPLATFORM}.DeployModelResponse`).deployedModel.model,
      models.models[0].name,
    );
  });

  it('serves RecommendSpec and UpdateExplanationDataset with their rules', async () => {
    const spec = await raw.call(ServiceNames.model, 'RecommendSpec', {
      parent: US,
      gcsUri: 'gs://demo-models/gemma-2b',
      checkUserQuota: true,
    });
    assert.equal(spec.baseModel, 'gemma-2b');
    assert.ok(spec.specs.length >= 1 && spec.recommendations.length >= 1);
    await fails(raw.call(ServiceNames.model, 'RecommendSpec', { parent: US, gcsUri: 'https://x' }), 'INVALID_ARGUMENT');

    const models = await raw.call(ServiceNames.model, 'ListModels', {
      parent: US,
      filter: 'display_name=wide-deep-ctr',
    });
    const name = models.models[0].name;
    await fails(
      raw.call(ServiceNames.model, 'UpdateExplanationDataset', { model: `${name}@1` }),
      'FAILED_PRECONDITION',
    );
    const op = await raw.call(ServiceNames.model, 'UpdateExplanationDataset', { model: `${name}@2` });
    sandbox.clock.advance(600);
    const done = await raw.call(ServiceNames.operations, 'GetOperation', { name: op.name });
    assert.equal(done.done, true);
    unpackAny(done.response, `${AIPLATFORM}.UpdateExplanationDatasetResponse`);
  });

  it('applies fault rules per full method name: injected status, HTTP code mapping, connection reset', async () => {
    const getModel = () => raw.call(ServiceNames.model, 'GetModel', { name: `${US}/models/churn-predictor` });
    await admin(sandbox, 'POST', 'faults', {
      rules: [{ method: `${ServiceNames.model}/GetModel`, errorRate: 1, codes: ['UNAVAILABLE'] }],
    });
    await fails(getModel(), 'UNAVAILABLE');
    const list = await raw.call(ServiceNames.model, 'ListModels', { parent: US, pageSize: 1 });
    assert.equal(list.models.length, 1, 'other methods are unaffected');

    await admin(sandbox, 'POST', 'faults', {
      rules: [{ method: `${ServiceNames.model}/*`, errorRate: 1, codes: [429] }],
    });
    const exhausted = await fails(getModel(), 'RESOURCE_EXHAUSTED');
    const status = decodeMessage<Obj>(
      'google.rpc.Status',
      exhausted.metadata.get('grpc-status-details-bin')[0] as Buffer,
    );
    assert.equal(unpackAny<Obj>(status.details[0], 'google.rpc.RetryInfo').retryDelay.seconds, '1');

    await admin(sandbox, 'POST', 'faults', { rules: [{ method: `${ServiceNames.model}/GetModel`, resetRate: 1 }] });
    const reset = await getModel().then(
      () => assert.fail('a reset connection cannot answer'),
      (err: grpc.ServiceError) => err,
    );
    assert.ok(
      [grpc.status.UNAVAILABLE, grpc.status.INTERNAL, grpc.status.CANCELLED].includes(reset.code),
      reset.message,
    );
    assert.doesNotMatch(reset.message, /fault rules/, 'the connection itself was dropped');

    await admin(sandbox, 'POST', 'faults', { rules: [] });
    assert.equal((await getModel()).displayName, 'churn-predictor', 'the client reconnects after the reset');
  });

  it('answers UNIMPLEMENTED for RPCs the sandbox does not serve', async () => {
    const client = new grpc.Client(sandbox.grpc, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('authorization', 'Bearer x');
    const err = await new Promise<grpc.ServiceError>((resolve) => {
      client.makeUnaryRequest(
        `/${ServiceNames.endpoint}/MutateDeployedModel`,
        (x: Buffer) => x,
        (x: Buffer) => x,
        Buffer.alloc(0),
        metadata,
        (e) => resolve(e!),
      );
    });
    client.close();
    assert.equal(err.code, grpc.status.UNIMPLEMENTED);
  });

  it('resets to the seed and reports counts through the admin calls', async () => {
    const before = await admin(sandbox, 'GET', 'state');
    assert.ok(before.models.models >= 25 && before.models.modelVersions > before.models.models);
    const models = await raw.call(ServiceNames.model, 'ListModels', {
      parent: US,
      filter: 'display_name=house-price-estimator',
    });
    const op = await raw.call(ServiceNames.model, 'DeleteModel', { name: models.models[0].name });
    sandbox.clock.advance(600);
    assert.equal((await raw.call(ServiceNames.operations, 'GetOperation', { name: op.name })).done, true);
    assert.equal((await admin(sandbox, 'GET', 'state')).models.models, before.models.models - 1);
    await admin(sandbox, 'POST', 'reset', { seed: 'empty' });
    assert.equal((await admin(sandbox, 'GET', 'state')).models.models, 0);
    await admin(sandbox, 'POST', 'reset', { seed: 'demo' });
    const again = await raw.call(ServiceNames.model, 'GetModel', { name: models.models[0].name });
    assert.equal(again.displayName, 'house-price-estimator', 'the demo seed is deterministic');
  });

  it('coerces an oversized page_size to the maximum of 1000 instead of failing', async () => {
    raw.close();
    await sandbox.close();
    process.env.CLOUDBENCH_SANDBOX_OPERATION_SECONDS = '0';
    try {
      sandbox = await startSandbox({ seed: 'empty' });
    } finally {
      delete process.env.CLOUDBENCH_SANDBOX_OPERATION_SECONDS;
    }
    raw = new Raw(sandbox.grpc);
    const parent = 'projects/cloudbench-demo/locations/us-west1';
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 1001) {
          const i = next++;
          await raw.call(ServiceNames.model, 'UploadModel', {
            parent,
            model: { displayName: `bulk-${i}`, containerSpec: { imageUri: 'us-docker.pkg.dev/p/r/i:1' } },
          });
        }
      }),
    );
    const page = await raw.call(ServiceNames.model, 'ListModels', { parent, pageSize: 5000 });
    assert.equal(page.models.length, 1000);
    assert.ok(page.nextPageToken);
    const rest = await raw.call(ServiceNames.model, 'ListModels', {
      parent,
      pageSize: 5000,
      pageToken: page.nextPageToken,
    });
    assert.equal(rest.models.length, 1);
    assert.equal(rest.nextPageToken, '');
    const defaults = await raw.call(ServiceNames.model, 'ListModels', { parent });
    assert.equal(defaults.models.length, 50, 'an unset page_size gives the default page');
  });
});
