// The models tree's data model against the demo sandbox, with the shared hand-written `vscode` fake:
// what a user sees when browsing project → location → model → version → evaluation → slice.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as ModelsTreeModule from '../../../src/features/models/tree';
import { modelMatches } from '../../../src/features/models/presentation';

useFakeVscode();

const tree = require('../../../src/features/models/tree') as typeof ModelsTreeModule;

describe('models tree against the demo sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;
  let pageSize = 5;
  let locations: string[] = [];
  let filter: string | undefined;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    client = new ModelRegistryClient({ tokenSource: sandboxTokenSource(), endpoint: { apiEndpoint: sandbox.grpc } });
  });
  after(async () => {
    client.close();
    await sandbox.close();
  });
  beforeEach(() => {
    pageSize = 5;
    locations = [];
    filter = undefined;
  });

  function provider() {
    return new tree.ModelsTreeProvider({
      client: () => client,
      project: () => 'cloudbench-demo',
      configuredLocations: () => locations,
      filter: () => filter,
      importedAnnotations: () => [],
      pageSize: () => pageSize,
    });
  }

  async function location(p: InstanceType<typeof tree.ModelsTreeProvider>, id: string) {
    const [project] = await p.getChildren();
    assert.ok(project instanceof tree.ProjectNode);
    const locs = await p.getChildren(project);
    const loc = locs.find((l) => l instanceof tree.LocationNode && l.location === id);
    assert.ok(loc instanceof tree.LocationNode, `location ${id} listed`);
    return loc;
  }

  it('shows the project, then the locations the service lists, or the configured ones', async () => {
    const p = provider();
    const [project] = await p.getChildren();
    assert.equal(project.label, 'cloudbench-demo');
    const listed = (await p.getChildren(project)).map((n) => n.label);
    assert.ok(listed.includes('us-central1') && listed.length > 3);
    locations = ['europe-west4'];
    const configured = provider();
    const [p2] = await configured.getChildren();
    assert.deepEqual(
      (await configured.getChildren(p2)).map((n) => n.label),
      ['europe-west4'],
    );
  });

  it('pages models behind a "Load more" node', async () => {
    const p = provider();
    const loc = await location(p, 'us-central1');
    const first = await p.getChildren(loc);
    assert.equal(first.filter((n) => n instanceof tree.ModelNode).length, 5);
    const more = first[first.length - 1];
    assert.ok(more instanceof tree.LoadMoreNode);
    assert.equal(more.label, 'Load more…');
    assert.equal(more.description, '5 shown · next 5');
    assert.match(more.tooltip as string, /^5 models shown\. Loads up to 5 more from the server/);
    assert.equal(more.command?.command, 'cloudbench.models.loadMore');
    await more.owner.loadMore();
    const second = await p.getChildren(loc);
    assert.equal(second.filter((n) => n instanceof tree.ModelNode).length, 10);
    const names = second.filter((n) => n instanceof tree.ModelNode).map((n) => n.resourceName);
    assert.equal(new Set(names).size, names.length, 'no model twice');
  });

  it('applies the filter to the model list', async () => {
    const p0 = provider();
    const all = (await p0.getChildren(await location(p0, 'us-central1'))).filter(
      (n): n is InstanceType<typeof tree.ModelNode> => n instanceof tree.ModelNode,
    );
    const wanted = all[0].model.displayName!;
    filter = `display_name="${wanted}"`;
    const p = provider();
    const loc = await location(p, 'us-central1');
    assert.match(String(loc.description), /filter/);
    const models = (await p.getChildren(loc)).filter((n) => n instanceof tree.ModelNode);
    assert.ok(models.length >= 1);
    assert.ok(models.every((m) => m.label === wanted));
    filter = 'display_name="no such model anywhere"';
    const empty = provider();
    const none = await empty.getChildren(await location(empty, 'us-central1'));
    assert.deepEqual(
      none.map((n) => n.label),
      ['No models match the filter'],
    );
  });

  it('lists the models whose names contain the filter text, looking through every page', async () => {
    const everything = [];
    for await (const m of client.listModels({ parent: 'projects/cloudbench-demo/locations/us-central1' }))
      everything.push(m);
    const text = 'PRIC';
    const expected = everything.filter((m) => modelMatches(m, text)).map((m) => m.name);
    assert.ok(expected.length > 0 && expected.length < everything.length);
    filter = text;
    pageSize = 1;
    const p = provider();
    const loc = await location(p, 'us-central1');
    assert.match(String(loc.description), /contains/);
    let children = await p.getChildren(loc);
    for (let more = children.at(-1); more instanceof tree.LoadMoreNode; more = children.at(-1)) {
      await more.owner.loadMore();
      children = await p.getChildren(loc);
    }
    assert.deepEqual(
      children.filter((n) => n instanceof tree.ModelNode).map((n) => n.resourceName),
      expected,
    );
    assert.equal(loc.scanned, everything.length, 'every model looked at once');
  });

  it('marks a model deployed when any of its versions serves, not only the default one', async () => {
    // The demo deploys version 3 of churn-predictor while its default version is 4.
    const direct = await client.getModel({
      name: 'projects/cloudbench-demo/locations/us-central1/models/churn-predictor',
    });
    assert.equal((direct.deployedModels ?? []).length, 0, 'the default version itself is not deployed');
    pageSize = 100;
    const p = provider();
    const models = (await p.getChildren(await location(p, 'us-central1'))).filter(
      (n): n is InstanceType<typeof tree.ModelNode> => n instanceof tree.ModelNode,
    );
    const churn = models.find((m) => m.resourceName.endsWith('/models/churn-predictor'));
    assert.ok(churn, 'churn-predictor listed');
    // The row and the hover agree: the version that serves, and the endpoint by its display name.
    assert.match(String(churn.description), /deployed on churn-online/);
    assert.match(
      churn.tooltip as string,
      /^Deployed:\n {2}• version 3 on churn-online \(endpoint \d+\), deployed model \d+$/m,
    );
    const undeployed = models.filter((m) => !/deployed/.test(String(m.description)));
    assert.ok(undeployed.length > 0, 'models without deployments are not marked');
  });

  it('says which versions are deployed, naming the endpoints in the tooltip', async () => {
    // The demo serves churn-predictor version 3 from the endpoint churn-online; version 4 is the default.
    pageSize = 100;
    const p = provider();
    const churn = (await p.getChildren(await location(p, 'us-central1'))).find(
      (n): n is InstanceType<typeof tree.ModelNode> =>
        n instanceof tree.ModelNode && n.resourceName.endsWith('/models/churn-predictor'),
    );
    assert.ok(churn, 'churn-predictor listed');
    const versions = (await p.getChildren(churn)).filter(
      (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
    );
    const v3 = versions.find((v) => v.version.versionId === '3');
    assert.ok(v3, 'version 3 listed');
    assert.match(String(v3.description), /deployed/);
    assert.match(
      v3.tooltip as string,
      /Deployed on endpoint:\n {2}• churn-online \(projects\/[^/]+\/locations\/us-central1\/endpoints\/\d+, deployed model \d+\)/,
    );
    for (const other of versions.filter((v) => v !== v3)) {
      assert.doesNotMatch(String(other.description), /deployed/, `version ${other.version.versionId}`);
      assert.match(other.tooltip as string, /^Not deployed$/m);
    }
  });

  it('names endpoints by display name on hover even when the endpoint listing is refused (GetEndpoint)', async () => {
    sandbox.faults.configure([
      {
        method: 'google.cloud.aiplatform.v1beta1.EndpointService/ListEndpoints',
        errorRate: 1,
        codes: ['PERMISSION_DENIED'],
      },
    ]);
    try {
      pageSize = 100;
      const p = provider();
      const fraud = (await p.getChildren(await location(p, 'us-central1'))).find(
        (n): n is InstanceType<typeof tree.ModelNode> => n instanceof tree.ModelNode && n.label === 'fraud-detector',
      );
      assert.ok(fraud, 'fraud-detector listed');
      // Without the listing only the default version's own deployment is known, by endpoint ID.
      assert.match(fraud.tooltip as string, /• version \d+ on endpoint \d+/);
      assert.doesNotMatch(fraud.tooltip as string, /fraud-realtime/);
      await p.resolveTreeItem(fraud, fraud);
      assert.match(fraud.tooltip as string, /• version \d+ on fraud-realtime \(endpoint \d+\)/);
    } finally {
      sandbox.faults.configure([]);
    }
  });

  it("shows a location's display name and labels on hover, listed or configured", async () => {
    const listed = provider();
    const iowa = await location(listed, 'us-central1');
    assert.match(
      iowa.tooltip as string,
      /^Iowa \(us-central1\)\n.*\nLabels: cloud\.googleapis\.com\/region=us-central1$/,
    );
    locations = ['europe-west4'];
    const configured = provider();
    const nl = await location(configured, 'europe-west4');
    assert.equal(nl.tooltip, 'projects/cloudbench-demo/locations/europe-west4');
    await configured.resolveTreeItem(nl, nl);
    assert.match(nl.tooltip, /^Netherlands \(europe-west4\)\n/);
    assert.match(nl.tooltip, /Labels: cloud\.googleapis\.com\/region=europe-west4/);
  });

  it('browses model → versions (default marked, aliases as badges) → checkpoints and evaluations → slices', async () => {
    pageSize = 50;
    const p = provider();
    let sawSlice = false;
    for (const locId of ['us-central1', 'europe-west4', 'us-east1']) {
      const loc = await location(p, locId);
      for (const model of (await p.getChildren(loc)).filter(
        (n): n is InstanceType<typeof tree.ModelNode> => n instanceof tree.ModelNode,
      )) {
        assert.match(model.contextValue!, /^model(\.exportable)?$/);
        const versions = (await p.getChildren(model)).filter(
          (n): n is InstanceType<typeof tree.VersionNode> => n instanceof tree.VersionNode,
        );
        assert.ok(versions.length >= 1);
        assert.equal(
          versions.filter((v) => /@default/.test(String(v.description))).length,
          1,
          'exactly one default version marked',
        );
        for (const v of versions) {
          assert.match(v.label as string, /^Version \d+$/);
          assert.match(v.contextValue!, /^modelVersion(\.exportable)?(\.deployed)?$/);
          for (const alias of v.version.versionAliases ?? []) assert.ok(String(v.description).includes(`@${alias}`));
          const children = await p.getChildren(v);
          // A deployed version lists its deployments, then its checkpoints and evaluations.
          assert.ok(children.some((c) => c instanceof tree.CheckpointsNode));
          for (const ev of children.filter(
            (n): n is InstanceType<typeof tree.EvaluationNode> => n instanceof tree.EvaluationNode,
          )) {
            assert.equal(ev.contextValue, 'evaluation');
            const slices = (await p.getChildren(ev)).filter((n) => n instanceof tree.SliceNode);
            if (slices.length) {
              assert.equal(slices[0].contextValue, 'slice');
              assert.match(slices[0].label as string, / = /);
              sawSlice = true;
            }
          }
        }
        if (sawSlice) return;
      }
    }
    assert.ok(sawSlice, 'some evaluation in the demo data has slices');
  });

  it('shows an error node that names the status when the service fails', async () => {
    sandbox.faults.configure([
      { method: 'google.cloud.aiplatform.v1beta1.ModelService/ListModels', errorRate: 1, codes: ['PERMISSION_DENIED'] },
    ]);
    try {
      const p = provider();
      const nodes = await p.getChildren(await location(p, 'us-central1'));
      assert.equal(nodes.length, 1);
      assert.equal(nodes[0].label, 'Could not load models');
      assert.match(String(nodes[0].description), /^PERMISSION_DENIED · needs aiplatform\.models\.list /);
    } finally {
      sandbox.faults.configure([]);
    }
  });
});
