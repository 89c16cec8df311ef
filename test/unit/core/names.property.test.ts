import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  ResourceNameError,
  formatKeyName,
  formatModelName,
  formatSliceName,
  parseEndpointName,
  parseEvaluationName,
  parseKeyName,
  parseLocationName,
  parseModelName,
  parseModelVersionName,
  parseOperationName,
  parseSliceName,
} from '../../../src/core/names';

const id = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,20}$/);
const location = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const version = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,10}$/);
const parsers = [
  parseLocationName,
  parseModelName,
  parseModelVersionName,
  parseEvaluationName,
  parseSliceName,
  parseEndpointName,
  parseKeyName,
  parseOperationName,
];

describe('resource names (properties)', () => {
  it('refuses arbitrary input only with ResourceNameError, never another exception', () => {
    const nameLike = fc
      .array(
        fc.oneof(
          fc.constantFrom(
            'projects',
            'locations',
            'models',
            'evaluations',
            'slices',
            'keys',
            'global',
            'operations',
            '',
            '@',
            'a@b',
            '@@',
          ),
          fc.string(),
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.oneof(fc.string(), nameLike), (input) => {
        for (const parse of parsers) {
          try {
            parse(input);
          } catch (err) {
            assert.ok(err instanceof ResourceNameError, `${parse.name}(${JSON.stringify(input)}) threw ${String(err)}`);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('round-trips every well-formed model version, slice and key name', () => {
    fc.assert(
      fc.property(
        id,
        location,
        id,
        fc.option(version, { nil: undefined }),
        id,
        id,
        (project, loc, model, ver, evaluation, slice) => {
          const m = formatModelName({ project, location: loc, model, version: ver });
          assert.deepEqual(parseModelVersionName(m), { project, location: loc, model, version: ver });
          const s = formatSliceName({ project, location: loc, model, evaluation, slice });
          assert.equal(formatSliceName(parseSliceName(s)), s);
        },
      ),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(id, fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/), (project, key) => {
        const k = formatKeyName({ project, key });
        assert.deepEqual(parseKeyName(k), { project, key });
      }),
      { numRuns: 500 },
    );
  });
});
