// The rules feature's commands.
import type { CommandTable } from '../../platform/command-table';
import type { RuleTestDeps } from './deps';
import { TEST_RULE_COMMAND } from './lens';
import type { RuleTestRuns } from './runs';
import { prepareTest } from './test-rule';

export interface RulesContext {
  readonly deps: RuleTestDeps;
  readonly runs: RuleTestRuns;
}

/** Test Rule: the rule at the CodeLens (or the cursor), over a picked past time range, into its panel. */
export async function testRule(ctx: RulesContext, target?: unknown): Promise<void> {
  const prepared = await prepareTest(ctx.deps, target);
  if (!prepared) return;
  await ctx.runs.test(prepared.target, prepared.window);
}

export const RULES_COMMANDS: CommandTable<RulesContext> = {
  [TEST_RULE_COMMAND]: testRule,
};
