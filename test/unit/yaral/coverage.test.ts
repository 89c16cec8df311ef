import * as assert from 'node:assert/strict';
import {
  buildCoverage,
  coveredRules,
  missingTechniques,
  navigatorLayer,
  parseRequiredTechniques,
  type CoveredRule,
} from '../../../src/udm/rule/coverage';
import { assertValidLayer, ENTERPRISE_SHORT_NAMES, layerErrors } from '../../support/navigator-layer';

function ruleText(name: string, meta: string): string {
  return `rule ${name} {\n  meta:\n${meta}\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n`;
}

function rules(specs: Array<[string, string, boolean?]>): CoveredRule[] {
  return specs.flatMap(
    ([name, meta, tested]) => coveredRules(ruleText(name, meta), `${name}.yaral`, tested ?? false).rules,
  );
}

describe('ATT&CK coverage', () => {
  const sample = rules([
    ['brute_force', '    tactic = "TA0006"\n    technique = "T1110.001"', true],
    ['stuffing', '    mitre_attack_tactic = "Credential Access, Initial Access"\n    technique = "T1110.004, T1078"'],
    ['c2', '    tactic = "TA0011"'],
    ['no_tactic', '    technique = "T1059"', true],
    ['plain', '    author = "x"'],
  ]);

  it('groups rules by tactic (matrix order, tactic-less last), technique (by ID) and rule', () => {
    const c = buildCoverage(sample);
    assert.deepEqual(
      c.tactics.map((g) => g.tactic?.id ?? '-'),
      ['TA0001', 'TA0006', 'TA0011', '-'],
    );
    const credential = c.tactics[1];
    assert.deepEqual(
      credential.techniques.map((t) => [t.id, t.rules.map((r) => r.name)]),
      [
        ['T1078', ['stuffing']],
        ['T1110.001', ['brute_force']],
        ['T1110.004', ['stuffing']],
      ],
    );
    assert.deepEqual(
      c.tactics[2].withoutTechnique.map((r) => r.name),
      ['c2'],
    );
    assert.deepEqual(
      c.tactics[3].techniques.map((t) => t.id),
      ['T1059'],
    );
    assert.deepEqual(
      c.untagged.map((r) => r.name),
      ['plain'],
    );
    assert.deepEqual(c.techniqueIds, ['T1059', 'T1078', 'T1110.001', 'T1110.004']);
  });

  it('gives the rule line of its first ATT&CK meta item (0-based) for opening it there', () => {
    const [r] = rules([['x', '    author = "a"\n    tactic = "TA0006"']]);
    assert.equal(r.line, 3);
  });

  it('writes a Navigator 4.5 layer: one entry per tactic and technique, scored by rules', () => {
    const layer = navigatorLayer(buildCoverage(sample));
    assertValidLayer(layer);
    assert.equal(layer.versions.layer, '4.5');
    assert.equal(layer.domain, 'enterprise-attack');
    const entries = layer.techniques.map((t) => `${t.tactic ?? '*'} ${t.techniqueID} ${t.score}`);
    assert.deepEqual(entries, [
      'initial-access T1078 1',
      'initial-access T1110.004 1',
      'credential-access T1078 1',
      'credential-access T1110.001 1',
      'credential-access T1110.004 1',
      '* T1059 1',
    ]);
    for (const t of layer.techniques) if (t.tactic) assert.ok(ENTERPRISE_SHORT_NAMES.includes(t.tactic), t.tactic);
    const brute = layer.techniques.find((t) => t.techniqueID === 'T1110.001');
    assert.deepEqual(brute?.metadata, [
      { name: 'rule', value: 'brute_force (brute_force.yaral)' },
      { name: 'tested', value: '1 of 1 rule' },
    ]);
    assert.ok(layer.gradient.maxValue > layer.gradient.minValue);
  });

  it('scores a technique with the number of rules covering it under the tactic', () => {
    const many = rules([
      ['a', '    tactic = "TA0011"\n    technique = "T1071.004"'],
      ['b', '    tactic = "TA0011"\n    technique = "T1071.004"'],
      ['c', '    tactic = "TA0011"\n    technique = "T1071.004"'],
    ]);
    const layer = navigatorLayer(buildCoverage(many));
    assertValidLayer(layer);
    assert.deepEqual(
      layer.techniques.map((t) => [t.techniqueID, t.score, t.comment]),
      [['T1071.004', 3, '3 rules: a, b, c']],
    );
    assert.equal(layer.gradient.maxValue, 3);
  });

  it('writes a valid layer for no covered technique at all', () => {
    const layer = navigatorLayer(buildCoverage(rules([['plain', '    author = "x"']])));
    assertValidLayer(layer);
    assert.deepEqual(layer.techniques, []);
  });

  it('has a schema that refuses what the format does not allow', () => {
    const good = navigatorLayer(buildCoverage(sample));
    const bad = (change: (l: Record<string, unknown>) => void): string[] => {
      const copy = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
      change(copy);
      return layerErrors(copy);
    };
    assert.notDeepEqual(
      bad((l) => ((l.versions as Record<string, string>).layer = '4.4')),
      [],
    );
    assert.notDeepEqual(
      bad((l) => (l.domain = 'enterprise')),
      [],
    );
    assert.notDeepEqual(
      bad((l) => ((l.techniques as Array<Record<string, unknown>>)[0].techniqueID = 'T1059.1')),
      [],
    );
    assert.notDeepEqual(
      bad((l) => ((l.techniques as Array<Record<string, unknown>>)[0].score = '1')),
      [],
    );
    assert.notDeepEqual(
      bad((l) => ((l.gradient as Record<string, number>).maxValue = 0)),
      [],
    );
    assert.notDeepEqual(
      bad((l) => delete l.name),
      [],
    );
  });

  it('reads a list of required techniques: IDs by line, comma or space, # comments', () => {
    assert.deepEqual(parseRequiredTechniques('# must have\nT1110, t1059.001  T1078\n\nT1110 # again\n'), {
      ids: ['T1110', 'T1059.001', 'T1078'],
      problems: [],
    });
    assert.deepEqual(parseRequiredTechniques('T1110\nT1059.1\nBrute Force').problems, [
      { line: 2, text: 'T1059.1' },
      { line: 3, text: 'Brute' },
      { line: 3, text: 'Force' },
    ]);
  });

  it('counts a technique covered by itself or a sub-technique, a sub-technique only by itself', () => {
    const c = buildCoverage(sample);
    assert.deepEqual(missingTechniques(c, ['T1110', 'T1110.001', 'T1110.003', 'T1078', 'T1078.004', 'T1566']), [
      'T1110.003',
      'T1078.004',
      'T1566',
    ]);
  });
});
