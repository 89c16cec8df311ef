import { strict as assert } from 'node:assert';
import { AIPLATFORM, decodeMessage, encodeMessage } from '../../../src/core/proto';
import { EncodedMessage, encodeListResponse } from '../../../src/emulator/grpc/encoded';

const MODELS = `${AIPLATFORM}.ListModelsResponse`;
const MODEL = `${AIPLATFORM}.Model`;

describe('sandbox: list answers put together from encoded items', () => {
  const models = Array.from({ length: 5 }, (_, i) => ({
    name: `projects/p/locations/us-central1/models/${i}`,
    displayName: `m${i}`,
    labels: { team: `t${i}` },
    createTime: { seconds: String(1_700_000_000 + i), nanos: 5 },
    versionAliases: ['default'],
  }));
  const encoded = models.map((m) => encodeMessage(MODEL, m));

  it('gives the bytes the whole response encodes to', () => {
    const page = encodeListResponse(MODELS, 'models', encoded, 'next');
    assert.ok(page instanceof EncodedMessage);
    assert.equal(page.typeName, MODELS);
    assert.deepEqual(Buffer.from(page.bytes), Buffer.from(encodeMessage(MODELS, { models, nextPageToken: 'next' })));
    const decoded = decodeMessage<{ models: unknown[]; nextPageToken: string }>(MODELS, page.bytes);
    assert.equal(decoded.nextPageToken, 'next');
    assert.deepEqual(
      decoded.models,
      models.map((m) => decodeMessage(MODEL, encodeMessage(MODEL, m))),
    );
  });

  it('leaves out an empty page token, as proto3 leaves out defaults', () => {
    const last = encodeListResponse(MODELS, 'models', encoded, '');
    assert.deepEqual(Buffer.from(last.bytes), Buffer.from(encodeMessage(MODELS, { models })));
    assert.equal(encodeListResponse(MODELS, 'models', [], '').bytes.length, 0);
    const versions = `${AIPLATFORM}.ListModelVersionsResponse`;
    assert.deepEqual(
      Buffer.from(encodeListResponse(versions, 'models', encoded.slice(0, 2), 't').bytes),
      Buffer.from(encodeMessage(versions, { models: models.slice(0, 2), nextPageToken: 't' })),
    );
  });

  it('refuses a type without such items or page token', () => {
    assert.throws(() => encodeListResponse(MODELS, 'nextPageToken', [], ''), /no repeated message field/);
    assert.throws(() => encodeListResponse(MODEL, 'versionAliases', [], ''), /no repeated message field/);
    assert.throws(() => encodeListResponse(MODEL, 'deployedModels', [], ''), /no next_page_token/);
  });
});
