import { strict as assert } from 'node:assert';
import {
  decodeMessage,
  encodeMessage,
  ListPageBytes,
  toProto3Json,
  unpackAny,
  packAny,
} from '../../../src/core/models/wire';
import type { Model } from '../../../src/core/models/types';
import { versionDescription, versionTooltip, modelTooltip } from '../../../src/features/models/presentation';

const V = 'google.cloud.aiplatform.v1beta1';

function roundTrip<T>(type: string, value: object): T {
  return decodeMessage<T>(`${V}.${type}`, encodeMessage(`${V}.${type}`, value));
}

describe('models wire: the decoded shape', () => {
  it('leaves unset repeated, map, message and scalar fields absent', () => {
    const model = roundTrip<Model & Record<string, unknown>>('Model', {
      name: 'projects/p/locations/l/models/m',
      displayName: 'm',
    });
    assert.deepEqual(Object.keys(model).sort(), ['displayName', 'name']);
    for (const field of ['versionAliases', 'labels', 'deployedModels', 'supportedExportFormats', 'createTime'])
      assert.equal(field in model, false, `${field} is absent`);
  });

  it('keeps what is set: arrays, maps, int64 as strings, enums as names, nested messages', () => {
    const model = roundTrip<Model & Record<string, unknown>>('Model', {
      name: 'projects/p/locations/l/models/m',
      versionAliases: ['default', 'prod'],
      labels: { team: 'a' },
      createTime: { seconds: '1700000000', nanos: 5 },
      supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
      deployedModels: [{ endpoint: 'projects/p/locations/l/endpoints/e', deployedModelId: '1' }],
    });
    assert.deepEqual(model.versionAliases, ['default', 'prod']);
    assert.deepEqual(model.labels, { team: 'a' });
    assert.deepEqual(model.createTime, { seconds: '1700000000', nanos: 5 });
    assert.deepEqual(model['supportedDeploymentResourcesTypes'], ['DEDICATED_RESOURCES']);
    assert.deepEqual(model.deployedModels, [{ endpoint: 'projects/p/locations/l/endpoints/e', deployedModelId: '1' }]);
  });

  it('an empty page has no items field; the items of a full page are complete models', () => {
    const empty = roundTrip<Record<string, unknown>>('ListModelsResponse', {});
    assert.deepEqual(empty, {});
    const page = roundTrip<{ models: Model[]; nextPageToken: string }>('ListModelsResponse', {
      models: [{ name: 'a' }, { name: 'b', labels: { x: 'y' } }],
      nextPageToken: 't',
    });
    assert.deepEqual(page, { models: [{ name: 'a' }, { name: 'b', labels: { x: 'y' } }], nextPageToken: 't' });
  });

  it('the tree texts and the details JSON read a model without repeated fields', () => {
    const model = roundTrip<Model>('Model', { name: 'projects/p/locations/l/models/m@1', versionId: '1' });
    assert.equal(typeof versionDescription(model), 'string');
    assert.match(versionTooltip(model), /m@1|1/);
    assert.equal(typeof modelTooltip(model), 'string');
    assert.deepEqual(toProto3Json(`${V}.Model`, model), { name: 'projects/p/locations/l/models/m@1', versionId: '1' });
  });

  it('an unpacked Any has the same shape', () => {
    const any = packAny(`${V}.Model`, { name: 'a' });
    assert.deepEqual(unpackAny(any), { name: 'a' });
  });

  it("reads a list answer's page token without its items, wherever the token sits in the bytes", () => {
    const type = `${V}.ListModelsResponse`;
    const models = Array.from({ length: 50 }, (_, i) => ({
      name: `projects/p/locations/l/models/${i}`,
      displayName: `m${i}`,
    }));
    const token = (bytes: Uint8Array, t = type): string | undefined =>
      new ListPageBytes(t, 'models', bytes).nextPageToken;
    const bytes = encodeMessage(type, { models, nextPageToken: 'tok-2' });
    assert.equal(token(bytes), 'tok-2');
    assert.equal(token(encodeMessage(type, { models })), undefined, 'the last page');
    // The token before the items (a server may write fields in any order).
    const tokenFirst = Buffer.concat([
      encodeMessage(type, { nextPageToken: 'early' }),
      encodeMessage(type, { models }),
    ]);
    assert.equal(token(tokenFirst), 'early');
    assert.equal(decodeMessage<{ models: unknown[] }>(type, tokenFirst).models.length, 50);
    assert.equal(
      token(encodeMessage(`${V}.ListModelVersionsResponse`, { nextPageToken: 'v' }), `${V}.ListModelVersionsResponse`),
      'v',
    );
    assert.throws(() => token(bytes, `${V}.Model`), /has no next_page_token/);
    assert.throws(() => new ListPageBytes(type, 'nextPageToken', bytes), /no repeated message field nextPageToken/);
  });

  it('decodes the items of a list answer, all at once or one by one, as the whole answer decodes them', () => {
    const type = `${V}.ListModelsResponse`;
    const models = Array.from({ length: 20 }, (_, i) => ({
      name: `projects/p/locations/l/models/${i}`,
      displayName: `m${i}`,
      labels: i % 2 ? { team: `t${i}` } : {},
      createTime: { seconds: String(1_700_000_000 + i), nanos: i },
      containerSpec: { imageUri: 'gcr.io/x/y', args: ['--a', String(i)] },
      supportedDeploymentResourcesTypes: ['DEDICATED_RESOURCES'],
    }));
    // Items split around the token and an unknown field: order kept, the rest skipped.
    const bytes = Buffer.concat([
      encodeMessage(type, { models: models.slice(0, 7) }),
      encodeMessage(type, { nextPageToken: 'n' }),
      Buffer.from([0xf8, 0x07, 0x2a]), // field 127, varint 42: not in the descriptor
      encodeMessage(type, { models: models.slice(7) }),
    ]);
    const whole = decodeMessage<{ models: Model[] }>(type, bytes).models;
    assert.equal(whole.length, 20);
    assert.deepEqual([...new ListPageBytes<Model>(type, 'models', bytes).itemsOneByOne()], whole);
    const page = new ListPageBytes<Model>(type, 'models', bytes);
    assert.equal(page.length, 20);
    assert.deepEqual(page.items, whole);
    assert.equal(page.items, page.items, 'decoded once');
    assert.deepEqual([...page.itemsOneByOne()], whole);
    assert.deepEqual(new ListPageBytes<Model>(type, 'models', encodeMessage(type, {})).items, []);
    // An answer cut inside an item is refused before any item is handed over.
    assert.throws(() => new ListPageBytes(type, 'models', bytes.subarray(0, bytes.length - 3)), RangeError);
  });
});
