// Rule test files (`<rule>.test.yaml`): what parses, the problems with their lines and columns, and
// a case run and compared with its expectation.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareExpectation, runCase } from '../../../../src/udm/rule/test-case';
import { parseRuleTestFile, type RuleTestFile } from '../../../../src/udm/rule/test-file';

const ROOT = join(__dirname, '..', '..', '..', '..');

const RULE = `rule c2 {
  meta:
    author = "t"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
    $e.target.ip = "198.51.100.23"
    $e.principal.hostname = $host
  outcome:
    $risk_score = if($e.target.port = 4444, 90, 75)
    $port = $e.target.port
  condition:
    $e
}`;

function event(host: string, ip: string, port: number, at: string, id: string): unknown {
  return {
    udm: {
      metadata: { id, eventTimestamp: at, eventType: 'NETWORK_CONNECTION' },
      principal: { hostname: host },
      target: { ip: [ip], port },
    },
  };
}

function parsed(text: string): RuleTestFile {
  const p = parseRuleTestFile(text);
  assert.deepEqual(p.problems, []);
  assert.ok(p.file);
  return p.file;
}

describe('rule test files', () => {
  it('reads inline events, files, ranges, lists and the three kinds of expectation', () => {
    const file = parsed(`lists:
  watched: [a.test]
cases:
  - name: fires
    events:
      - udm: { metadata: { eventType: X } }
    expect: { fires: true }
  - name: from a file
    events: events/quiet.ndjson
    range: { start: 2026-11-01T00:00:00Z, end: 2026-11-02T00:00:00Z }
    lists: { other: lists/other.txt }
    expect: { count: 0 }
  - name: exact
    events: []
    expect:
      detections:
        - match: { host: h }
          riskScore: 90
          events: { e: 1 }
`);
    assert.equal(file.cases.length, 3);
    assert.deepEqual(file.cases[0].expect, { kind: 'fires', fires: true });
    assert.deepEqual(file.cases[1].events, { file: 'events/quiet.ndjson' });
    assert.deepEqual(file.cases[1].range, { start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 10, 2) });
    assert.deepEqual(Object.keys(file.cases[1].lists).sort(), ['other', 'watched']);
    assert.equal(file.cases[2].expect.kind, 'detections');
    assert.equal(file.cases[2].span.line, 13);
  });

  it('gives each problem a line and column: unknown keys, a path with .., a bad time, a missing expectation', () => {
    const text = `cases:
  - name: one
    events: ../outside.ndjson
    expect: { fires: true }
  - name: two
    events: []
    range: { start: yesterday, end: 2026-11-02T00:00:00Z }
    expect: { count: 1 }
  - name: three
    events: []
    expect: { firez: true }
`;
    const p = parseRuleTestFile(text);
    assert.equal(p.file, undefined);
    const byLine = new Map(p.problems.map((x) => [x.line, x]));
    assert.match(byLine.get(3)?.message ?? '', /cases\[0\]\.events: a path relative to this file's folder.*no "\.\."/);
    assert.equal(byLine.get(3)?.column, 13);
    assert.match(byLine.get(7)?.message ?? '', /cases\[1\]\.range\.start: not an RFC 3339 time/);
    assert.match(byLine.get(11)?.message ?? '', /cases\[2\]\.expect: unknown key "firez"/);
    assert.equal(byLine.get(11)?.column, 15);
  });

  it('refuses names given twice, keys given twice, an empty range and YAML that does not parse', () => {
    const twice = parseRuleTestFile(`cases:
  - { name: a, events: [], expect: { fires: false } }
  - { name: a, events: [], expect: { fires: false } }
`);
    assert.match(twice.problems[0].message, /already the name of cases\[0\]/);
    assert.equal(twice.problems[0].line, 3);
    assert.match(parseRuleTestFile('cases: []\ncases: []\n').problems[0].message, /unique/i);
    const empty = parseRuleTestFile(`cases:
  - name: a
    events: []
    range: { start: 2026-11-02T00:00:00Z, end: 2026-11-01T00:00:00Z }
    expect: { fires: false }
`);
    assert.match(empty.problems[0].message, /start must be before end/);
    assert.equal(parseRuleTestFile('cases: [\n').problems[0].line >= 1, true);
    assert.match(parseRuleTestFile('').problems[0].message, /empty/);
  });

  it('is published as the schema the YAML extension validates *.test.yaml with', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const entry = manifest.contributes.yamlValidation.find((v: { fileMatch: string[] }) =>
      v.fileMatch.includes('*.test.yaml'),
    );
    assert.ok(entry);
    assert.ok(existsSync(join(ROOT, entry.url)));
    const vscodeignore = readFileSync(join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(vscodeignore, /^!media\/\*\*$/m);
  });

  it('runs a case offline and compares the detections field by field', () => {
    const events = [
      event('laptop-1', '198.51.100.23', 4444, '2026-11-01T09:00:00Z', 'a'),
      event('laptop-2', '198.51.100.23', 443, '2026-11-01T10:00:00Z', 'b'),
      event('laptop-3', '203.0.113.9', 4444, '2026-11-01T11:00:00Z', 'c'),
    ];
    const run = runCase({ ruleText: RULE, events, lists: {} });
    assert.ok('detections' in run);
    assert.equal(run.detections.length, 2);
    assert.deepEqual(compareExpectation({ kind: 'fires', fires: true }, run.detections), []);
    assert.deepEqual(compareExpectation({ kind: 'count', count: 3 }, run.detections), ['expected 3 detections, got 2']);
    const diff = compareExpectation(
      {
        kind: 'detections',
        detections: [
          { match: {}, outcomes: { port: 4444 }, riskScore: 90, events: { e: ['a'] } },
          { outcomes: { port: 443, hostname: 'x' }, riskScore: 90, events: { e: 2 } },
        ],
      },
      run.detections,
    );
    assert.deepEqual(diff, [
      'detection 2 outcomes.hostname: expected "x", the detection has no outcomes $hostname',
      'detection 2 riskScore: expected 90, got 75',
      'detection 2 events.e: expected 2 events, got 1',
    ]);
    const ranged = runCase({
      ruleText: RULE,
      events,
      lists: {},
      range: { start: Date.parse('2026-11-01T09:30:00Z'), end: Date.parse('2026-11-01T12:00:00Z') },
    });
    assert.ok('detections' in ranged);
    assert.equal(ranged.detections.length, 1);
  });

  it('refuses a rule that reads the clock or a list the case does not give', () => {
    const clock = RULE.replace('$e\n}', '$e and timestamp.current_seconds() > 0\n}');
    const r = runCase({ ruleText: clock, events: [], lists: {} });
    assert.ok('error' in r);
    assert.match(r.error, /timestamp\.current_seconds\(\).*depends on when the test runs/);
    const listed = RULE.replace('$e.target.ip = "198.51.100.23"', '$e.target.ip in %c2_addresses');
    const l = runCase({ ruleText: listed, events: [], lists: {} });
    assert.ok('error' in l);
    assert.match(l.error, /%c2_addresses/);
  });
});
