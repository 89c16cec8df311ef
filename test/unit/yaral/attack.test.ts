import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeRuleFile } from '../../../src/udm/rule/analyze';
import { ENTERPRISE_TACTICS, findTactic, readAttack, techniqueOfUrl } from '../../../src/udm/rule/attack';
import { parseRuleFile } from '../../../src/udm/rule/parse';
import { CORPUS_DIR } from '../../support/yaral-corpus';

const ATTACK_DIR = join(CORPUS_DIR, 'attack');
const text = (name: string): string => readFileSync(join(ATTACK_DIR, name), 'utf8');
const attackOf = (source: string): ReturnType<typeof readAttack> => readAttack(parseRuleFile(source).rules[0]);
const rule = (meta: string): string =>
  `rule r {\n  meta:\n${meta}\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n`;

describe('ATT&CK meta', () => {
  it('holds the 14 enterprise tactics, Reconnaissance (TA0043) to Impact (TA0040)', () => {
    assert.equal(ENTERPRISE_TACTICS.length, 14);
    assert.deepEqual(
      [ENTERPRISE_TACTICS[0], ENTERPRISE_TACTICS[13]].map((t) => `${t.id} ${t.name} ${t.shortName}`),
      ['TA0043 Reconnaissance reconnaissance', 'TA0040 Impact impact'],
    );
    assert.equal(new Set(ENTERPRISE_TACTICS.map((t) => t.id)).size, 14);
    assert.equal(findTactic('command-and-control')?.id, 'TA0011');
    assert.equal(findTactic('Command & Control')?.id, 'TA0011');
    assert.equal(findTactic('privilege_escalation')?.id, 'TA0004');
    assert.equal(findTactic('ta0008')?.name, 'Lateral Movement');
    assert.equal(findTactic('TA0030'), undefined);
    assert.equal(findTactic('Credentials Access'), undefined);
  });

  it('reads tactic = "TA…" and technique = "T…" (IDs)', () => {
    const a = attackOf(text('ids.yaral'));
    assert.deepEqual(
      a.tactics.map((t) => t.tactic.id),
      ['TA0006'],
    );
    assert.deepEqual(
      a.techniques.map((t) => [t.id, t.key]),
      [['T1003.001', 'technique']],
    );
    assert.deepEqual(a.problems, []);
    // The anchor is the first ATT&CK item: line 6 of the file.
    assert.equal(text('ids.yaral').slice(0, a.anchor).split('\n').length, 6);
  });

  it('reads mitre_attack_tactic names and the technique ID of mitre_attack_url, with the technique name beside it', () => {
    const a = attackOf(text('mitre_attack_keys.yaral'));
    assert.deepEqual(
      a.tactics.map((t) => [t.tactic.id, t.written]),
      [
        ['TA0003', 'Persistence'],
        ['TA0004', 'Privilege Escalation'],
      ],
    );
    assert.deepEqual(
      a.techniques.map((t) => [t.id, t.name]),
      [['T1098.003', 'Account Manipulation: Additional Cloud Roles']],
    );
    assert.deepEqual(a.unidentified, []);
    assert.deepEqual(a.problems, []);
  });

  it('reads mitre_attack_technique written as an ID, and mitre_attack_tactic as an ID', () => {
    const a = attackOf(text('mitre_attack_technique_id.yaral'));
    assert.deepEqual(
      a.tactics.map((t) => t.tactic.name),
      ['Discovery'],
    );
    assert.deepEqual(
      a.techniques.map((t) => t.id),
      ['T1033'],
    );
  });

  it('reads tactics and technique IDs out of a mitre list, leaving software, group and CAR IDs', () => {
    const a = attackOf(text('mitre_list.yaral'));
    assert.deepEqual(
      a.tactics.map((t) => t.tactic.id),
      ['TA0002', 'TA0011', 'TA0005'],
    );
    assert.deepEqual(
      a.techniques.map((t) => [t.id, t.written]),
      [
        ['T1059.001', 't1059.001'],
        ['T1105', 't1105'],
        ['T1027', 't1027'],
      ],
    );
    assert.deepEqual(a.problems, []);
  });

  it('reads the technique of a reference to its attack.mitre.org page, and no other reference', () => {
    const a = attackOf(text('reference_url.yaral'));
    assert.deepEqual(
      a.techniques.map((t) => [t.id, t.key]),
      [['T1053.005', 'reference']],
    );
    assert.equal(
      text('reference_url.yaral').slice(a.anchor).split('\n')[0],
      'reference = "https://attack.mitre.org/techniques/T1053/005/"',
    );
    const other = attackOf(rule('    reference = "https://example.com/T1059/"'));
    assert.deepEqual([other.techniques, other.problems], [[], []]);
    assert.equal(other.anchor, parseRuleFile(rule('    reference = "x"')).rules[0].meta?.keyword.start);
  });

  it('keeps a technique name without any ID apart (no name table), and reads each ID once', () => {
    const a = attackOf(
      rule(
        '    mitre_attack_technique = "Brute Force"\n    tactic = "TA0006"\n    mitre_attack_tactic = "Credential Access"',
      ),
    );
    assert.deepEqual(a.techniques, []);
    assert.deepEqual(
      a.unidentified.map((u) => u.written),
      ['Brute Force'],
    );
    assert.equal(a.tactics.length, 1);
    const twice = attackOf(rule('    technique = "T1110, t1110"\n    mitre = "T1110"'));
    assert.deepEqual(
      twice.techniques.map((t) => t.id),
      ['T1110'],
    );
  });

  it('finds the technique of attack.mitre.org URLs, with or without a version and a trailing slash', () => {
    assert.equal(techniqueOfUrl('https://attack.mitre.org/techniques/T1562/008/'), 'T1562.008');
    assert.equal(techniqueOfUrl('https://attack.mitre.org/versions/v14/techniques/T1485/'), 'T1485');
    assert.equal(techniqueOfUrl('https://attack.mitre.org/techniques/T1621'), 'T1621');
    assert.equal(techniqueOfUrl('https://attack.mitre.org/tactics/TA0001/'), undefined);
    assert.equal(techniqueOfUrl('https://example.com/techniques/T1078/'), undefined);
    assert.equal(techniqueOfUrl(''), undefined);
  });

  it('warns on malformed tactic and technique IDs and unknown tactics, on the item itself', () => {
    const source = text('malformed.yaral');
    const a = attackOf(source);
    const at = (p: { start: number; end: number }): string => source.slice(p.start, p.end);
    assert.deepEqual(
      a.problems.map((p) => [p.code, at(p)]),
      [
        ['attack-tactic', 'TA01'],
        ['attack-tactic', 'TA0030'],
        ['attack-technique', 'T1059.1'],
        ['attack-tactic', 'Credentials Access'],
        ['attack-tactic', 'ta0011.001'],
        ['attack-technique', 't12'],
      ],
    );
    assert.match(a.problems[0].message, /Malformed tactic ID 'TA01'.*TA and four digits/);
    assert.match(a.problems[1].message, /TA0030 is not one of the 14 enterprise ATT&CK tactics/);
    assert.match(a.problems[2].message, /Malformed technique ID 'T1059\.1'.*T1059\.001/);
    assert.match(a.problems[3].message, /Did you mean 'Credential Access'\?/);
    // The well-formed technique beside the malformed one is still read.
    assert.deepEqual(
      a.techniques.map((t) => t.id),
      ['T1110'],
    );
  });

  it('reports them as warnings among the rule checks (never errors)', () => {
    const analysis = analyzeRuleFile(text('malformed.yaral'));
    const attack = analysis.diagnostics.filter((d) => /^attack-/.test(String(d.code)));
    assert.equal(attack.length, 6);
    assert.ok(attack.every((d) => d.severity === 'warning'));
    assert.deepEqual(
      analysis.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    const clean = analyzeRuleFile(text('ids.yaral'));
    assert.deepEqual(
      clean.diagnostics.filter((d) => /^attack-/.test(String(d.code))),
      [],
    );
  });

  it('places a warning on the whole string when the value has escapes', () => {
    const source = rule('    technique = "T1059.1, \\"x\\""');
    const [p] = attackOf(source).problems;
    assert.equal(source.slice(p.start, p.end), '"T1059.1, \\"x\\""');
  });

  it('reads nothing from a rule without ATT&CK meta and anchors it at meta:', () => {
    const source = text('none.yaral');
    const a = attackOf(source);
    assert.deepEqual([a.tactics, a.techniques, a.problems], [[], [], []]);
    assert.equal(source.slice(a.anchor, a.anchor + 5), 'meta:');
  });
});
