import * as assert from 'node:assert/strict';
import { US, finish, modelByDisplayName, opRequest, rejectsWith, useHarness } from './harness';

describe('sandbox gRPC: endpoints, deployments, IAM policies and locations (official aiplatform clients)', function () {
  this.timeout(60_000);
  const h = useHarness();

  it('creates an endpoint, deploys a model, refuses deletes while deployed, then undeploys', async () => {
    const [create] = await h.endpoints.createEndpoint({
      parent: US,
      endpoint: { displayName: 'scoring' },
      endpointId: 'scoring',
    });
    const [endpoint] = await finish(h.sandbox, create);
    assert.equal(endpoint.name, `${US}/endpoints/scoring`);
    await rejectsWith(
      h.endpoints.createEndpoint({ parent: US, endpoint: { displayName: 'again' }, endpointId: 'scoring' }),
      'ALREADY_EXISTS',
    );

    const model = await modelByDisplayName(h.models, US, 'house-price-estimator');
    const [deploy] = await h.endpoints.deployModel({
      endpoint: endpoint.name,
      deployedModel: {
        model: `${model}@1`,
        dedicatedResources: { machineSpec: { machineType: 'n1-standard-2' }, minReplicaCount: 1 },
      },
    });
    // A model being deployed cannot be deleted either.
    await rejectsWith(h.models.deleteModel({ name: model }), 'FAILED_PRECONDITION', /being deployed/);
    const [deployed] = await finish(h.sandbox, deploy);
    assert.equal(deployed.deployedModel!.modelVersionId, '1');
    const [after] = await h.endpoints.getEndpoint({ name: endpoint.name });
    assert.deepEqual(after.trafficSplit, { [deployed.deployedModel!.id!]: 100 });
    const [v1] = await h.models.getModel({ name: `${model}@1` });
    assert.deepEqual(
      v1.deployedModels!.map((d) => d.endpoint),
      [endpoint.name],
    );

    await rejectsWith(h.models.deleteModel({ name: model }), 'FAILED_PRECONDITION', /undeploy/);
    await rejectsWith(h.endpoints.deleteEndpoint({ name: endpoint.name }), 'FAILED_PRECONDITION', /deployed models/);

    const [undeploy] = await h.endpoints.undeployModel({
      endpoint: endpoint.name,
      deployedModelId: deployed.deployedModel!.id!,
    });
    await finish(h.sandbox, undeploy);
    const [del] = await h.models.deleteModel({ name: model });
    await finish(h.sandbox, del);
    await rejectsWith(h.models.getModel({ name: model }), 'NOT_FOUND');
    const [delEndpoint] = await h.endpoints.deleteEndpoint({ name: endpoint.name });
    await finish(h.sandbox, delEndpoint);
    await rejectsWith(h.endpoints.getEndpoint({ name: endpoint.name }), 'NOT_FOUND');
  });

  it('validates deployments: resources, traffic split and model location', async () => {
    const [endpoints] = await h.endpoints.listEndpoints({ parent: US, filter: 'display_name="staging-sandbox"' });
    const endpoint = endpoints[0].name!;
    const model = await modelByDisplayName(h.models, US, 'lead-scoring');
    await rejectsWith(h.endpoints.deployModel({ endpoint, deployedModel: { model } }), 'INVALID_ARGUMENT', /resources/);
    await rejectsWith(
      h.endpoints.deployModel({
        endpoint,
        deployedModel: {
          model,
          dedicatedResources: { machineSpec: { machineType: 'n1-standard-2' }, minReplicaCount: 1 },
        },
        trafficSplit: { '0': 50 },
      }),
      'INVALID_ARGUMENT',
      /100/,
    );
    await rejectsWith(
      h.endpoints.deployModel({
        endpoint,
        deployedModel: {
          model: 'projects/cloudbench-demo/locations/europe-west4/models/xgb-credit-scoring',
          automaticResources: { minReplicaCount: 1 },
        },
      }),
      'INVALID_ARGUMENT',
      /location/,
    );
    const [fraudEndpoints] = await h.endpoints.listEndpoints({ parent: US, filter: 'display_name=fraud-realtime' });
    const fraud = fraudEndpoints[0];
    const busiest = Object.entries(fraud.trafficSplit!).sort((a, b) => b[1] - a[1])[0][0];
    await rejectsWith(
      h.endpoints.undeployModel({ endpoint: fraud.name!, deployedModelId: busiest }),
      'FAILED_PRECONDITION',
      /traffic/,
    );
    await rejectsWith(h.endpoints.undeployModel({ endpoint: fraud.name!, deployedModelId: '42' }), 'NOT_FOUND');
  });

  it('updates an endpoint: display name, labels and a traffic split that must add up to 100', async () => {
    const [endpoints] = await h.endpoints.listEndpoints({ parent: US, filter: 'display_name=fraud-realtime' });
    const endpoint = endpoints[0];
    const ids = endpoint.deployedModels!.map((d) => d.id!);
    assert.equal(ids.length, 2);
    const [updated] = await h.endpoints.updateEndpoint({
      endpoint: {
        name: endpoint.name,
        displayName: 'fraud-realtime-v2',
        trafficSplit: { [ids[0]]: 50, [ids[1]]: 50 },
      },
      updateMask: { paths: ['display_name', 'traffic_split'] },
    });
    assert.equal(updated.displayName, 'fraud-realtime-v2');
    assert.deepEqual(updated.trafficSplit, { [ids[0]]: 50, [ids[1]]: 50 });
    await rejectsWith(
      h.endpoints.updateEndpoint({
        endpoint: { name: endpoint.name, trafficSplit: { [ids[0]]: 70 } },
        updateMask: { paths: ['traffic_split'] },
      }),
      'INVALID_ARGUMENT',
      /100/,
    );
    await rejectsWith(
      h.endpoints.updateEndpoint({
        endpoint: { name: endpoint.name, trafficSplit: { '123': 100 } },
        updateMask: { paths: ['traffic_split'] },
      }),
      'INVALID_ARGUMENT',
      /not a deployed model/,
    );
    await rejectsWith(
      h.endpoints.updateEndpoint({
        endpoint: { name: endpoint.name, network: 'x' },
        updateMask: { paths: ['network'] },
      }),
      'INVALID_ARGUMENT',
    );
  });

  it('lists endpoints with paging and filters', async () => {
    const names: string[] = [];
    for await (const e of h.endpoints.listEndpointsAsync({ parent: US, pageSize: 2 })) names.push(e.displayName!);
    assert.ok(names.includes('churn-online') && names.includes('staging-sandbox'));
    const [prod] = await h.endpoints.listEndpoints({ parent: US, filter: 'labels.env=prod' });
    assert.ok(prod.length >= 1 && !prod.some((e) => e.displayName === 'staging-sandbox'));
    await rejectsWith(
      h.endpoints.listEndpoints({ parent: US, pageToken: 'garbage' }, { autoPaginate: false }),
      'INVALID_ARGUMENT',
      /page_token/,
    );
  });

  it('returns an empty policy for an existing model, stores bindings, checks etags and members', async () => {
    const resource = `${US}/models/churn-predictor`;
    const [empty] = await h.models.getIamPolicy(opRequest({ resource }));
    assert.deepEqual(empty.bindings, []);
    assert.equal(Buffer.from(empty.etag).toString('base64'), 'ACAB');
    await rejectsWith(h.models.getIamPolicy(opRequest({ resource: `${US}/models/missing` })), 'NOT_FOUND');

    const [set] = await h.models.setIamPolicy(
      opRequest({
        resource,
        policy: { bindings: [{ role: 'roles/aiplatform.user', members: ['user:ana@example.com'] }], etag: empty.etag },
      }),
    );
    assert.equal(set.bindings[0].role, 'roles/aiplatform.user');
    const [read] = await h.models.getIamPolicy(opRequest({ resource }));
    assert.deepEqual(read.bindings[0].members, ['user:ana@example.com']);
    await rejectsWith(
      h.models.setIamPolicy(opRequest({ resource, policy: { bindings: [], etag: empty.etag } })),
      'ABORTED',
      /concurrent/,
    );
    await rejectsWith(
      h.models.setIamPolicy(
        opRequest({
          resource,
          policy: { bindings: [{ role: 'roles/aiplatform.user', members: ['ana@example.com'] }] },
        }),
      ),
      'INVALID_ARGUMENT',
      /principal/,
    );
    const [tested] = await h.models.testIamPermissions(
      opRequest({ resource, permissions: ['aiplatform.models.get', 'storage.objects.get'] }),
    );
    assert.deepEqual(tested.permissions, ['aiplatform.models.get']);
    await rejectsWith(
      h.models.testIamPermissions(opRequest({ resource, permissions: ['aiplatform.*'] })),
      'INVALID_ARGUMENT',
    );
  });

  it('lists and gets locations; an unknown one is NOT_FOUND', async () => {
    const ids: string[] = [];
    for await (const l of h.models.listLocationsAsync(opRequest({ name: 'projects/cloudbench-demo', pageSize: 2 })))
      ids.push(l.locationId!);
    for (const id of ['us-central1', 'europe-west4', 'asia-northeast1']) assert.ok(ids.includes(id), id);
    // The mixin is typed as returning the location but resolves to gax's [response, ...] tuple.
    const [l] = (await h.models.getLocation(
      opRequest({ name: 'projects/cloudbench-demo/locations/europe-west4' }),
    )) as unknown as [{ displayName?: string }];
    assert.equal(l.displayName, 'Netherlands');
    await rejectsWith(
      h.models.getLocation(opRequest({ name: 'projects/cloudbench-demo/locations/moon-base1' })),
      'NOT_FOUND',
    );
  });
});
