// Filters that find and paging you can see, against the demo sandbox: typing part of a name finds
// every model that contains it (any case) across all pages of a location, the API's own filter syntax
// still works, and the big demo location shows "Load more" at the configured page size.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { BULK_LOCATION, BULK_MODELS_PER_FAMILY } from '../../../src/emulator/models-data/seed';
import type * as TreeModule from '../../../src/features/models/tree';

useFakeVscode();
const tree = require('../../../src/features/models/tree') as typeof TreeModule;

describe('models filter and paging against the demo sandbox', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let client: ModelRegistryClient;
  let calls: number;

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    const inner = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
    });
    // Counts ListModels calls, to see that the name filter reads every page it needs and no more.
    client = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'listModelsPage') calls++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
  });
  after(async () => {
    client.close();
    await sandbox.close();
  });

  async function modelsOf(location: string, filter: string | undefined, pageSize: number) {
    const p = new tree.ModelsTreeProvider({
      client: () => client,
      project: () => 'cloudbench-demo',
      configuredLocations: () => [location],
      filter: () => filter,
      importedAnnotations: () => [],
      pageSize: () => pageSize,
    });
    const [project] = await p.getChildren();
    const [loc] = await p.getChildren(project);
    assert.ok(loc instanceof tree.LocationNode);
    return { p, loc };
  }
  const names = (nodes: unknown[]): string[] =>
    nodes
      .filter((n): n is InstanceType<typeof tree.ModelNode> => n instanceof tree.ModelNode)
      .map((n) => n.label as string);

  it('finds churn-predictor by typing "churn", in any case', async () => {
    for (const typed of ['churn', 'CHURN', 'Churn-Pred']) {
      const { p, loc } = await modelsOf('us-central1', typed, 50);
      assert.match(String(loc.description), /name contains/);
      const found = names(await p.getChildren(loc));
      assert.ok(found.includes('churn-predictor'), `${typed}: ${found.join(', ')}`);
      assert.ok(found.every((n) => n.toLowerCase().includes(typed.toLowerCase())));
    }
    const { p, loc } = await modelsOf('us-central1', 'no-such-model-name', 50);
    assert.deepEqual(
      (await p.getChildren(loc)).map((n) => n.label),
      ['No model names contain "no-such-model-name"'],
    );
  });

  it('searches every page of the big location for names that contain the text', async () => {
    const { p, loc } = await modelsOf(BULK_LOCATION, 'churn-sweep', 5);
    const first = await p.getChildren(loc);
    assert.ok(names(first).length >= 5);
    for (let more = first[first.length - 1]; more instanceof tree.LoadMoreNode;) {
      await more.owner.loadMore();
      const children = await p.getChildren(loc);
      more = children[children.length - 1];
    }
    const all = names(await p.getChildren(loc));
    assert.equal(all.length, BULK_MODELS_PER_FAMILY);
    assert.equal(new Set(all).size, all.length, 'no model twice');

    // A name nothing has: every page of the location is read before the tree says so.
    calls = 0;
    const none = await modelsOf(BULK_LOCATION, 'zzz-nothing', 5);
    assert.deepEqual(
      (await none.p.getChildren(none.loc)).map((n) => n.label),
      ['No model names contain "zzz-nothing"'],
    );
    assert.equal(calls, 2, 'the 120 models of the location are read in pages of 100');
  });

  it('keeps the API filter syntax as the advanced filter', async () => {
    const { p, loc } = await modelsOf('us-central1', 'display_name="churn-predictor"', 50);
    assert.match(String(loc.description), /^filter: display_name=/);
    assert.deepEqual(names(await p.getChildren(loc)), ['churn-predictor']);
  });

  it('shows "Load more" in the big location at the page size, and more than 100 models in all', async () => {
    const { p, loc } = await modelsOf(BULK_LOCATION, undefined, 50);
    const first = await p.getChildren(loc);
    assert.equal(names(first).length, 50);
    const more = first[first.length - 1];
    assert.ok(more instanceof tree.LoadMoreNode);
    assert.equal(more.label, 'Load more…');
    assert.equal(more.description, '50 shown · next 50');
    await more.owner.loadMore();
    const second = await p.getChildren(loc);
    assert.equal(second.at(-1)?.description, '100 shown · next 50');
    await more.owner.loadMore();
    const all = await p.getChildren(loc);
    assert.ok(names(all).length > 100, `${names(all).length} models`);
  });

  it('two callers of a location during its first load (the tree and a reveal) both get the whole first page', async () => {
    const { p, loc } = await modelsOf(BULK_LOCATION, undefined, 50);
    p.refresh(loc);
    const [tree1, reveal] = await Promise.all([p.getChildren(loc), p.getChildren(loc)]);
    assert.equal(names(tree1).length, 50);
    assert.deepEqual(names(reveal), names(tree1));
  });

  it('finds a model for a reveal beyond the pages shown, loading more pages', async () => {
    const { p, loc } = await modelsOf(BULK_LOCATION, undefined, 10);
    const all = (await p.getChildren(loc)).filter((n) => n instanceof tree.ModelNode);
    assert.equal(all.length, 10);
    // A model from a later page: the full list, read straight from the service.
    const every: string[] = [];
    for await (const m of client.listModels({ parent: `projects/cloudbench-demo/locations/${BULK_LOCATION}` }))
      if (m.name) every.push(m.name);
    const shown = new Set(all.map((n) => n.resourceName));
    // Some pages on (a reveal looks through up to 20 pages).
    const hidden = every.filter((n) => !shown.has(n));
    const far = hidden[Math.min(hidden.length - 1, 100)];
    const found = await p.findModel(far);
    assert.ok(found, `found ${far}`);
    assert.equal(found.resourceName, far);
    assert.equal(found.parent, loc, 'in the location the tree shows, so the tree can reveal it');
  });
});
