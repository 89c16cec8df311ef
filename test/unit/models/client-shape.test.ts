import { strict as assert } from 'node:assert';
import { locationOfName, RequestShapeError, resolveRequest, routingHeader } from '../../../src/core/models/client';
import { ModelOperation, type OperationsApi } from '../../../src/core/models/operation';
import type { Operation } from '../../../src/core/models/types';
import { GoogleApiError } from '../../../src/core/google/errors';
import { OperationFailedError } from '../../../src/core/lro';
import {
  decodeMessage,
  encodeMessage,
  fromProto3Json,
  packAny,
  ProtoJsonError,
  toProto3Json,
  unpackAny,
} from '../../../src/core/models/wire';

const V = 'google.cloud.aiplatform.v1beta1';

describe('models client: request forms and routing', () => {
  it('accepts a request message or flattened fields, never both', () => {
    assert.deepEqual(resolveRequest('getModel', { request: { name: 'a' } }, ['name']), { name: 'a' });
    assert.deepEqual(resolveRequest('getModel', { name: 'a' }, ['name']), { name: 'a' });
    assert.throws(
      () => resolveRequest('getModel', { request: { name: 'a' }, name: 'b' }, ['name']),
      (e: unknown) => e instanceof RequestShapeError && /not both/.test(e.message),
    );
    assert.throws(
      () => resolveRequest('listModels', { parent: 'p', pageSize: 3 }, ['parent']),
      (e: unknown) => e instanceof RequestShapeError && /pageSize/.test(e.message),
    );
    assert.throws(() => resolveRequest('getModel', { request: 'x' }, ['name']), RequestShapeError);
    // Undefined flattened values are not "given".
    assert.deepEqual(resolveRequest('getModel', { request: { name: 'a' }, name: undefined }, ['name']), { name: 'a' });
  });

  it('builds x-goog-request-params like google-gax (url-encoded values, dotted keys)', () => {
    assert.equal(
      routingHeader({ name: 'projects/p/locations/l/models/m@2' }, ['name']),
      'name=projects%2Fp%2Flocations%2Fl%2Fmodels%2Fm%402',
    );
    assert.equal(
      routingHeader({ model: { name: 'projects/p/locations/l/models/m' } }, ['model.name']),
      'model.name=projects%2Fp%2Flocations%2Fl%2Fmodels%2Fm',
    );
    assert.equal(routingHeader({}, ['parent']), '');
  });

  it('routes by the location in the resource name', () => {
    assert.equal(locationOfName('projects/p/locations/europe-west4/models/1@2'), 'europe-west4');
    assert.equal(locationOfName('projects/p/locations/us-east1'), 'us-east1');
    assert.equal(locationOfName('projects/p'), undefined);
    assert.equal(locationOfName(undefined), undefined);
  });
});

describe('models wire format and proto3 JSON', () => {
  it('round-trips a model through the official descriptor', () => {
    const bytes = encodeMessage(`${V}.Model`, {
      name: 'projects/p/locations/l/models/m',
      versionId: '3',
      versionAliases: ['default'],
      labels: { a: 'b' },
      supportedExportFormats: [{ id: 'tflite', exportableContents: ['ARTIFACT'] }],
    });
    const m = decodeMessage<Record<string, unknown>>(`${V}.Model`, bytes);
    assert.equal(m['versionId'], '3');
    assert.deepEqual(m['versionAliases'], ['default']);
    assert.deepEqual(toProto3Json(`${V}.Model`, m), {
      name: 'projects/p/locations/l/models/m',
      versionId: '3',
      versionAliases: ['default'],
      labels: { a: 'b' },
      supportedExportFormats: [{ id: 'tflite', exportableContents: ['ARTIFACT'] }],
    });
  });

  it('packs and unpacks LRO metadata and renders Any with @type', () => {
    const any = packAny(`${V}.ExportModelOperationMetadata`, { outputInfo: { artifactOutputUri: 'gs://b/x' } });
    assert.deepEqual(unpackAny(any), { outputInfo: { artifactOutputUri: 'gs://b/x' } });
    const op = decodeMessage<Operation>(
      'google.longrunning.Operation',
      encodeMessage('google.longrunning.Operation', { name: 'o', metadata: any }),
    );
    assert.deepEqual(toProto3Json('google.longrunning.Operation', op), {
      name: 'o',
      metadata: {
        '@type': `type.googleapis.com/${V}.ExportModelOperationMetadata`,
        outputInfo: { artifactOutputUri: 'gs://b/x' },
      },
    });
  });

  it('parses import JSON with metrics as plain JSON, timestamps as RFC 3339, snake_case keys', () => {
    const ev = fromProto3Json(`${V}.ModelEvaluation`, {
      display_name: 'e',
      metrics: {
        auPrc: 0.9,
        confusion: [
          [1, 0],
          [0, 1],
        ],
      },
      createTime: '2024-05-01T10:00:00Z',
    });
    const back = toProto3Json(
      `${V}.ModelEvaluation`,
      decodeMessage(`${V}.ModelEvaluation`, encodeMessage(`${V}.ModelEvaluation`, ev)),
    );
    assert.deepEqual(back, {
      displayName: 'e',
      metrics: {
        auPrc: 0.9,
        confusion: [
          [1, 0],
          [0, 1],
        ],
      },
      createTime: '2024-05-01T10:00:00.000Z',
    });
  });

  it('refuses unknown fields, wrong types, bad enums and two members of a oneof, naming the path', () => {
    assert.throws(
      () => fromProto3Json(`${V}.ModelEvaluation`, { metricz: {} }),
      (e: unknown) => e instanceof ProtoJsonError && e.path === 'metricz',
    );
    assert.throws(() => fromProto3Json(`${V}.ModelEvaluation`, { sliceDimensions: 'a' }), /expected an array/);
    assert.throws(() => fromProto3Json(`${V}.ModelEvaluation`, { createTime: 'yesterday' }), /RFC 3339/);
    assert.throws(
      () => fromProto3Json(`${V}.EvaluatedAnnotation`, { type: 'MAYBE' }),
      (e: unknown) => e instanceof ProtoJsonError && /TRUE_POSITIVE/.test(e.message),
    );
    assert.throws(
      () => fromProto3Json(`${V}.ModelEvaluationSlice`, { slice: { dimension: 3 } }, '[0]'),
      (e: unknown) => e instanceof ProtoJsonError && e.path === '[0].slice.dimension',
    );
    assert.throws(() => fromProto3Json(`${V}.ModelVersionCheckpoint`, { epoch: 1.5 }), /integer/);
  });
});

