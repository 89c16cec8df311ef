// Edit's update mask, Undeploy's traffic plan and the server's operation list, as pure functions.
import { strict as assert } from 'node:assert';
import {
  descriptionProblem,
  displayNameProblem,
  editableFields,
  updateModelRequest,
} from '../../../src/core/models/edit';
import { describeSplit, scaleTo100, trafficShares, undeployPlan } from '../../../src/core/models/traffic';
import { isCurrent, methodWords, readServerOperation } from '../../../src/core/models/server-operations';
import { packAny } from '../../../src/core/models/wire';

const V = 'google.cloud.aiplatform.v1beta1';
const MODEL = 'projects/p/locations/us-central1/models/123';

describe('Edit Model: the update mask names only what changed', () => {
  const model = {
    name: MODEL,
    displayName: 'churn',
    description: 'd',
    labels: { env: 'dev' },
    etag: 'e1',
    versionDescription: 'v',
  };

  it('nothing changed: no request', () => {
    const before = editableFields(model, 'model');
    assert.equal(updateModelRequest(MODEL, 'model', before, { ...before, labels: { env: 'dev' } }), undefined);
  });

  it('labels only: mask ["labels"], the etag read goes along, no other field is sent', () => {
    const before = editableFields(model, 'model');
    const call = updateModelRequest(MODEL, 'model', before, { ...before, labels: { env: 'prod' } }, 'e1')!;
    assert.deepEqual(call.updateMask.paths, ['labels']);
    assert.deepEqual(call.model, { name: MODEL, etag: 'e1', labels: { env: 'prod' } });
  });

  it('model level uses display_name and description; version level version_description', () => {
    const m = editableFields(model, 'model');
    assert.deepEqual(
      updateModelRequest(MODEL, 'model', m, { ...m, displayName: 'churn2', description: 'x' })!.updateMask.paths,
      ['display_name', 'description'],
    );
    const v = editableFields(model, 'version');
    assert.equal(v.displayName, undefined);
    assert.equal(v.description, 'v');
    const call = updateModelRequest(`${MODEL}@2`, 'version', v, { ...v, description: 'w', displayName: 'ignored' })!;
    assert.deepEqual(call.updateMask.paths, ['version_description']);
    assert.deepEqual(call.model, { name: `${MODEL}@2`, versionDescription: 'w' });
  });

  it('removing every label is a change to labels', () => {
    const m = editableFields(model, 'model');
    assert.deepEqual(updateModelRequest(MODEL, 'model', m, { ...m, labels: {} })!.model.labels, {});
  });

  it('display name: required, at most 128 characters, no control characters', () => {
    assert.match(displayNameProblem('  ') ?? '', /needs a display name/);
    assert.equal(displayNameProblem('日'.repeat(128)), undefined);
    assert.match(displayNameProblem('a'.repeat(129)) ?? '', /at most 128/);
    assert.match(displayNameProblem('a\u0007') ?? '', /U\+0007/);
    assert.equal(descriptionProblem('two\nlines'), undefined);
    assert.match(descriptionProblem('bell\u0007') ?? '', /U\+0007/);
  });
});

describe('Undeploy: the traffic split afterwards', () => {
  const endpoint = (split: unknown, ids: string[]) => ({
    name: 'projects/p/locations/us-central1/endpoints/9',
    trafficSplit: split,
    deployedModels: ids.map((id) => ({ id, displayName: `dm-${id}` })),
  });

  it('no traffic: undeploy as it is', () => {
    assert.deepEqual(undeployPlan(endpoint({ a: 100 }, ['a', 'b']), 'b'), { kind: 'noTraffic' });
  });

  it('a share: the others get it in proportion, adding up to 100', () => {
    const plan = undeployPlan(endpoint({ a: 90, b: 10 }, ['a', 'b']), 'b');
    assert.deepEqual(plan, { kind: 'redistribute', share: 10, split: { a: 100 } });
    const three = undeployPlan(endpoint({ a: 33, b: 33, c: 34 }, ['a', 'b', 'c']), 'c');
    assert.equal(three.kind, 'redistribute');
    if (three.kind === 'redistribute') assert.deepEqual(three.split, { a: 50, b: 50 });
  });

  it("all the traffic served: needs the user's word (alone, or beside deployments at 0%)", () => {
    const alone = undeployPlan(endpoint({ a: 100 }, ['a']), 'a');
    assert.deepEqual(alone, { kind: 'lastTraffic', share: 100, others: [] });
    const beside = undeployPlan(endpoint({ a: 100 }, ['a', 'b']), 'a');
    assert.equal(beside.kind, 'lastTraffic');
    if (beside.kind === 'lastTraffic')
      assert.deepEqual(
        beside.others.map((o) => o.deployedModelId),
        ['b'],
      );
  });

  it('a deployed model the endpoint does not have', () => {
    assert.deepEqual(undeployPlan(endpoint({}, ['a']), 'zzz'), { kind: 'notDeployed' });
  });

  it('scaled shares always add up to 100', () => {
    for (const shares of [
      [1, 1, 1],
      [7, 13, 29, 51],
      [1, 2],
      [99, 0],
    ]) {
      const split = scaleTo100(shares.map((share, i) => ({ deployedModelId: String(i), share })));
      assert.equal(
        Object.values(split).reduce((a, b) => a + b, 0),
        100,
        JSON.stringify(shares),
      );
    }
  });

  it('a bad split from the server is read as no split, never as numbers it does not hold', () => {
    for (const bad of [null, 'x', [50, 50], { a: -5, b: 250, c: 1.5, d: 'NaN', e: {} }]) {
      const shares = trafficShares(endpoint(bad, ['a', 'b']));
      assert.deepEqual(
        shares.map((s) => s.share),
        [0, 0],
        JSON.stringify(bad),
      );
    }
    assert.deepEqual(trafficShares({ deployedModels: 'nope' as never }), []);
    assert.deepEqual(
      trafficShares({ deployedModels: [null, { id: 5 }, { id: 'ok' }] as never }).map((s) => s.deployedModelId),
      ['ok'],
    );
    assert.match(
      describeSplit(trafficShares(endpoint({ a: 60, b: 40 }, ['a', 'b']))),
      /60% dm-a \(a\), 40% dm-b \(b\)/,
    );
  });
});

