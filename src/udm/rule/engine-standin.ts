// STAND-IN, deleted when the rule engine (plan.ts, engine.ts) is merged: the signatures of
// planRuleTest and runRuleTest, with just enough behind them for the editor's Test Rule flow to
// run end to end. It computes no detections.
import { parseRuleFile } from './parse';
import type { RuleTestPlan, RuleTestResult } from './test-types';

export function planRuleTest(text: string): RuleTestPlan | { error: string } {
  const file = parseRuleFile(text);
  const rule = file.rules[0];
  if (!rule?.name) return { error: 'The text holds no rule.' };
  const statements = new Map<string, string[]>();
  const untestable: string[] = [];
  const events = /\bevents\s*:([\s\S]*?)(?:\n\s*(?:match|outcome|condition|options)\s*:|$)/.exec(
    text.slice(rule.start, rule.end),
  );
  for (const line of (events?.[1] ?? '').split('\n')) {
    const m = /^\s*\$(\w+)\.(.*)$/.exec(line);
    if (!m) continue;
    const [, variable, rest] = m;
    if (!statements.has(variable)) statements.set(variable, []);
    if (rest.startsWith('graph.')) {
      if (!untestable.some((u) => u.includes(`$${variable} `)))
        untestable.push(`$${variable} is an entity (graph) variable: the Search API returns no entity data.`);
      continue;
    }
    if (!rest.includes('$')) statements.get(variable)!.push(rest.trim());
  }
  return {
    ruleName: rule.name.name,
    searches: [...statements]
      .filter(([, s]) => s.length > 0)
      .map(([variable, s]) => ({ variable, query: s.join('\n') })),
    untestable,
  };
}

export function runRuleTest(
  _text: string,
  _eventsByVariable: Map<string, unknown[]>,
  _options: {
    referenceLists?: Record<string, string[]>;
    timeRange?: { start: number; end: number };
    maxDetections?: number;
  } = {},
): RuleTestResult {
  return { detections: [], notes: ['Computed by a stand-in engine: no detections.'] };
}
