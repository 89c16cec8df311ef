// The Model Registry client against the in-process sandbox: every RPC the product uses and every
// rule of seed 000, on fresh data per test.
import { strict as assert } from 'node:assert';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient, RequestShapeError } from '../../../src/core/models/client';
import type { ModelOperation } from '../../../src/core/models/operation';
import { sandboxTokenSource, type TokenSource } from '../../../src/core/google/credentials';
import { GoogleApiError, CancelledError } from '../../../src/core/google/errors';
import { OperationFailedError } from '../../../src/core/lro';
import type { Model } from '../../../src/core/models/types';

const PROJECT = 'cloudbench-demo';
const LOC = 'us-central1';
const PARENT = `projects/${PROJECT}/locations/${LOC}`;

function rejectsWith(status: string, pattern?: RegExp): (err: unknown) => boolean {
  return (err: unknown) => {
    assert.ok(err instanceof GoogleApiError, `expected GoogleApiError, got ${String(err)}`);
    assert.equal(err.status, status, err.message);
    if (pattern) assert.match(err.message, pattern);
    return true;
  };
}

describe('models client against the sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;
  const logs: string[] = [];

  beforeEach(async () => {
    sandbox = await startSandbox({ seed: 'empty' });
    logs.length = 0;
    client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
      retry: { initialBackoffMs: 1, maxBackoffMs: 5 },
      log: (m) => logs.push(m),
    });
  });

  afterEach(async () => {
    client.close();
    await sandbox.close();
  });

  /** Moves the sandbox clock past the operation's running time and waits for its result. */
  async function finish<R>(op: ModelOperation<R, unknown>): Promise<R> {
    sandbox.clock.advance(3600);
    return op.wait({ initialDelayMs: 5, maxDelayMs: 20 });
  }

  async function upload(
    displayName: string,
    extra: Partial<Model> = {},
    parentModel?: string,
  ): Promise<{ model: string; versionId: string }> {
    const op = await client.uploadModel({
      request: {
        parent: PARENT,
        model: {
          displayName,
          containerSpec: { imageUri: 'us-docker.pkg.dev/vertex-ai/prediction/sklearn-cpu.1-3:latest' },
          artifactUri: 'gs://bucket/model',
          ...extra,
        },
        ...(parentModel ? { parentModel } : {}),
      },
    });
    const res = await finish(op);
    return { model: res.model!, versionId: res.modelVersionId! };
  }

  it('refuses calls without credentials (UNAUTHENTICATED)', async () => {
    const empty: TokenSource = { kind: 'sandbox', getAccessToken: async () => '' };
    const anon = new ModelRegistryClient({
      tokenSource: empty,
      endpoint: { apiEndpoint: sandbox.grpc },
      retry: { maxRetries: 0 },
    });
    try {
      await assert.rejects(anon.getModel({ name: `${PARENT}/models/1` }), rejectsWith('UNAUTHENTICATED'));
    } finally {
      anon.close();
    }
  });

  it('lists and gets locations', async () => {
    const ids: string[] = [];
    for await (const l of client.listLocations(PROJECT)) ids.push(l.locationId!);
    assert.ok(ids.includes(LOC) && ids.length > 1);
    const loc = await client.getLocation(PARENT);
    assert.equal(loc.locationId, LOC);
  });

  it('uploads a model whose first version gets the alias default; GetModel without version returns it', async () => {
    const { model, versionId } = await upload('first');
    assert.equal(versionId, '1');
    const m = await client.getModel({ name: model });
    assert.deepEqual(m.versionAliases, ['default']);
    assert.equal(m.versionId, '1');
    const byAlias = await client.getModel({ request: { name: `${model}@default` } });
    assert.equal(byAlias.versionId, '1');
  });

  it('addresses versions by ID and alias; exactly one default that MergeVersionAliases moves', async () => {
    const { model } = await upload('versions');
    const v2 = await upload('versions', {}, model);
    assert.equal(v2.versionId, '2');
    assert.equal((await client.getModel({ name: model })).versionId, '1', 'a new version does not become default');
    await client.mergeVersionAliases({ name: `${model}@2`, versionAliases: ['golden'] });
    assert.equal((await client.getModel({ name: `${model}@golden` })).versionId, '2');
    await client.mergeVersionAliases({ name: `${model}@2`, versionAliases: ['default'] });
    const versions: Model[] = [];
    for await (const v of client.listModelVersions({ name: model })) versions.push(v);
    assert.equal(versions.length, 2);
    assert.equal(versions.filter((v) => (v.versionAliases ?? []).includes('default')).length, 1);
    assert.equal(
      (await client.getModel({ name: model })).versionId,
      '2',
      'GetModel without version follows the default alias',
    );
    await client.mergeVersionAliases({ name: `${model}@2`, versionAliases: ['-golden'] });
    await assert.rejects(
      client.getModel({ name: `${model}@golden` }),
      (e: unknown) => e instanceof GoogleApiError && ['NOT_FOUND', 'INVALID_ARGUMENT'].includes(e.status),
    );
  });

  it('pages ListModels on demand and applies a filter', async () => {
    for (let i = 0; i < 5; i++) await upload(i % 2 ? `odd-${i}` : `even-${i}`);
    const all: string[] = [];
    for await (const m of client.listModels({ request: { parent: PARENT, pageSize: 2 } })) all.push(m.displayName!);
    assert.equal(all.length, 5);
    const page = await client.listModelsPage({ parent: PARENT, pageSize: 2 });
    assert.equal(page.items.length, 2);
    assert.ok(page.nextPageToken);
    const filtered: string[] = [];
    for await (const m of client.listModels({ request: { parent: PARENT, filter: 'display_name="odd-1"' } }))
      filtered.push(m.displayName!);
    assert.deepEqual(filtered, ['odd-1']);
  });

  it('reads one page ahead of the consumer, and no further', async () => {
    for (let i = 0; i < 7; i++) await upload(`lazy-${i}`);
    let calls = 0;
    const counting = new ModelRegistryClient({
      tokenSource: {
        kind: 'sandbox',
        getAccessToken: async () => {
          calls++;
          return 'counted';
        },
      },
      endpoint: { apiEndpoint: sandbox.grpc },
    });
    try {
      const it = counting.listModels({ request: { parent: PARENT, pageSize: 2 } });
      const first = await it.next();
      assert.ok(first.value?.displayName, 'the first item is a decoded model');
      await it.next();
      assert.equal(calls, 2, 'the first page, and the second one asked for before its items were handed over');
      await it.next();
      assert.equal(calls, 3, 'the second page in use: the third is on its way');
      await it.return(undefined);
      assert.equal(calls, 3, 'stopping early fetches nothing more');
    } finally {
      counting.close();
    }
  });

  it('lists checkpoints of a version; without a version, of the latest one', async () => {
    const { model } = await upload('ckpt', { checkpoints: [{ checkpointId: 'c1', epoch: '1', step: '10' }] });
    await upload(
      'ckpt',
      {
        checkpoints: [
          { checkpointId: 'c2', epoch: '2', step: '20' },
          { checkpointId: 'c3', epoch: '3', step: '30' },
        ],
      },
      model,
    );
    const latest: string[] = [];
    for await (const c of client.listModelVersionCheckpoints({ name: model })) latest.push(c.checkpointId!);
    assert.deepEqual(latest.sort(), ['c2', 'c3']);
    const first: string[] = [];
    for await (const c of client.listModelVersionCheckpoints({ request: { name: `${model}@1`, pageSize: 1 } }))
      first.push(c.checkpointId!);
    assert.deepEqual(first, ['c1']);
  });

  it('updates model fields', async () => {
    const { model } = await upload('before');
    const updated = await client.updateModel({
      model: { name: model, displayName: 'after' },
      updateMask: { paths: ['display_name'] },
    });
    assert.equal(updated.displayName, 'after');
  });

  it('imports an evaluation, slices and evaluated annotations, then lists and gets them', async () => {
    const { model } = await upload('evals');
    const ev = await client.importModelEvaluation({
      parent: model,
      modelEvaluation: {
        displayName: 'holdout',
        metricsSchemaUri: 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml',
        metrics: { structValue: { fields: { auPrc: { numberValue: 0.93 } } } },
      },
    });
    assert.match(ev.name!, /\/evaluations\/[^/]+$/);
    const evals: string[] = [];
    for await (const e of client.listModelEvaluations({ parent: model })) evals.push(e.name!);
    assert.deepEqual(evals, [ev.name]);
    assert.equal((await client.getModelEvaluation({ name: ev.name! })).displayName, 'holdout');
    const imported = await client.batchImportModelEvaluationSlices({
      parent: ev.name!,
      modelEvaluationSlices: [
        { slice: { dimension: 'annotationSpec', value: 'cat' } },
        { slice: { dimension: 'annotationSpec', value: 'dog' } },
      ],
    });
    assert.equal(imported.importedModelEvaluationSlices.length, 2);
    const slices: string[] = [];
    for await (const s of client.listModelEvaluationSlices({ request: { parent: ev.name!, pageSize: 1 } }))
      slices.push(s.slice!.value!);
    assert.deepEqual(slices.sort(), ['cat', 'dog']);
    const slice = await client.getModelEvaluationSlice({ name: imported.importedModelEvaluationSlices[0] });
    assert.equal(slice.slice?.dimension, 'annotationSpec');
    const ann = await client.batchImportEvaluatedAnnotations({
      parent: slice.name!,
      evaluatedAnnotations: [
        { type: 'TRUE_POSITIVE', predictions: [{ stringValue: 'cat' }], groundTruths: [{ stringValue: 'cat' }] },
      ],
    });
    assert.equal(ann.importedEvaluatedAnnotationsCount, 1);
  });

  it('exports the default version when the name has no version, and a named version', async () => {
    const { model } = await upload('exportable');
    await upload('exportable', {}, model);
    const op = await client.exportModel({
      name: model,
      outputConfig: {
        exportFormatId: 'custom-trained',
        artifactDestination: { outputUriPrefix: 'gs://export-bucket/out/' },
      },
    });
    await finish(op);
    assert.match(op.metadata?.outputInfo?.artifactOutputUri ?? '', /^gs:\/\/export-bucket\/out\//);
    const v2 = await client.exportModel({
      request: { name: `${model}@2`, outputConfig: { imageDestination: { outputUri: 'gcr.io/proj/exported:v2' } } },
    });
    await finish(v2);
    assert.match(v2.metadata?.outputInfo?.imageOutputUri ?? '', /^gcr\.io\/proj\/exported/);
  });

  it('copies a model to another location of the same project and refuses a cross-project copy', async () => {
    const { model } = await upload('copy-me');
    const op = await client.copyModel({
      request: { parent: `projects/${PROJECT}/locations/europe-west4`, sourceModel: model, modelId: 'copied' },
    });
    const res = await finish(op);
    assert.equal(res.model, `projects/${PROJECT}/locations/europe-west4/models/copied`);
    const copy = await client.getModel({ name: res.model });
    assert.equal(copy.displayName, 'copy-me');
    assert.ok(op.metadata?.genericMetadata?.createTime, 'metadata decoded');
    await assert.rejects(
      client.copyModel({ parent: 'projects/other-project/locations/europe-west4', sourceModel: model }).then(finish),
      rejectsWith('FAILED_PRECONDITION', /project/),
    );
  });

  it('refuses deleting the only version, a deployed version and a deployed model; deletes otherwise', async () => {
    const { model } = await upload('deletable');
    await assert.rejects(
      client.deleteModelVersion({ name: `${model}@1` }).then(finish),
      rejectsWith('FAILED_PRECONDITION', /only version/),
    );
    assert.throws(() => client.deleteModelVersion({ name: model }), RequestShapeError);
    await upload('deletable', {}, model);
    await upload('deletable', {}, model);

    const endpoint = (await finish(await client.createEndpoint(PARENT, { displayName: 'serving' }))).name!;
    await finish(
      await client.deployModel(endpoint, {
        model: `${model}@2`,
        dedicatedResources: { machineSpec: { machineType: 'n1-standard-2' }, minReplicaCount: 1 },
      }),
    );
    const found = await client.findDeployments(model);
    assert.equal(found.length, 1);
    assert.equal(found[0].endpoint.name, endpoint);
    assert.equal((await client.findDeployments(model, { versionId: '3' })).length, 0);

    await assert.rejects(
      client.deleteModelVersion({ name: `${model}@2` }).then(finish),
      rejectsWith('FAILED_PRECONDITION', /deployed/),
    );
    await assert.rejects(
      client.deleteModel({ name: model }).then(finish),
      rejectsWith('FAILED_PRECONDITION', /deployed/),
    );

    await finish(await client.deleteModelVersion({ name: `${model}@3` }));
    const left: string[] = [];
    for await (const v of client.listModelVersions({ name: model })) left.push(v.versionId!);
    assert.deepEqual(left.sort(), ['1', '2']);

    await finish(await client.undeployModel(endpoint, found[0].deployedModel.id!));
    await finish(await client.deleteModel({ name: model }));
    await assert.rejects(client.getModel({ name: model }), rejectsWith('NOT_FOUND'));
  });

  it('cancels a running operation (CancelOperation) and reports it; the copy does not happen', async () => {
    const { model } = await upload('to-cancel');
    const op = await client.copyModel({
      request: { parent: `projects/${PROJECT}/locations/us-east1`, sourceModel: model, modelId: 'never' },
    });
    const outcome = await op.cancel();
    assert.ok(['cancelled', 'requested'].includes(outcome.kind), outcome.message);
    await assert.rejects(finish(op), (e: unknown) => e instanceof OperationFailedError && e.status === 'CANCELLED');
    await assert.rejects(
      client.getModel({ name: `projects/${PROJECT}/locations/us-east1/models/never` }),
      rejectsWith('NOT_FOUND'),
    );
  });

  it('stops waiting with DeleteOperation, which does not cancel the operation', async () => {
    const { model } = await upload('keep-going');
    const op = await client.copyModel({
      request: { parent: `projects/${PROJECT}/locations/us-west1`, sourceModel: model, modelId: 'still-copied' },
    });
    await op.stopWaiting();
    await assert.rejects(client.getOperation(op.name), rejectsWith('NOT_FOUND'));
    sandbox.clock.advance(3600);
    // The work goes on: the copy appears although nobody waits for it.
    const copy = await client.getModel({ name: `projects/${PROJECT}/locations/us-west1/models/still-copied` });
    assert.equal(copy.displayName, 'keep-going');
  });

  it('gets and lists operations by name', async () => {
    const { model } = await upload('ops');
    const op = await client.deleteModel({ name: model });
    const got = await client.getOperation(op.name);
    assert.equal(got.name, op.name);
    assert.match(got.metadata?.type_url ?? '', /DeleteOperationMetadata$/);
    await finish(op);
    assert.equal((await client.getOperation(op.name)).done, true);
  });

  it('returns an empty IAM policy for an existing model and NOT_FOUND for a missing one', async () => {
    const { model } = await upload('iam');
    const policy = await client.getIamPolicy(model);
    assert.deepEqual(policy.bindings ?? [], []);
    await assert.rejects(client.getIamPolicy(`${PARENT}/models/404`), rejectsWith('NOT_FOUND'));
  });

  it('refuses a request message combined with flattened fields before any call', async () => {
    await assert.rejects(async () => client.getModel({ request: { name: 'a' }, name: 'b' }), RequestShapeError);
  });

  it('retries safe calls after UNAVAILABLE and gives up after the configured retries', async () => {
    const { model } = await upload('retry');
    sandbox.faults.configure([
      { method: 'google.cloud.aiplatform.v1beta1.ModelService/GetModel', errorRate: 1, codes: ['UNAVAILABLE'] },
    ]);
    const strict = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
      retry: { maxRetries: 2, initialBackoffMs: 1, maxBackoffMs: 2 },
      log: (m) => logs.push(m),
    });
    try {
      await assert.rejects(strict.getModel({ name: model }), rejectsWith('UNAVAILABLE'));
      assert.equal(logs.filter((l) => l.startsWith('GetModel')).length, 2, 'two retries after the first attempt');
    } finally {
      strict.close();
    }
    sandbox.faults.configure(
      [{ method: 'google.cloud.aiplatform.v1beta1.ModelService/GetModel', errorRate: 0.5, codes: ['UNAVAILABLE'] }],
      7,
    );
    for (let i = 0; i < 5; i++) assert.equal((await client.getModel({ name: model })).displayName, 'retry');
  });

  it('does not retry calls that are unsafe to repeat (CopyModel)', async () => {
    const { model } = await upload('no-retry');
    sandbox.faults.configure([
      { method: 'google.cloud.aiplatform.v1beta1.ModelService/CopyModel', errorRate: 1, codes: ['UNAVAILABLE'] },
    ]);
    await assert.rejects(
      client.copyModel({ parent: `projects/${PROJECT}/locations/us-east1`, sourceModel: model }),
      rejectsWith('UNAVAILABLE'),
    );
    assert.equal(logs.filter((l) => l.startsWith('CopyModel')).length, 0);
  });

  it("applies the per-call deadline and the caller's AbortSignal", async () => {
    const { model } = await upload('slow');
    sandbox.faults.configure([{ method: 'google.cloud.aiplatform.v1beta1.ModelService/GetModel', latencyMs: 3000 }]);
    await assert.rejects(
      client.getModel({ name: model }, { timeoutMs: 100, retry: { maxRetries: 0 } }),
      rejectsWith('DEADLINE_EXCEEDED'),
    );
    const ac = new AbortController();
    const pending = client.getModel({ name: model }, { signal: ac.signal });
    setImmediate(() => ac.abort());
    await assert.rejects(pending, CancelledError);
  });

  it('routes every call to the explicit endpoint and reports it', async () => {
    const choice = await client.endpointFor('europe-west4');
    assert.equal(choice.address, sandbox.grpc);
    assert.equal(choice.plaintext, true);
  });
});

