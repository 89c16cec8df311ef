// The calls of Edit, version-aware Copy, the Operations view's server list and Undeploy, made with
// Google's OFFICIAL clients (aiplatform v1beta1 ModelServiceClient, EndpointServiceClient and the
// Operations mixin) against the sandbox, with the requests Cloudbench's own modules build, and the
// same calls through Cloudbench's client, read by the same modules.
import * as assert from 'node:assert/strict';
import { updateModelRequest, editableFields } from '../../../src/core/models/edit';
import { parseLabels } from '../../../src/core/models/labels';
import { isCurrent, readServerOperation } from '../../../src/core/models/server-operations';
import { trafficShares, trafficSplitOf, undeployPlan } from '../../../src/core/models/traffic';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { GoogleApiError } from '../../../src/core/google/errors';
import type { Endpoint } from '../../../src/core/models/types';
import { EU, US, finish, modelByDisplayName, opRequest, rejectsWith, useHarness } from './harness';

describe('sandbox gRPC: edit, copy a version, every operation, undeploy (official aiplatform clients)', function () {
  this.timeout(60_000);
  const h = useHarness();
  let ours: ModelRegistryClient;
  beforeEach(() => {
    ours = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: h.sandbox.grpc } });
  });
  afterEach(() => ours.close());

  async function endpointByName(displayName: string): Promise<Endpoint> {
    const [endpoints] = await h.endpoints.listEndpoints({ parent: US });
    const found = endpoints.find((e) => e.displayName === displayName);
    assert.ok(found, displayName);
    return found as unknown as Endpoint;
  }

  it('UpdateModel with only the changed labels in the mask; a stale etag is ABORTED and changes nothing', async () => {
    const name = `${US}/models/churn-predictor`;
    const [read] = await h.models.getModel({ name });
    const before = editableFields(read as never, 'model');
    const labels = parseLabels('env=prod, team=growth, équipe=données');
    assert.ok(labels.labels);
    const call = updateModelRequest(
      name,
      'model',
      before,
      { ...before, labels: labels.labels },
      read.etag ?? undefined,
    )!;
    assert.deepEqual(call.updateMask.paths, ['labels']);
    const [updated] = await h.models.updateModel(call as never);
    // The model's labels are now exactly the edited set (the service shows version labels merged in).
    for (const [k, v] of Object.entries(labels.labels)) assert.equal(updated.labels?.[k], v, k);
    assert.equal(updated.labels?.['cost-center'], undefined, 'a model label left out of the edit is removed');
    assert.equal(updated.displayName, read.displayName, 'fields outside the mask are kept');
    // The etag of the first read is stale now: the same edit again is refused, nothing is written.
    const stale = updateModelRequest(name, 'model', before, { ...before, description: 'overwrite?' }, read.etag!)!;
    await rejectsWith(h.models.updateModel(stale as never), 'ABORTED', /etag/);
    const [after] = await h.models.getModel({ name });
    assert.equal(after.description, read.description);
    // Cloudbench's client gets the same answer as a GoogleApiError the edit command recognises.
    await assert.rejects(ours.updateModel({ request: stale }), (err: unknown) => {
      assert.ok(err instanceof GoogleApiError && err.status === 'ABORTED');
      return true;
    });
    // A version edit names the version and sends version_description.
    const v = editableFields((await h.models.getModel({ name: `${name}@2` }))[0] as never, 'version');
    const vcall = updateModelRequest(`${name}@2`, 'version', v, { ...v, description: 'promoted' })!;
    const [version] = await ours.updateModel({ request: vcall }).then((m) => [m]);
    assert.equal(version.versionDescription, 'promoted');
    assert.equal(version.versionId, '2');
  });

  it('CopyModel of version 2 as a new version of a model in another location (parent_model)', async () => {
    const source = await modelByDisplayName(h.models, US, 'churn-predictor');
    const target = await modelByDisplayName(h.models, EU, 'xgb-credit-scoring');
    const [versionsBefore] = await h.models.listModelVersions({ name: target });
    const [op] = await h.models.copyModel({ parent: EU, sourceModel: `${source}@2`, parentModel: target });
    const [result] = (await finish(h.sandbox, op)) as unknown as [{ model: string; modelVersionId: string }];
    assert.equal(result.model, target);
    const [copy] = await h.models.getModel({ name: `${target}@${result.modelVersionId}` });
    assert.match(copy.originalModelInfo?.model ?? '', new RegExp(`${source.split('/').pop()}@2$`));
    const [versionsAfter] = await h.models.listModelVersions({ name: target });
    assert.equal(versionsAfter.length, versionsBefore.length + 1);
    // Cloudbench's client: a new model from version 3, with a chosen id.
    const ourOp = await ours.copyModel({ request: { parent: EU, sourceModel: `${source}@3`, modelId: 'churn-eu' } });
    h.sandbox.clock.advance(600);
    const made = await ourOp.wait({ initialDelayMs: 5, maxDelayMs: 20 });
    assert.equal(made.model, `${EU}/models/churn-eu`);
  });

  it('ListOperations per location lists operations started by anyone; Cloudbench reads them, follows and cancels by name', async () => {
    const source = await modelByDisplayName(h.models, US, 'churn-predictor');
    const [started] = await h.models.copyModel({ parent: EU, sourceModel: `${source}@2` });
    const official: string[] = [];
    for await (const op of h.models.listOperationsAsync(opRequest({ name: EU }))) official.push(op.name ?? '');
    assert.ok(official.includes(started.name!), 'the official operations client lists it under the destination');
    // Cloudbench's client and reader: named, running, current.
    const listed = [];
    for await (const raw of ours.listOperations({ name: EU })) listed.push(readServerOperation(raw));
    const mine = listed.find((o) => o?.name === started.name);
    assert.ok(mine, 'Cloudbench lists it');
    assert.equal(mine.method, 'CopyModel');
    assert.equal(mine.kind, 'copy');
    assert.equal(mine.state, 'running');
    assert.ok(isCurrent(mine, new Date()));
    // Cancel by name through Cloudbench's client; the official GetOperation sees CANCELLED (code 1).
    await ours.cancelOperation(started.name!);
    const [after] = await h.models.getOperation(opRequest({ name: started.name }));
    assert.equal(after.done, true);
    assert.equal(after.error?.code, 1);
    const reread = [];
    for await (const raw of ours.listOperations({ name: EU })) reread.push(readServerOperation(raw));
    assert.equal(reread.find((o) => o?.name === started.name)?.state, 'cancelled');
  });

  it('GetEndpoint gives the traffic split; UndeployModel moves a share to the others, as Cloudbench plans it', async () => {
    const fraud = await endpointByName('fraud-realtime');
    const [endpoint] = await h.endpoints.getEndpoint({ name: fraud.name });
    const shares = trafficShares(endpoint as unknown as Endpoint);
    assert.deepEqual(
      shares.map((s) => s.share).sort((a, b) => a - b),
      [10, 90],
    );
    const small = shares.find((s) => s.share === 10)!;
    const plan = undeployPlan(endpoint as unknown as Endpoint, small.deployedModelId);
    assert.equal(plan.kind, 'redistribute');
    // Without the new split the service refuses: the model still receives traffic.
    await rejectsWith(
      h.endpoints.undeployModel({ endpoint: fraud.name, deployedModelId: small.deployedModelId }),
      'FAILED_PRECONDITION',
      /traffic/,
    );
    const split = plan.kind === 'redistribute' ? plan.split : {};
    const [op] = await h.endpoints.undeployModel({
      endpoint: fraud.name,
      deployedModelId: small.deployedModelId,
      trafficSplit: split,
    });
    await finish(h.sandbox, op);
    const [after] = await h.endpoints.getEndpoint({ name: fraud.name });
    assert.deepEqual(trafficSplitOf(after as unknown as Endpoint), split);
    assert.equal(after.deployedModels?.length, 1);
  });

  it('UndeployModel through Cloudbench: the last 100% is planned as "lastTraffic", and a real cancel leaves it deployed', async () => {
    const churn = await endpointByName('churn-online');
    const [endpoint] = await h.endpoints.getEndpoint({ name: churn.name });
    const only = trafficShares(endpoint as unknown as Endpoint)[0];
    assert.deepEqual(undeployPlan(endpoint as unknown as Endpoint, only.deployedModelId), {
      kind: 'lastTraffic',
      share: 100,
      others: [],
    });
    const op = await ours.undeployModel(churn.name!, only.deployedModelId);
    const outcome = await op.cancel();
    assert.equal(outcome.kind, 'cancelled', outcome.message);
    const [still] = await h.endpoints.getEndpoint({ name: churn.name });
    assert.equal(still.deployedModels?.length, 1, 'a cancelled undeploy changes nothing');
    // Undeployed for real this time; the endpoint's split ends empty.
    const again = await ours.undeployModel(churn.name!, only.deployedModelId, { trafficSplit: {} });
    h.sandbox.clock.advance(600);
    await again.wait({ initialDelayMs: 5, maxDelayMs: 20 });
    const [after] = await h.endpoints.getEndpoint({ name: churn.name });
    assert.equal(after.deployedModels?.length ?? 0, 0);
    assert.deepEqual(trafficSplitOf(after as unknown as Endpoint), {});
  });
});
