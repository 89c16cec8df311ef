// What the agent tools ask before spending: runSearch's and testRule's confirmations name the query
// or rule, the time range, the udmSearch calls they spend and how many are left this hour; a test over
// a saved events file or a test case spends nothing and asks nothing. (In extension-host tests VS Code
// accepts every confirmation dialog by itself; the real dialog, Cancel and Yes are in the e2e scenario
// test/e2e/scenarios/agent-tool-confirmation.mjs.)
import assert from 'node:assert/strict';
import type * as SearchToolsModule from '../../../../src/features/agent/search-tools';
import { useFakeVscode } from '../../fakes/vscode';

useFakeVscode();
const { searchConfirmation, testRuleConfirmation } =
  require('../../../../src/features/agent/search-tools') as typeof SearchToolsModule;

const RULE = `rule two_vars {
  meta:
    author = "t"
  events:
    $a.metadata.event_type = "USER_LOGIN"
    $b.metadata.event_type = "NETWORK_DNS"
    $a.principal.hostname = $host
    $b.principal.hostname = $host
  match:
    $host over 1h
  condition:
    $a and $b
}
`;

function services(remaining: number, limit: number) {
  return {
    search: {
      get: () => ({ controller: { getClient: () => ({ limiter: { snapshot: () => ({ remaining, limit }) } }) } }),
    },
  } as unknown as Parameters<typeof searchConfirmation>[0];
}

const text = (m: unknown): string => (typeof m === 'string' ? m : (m as { value: string }).value);

describe('agent tools: confirmations', () => {
  it('runSearch names the query, the range and the searches it spends of those left', () => {
    const prepared = searchConfirmation(services(357, 360), {
      query: 'metadata.event_type = "USER_LOGIN"',
      timeRange: { start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' },
    });
    const message = text(prepared.confirmationMessages?.message);
    assert.match(message, /2026-01-01T00:00:00(\.000)?Z – 2026-01-02T00:00:00(\.000)?Z/);
    assert.match(message, /It spends 1 udmSearch call of the 357 left this hour \(360 an hour\)/);
    assert.match(message, /```\nmetadata\.event_type = "USER_LOGIN"\n```/);
  });

  it('a query cannot break out of its code block', () => {
    const prepared = searchConfirmation(services(1, 360), {
      query: 'x = "```"\n```\n[click](command:x)',
      timeRange: { preset: '1h' },
    });
    const message = text(prepared.confirmationMessages?.message);
    assert.match(message, /^````\nx = "```"\n```\n\[click\]\(command:x\)\n````$/m);
  });

  it('testRule over a time range names the rule and one search per event variable', async () => {
    const prepared = await testRuleConfirmation(services(10, 360), { rule: RULE, timeRange: { preset: '24h' } });
    const message = text(prepared.confirmationMessages?.message);
    assert.match(
      message,
      /Test the rule "two_vars" over .* – .*\? It spends 2 udmSearch calls of the 10 left this hour/,
    );
    assert.match(message, /One search per event variable: \$a, \$b\./);
  });

  it('testRule over a saved events file asks nothing', async () => {
    const prepared = await testRuleConfirmation(services(10, 360), { rule: RULE, eventsFile: 'events.json' });
    assert.equal(prepared.confirmationMessages, undefined);
  });

  it('testRule over a test case asks nothing', async () => {
    const prepared = await testRuleConfirmation(services(10, 360), { ruleFile: 'r.yaral', testCase: 'fires' });
    assert.equal(prepared.confirmationMessages, undefined);
    assert.match(text(prepared.invocationMessage), /test case/);
  });
});
