// The Rule Coverage view's tree: tactics → techniques → rules, tested marks, a rule opened at its
// ATT&CK meta line, names from rule files shown as text.
import assert from 'node:assert/strict';
import type * as TreeModule from '../../../../src/features/coverage/tree';
import type { CoverageModel, CoverageState } from '../../../../src/features/coverage/model';
import { buildCoverage, coveredRules, type CoveredRule } from '../../../../src/udm/rule/coverage';
import { useFakeVscode } from '../../fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { CoverageTreeProvider, RuleItem, TacticItem, TechniqueItem, UntaggedItem, techniqueUrl } =
  require('../../../../src/features/coverage/tree') as typeof TreeModule;

function ruleText(name: string, meta: string): string {
  return `rule ${name} {\n  meta:\n${meta}\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n`;
}

function modelOf(specs: Array<[string, string, boolean]>): CoverageModel {
  const rules: CoveredRule[] = [];
  const uris = new Map<CoveredRule, unknown>();
  for (const [name, meta, tested] of specs)
    for (const r of coveredRules(ruleText(name, meta), `rules/${name}.yaral`, tested).rules) {
      rules.push(r);
      uris.set(r, vscode.Uri.file(`/ws/rules/${name}.yaral`));
    }
  const state = { kind: 'ready', coverage: buildCoverage(rules), uris } as unknown as CoverageState;
  return {
    ensureLoaded: () => Promise.resolve(),
    current: state,
    onDidChange: () => ({ dispose: () => undefined }),
  } as unknown as CoverageModel;
}

describe('Rule Coverage tree', () => {
  before(() => {
    // The fake's Range keeps nothing; this one keeps where it starts.
    vscode.Range = class {
      readonly start: { line: number; character: number };
      constructor(line: number, character: number) {
        this.start = { line, character };
      }
    };
  });
  const model = modelOf([
    ['brute', '    mitre_attack_tactic = "Credential Access"\n    technique = "T1110.001"', true],
    [
      'dns',
      '    author = "a"\n    tactic = "TA0011"\n    mitre_attack_technique = "<b>[x](command:evil)</b>"\n    mitre_attack_url = "https://attack.mitre.org/techniques/T1071/004/"',
      false,
    ],
    ['c2_only', '    tactic = "TA0011"', false],
    ['plain', '    author = "b"', false],
  ]);
  const provider = new CoverageTreeProvider(model);

  it('lists tactics in matrix order, then rules without ATT&CK meta', async () => {
    const roots = await provider.getChildren();
    assert.deepEqual(
      roots.map((r) => [r.label, r.description]),
      [
        ['Credential Access', 'TA0006 · 1 technique'],
        ['Command and Control', 'TA0011 · 1 technique'],
        ['Rules without ATT&CK meta', '1 rule'],
      ],
    );
    assert.ok(roots[0] instanceof TacticItem && roots[2] instanceof UntaggedItem);
  });

  it('lists a tactic’s techniques and its rules without a technique, then the rules with tested marks', async () => {
    const [, c2] = await provider.getChildren();
    const techniques = await provider.getChildren(c2);
    assert.deepEqual(
      techniques.map((t) => t.label),
      ['T1071.004', '(no technique)'],
    );
    assert.ok(techniques[0] instanceof TechniqueItem);
    const [dns] = await provider.getChildren(techniques[0]);
    assert.ok(dns instanceof RuleItem);
    assert.equal(dns.label, 'dns');
    assert.equal(dns.description, 'no tests · rules/dns.yaral');
    // Opens at line 4 of the file (0-based 3): the first ATT&CK meta item.
    assert.equal(dns.command?.command, 'vscode.open');
    const [uri, options] = dns.command?.arguments as [{ path: string }, { selection: { start: { line: number } } }];
    assert.equal(uri.path, '/ws/rules/dns.yaral');
    assert.equal(options.selection.start.line, 3);
    const [credential] = await provider.getChildren();
    const [t1110] = await provider.getChildren(credential);
    const [brute] = await provider.getChildren(t1110);
    assert.equal(brute.description, 'tested · rules/brute.yaral');
    assert.equal(brute.contextValue, 'coverageRule.tested');
  });

  it('shows a technique name from a rule as text, never as Markdown or a command link', async () => {
    const [, c2] = await provider.getChildren();
    const [t] = await provider.getChildren(c2);
    const tip = t.tooltip as { value: string };
    assert.ok(!tip.value.includes('<b>'), tip.value);
    assert.ok(!tip.value.includes('](command:'), tip.value);
    assert.ok(tip.value.includes(techniqueUrl('T1071.004')));
    assert.equal(techniqueUrl('T1071.004'), 'https://attack.mitre.org/techniques/T1071/004/');
  });
});
