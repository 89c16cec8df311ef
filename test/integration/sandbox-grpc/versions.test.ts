import * as assert from 'node:assert/strict';
import { US, finish, modelByDisplayName, rejectsWith, useHarness } from './harness';

const CONTAINER = { imageUri: 'us-docker.pkg.dev/vertex-ai/prediction/sklearn-cpu.1-5:latest' };

describe('sandbox gRPC: upload, versions, aliases, updates, checkpoints (official aiplatform client)', function () {
  this.timeout(60_000);
  const h = useHarness();

  it('uploads a new model whose first version gets the alias default, then new versions with parent_model', async () => {
    const [op] = await h.models.uploadModel({
      parent: US,
      modelId: 'spam-filter',
      model: {
        displayName: 'spam-filter',
        artifactUri: 'gs://demo-models/spam/v1',
        containerSpec: CONTAINER,
        labels: { team: 'trust' },
      },
    });
    await h.models.getModel({ name: `${US}/models/nothing-yet` }).catch(() => undefined);
    await rejectsWith(h.models.getModel({ name: `${US}/models/spam-filter` }), 'NOT_FOUND');
    await rejectsWith(
      h.models.uploadModel({
        parent: US,
        modelId: 'spam-filter',
        model: { displayName: 'again', containerSpec: CONTAINER },
      }),
      'ALREADY_EXISTS',
    );
    const [response] = await finish(h.sandbox, op);
    assert.equal(response.model, `${US}/models/spam-filter`);
    assert.equal(response.modelVersionId, '1');
    const [first] = await h.models.getModel({ name: `${US}/models/spam-filter` });
    assert.deepEqual(first.versionAliases, ['default']);
    assert.equal(first.labels!.team, 'trust');
    assert.ok((first.supportedExportFormats ?? []).length > 0, 'an uploaded artifact is exportable');

    const [op2] = await h.models.uploadModel({
      parent: US,
      parentModel: `${US}/models/spam-filter`,
      model: {
        displayName: 'spam-filter',
        versionDescription: 'more data',
        artifactUri: 'gs://demo-models/spam/v2',
        containerSpec: CONTAINER,
        versionAliases: ['candidate'],
      },
    });
    const [r2] = await finish(h.sandbox, op2);
    assert.equal(r2.modelVersionId, '2');
    const [v2] = await h.models.getModel({ name: `${US}/models/spam-filter@candidate` });
    assert.equal(v2.versionId, '2');
    assert.equal(v2.versionDescription, 'more data');
    const [stillDefault] = await h.models.getModel({ name: `${US}/models/spam-filter` });
    assert.equal(stillDefault.versionId, '1', 'a new version does not take the default alias');
  });

  it('refuses bad uploads with INVALID_ARGUMENT or NOT_FOUND', async () => {
    await rejectsWith(
      h.models.uploadModel({ parent: US, model: { containerSpec: CONTAINER } }),
      'INVALID_ARGUMENT',
      /display_name/,
    );
    await rejectsWith(
      h.models.uploadModel({ parent: US, model: { displayName: 'x' } }),
      'INVALID_ARGUMENT',
      /container_spec|artifact_uri/,
    );
    await rejectsWith(
      h.models.uploadModel({ parent: US, modelId: '9lives', model: { displayName: 'x', containerSpec: CONTAINER } }),
      'INVALID_ARGUMENT',
      /model_id/,
    );
    await rejectsWith(
      h.models.uploadModel({
        parent: US,
        model: { displayName: 'x', containerSpec: CONTAINER, labels: { Team: 'x' } },
      }),
      'INVALID_ARGUMENT',
      /Label key/,
    );
    await rejectsWith(
      h.models.uploadModel({ parent: US, model: { displayName: 'x', artifactUri: 'https://example.com/m' } }),
      'INVALID_ARGUMENT',
      /gs:/,
    );
    await rejectsWith(
      h.models.uploadModel({
        parent: US,
        parentModel: `${US}/models/missing`,
        model: { displayName: 'x', containerSpec: CONTAINER },
      }),
      'NOT_FOUND',
    );
    await rejectsWith(h.models.uploadModel({ parent: US }), 'INVALID_ARGUMENT', /model is required/);
  });

  it('moves the default alias with MergeVersionAliases and never leaves a model without one', async () => {
    const name = `${US}/models/churn-predictor`;
    const [model] = await h.models.mergeVersionAliases({ name: `${name}@1`, versionAliases: ['default', 'golden'] });
    assert.ok(model.versionAliases!.includes('default') && model.versionAliases!.includes('golden'));
    const [versions] = await h.models.listModelVersions({ name });
    assert.deepEqual(
      versions.filter((v) => v.versionAliases!.includes('default')).map((v) => v.versionId),
      ['1'],
    );
    const [bare] = await h.models.getModel({ name });
    assert.equal(bare.versionId, '1');

    const [removed] = await h.models.mergeVersionAliases({ name: `${name}@golden`, versionAliases: ['-golden'] });
    assert.ok(removed.versionAliases!.includes('default') && !removed.versionAliases!.includes('golden'));
    await rejectsWith(
      h.models.mergeVersionAliases({ name: `${name}@1`, versionAliases: ['-default'] }),
      'FAILED_PRECONDITION',
      /default/,
    );
    await rejectsWith(
      h.models.mergeVersionAliases({ name: `${name}@1`, versionAliases: ['Bad_Alias'] }),
      'INVALID_ARGUMENT',
      /alias/,
    );
    await rejectsWith(h.models.mergeVersionAliases({ name: `${name}@1`, versionAliases: ['7'] }), 'INVALID_ARGUMENT');
    await rejectsWith(h.models.mergeVersionAliases({ name, versionAliases: ['x1'] }), 'INVALID_ARGUMENT', /version/);
    const [cancelled] = await h.models.mergeVersionAliases({ name: `${name}@2`, versionAliases: ['temp', '-temp'] });
    assert.ok(!cancelled.versionAliases!.includes('temp'), 'adding and removing the same alias cancel out');
  });

  it('updates model fields with a model name and version fields with a version name', async () => {
    const name = `${US}/models/churn-predictor`;
    const [updated] = await h.models.updateModel({
      model: { name, displayName: 'Churn v2', description: 'new words' },
      updateMask: { paths: ['display_name', 'description'] },
    });
    assert.equal(updated.displayName, 'Churn v2');
    const [version] = await h.models.updateModel({
      model: { name: `${name}@2`, versionDescription: 'second' },
      updateMask: { paths: ['version_description'] },
    });
    assert.equal(version.versionId, '2');
    assert.equal(version.versionDescription, 'second');
    const [dash] = await h.models.updateModel({
      model: { name: `${name}@-`, labels: { team: 'growth', tier: 'gold' } },
      updateMask: { paths: ['labels'] },
    });
    assert.equal(dash.labels!.tier, 'gold');

    await rejectsWith(
      h.models.updateModel({ model: { name: `${name}@2`, displayName: 'x' }, updateMask: { paths: ['display_name'] } }),
      'FAILED_PRECONDITION',
    );
    await rejectsWith(
      h.models.updateModel({
        model: { name, versionDescription: 'x' },
        updateMask: { paths: ['version_description'] },
      }),
      'FAILED_PRECONDITION',
    );
    await rejectsWith(
      h.models.updateModel({ model: { name, artifactUri: 'gs://x/y' }, updateMask: { paths: ['artifact_uri'] } }),
      'INVALID_ARGUMENT',
      /artifact/,
    );
    await rejectsWith(h.models.updateModel({ model: { name, displayName: 'x' } }), 'INVALID_ARGUMENT', /update_mask/);
    await rejectsWith(
      h.models.updateModel({
        model: { name, displayName: 'x', etag: 'stale' },
        updateMask: { paths: ['display_name'] },
      }),
      'ABORTED',
    );
    const [fresh] = await h.models.getModel({ name });
    const [withEtag] = await h.models.updateModel({
      model: { name, displayName: 'Churn v3', etag: fresh.etag },
      updateMask: { paths: ['displayName'] },
    });
    assert.equal(withEtag.displayName, 'Churn v3');
  });

  it('lists versions in pages and in the requested order', async () => {
    const name = await modelByDisplayName(h.models, US, 'wide-deep-ctr');
    const ids: string[] = [];
    for await (const v of h.models.listModelVersionsAsync({ name, pageSize: 2 })) ids.push(v.versionId!);
    assert.deepEqual(ids, ['1', '2', '3', '4', '5']);
    const [desc] = await h.models.listModelVersions({ name, orderBy: 'create_time desc' });
    assert.deepEqual(
      desc.map((v) => v.versionId),
      ['5', '4', '3', '2', '1'],
    );
    await rejectsWith(h.models.listModelVersions({ name, orderBy: 'display_name' }), 'INVALID_ARGUMENT', /order_by/);
    const [labelled] = await h.models.listModelVersions({ name, filter: 'labels.training-run="run-002"' });
    assert.deepEqual(
      labelled.map((v) => v.versionId),
      ['2'],
    );
    await rejectsWith(h.models.listModelVersions({ name: `${name}@1` }), 'INVALID_ARGUMENT');
  });

  it('lists checkpoints of the latest version for a bare name and of a named version', async () => {
    const name = `${US}/models/gemma-support-tuned`;
    const [latest] = await h.models.listModelVersionCheckpoints({ name });
    const [v3] = await h.models.getModel({ name: `${name}@3` });
    assert.deepEqual(
      latest.map((c) => c.checkpointId),
      v3.checkpoints!.map((c) => c.checkpointId),
      'bare name = latest version',
    );
    assert.ok(latest.length >= 3);
    assert.equal(String(latest[0].step), '250');
    const [first] = await h.models.listModelVersionCheckpoints({ name: `${name}@1` });
    assert.ok(first.length >= 3);
    const paged: string[] = [];
    for await (const c of h.models.listModelVersionCheckpointsAsync({ name, pageSize: 1 })) paged.push(c.checkpointId!);
    assert.equal(paged.length, latest.length);
    const [none] = await h.models.listModelVersionCheckpoints({ name: `${US}/models/churn-predictor` });
    assert.equal(none.length, 0);
  });

  it('exports the default version for a bare name, and the named version otherwise', async () => {
    // Version 1 has only a serving container (image export); version 2 also has an artifact.
    const [op1] = await h.models.uploadModel({
      parent: US,
      modelId: 'two-kinds',
      model: { displayName: 'two-kinds', containerSpec: CONTAINER },
    });
    await finish(h.sandbox, op1);
    const [op2] = await h.models.uploadModel({
      parent: US,
      parentModel: `${US}/models/two-kinds`,
      model: { displayName: 'two-kinds', artifactUri: 'gs://demo-models/two-kinds/v2', containerSpec: CONTAINER },
    });
    await finish(h.sandbox, op2);
    const artifact = {
      exportFormatId: 'custom-trained',
      artifactDestination: { outputUriPrefix: 'gs://demo-exports/two-kinds' },
    };
    await rejectsWith(
      h.models.exportModel({ name: `${US}/models/two-kinds`, outputConfig: artifact }),
      'INVALID_ARGUMENT',
      /artifact/,
    );
    const [ok] = await h.models.exportModel({ name: `${US}/models/two-kinds@2`, outputConfig: artifact });
    await finish(h.sandbox, ok);
    const [image] = await h.models.exportModel({
      name: `${US}/models/two-kinds`,
      outputConfig: { imageDestination: { outputUri: 'us-docker.pkg.dev/demo/exports/two-kinds:v1' } },
    });
    await finish(h.sandbox, image);
    assert.equal(
      (image.metadata as { outputInfo?: { imageOutputUri?: string } }).outputInfo?.imageOutputUri,
      'us-docker.pkg.dev/demo/exports/two-kinds:v1',
    );
  });
});
