// The Test Rule CodeLens (one above each rule, handing the command the file and the rule) and the
// Test Rule page's protocol, checked on arrival on both sides.
import assert from 'node:assert/strict';
import {
  parseFromRuleTestView,
  parseToRuleTestView,
  RuleTestMessageError,
} from '../../../src/core/secops/rule-test/protocol';
import type * as LensModule from '../../../src/features/rules/lens';
import type * as ViewModelModule from '../../../src/features/rules/view-model';
import { useFakeVscode } from '../fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { ruleLenses, TestRuleLensProvider, TEST_RULE_COMMAND } =
  require('../../../src/features/rules/lens') as typeof LensModule;
const { detectionView, valueText } = require('../../../src/features/rules/view-model') as typeof ViewModelModule;

const TWO_RULES = `// licence header
/* a block comment with rule inside */
rule first_rule {
  meta:
    author = "a"
  events:
    $e.metadata.event_type = "USER_LOGIN"
  condition:
    $e
}

  rule second_rule {
  events:
    $e.metadata.event_type = "NETWORK_DNS"
  condition:
    $e
}
`;

describe('Test Rule CodeLens', () => {
  it('finds each rule’s line, name and offset, not a "rule" in a comment', () => {
    const lenses = ruleLenses(TWO_RULES);
    assert.deepEqual(
      lenses.map((l) => [l.line, l.name]),
      [
        [2, 'first_rule'],
        [11, 'second_rule'],
      ],
    );
    assert.equal(TWO_RULES.slice(lenses[1].offset, lenses[1].offset + 17), 'rule second_rule ');
  });

  it('gives a file without rules no lens, and a rule without a name a lens all the same', () => {
    assert.deepEqual(ruleLenses('// nothing here\n'), []);
    const lenses = ruleLenses('rule {\n events:\n $e.metadata.event_type = "X"\n condition:\n $e\n}\n');
    assert.equal(lenses.length, 1);
    assert.equal(lenses[0].name, undefined);
  });

  it('runs Test Rule with the file and the rule’s offset', () => {
    const uri = vscode.Uri.file('/w/rules/two.yaral');
    const lenses = new TestRuleLensProvider().provideCodeLenses({ uri, getText: () => TWO_RULES } as never) as Array<{
      command: { command: string; title: string; arguments: unknown[] };
    }>;
    assert.equal(lenses.length, 2);
    assert.equal(lenses[0].command.command, TEST_RULE_COMMAND);
    assert.equal(lenses[0].command.title, '$(play) Test Rule');
    assert.deepEqual(lenses[1].command.arguments, [{ uri, offset: TWO_RULES.indexOf('rule second_rule') }]);
  });
  it('follows the document from one version to the next', () => {
    const uri = vscode.Uri.file('/w/rules/edited.yaral');
    const document = { uri, version: 1, text: TWO_RULES, getText: () => document.text };
    const provider = new TestRuleLensProvider();
    const titles = (): unknown[] =>
      (provider.provideCodeLenses(document as never) as Array<{ command: { tooltip: string } }>).map(
        (l) => l.command.tooltip,
      );
    assert.equal(titles().length, 2);
    assert.equal(titles().length, 2);
    document.text = TWO_RULES.replace('rule second_rule', 'rule renamed_rule');
    document.version = 2;
    assert.deepEqual(titles(), [
      'Run first_rule over past events (spends one UDM search per event variable)',
      'Run renamed_rule over past events (spends one UDM search per event variable)',
    ]);
  });
});