function fakeOps(
  states: Operation[],
  cancel: () => Promise<void> = async () => undefined,
): OperationsApi & { calls: string[] } {
  const calls: string[] = [];
  let i = 0;
  return {
    calls,
    async getOperation(name) {
      calls.push(`get ${name}`);
      return states[Math.min(i++, states.length - 1)];
    },
    async cancelOperation(name) {
      calls.push(`cancel ${name}`);
      await cancel();
    },
    async deleteOperation(name) {
      calls.push(`delete ${name}`);
    },
  };
}

describe('models operations: wait, cancel, stop waiting', () => {
  const copyResponse = packAny(`${V}.CopyModelResponse`, {
    model: 'projects/p/locations/l/models/new',
    modelVersionId: '1',
  });

  it('polls until done and decodes the result by its packed type', async () => {
    const api = fakeOps([
      { name: 'op1', done: false },
      { name: 'op1', done: true, response: copyResponse },
    ]);
    const op = new ModelOperation<{ model?: string }>(api, 'copy', { name: 'op1', done: false });
    const seen: boolean[] = [];
    const res = await op.wait({ initialDelayMs: 1, onUpdate: (o) => seen.push(!!o.done) });
    assert.equal(res.model, 'projects/p/locations/l/models/new');
    assert.deepEqual(seen, [false, false, true]);
    assert.deepEqual(op.result, { model: 'projects/p/locations/l/models/new', modelVersionId: '1' });
  });

  it('throws the operation error as a GoogleApiError with its status', async () => {
    const api = fakeOps([{ name: 'op', done: true, error: { code: 9, message: 'deployed' } }]);
    const op = new ModelOperation(api, 'delete', { name: 'op', done: false });
    await assert.rejects(
      op.wait({ initialDelayMs: 1 }),
      (e: unknown) => e instanceof OperationFailedError && e.status === 'FAILED_PRECONDITION',
    );
  });

  it('reports each cancel outcome', async () => {
    let op = new ModelOperation(
      fakeOps([{ name: 'a', done: true, error: { code: 1, message: 'cancelled' } }]),
      'export',
      { name: 'a' },
    );
    assert.equal((await op.cancel()).kind, 'cancelled');
    op = new ModelOperation(fakeOps([{ name: 'a', done: false }]), 'export', { name: 'a' });
    assert.equal((await op.cancel()).kind, 'requested');
    op = new ModelOperation(fakeOps([{ name: 'a', done: true, response: copyResponse }]), 'copy', { name: 'a' });
    assert.equal((await op.cancel()).kind, 'finished');
    op = new ModelOperation(
      fakeOps([{ name: 'a', done: false }], async () => {
        throw new GoogleApiError('UNIMPLEMENTED', 'The server cannot cancel this operation.');
      }),
      'copy',
      { name: 'a' },
    );
    const unsupported = await op.cancel();
    assert.equal(unsupported.kind, 'unsupported');
    assert.match(unsupported.message, /cannot cancel this operation/);
  });

  it('stop waiting calls DeleteOperation and never CancelOperation', async () => {
    const api = fakeOps([{ name: 'a', done: false }]);
    const op = new ModelOperation(api, 'copy', { name: 'a' });
    await op.stopWaiting();
    assert.deepEqual(api.calls, ['delete a']);
  });

  it('an aborted signal stops waiting at once', async () => {
    const api = fakeOps([{ name: 'a', done: false }]);
    const op = new ModelOperation(api, 'copy', { name: 'a' });
    const ac = new AbortController();
    const waiting = op.wait({ initialDelayMs: 60_000, signal: ac.signal });
    ac.abort();
    await assert.rejects(waiting, (e: unknown) => (e as Error).name === 'CancelledError');
  });
});
