// The expected/actual texts a failed case shows in the Test Explorer, and a new case added to a test
// file the way people write them (other items' indentation, lists after cases:, comments kept).
import * as assert from 'node:assert/strict';
import { parse } from 'yaml';
import { withCase } from '../../../../src/udm/rule/test-capture';
import { compareExpectation } from '../../../../src/udm/rule/test-case';
import { actualText, expectedText } from '../../../../src/udm/rule/test-diff';
import { parseRuleTestFile, type Expectation } from '../../../../src/udm/rule/test-file';
import type { Detection } from '../../../../src/udm/rule/test-types';

const detection = (host: string, risk: number, ids: string[]): Detection => ({
  match: { host },
  windowStart: Date.UTC(2026, 0, 5, 9),
  windowEnd: Date.UTC(2026, 0, 5, 10),
  outcomes: { hostname: host, port: 4444, extra: 'not compared' },
  riskScore: risk,
  events: { e: ids.map((id) => ({ id, udm: {} })) },
});

describe('rule test differences', () => {
  it('writes the actual detections in the shape of the expected ones, differing where the comparison does', () => {
    const file = parseRuleTestFile(
      [
        'cases:',
        '  - name: c2',
        '    events: []',
        '    expect:',
        '      detections:',
        '        - match: { host: lt-ana-01 }',
        '          outcomes: { port: 4444 }',
        '          riskScore: 91',
        "          events: { e: ['c2-1'] }",
      ].join('\n'),
    );
    const expect = file.file!.cases[0].expect;
    const actual = [detection('lt-ana-01', 90, ['c2-1']), detection('ws-dev-01', 75, ['c2-2'])];
    const differences = compareExpectation(expect, actual);
    assert.deepEqual(differences, ['expected 1 detection, got 2', 'detection 1 riskScore: expected 91, got 90']);
    const want = parse(expectedText(expect));
    const got = parse(actualText(expect, actual));
    assert.deepEqual(want.detections[0], {
      match: { host: 'lt-ana-01' },
      outcomes: { port: 4444 },
      riskScore: 91,
      events: { e: ['c2-1'] },
    });
    // the first actual holds only the compared fields: riskScore is the one line that differs
    assert.deepEqual(got.detections[0], { ...want.detections[0], riskScore: 90 });
    // a detection the case does not expect is written whole
    assert.equal(got.detections.length, 2);
    assert.deepEqual(got.detections[1].outcomes, { hostname: 'ws-dev-01', port: 4444, extra: 'not compared' });
  });

  it('answers fires and count expectations in their own shape', () => {
    const fires: Expectation = { kind: 'fires', fires: false };
    assert.equal(expectedText(fires).trim(), 'fires: false');
    assert.equal(actualText(fires, [detection('h', 1, [])]).trim(), 'fires: true');
    const count: Expectation = { kind: 'count', count: 3 };
    assert.equal(actualText(count, [detection('h', 1, [])]).trim(), 'count: 1');
  });
});

describe('adding a saved case to a test file', () => {
  const newCase = { name: 'saved', events: 'events/r-saved.ndjson', expect: { fires: false } };

  it('creates the file with a cases: list', () => {
    const text = withCase(undefined, 'r.yaral', newCase);
    assert.deepEqual(
      parseRuleTestFile(text).file?.cases.map((c) => c.name),
      ['saved'],
    );
    assert.match(text, /^# Test cases for r\.yaral/);
  });

  for (const [what, text] of [
    ['items indented by two', 'cases:\n  - name: one\n    events: []\n    expect: { fires: false }\n'],
    ['items not indented', 'cases:\n- name: one\n  events: []\n  expect: { fires: false }\n'],
    [
      'lists after cases: and comments',
      '# keep me\ncases:\n  - name: one # and me\n    events: []\n    expect: { fires: false }\n\nlists:\n  l: [a]\n',
    ],
    ['no newline at the end', 'cases:\n  - name: one\n    events: []\n    expect: { fires: false }'],
    ['a flow list', 'cases: [{ name: one, events: [], expect: { fires: false } }]\n'],
  ] as const)
    it(`adds the case last with ${what}, everything else kept`, () => {
      const after = withCase(text, 'r.yaral', newCase);
      const parsed = parseRuleTestFile(after);
      assert.deepEqual(parsed.problems, []);
      assert.deepEqual(
        parsed.file?.cases.map((c) => c.name),
        ['one', 'saved'],
      );
      assert.deepEqual(parse(after).lists, parse(text).lists);
      for (const comment of text.match(/#[^\n]*/g) ?? []) assert.ok(after.includes(comment), comment);
    });
});
