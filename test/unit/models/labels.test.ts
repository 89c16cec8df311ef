// Label checks held to Google's documented "Requirements for labels" (cloud.google.com, e.g.
// /pubsub/docs/labels and /workstations/docs/label-resources), sentence by sentence:
//   - Each resource can have up to 64 labels.
//   - Keys have a minimum length of 1 character and a maximum length of 63 characters, and cannot
//     be empty. Values can be empty, and have a maximum length of 63 characters.
//   - Keys and values can contain only lowercase letters, numeric characters, underscores, and
//     dashes. All characters must use UTF-8 encoding, and international characters are allowed.
//     Keys must start with a lowercase letter or international character.
//   - The key portion of a label must be unique within a single resource.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  formatLabels,
  labelKeyProblem,
  labelValueProblem,
  labelsProblem,
  parseLabels,
  sameLabels,
} from '../../../src/core/models/labels';

const ok = (text: string): Record<string, string> => {
  const parsed = parseLabels(text);
  assert.equal(parsed.problem, undefined, `"${text}" refused: ${parsed.problem}`);
  return parsed.labels;
};
const refused = (text: string, pattern: RegExp): void => {
  const parsed = parseLabels(text);
  assert.ok(parsed.problem, `"${text}" accepted`);
  assert.match(parsed.problem, pattern);
};

describe('labels: Google\'s "Requirements for labels"', () => {
  it('"up to 64 labels": 64 pass, 65 are refused', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=v`).join(', ');
    assert.equal(Object.keys(ok(many(64))).length, 64);
    refused(many(65), /at most 64/);
    const record = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, '']));
    assert.match(labelsProblem(record) ?? '', /at most 64/);
  });

  it('"keys have a minimum length of 1 … and cannot be empty"', () => {
    refused('=value', /cannot be empty/);
    assert.match(labelKeyProblem('') ?? '', /cannot be empty/);
  });

  it('"maximum length of 63 characters" for keys and values, counted in characters, not bytes', () => {
    assert.equal(labelKeyProblem(`k${'a'.repeat(62)}`), undefined);
    assert.match(labelKeyProblem(`k${'a'.repeat(63)}`) ?? '', /64 characters; keys have at most 63/);
    assert.equal(labelValueProblem('k', 'a'.repeat(63)), undefined);
    assert.match(labelValueProblem('k', 'a'.repeat(64)) ?? '', /at most 63/);
    // 63 international characters are 189 bytes of UTF-8 and still one label of 63 characters.
    assert.equal(labelKeyProblem('日'.repeat(63)), undefined);
    assert.equal(labelValueProblem('k', 'é'.repeat(63)), undefined);
  });

  it('"values can be empty"', () => {
    assert.deepEqual(ok('team='), { team: '' });
    assert.deepEqual(ok('team'), { team: '' });
  });

  it('"only lowercase letters, numeric characters, underscores, and dashes"', () => {
    assert.deepEqual(ok('env=prod, cost_center=r-and-d, tier=3'), { env: 'prod', cost_center: 'r-and-d', tier: '3' });
    refused('Env=prod', /starts with "E"|contains "E"/);
    refused('env=Prod', /contains "P"/);
    refused('env=pr.od', /contains "\." /);
    refused('env=pr od', /contains U\+0020/);
    refused('e:nv=prod', /contains ":"/);
  });

  it('"international characters are allowed" (lowercase or without case)', () => {
    assert.deepEqual(ok('équipe=données, 部署=東京'), { équipe: 'données', 部署: '東京' });
    refused('Équipe=x', /"É"/);
  });

  it('"keys must start with a lowercase letter or international character"', () => {
    refused('1env=prod', /starts with "1"/);
    refused('_env=prod', /starts with "_"/);
    refused('-env=prod', /starts with "-"/);
    assert.deepEqual(ok('ключ=1'), { ключ: '1' });
    // A value may start with anything allowed.
    assert.deepEqual(ok('env=1-a'), { env: '1-a' });
  });

  it('"the key portion of a label must be unique"', () => {
    refused('env=prod, env=dev', /appears twice/);
  });

  it('never accepts control characters, and names them by code point in the message', () => {
    refused('env=pr\u0007od', /control character U\+0007/);
    refused('env=prod\u001b[31m', /U\+001B/);
    refused('env\u0000=x', /U\+0000/);
    refused('env=prod\u202e', /U\+202E/);
    refused('env=a\nteam=b', /U\+000A/);
    const parsed = parseLabels('env=\u0007');
    assert.ok(parsed.problem && !parsed.problem.includes('\u0007'));
    assert.match(labelKeyProblem('a\u0085b') ?? '', /U\+0085/);
  });

  it('reads spaces around parts, refuses empty parts, and an empty text is no labels', () => {
    assert.deepEqual(ok('  env = prod ,team=risk  '), { env: 'prod', team: 'risk' });
    assert.deepEqual(ok(''), {});
    assert.deepEqual(ok('   '), {});
    refused('env=prod,,team=x', /Label 2 is empty/);
    refused('env=prod,', /Label 2 is empty/);
  });

  it('keeps "constructor" as an ordinary key and refuses "__proto__" (it starts with "_")', () => {
    assert.deepEqual(ok('constructor=x, valueof=y'), { constructor: 'x', valueof: 'y' });
    refused('__proto__=y', /starts with "_"/);
  });

  it('format and parse agree for every valid label set', () => {
    const key = fc.stringMatching(/^[a-zé][a-z0-9é_-]{0,10}$/);
    const value = fc.stringMatching(/^[a-z0-9é_-]{0,10}$/);
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 64 }), (labels) => {
        const round = ok(formatLabels(labels));
        assert.ok(sameLabels(round, labels));
        assert.equal(labelsProblem(labels), undefined);
      }),
    );
  });
});
