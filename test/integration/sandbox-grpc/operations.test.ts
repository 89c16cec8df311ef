import * as assert from 'node:assert/strict';
import { EU, US, finish, modelByDisplayName, opRequest, openHarness, rejectsWith, useHarness } from './harness';

const AIP = 'google.cloud.aiplatform.v1beta1';

describe('sandbox gRPC: long-running model operations (official aiplatform client)', function () {
  this.timeout(60_000);
  const h = useHarness();

  it('deletes an undeployed model through an LRO with DeleteOperationMetadata and an Empty result', async () => {
    const name = await modelByDisplayName(h.models, US, 'house-price-estimator');
    const [op] = await h.models.deleteModel({ name });
    assert.equal(op.done, false, 'the operation runs for a while');
    assert.match(op.name!, new RegExp(`^${name}/operations/\\d+$`));
    assert.equal(
      op.latestResponse.metadata?.type_url ?? (op.latestResponse.metadata as { typeUrl?: string } | null)?.typeUrl,
      `type.googleapis.com/${AIP}.DeleteOperationMetadata`,
    );
    // Still there while the operation runs.
    await h.models.getModel({ name });
    await finish(h.sandbox, op);
    assert.equal(op.done, true);
    await rejectsWith(h.models.getModel({ name }), 'NOT_FOUND');
  });

  it('refuses to delete a model deployed on an endpoint with FAILED_PRECONDITION', async () => {
    const err = await rejectsWith(
      h.models.deleteModel({ name: `${US}/models/churn-predictor` }),
      'FAILED_PRECONDITION',
      /deployed/,
    );
    assert.match(err.message, /endpoints\/\d+/, 'the message names the endpoint');
    await rejectsWith(
      h.models.deleteModel({ name: `${US}/models/churn-predictor@1` }),
      'INVALID_ARGUMENT',
      /DeleteModelVersion/,
    );
  });

  it('deletes a single version but refuses the only, the default and a deployed version', async () => {
    const name = await modelByDisplayName(h.models, US, 'house-price-estimator');
    const [versions] = await h.models.listModelVersions({ name });
    const victim = versions.find((v) => !v.versionAliases!.includes('default'))!;
    const def = versions.find((v) => v.versionAliases!.includes('default'))!;
    await rejectsWith(
      h.models.deleteModelVersion({ name: `${name}@${def.versionId}` }),
      'FAILED_PRECONDITION',
      /default/,
    );
    await rejectsWith(h.models.deleteModelVersion({ name }), 'INVALID_ARGUMENT', /explicit version/);
    const [op] = await h.models.deleteModelVersion({ name: `${name}@${victim.versionId}` });
    await finish(h.sandbox, op);
    const [after] = await h.models.listModelVersions({ name });
    assert.equal(after.length, versions.length - 1);
    assert.ok(!after.some((v) => v.versionId === victim.versionId));

    const only = await modelByDisplayName(h.models, US, 'toxicity-filter');
    await rejectsWith(h.models.deleteModelVersion({ name: `${only}@1` }), 'FAILED_PRECONDITION', /only version/);

    const fraud = await modelByDisplayName(h.models, US, 'fraud-detector');
    const [fraudVersions] = await h.models.listModelVersions({ name: fraud });
    const deployed = fraudVersions.find(
      (v) => (v.deployedModels ?? []).length > 0 && !v.versionAliases!.includes('default'),
    )!;
    await rejectsWith(
      h.models.deleteModelVersion({ name: `${fraud}@${deployed.versionId}` }),
      'FAILED_PRECONDITION',
      /deployed/,
    );
  });

  it('exports an exportable model and refuses one without export formats', async () => {
    const name = await modelByDisplayName(h.models, US, 'wide-deep-ctr');
    const [op] = await h.models.exportModel({
      name,
      outputConfig: {
        exportFormatId: 'custom-trained',
        artifactDestination: { outputUriPrefix: 'gs://my-exports/ctr/' },
      },
    });
    const metadata = op.metadata as { outputInfo?: { artifactOutputUri?: string } } | null;
    assert.match(
      metadata?.outputInfo?.artifactOutputUri ?? '',
      /^gs:\/\/my-exports\/ctr\/model-export-wide-deep-ctr-\d{4}-\d\d-\d\dT/,
    );
    const [response] = await finish(h.sandbox, op);
    assert.deepEqual(
      Object.keys(response ?? {}).filter((k) => !k.startsWith('_')),
      [],
    );
    assert.equal(op.result?.constructor?.name, 'ExportModelResponse');

    const automl = await modelByDisplayName(h.models, US, 'support-ticket-router');
    await rejectsWith(
      h.models.exportModel({
        name: automl,
        outputConfig: { artifactDestination: { outputUriPrefix: 'gs://demo-exports/x' } },
      }),
      'FAILED_PRECONDITION',
      /not exportable/,
    );
    await rejectsWith(
      h.models.exportModel({
        name,
        outputConfig: { exportFormatId: 'onnx', artifactDestination: { outputUriPrefix: 'gs://demo-exports/x' } },
      }),
      'INVALID_ARGUMENT',
      /onnx/,
    );
    await rejectsWith(
      h.models.exportModel({ name, outputConfig: { artifactDestination: { outputUriPrefix: 's3://demo-exports/x' } } }),
      'INVALID_ARGUMENT',
      /gs:/,
    );
    await rejectsWith(h.models.exportModel({ name }), 'INVALID_ARGUMENT', /output_config/);
  });

  it('copies a model into another location of the same project, never across projects', async () => {
    const source = `${US}/models/churn-predictor`;
    const [op] = await h.models.copyModel({ parent: EU, sourceModel: source, modelId: 'churn-eu' });
    const [response] = await finish(h.sandbox, op);
    assert.equal(response.model, `${EU}/models/churn-eu`);
    assert.equal(response.modelVersionId, '1');
    const [copy] = await h.models.getModel({ name: `${EU}/models/churn-eu` });
    // The original names its version (reference A.3): the default version, 4, was copied.
    const [original] = await h.models.getModel({ name: source });
    assert.equal(copy.originalModelInfo?.model, `${source}@${original.versionId}`);
    assert.equal(copy.modelSourceInfo?.copy, true);
    assert.deepEqual(copy.versionAliases, ['default']);

    await rejectsWith(
      h.models.copyModel({ parent: 'projects/other-project/locations/europe-west4', sourceModel: source }),
      'FAILED_PRECONDITION',
      /project/,
    );
    await rejectsWith(h.models.copyModel({ parent: EU, sourceModel: source, modelId: 'churn-eu' }), 'ALREADY_EXISTS');
    await rejectsWith(h.models.copyModel({ parent: EU, sourceModel: `${US}/models/missing` }), 'NOT_FOUND');
  });

  it('cancels a running operation: it ends with CANCELLED (code 1) and changes nothing', async () => {
    const name = await modelByDisplayName(h.models, US, 'customer-ltv');
    const [op] = await h.models.deleteModel({ name });
    await h.models.cancelOperation(opRequest({ name: op.name! }));
    const [state] = await h.models.getOperation(opRequest({ name: op.name! }));
    assert.equal(state.done, true);
    assert.equal(state.error?.code, 1);
    await assert.rejects(op.promise(), (err: Error & { code?: number }) => err.code === 1);
    h.sandbox.clock.advance(600);
    await h.models.getModel({ name });
  });

  it('lists, gets, waits for and deletes operations; unknown ones are NOT_FOUND', async () => {
    const name = await modelByDisplayName(h.models, US, 'lead-scoring');
    const [op] = await h.models.exportModel({
      name,
      outputConfig: { artifactDestination: { outputUriPrefix: 'gs://demo-exports/lead' } },
    });
    const listed = [];
    for await (const o of h.models.listOperationsAsync(opRequest({ name }))) listed.push(o.name);
    assert.deepEqual(listed, [op.name]);
    const running = [];
    for await (const o of h.models.listOperationsAsync(opRequest({ name: US, filter: 'done=false' })))
      running.push(o.name);
    assert.ok(running.includes(op.name));
    h.sandbox.clock.advance(600);
    const [done] = await h.models.getOperation(opRequest({ name: op.name! }));
    assert.equal(done.done, true);
    assert.equal(
      done.response?.type_url ?? (done.response as { typeUrl?: string } | null)?.typeUrl,
      `type.googleapis.com/${AIP}.ExportModelResponse`,
    );
    await h.models.deleteOperation(opRequest({ name: op.name! }));
    await rejectsWith(h.models.getOperation(opRequest({ name: op.name! })), 'NOT_FOUND');
    await rejectsWith(h.models.getOperation(opRequest({ name: `${US}/operations/123` })), 'NOT_FOUND');
    await rejectsWith(h.models.getOperation(opRequest({ name: 'bogus' })), 'INVALID_ARGUMENT');
  });

  it('completes operations on real time too, without a clock advance', async () => {
    process.env.CLOUDBENCH_SANDBOX_OPERATION_SECONDS = '{"DeleteModelVersion":0}';
    let quick: Awaited<ReturnType<typeof openHarness>>;
    try {
      quick = await openHarness();
    } finally {
      delete process.env.CLOUDBENCH_SANDBOX_OPERATION_SECONDS;
    }
    try {
      const name = await modelByDisplayName(quick.models, US, 'demand-forecast-weekly');
      const [versions] = await quick.models.listModelVersions({ name });
      const victim = versions.find((v) => !v.versionAliases!.includes('default') && !(v.deployedModels ?? []).length)!;
      const [op] = await quick.models.deleteModelVersion({ name: `${name}@${victim.versionId}` });
      assert.equal(op.done, true, 'a zero running time finishes at once');
      await op.promise();
    } finally {
      await quick.close();
    }
  });
});
