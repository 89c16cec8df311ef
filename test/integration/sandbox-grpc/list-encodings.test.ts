// ListModels pages are put together from each model's encoding, kept until the store changes: the
// official client and Cloudbench's decode the same models from them, the same as GetModel answers,
// and every kind of change shows in the next page at once.
import * as assert from 'node:assert/strict';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { AIPLATFORM, normalizeMessage, type ProtoObject } from '../../../src/core/proto';
import { US, finish, modelByDisplayName, useHarness } from './harness';

const MODEL = `${AIPLATFORM}.Model`;

/** One shape for models decoded by either client: every field, defaults filled in. */
const same = (model: object): ProtoObject => normalizeMessage(MODEL, model as ProtoObject);

describe('sandbox gRPC: ListModels pages from kept encodings', function () {
  this.timeout(60_000);
  const h = useHarness();
  let ours: ModelRegistryClient;

  beforeEach(() => {
    ours = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: h.sandbox.grpc } });
  });
  afterEach(() => ours.close());

  async function officialPages(pageSize: number): Promise<Array<{ models: ProtoObject[]; token: string }>> {
    const pages = [];
    let pageToken = '';
    do {
      const [models, , response] = await h.models.listModels(
        { parent: US, pageSize, pageToken },
        { autoPaginate: false },
      );
      pages.push({ models: models.map(same), token: response?.nextPageToken ?? '' });
      pageToken = response?.nextPageToken ?? '';
    } while (pageToken);
    return pages;
  }

  it('the official client and ours decode the same pages, and each model as GetModel answers it', async () => {
    // Twice: the second time every model comes from a kept encoding.
    for (let round = 0; round < 2; round++) {
      const official = await officialPages(4);
      assert.ok(official.length > 2, 'the demo seed fills several pages of 4');
      let pageToken: string | undefined;
      for (const page of official) {
        const mine = await ours.listModelsPage({ parent: US, pageSize: 4, ...(pageToken ? { pageToken } : {}) });
        assert.deepEqual(mine.items.map(same), page.models);
        assert.equal(mine.nextPageToken ?? '', page.token);
        pageToken = mine.nextPageToken;
      }
      const all = official.flatMap((p) => p.models);
      const rich = all.filter(
        (m) => (m.deployedModels as unknown[]).length > 0 && Object.keys(m.labels as object).length,
      );
      assert.ok(rich.length > 0, 'some demo models are deployed and labelled');
      for (const model of all) {
        const [got] = await h.models.getModel({ name: model.name as string });
        assert.deepEqual(model, same(got));
      }
      const streamed = [];
      for await (const model of ours.listModels({ request: { parent: US, pageSize: 4 } })) streamed.push(same(model));
      assert.deepEqual(streamed, all);
    }
  });

  it('a read mask still gives each model only the fields asked for', async () => {
    const [models] = await h.models.listModels({ parent: US, readMask: { paths: ['display_name'] } });
    assert.ok(models.length > 0);
    for (const m of models) {
      assert.ok(m.name && m.displayName);
      assert.equal(m.versionId, '');
      assert.deepEqual(m.labels, {});
    }
  });

  it('shows every change in the next page at once', async () => {
    const listed = async (name: string): Promise<ProtoObject | undefined> => {
      for await (const m of ours.listModels({ request: { parent: US, pageSize: 1000 } }))
        if (m.name === name) return same(m);
      return undefined;
    };
    const name = await modelByDisplayName(h.models, US, 'house-price-estimator');
    const before = await listed(name);
    assert.ok(before);

    // A unary change.
    await h.models.updateModel({ model: { name, displayName: 'renamed' }, updateMask: { paths: ['display_name'] } });
    assert.equal((await listed(name))?.displayName, 'renamed');

    // A new default version, from an upload that finishes on the sandbox clock.
    const [upload] = await h.models.uploadModel({
      parent: US,
      parentModel: name,
      model: {
        displayName: 'renamed',
        versionAliases: ['default'],
        containerSpec: { imageUri: 'us-docker.pkg.dev/vertex-ai/prediction/sklearn-cpu.1-3:latest' },
      },
    });
    // Listed while the upload runs: the version is not there yet.
    assert.equal((await listed(name))?.versionId, before.versionId);
    const [uploaded] = await finish(h.sandbox, upload);
    const newest = await listed(name);
    assert.equal(newest?.versionId, uploaded.modelVersionId);
    assert.deepEqual(newest?.versionAliases, ['default']);

    // A deployment: the model's own fields stay, its deployedModels change.
    const [endpoints] = await h.endpoints.listEndpoints({ parent: US });
    const endpoint = endpoints[0].name!;
    const [deploy] = await h.endpoints.deployModel({
      endpoint,
      deployedModel: {
        model: `${name}@${uploaded.modelVersionId}`,
        dedicatedResources: { machineSpec: { machineType: 'n1-standard-2' }, minReplicaCount: 1 },
      },
      trafficSplit: {},
    });
    assert.deepEqual((await listed(name))?.deployedModels, [], 'not deployed before the operation is done');
    const [deployed] = await finish(h.sandbox, deploy);
    assert.deepEqual(
      ((await listed(name))?.deployedModels as ProtoObject[]).map((d) => [d.endpoint, d.deployedModelId]),
      [[endpoint, deployed.deployedModel!.id]],
    );

    // A deletion.
    const [undeploy] = await h.endpoints.undeployModel({ endpoint, deployedModelId: deployed.deployedModel!.id! });
    await finish(h.sandbox, undeploy);
    assert.deepEqual((await listed(name))?.deployedModels, []);
    const [del] = await h.models.deleteModel({ name });
    assert.ok(await listed(name), 'still there while the deletion runs');
    await finish(h.sandbox, del);
    assert.equal(await listed(name), undefined);
  });
});