describe('Test Rule page protocol', () => {
  const run = {
    runId: 'r1',
    ruleName: 'repeated_failed_logins',
    uri: 'file:///w/rules/repeated_failed_logins.yaral',
    startTime: '2026-11-20T00:00:00Z',
    endTime: '2026-11-27T00:00:00Z',
    searches: 1,
    eventsRead: 40,
    notes: ['$g is an entity (graph) variable: not tested.'],
    detectionsTotal: 1,
    ranAt: '2026-11-27T04:00:00Z',
  };
  const detection = {
    windowStart: 1000,
    windowEnd: 2000,
    match: [['user', 'alice']],
    outcomes: [['failures', '5']],
    riskScore: 50,
    variables: [{ variable: 'e', count: 5, events: [{ time: '2026-11-26T10:00:00Z', summary: 'USER_LOGIN host-a' }] }],
  };

  it('accepts what the extension sends and what the page asks', () => {
    assert.deepEqual(parseToRuleTestView({ type: 'result', run, detections: [detection] }), {
      type: 'result',
      run,
      detections: [detection],
    });
    assert.deepEqual(parseToRuleTestView({ type: 'failed', ruleName: 'x', message: 'm', cancelled: true }), {
      type: 'failed',
      ruleName: 'x',
      message: 'm',
      cancelled: true,
    });
    assert.deepEqual(
      parseFromRuleTestView({ type: 'openEvent', runId: 'r1', detection: 0, variable: 'e', index: 3, extra: 1 }),
      { type: 'openEvent', runId: 'r1', detection: 0, variable: 'e', index: 3 },
    );
    assert.deepEqual(parseFromRuleTestView({ type: 'rerun', runId: 'r1' }), { type: 'rerun', runId: 'r1' });
    assert.deepEqual(parseFromRuleTestView({ type: 'saveCase', runId: 'r1', detection: 2, path: '/etc/passwd' }), {
      type: 'saveCase',
      runId: 'r1',
      detection: 2,
    });
    assert.deepEqual(parseFromRuleTestView({ type: 'saveNoFireCase', runId: 'r1', events: [1] }), {
      type: 'saveNoFireCase',
      runId: 'r1',
    });
  });

  it('refuses malformed messages on both sides, naming what is wrong', () => {
    const bad: unknown[] = [
      null,
      'ready',
      { type: 'openEvent', runId: 'r1', detection: -1, variable: 'e', index: 0 },
      { type: 'openEvent', runId: 'r1', detection: 0, variable: 'e; alert(1)', index: 0 },
      { type: 'openEvents', runId: 'x'.repeat(101), detection: 0 },
      { type: 'runQuery', query: 'x' },
      { type: 'saveCase', runId: 'r1', detection: 1.5 },
      { type: 'saveCase', runId: 'r1' },
      { type: 'saveNoFireCase', runId: 7 },
    ];
    for (const m of bad) assert.throws(() => parseFromRuleTestView(m), RuleTestMessageError, JSON.stringify(m));
    const badToPage: unknown[] = [
      { type: 'result', run: { ...run, searches: -1 }, detections: [] },
      { type: 'result', run, detections: [{ ...detection, windowEnd: 10 }] },
      { type: 'result', run, detections: [{ ...detection, match: [['user', 5]] }] },
      { type: 'result', run, detections: [{ ...detection, riskScore: 'high' }] },
      { type: 'result', run, detections: 'none' },
      { type: 'running', ruleName: 'x' },
    ];
    for (const m of badToPage) assert.throws(() => parseToRuleTestView(m), RuleTestMessageError, JSON.stringify(m));
  });

  it('turns a detection into text: lists joined, risk score apart from the outcomes', () => {
    assert.equal(valueText(['a', 'b']), 'a, b');
    assert.equal(valueText(3), '3');
    assert.equal(valueText({ a: 1 }), '{"a":1}');
    const view = detectionView({
      match: { user: 'alice' },
      windowStart: 1,
      windowEnd: 2,
      outcomes: { failures: 5, hosts: ['h1', 'h2'], risk_score: 50 },
      riskScore: 50,
      events: {
        e: [
          {
            id: 'AAA=',
            udm: {
              metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2026-11-26T10:00:00Z' },
              principal: { hostname: 'h1' },
            },
          },
        ],
      },
    });
    assert.deepEqual(view.match, [['user', 'alice']]);
    assert.deepEqual(view.outcomes, [
      ['failures', '5'],
      ['hosts', 'h1, h2'],
    ]);
    assert.equal(view.riskScore, 50);
    assert.deepEqual(view.variables, [
      {
        variable: 'e',
        count: 1,
        events: [{ time: '2026-11-26T10:00:00Z', summary: 'USER_LOGIN h1 2026-11-26T10:00:00Z' }],
      },
    ]);
    assert.doesNotThrow(() => parseToRuleTestView({ type: 'result', run, detections: [view] }));
  });
});
