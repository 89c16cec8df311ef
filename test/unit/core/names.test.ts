import { strict as assert } from 'node:assert';
import {
  ResourceNameError,
  checkKeyId,
  formatEndpointName,
  formatEvaluationName,
  formatKeyName,
  formatLocationName,
  formatModelName,
  formatOperationName,
  formatSliceName,
  parseEndpointName,
  parseEvaluationName,
  parseExplicitVersionName,
  parseKeyName,
  parseLocationName,
  parseModelName,
  parseModelVersionName,
  parseOperationName,
  parseSliceName,
  shortName,
} from '../../../src/core/names';

const LOC = 'projects/p1/locations/us-central1';

function refuses(fn: () => unknown, fragment: RegExp): void {
  assert.throws(fn, (err: unknown) => err instanceof ResourceNameError && fragment.test(err.message));
}

describe('resource names', () => {
  it('round-trips a location', () => {
    const n = parseLocationName(LOC);
    assert.deepEqual(n, { project: 'p1', location: 'us-central1' });
    assert.equal(formatLocationName(n), LOC);
  });

  it('round-trips a model, a model@version and a model@alias', () => {
    assert.deepEqual(parseModelName(`${LOC}/models/123`), { project: 'p1', location: 'us-central1', model: '123' });
    const v = parseModelVersionName(`${LOC}/models/123@2`);
    assert.equal(v.version, '2');
    assert.equal(formatModelName(v), `${LOC}/models/123@2`);
    const a = parseModelVersionName(`${LOC}/models/123@golden`);
    assert.equal(a.version, 'golden');
    assert.equal(parseModelVersionName(`${LOC}/models/123`).version, undefined);
    assert.equal(formatModelName({ project: 'p1', location: 'us-central1', model: '123' }), `${LOC}/models/123`);
  });

  it('requires an explicit version where a call needs one', () => {
    assert.equal(parseExplicitVersionName(`${LOC}/models/m@3`).version, '3');
    refuses(() => parseExplicitVersionName(`${LOC}/models/m`), /explicit "@version"/);
  });

  it('refuses a version on a plain model name', () => {
    refuses(() => parseModelName(`${LOC}/models/m@1`), /takes no version/);
  });

  it('round-trips evaluations, slices and endpoints', () => {
    const e = `${LOC}/models/m/evaluations/e1`;
    assert.equal(formatEvaluationName(parseEvaluationName(e)), e);
    const s = `${e}/slices/s1`;
    assert.deepEqual(parseSliceName(s), {
      project: 'p1',
      location: 'us-central1',
      model: 'm',
      evaluation: 'e1',
      slice: 's1',
    });
    assert.equal(formatSliceName(parseSliceName(s)), s);
    const ep = `${LOC}/endpoints/42`;
    assert.equal(formatEndpointName(parseEndpointName(ep)), ep);
  });

  it('round-trips API key names in location global', () => {
    const k = 'projects/p1/locations/global/keys/my-key';
    assert.deepEqual(parseKeyName(k), { project: 'p1', key: 'my-key' });
    assert.equal(formatKeyName(parseKeyName(k)), k);
    const uuid = 'projects/123/locations/global/keys/b7ff1f9f-8275-410a-94dd-3855ee9b5dd2';
    assert.equal(parseKeyName(uuid).key, 'b7ff1f9f-8275-410a-94dd-3855ee9b5dd2');
  });

  it('parses both operation name forms', () => {
    assert.deepEqual(parseOperationName('operations/akmf.123'), { kind: 'global', operation: 'akmf.123' });
    const op = `${LOC}/models/m/operations/77`;
    assert.deepEqual(parseOperationName(op), { kind: 'resource', parent: `${LOC}/models/m`, operation: '77' });
    assert.equal(formatOperationName(parseOperationName(op)), op);
    assert.equal(formatOperationName(parseOperationName(`${LOC}/operations/5`)), `${LOC}/operations/5`);
  });

  const refusals: Array<[string, () => unknown, RegExp]> = [
    ['empty', () => parseModelName(''), /empty/],
    [
      'missing segments',
      () => parseModelName('projects/p1/locations/us-central1/models'),
      /expected 3 collection\/id pairs/,
    ],
    ['empty id', () => parseModelName('projects/p1/locations/us-central1/models//'), /trailing "\/"|empty segment/],
    ['double slash', () => parseLocationName('projects//locations/x'), /empty segment/],
    ['two @', () => parseModelVersionName(`${LOC}/models/m@1@2`), /more than one "@"/],
    ['empty version', () => parseModelVersionName(`${LOC}/models/m@`), /after "@" is empty/],
    ['empty model before @', () => parseModelVersionName(`${LOC}/models/@1`), /before "@" is empty/],
    [
      'wrong collection',
      () => parseModelName('projects/p1/locations/us-central1/endpoints/1'),
      /segment 5 must be "models"/,
    ],
    ['wrong root', () => parseLocationName('project/p1/locations/x'), /segment 1 must be "projects"/],
    ['bad location', () => parseLocationName('projects/p1/locations/US_CENTRAL'), /not a location id/],
    ['key outside global', () => parseKeyName('projects/p1/locations/us-central1/keys/k'), /only in location "global"/],
    ['key upper case', () => parseKeyName('projects/p1/locations/global/keys/MyKey'), /not allowed/],
    ['spaces', () => parseLocationName(' projects/p/locations/x'), /spaces/],
    ['@ in evaluation model', () => parseEvaluationName(`${LOC}/models/m@1/evaluations/e`), /contains "@"/],
    [
      'slice wrong collection',
      () => parseSliceName(`${LOC}/models/m/evaluations/e/slice/s`),
      /segment 9 must be "slices"/,
    ],
    [
      'operation without collection',
      () => parseOperationName(`${LOC}/models/m/ops/1`),
      /next-to-last segment must be "operations"/,
    ],
    [
      'operation under unknown collection',
      () => parseOperationName(`${LOC}/widgets/m/operations/1`),
      /not a collection that has operations/,
    ],
    ['global operation wrong root', () => parseOperationName('ops/1'), /segment 1 must be "operations"/],
  ];
  for (const [title, fn, fragment] of refusals) {
    it(`refuses ${title} with a clear message`, () => refuses(fn, fragment));
  }

  it('checks key ids as the API does', () => {
    assert.equal(checkKeyId('web-key-1'), undefined);
    assert.match(checkKeyId('')!, /empty/);
    assert.match(checkKeyId('1abc')!, /start with a lower-case letter/);
    assert.match(checkKeyId('abc-')!, /must not end with "-"/);
    assert.match(checkKeyId('a'.repeat(64))!, /more than 63/);
    assert.match(checkKeyId('Abc')!, /start with a lower-case letter/);
  });

  it('gives the last id as the short name', () => {
    assert.equal(shortName(`${LOC}/models/m@2`), 'm@2');
  });
});
