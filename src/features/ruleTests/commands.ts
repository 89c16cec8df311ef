// The rule tests' commands: a case or a test file run from its CodeLens, every test from the palette.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import type { CommandTable } from '../../platform/command-table';
import { caseId, ruleOfTestFile, type RuleTestItems } from './discovery';
import { RUN_CASE_COMMAND, RUN_FILE_COMMAND } from './lens';

export interface RuleTestsContext {
  readonly items: RuleTestItems;
  /** runs these items (every test when undefined) with the Run profile */
  run(include?: vscode.TestItem[]): Promise<void>;
  refreshFile(testFile: vscode.Uri): Promise<vscode.TestItem | undefined>;
}

function testFileArg(arg: unknown): vscode.Uri {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!uri || !ruleOfTestFile(uri))
    throw new Error('Open a rule test file (<rule>.test.yaml beside <rule>.yaral) to run its cases.');
  return uri;
}

async function ruleItemOf(ctx: RuleTestsContext, testFile: vscode.Uri): Promise<vscode.TestItem> {
  const item = await ctx.refreshFile(testFile);
  if (!item)
    throw new Error(
      `${vscode.workspace.asRelativePath(testFile)} has no rule beside it in a workspace folder, or is not saved yet.`,
    );
  return item;
}

async function runCase(ctx: RuleTestsContext, uriArg?: unknown, name?: unknown): Promise<void> {
  const testFile = testFileArg(uriArg);
  if (typeof name !== 'string') throw new Error('Run Test needs the case name; use the CodeLens above a case.');
  const rule = await ruleItemOf(ctx, testFile);
  const item = rule.children.get(caseId(testFile, name));
  if (!item)
    throw new Error(
      `The saved ${vscode.workspace.asRelativePath(testFile)} has no case "${safeText(name, 'plain', 80)}": save the file first.`,
    );
  await ctx.run([item]);
}

async function runFile(ctx: RuleTestsContext, uriArg?: unknown): Promise<void> {
  await ctx.run([await ruleItemOf(ctx, testFileArg(uriArg))]);
}

async function runAll(ctx: RuleTestsContext): Promise<void> {
  await ctx.items.refreshAll();
  await ctx.run();
}

export const RULE_TESTS_COMMANDS: CommandTable<RuleTestsContext> = {
  [RUN_CASE_COMMAND]: runCase,
  [RUN_FILE_COMMAND]: runFile,
  'cloudbench.ruleTests.runAll': runAll,
};
