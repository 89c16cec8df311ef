import * as assert from 'node:assert/strict';
import { EU, PROJECT_NUMBER, US, allModels, openHarness, rejectsWith, useHarness } from './harness';

describe('sandbox gRPC: models, listing and names (official aiplatform client)', function () {
  this.timeout(60_000);
  const h = useHarness();

  it('refuses calls without credentials with UNAUTHENTICATED', async () => {
    await rejectsWith(
      h.anonymous().getModel({ name: `${US}/models/churn-predictor` }),
      'UNAUTHENTICATED',
      /authentication credential/,
    );
    await rejectsWith(h.anonymous().listModels({ parent: US }), 'UNAUTHENTICATED');
  });

  it('lists the demo models of a location page by page with opaque tokens', async () => {
    const [first, , response] = await h.models.listModels({ parent: US, pageSize: 5 }, { autoPaginate: false });
    assert.equal(first.length, 5);
    assert.ok(response?.nextPageToken, 'a next page token');
    assert.doesNotMatch(response.nextPageToken, /^\d+$/, 'the token is not a bare offset');
    const all = await allModels(h.models, US);
    assert.ok(all.length >= 15, `us-central1 has the bulk of the demo (${all.length})`);
    assert.equal(new Set(all.map((m) => m.name)).size, all.length, 'no model appears twice across pages');
    for (const m of all)
      assert.match(m.name!, /^projects\/cloudbench-demo\/locations\/us-central1\/models\/[a-z0-9_-]+$/);
    const eu = await allModels(h.models, EU);
    assert.ok(eu.length >= 5 && eu.every((m) => m.name!.includes('/europe-west4/')));
  });

  it('refuses a bad, foreign or negative page request with INVALID_ARGUMENT', async () => {
    await rejectsWith(
      h.models.listModels({ parent: US, pageToken: 'not-a-token' }, { autoPaginate: false }),
      'INVALID_ARGUMENT',
      /page_token/,
    );
    const [, , response] = await h.models.listModels({ parent: US, pageSize: 2 }, { autoPaginate: false });
    await rejectsWith(
      h.models.listModels(
        { parent: US, pageSize: 2, filter: 'labels.team=risk', pageToken: response.nextPageToken! },
        { autoPaginate: false },
      ),
      'INVALID_ARGUMENT',
      /different parameters/,
    );
    await rejectsWith(
      h.models.listModels({ parent: US, pageSize: -1 }, { autoPaginate: false }),
      'INVALID_ARGUMENT',
      /page_size/,
    );
  });

  it('filters by display_name, labels, model id, with = != : AND and OR', async () => {
    const churn = await allModels(h.models, US, 'display_name="churn-predictor"');
    assert.deepEqual(
      churn.map((m) => m.displayName),
      ['churn-predictor'],
    );
    const camel = await allModels(h.models, US, 'displayName = churn-predictor');
    assert.equal(camel.length, 1);
    const risk = await allModels(h.models, US, 'labels.team=risk');
    assert.ok(risk.length >= 1 && risk.every((m) => m.labels!.team === 'risk'));
    const notRisk = await allModels(h.models, US, 'labels.team!=risk');
    const all = await allModels(h.models, US);
    assert.equal(risk.length + notRisk.length, all.length);
    const both = await allModels(h.models, US, 'labels.team="growth" AND display_name!="churn-predictor"');
    assert.ok(
      both.length >= 1 && both.every((m) => m.labels!.team === 'growth' && m.displayName !== 'churn-predictor'),
    );
    const either = await allModels(h.models, US, 'display_name=churn-predictor OR display_name=fraud-detector');
    assert.deepEqual(either.map((m) => m.displayName).sort(), ['churn-predictor', 'fraud-detector']);
    const hasKey = await allModels(h.models, US, 'labels:cost-center');
    assert.equal(hasKey.length, all.length);
    const byId = await allModels(h.models, US, 'model=churn-predictor');
    assert.equal(byId.length, 1);
  });

  it('refuses filters it cannot evaluate with INVALID_ARGUMENT naming the problem', async () => {
    await rejectsWith(
      h.models.listModels({ parent: US, filter: 'display_name=' }),
      'INVALID_ARGUMENT',
      /value was expected/,
    );
    await rejectsWith(h.models.listModels({ parent: US, filter: 'color=red' }), 'INVALID_ARGUMENT', /not a field/);
    await rejectsWith(
      h.models.listModels({ parent: US, filter: 'display_name>"a"' }),
      'INVALID_ARGUMENT',
      /not supported/,
    );
    await rejectsWith(h.models.listModels({ parent: US, filter: '(labels.team=risk' }), 'INVALID_ARGUMENT', /\)/);
  });

  it('gets the default version for a bare name, and versions by id or alias', async () => {
    const [bare] = await h.models.getModel({ name: `${US}/models/churn-predictor` });
    assert.ok(bare.versionAliases!.includes('default'), 'a bare name returns the default version');
    assert.equal(bare.name, `${US}/models/churn-predictor`);
    const [v1] = await h.models.getModel({ name: `${US}/models/churn-predictor@1` });
    assert.equal(v1.versionId, '1');
    const [byAlias] = await h.models.getModel({ name: `${US}/models/churn-predictor@default` });
    assert.equal(byAlias.versionId, bare.versionId);
    const [versions] = await h.models.listModelVersions({ name: `${US}/models/churn-predictor` });
    const defaults = versions.filter((v) => v.versionAliases!.includes('default'));
    assert.equal(defaults.length, 1, 'exactly one default version');
    for (const v of versions)
      assert.equal(v.name, `${US}/models/churn-predictor@${v.versionId}`, 'versions are listed with @version_id');
  });

  it('accepts the project number for the demo project', async () => {
    const [model] = await h.models.getModel({
      name: `projects/${PROJECT_NUMBER}/locations/us-central1/models/churn-predictor`,
    });
    assert.equal(model.displayName, 'churn-predictor');
  });

  it('answers NOT_FOUND for a missing model, version or alias', async () => {
    await rejectsWith(h.models.getModel({ name: `${US}/models/nope` }), 'NOT_FOUND');
    await rejectsWith(h.models.getModel({ name: `${US}/models/churn-predictor@99` }), 'NOT_FOUND', /@99/);
    await rejectsWith(h.models.getModel({ name: `${US}/models/churn-predictor@no-such-alias` }), 'NOT_FOUND');
  });

  it('refuses malformed names and unknown locations with INVALID_ARGUMENT', async () => {
    await rejectsWith(
      h.models.getModel({ name: 'projects/cloudbench-demo/models/churn-predictor' }),
      'INVALID_ARGUMENT',
    );
    await rejectsWith(h.models.getModel({ name: `${US}/models/churn-predictor@` }), 'INVALID_ARGUMENT');
    await rejectsWith(h.models.getModel({ name: '' }), 'INVALID_ARGUMENT', /required/);
    await rejectsWith(
      h.models.listModels({ parent: 'projects/cloudbench-demo/locations/mars-north1' }),
      'INVALID_ARGUMENT',
      /not supported/,
    );
    await rejectsWith(h.models.listModels({ parent: 'projects//locations/us-central1' }), 'INVALID_ARGUMENT');
  });

  it('carries deployed-model references on deployed versions only', async () => {
    const [models] = await h.models.listModels({ parent: US, filter: 'display_name=fraud-detector' });
    const name = models[0].name!;
    const [versions] = await h.models.listModelVersions({ name });
    const deployed = versions
      .filter((v) => (v.deployedModels ?? []).length > 0)
      .map((v) => v.versionId)
      .sort();
    assert.deepEqual(deployed, ['4', '5']);
    for (const ref of versions.find((v) => v.versionId === '4')!.deployedModels!)
      assert.match(ref.endpoint!, /\/endpoints\/\d+$/);
  });

  it('applies a read mask', async () => {
    const [models] = await h.models.listModels(
      { parent: US, readMask: { paths: ['display_name'] }, pageSize: 3 },
      { autoPaginate: false },
    );
    for (const m of models) {
      assert.ok(m.displayName);
      assert.ok(m.name, 'the name is always returned');
      assert.equal(m.description, '');
      assert.equal((m.versionAliases ?? []).length, 0);
    }
  });

  it('starts empty with the empty seed but still lists locations', async () => {
    const empty = await openHarness('empty');
    try {
      const [models] = await empty.models.listModels({ parent: US });
      assert.equal(models.length, 0);
      const locations = [];
      for await (const l of empty.models.listLocationsAsync({ name: 'projects/cloudbench-demo' }))
        locations.push(l.locationId);
      for (const id of ['us-central1', 'europe-west4', 'asia-northeast1']) assert.ok(locations.includes(id), id);
    } finally {
      await empty.close();
    }
  });
});