describe('models client against the demo sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sandbox.grpc } });
  });
  after(async () => {
    client.close();
    await sandbox.close();
  });

  async function allModels(): Promise<Model[]> {
    const out: Model[] = [];
    for await (const l of client.listLocations(PROJECT)) {
      for await (const m of client.listModels({ parent: l.name! })) out.push(m);
    }
    return out;
  }

  it('refuses to export a model that has no supported export formats', async () => {
    const models = await allModels();
    const plain = models.find((m) => (m.supportedExportFormats ?? []).length === 0);
    assert.ok(plain, 'the demo data holds a model that is not exportable');
    await assert.rejects(
      client
        .exportModel({
          name: plain.name!,
          outputConfig: { artifactDestination: { outputUriPrefix: 'gs://export-bucket/out/' } },
        })
        .then((op) => op.wait({ initialDelayMs: 5 })),
      rejectsWith('FAILED_PRECONDITION', /export/),
    );
  });

  it('browses model → version → evaluation → slice as the tree does', async () => {
    let found = false;
    for (const m of await allModels()) {
      for await (const v of client.listModelVersions({ name: m.name! })) {
        for await (const e of client.listModelEvaluations({ parent: `${m.name}@${v.versionId}` })) {
          for await (const s of client.listModelEvaluationSlices({ parent: e.name! })) {
            assert.ok(s.name!.startsWith(`${e.name}/slices/`));
            found = true;
            break;
          }
          if (found) break;
        }
        if (found) break;
      }
      if (found) break;
    }
    assert.ok(found, 'some version has an evaluation with slices');
  });
});