describe('server operations: what ListOperations reports, read defensively', () => {
  const now = new Date('2026-12-07T10:00:00Z');
  const meta = (type: string, created: number, updated: number) =>
    packAny(`${V}.${type}`, {
      genericMetadata: {
        createTime: { seconds: String(created / 1000) },
        updateTime: { seconds: String(updated / 1000) },
      },
    });
  const t = now.getTime();

  it('names a running copy by its method and resource', () => {
    const op = readServerOperation({
      name: `${MODEL}/operations/77`,
      metadata: meta('CopyModelOperationMetadata', t - 5000, t),
      done: false,
    })!;
    assert.equal(op.method, 'CopyModel');
    assert.equal(op.kind, 'copy');
    assert.equal(op.resource, MODEL);
    assert.equal(op.location, 'projects/p/locations/us-central1');
    assert.equal(op.state, 'running');
    assert.equal(methodWords(op.method), 'Copy model');
    assert.ok(isCurrent(op, now));
  });

  it('a finished copy links to the model it made; old finished ones are not current', () => {
    const op = readServerOperation({
      name: `${MODEL}/operations/78`,
      metadata: meta('CopyModelOperationMetadata', t - 7_200_000, t - 7_000_000),
      done: true,
      response: packAny(`${V}.CopyModelResponse`, {
        model: 'projects/p/locations/europe-west4/models/9',
        modelVersionId: '2',
      }),
    })!;
    assert.equal(op.state, 'succeeded');
    assert.equal(op.result, 'projects/p/locations/europe-west4/models/9@2');
    assert.equal(isCurrent(op, now), false);
  });

  it('deletes are told apart by their resource; errors and cancels by their code', () => {
    const del = readServerOperation({
      name: 'projects/p/locations/l/endpoints/5/operations/1',
      metadata: meta('DeleteOperationMetadata', t, t),
      done: true,
      error: { code: 1, message: 'cancelled' },
    })!;
    assert.equal(del.method, 'DeleteEndpoint');
    assert.equal(del.state, 'cancelled');
    const failed = readServerOperation({
      name: `${MODEL}/operations/2`,
      done: true,
      error: { code: 9, message: 'no' },
    })!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.error, 'no');
    assert.equal(failed.method, '');
    assert.equal(isCurrent(failed, now), false, 'a finished operation without a time is not "recent"');
  });

  it('skips bad shapes: no name, a foreign name, a global one, garbage metadata', () => {
    for (const bad of [
      null,
      7,
      'x',
      {},
      { name: 5 },
      { name: '../../etc' },
      { name: 'operations/1' },
      { name: 'projects/p/operations/1' },
    ])
      assert.equal(readServerOperation(bad), undefined, JSON.stringify(bad));
    const garbage = readServerOperation({
      name: `${MODEL}/operations/3`,
      metadata: {
        type_url: `type.googleapis.com/${V}.CopyModelOperationMetadata`,
        value: Buffer.from([0xff, 0xff, 0xff]),
      },
      done: 'yes',
    })!;
    assert.equal(garbage.state, 'running');
    assert.equal(garbage.started, undefined);
  });
});
