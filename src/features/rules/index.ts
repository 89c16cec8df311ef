// YARA-L rules in the editor: "Test Rule" (a CodeLens above each rule of a .yaral file, and a
// command) runs a rule over past events and shows its detections in a panel per rule.
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { RULES_COMMANDS, type RulesContext } from './commands';
import { searchDeps, type RuleTestDeps } from './deps';
import { TestRuleLensProvider } from './lens';
import { RULE_TEST_VIEW_TYPE } from './panel';
import { RuleTestRuns } from './runs';

/** Starts the feature with `deps` (the other features' parts; tests hand their own). */
export function activateRules(
  context: vscode.ExtensionContext,
  services: Services,
  deps: RuleTestDeps = searchDeps(services),
): FeatureStart<RulesContext> {
  const runs = new RuleTestRuns(services.extensionUri, deps);
  context.subscriptions.push(
    runs,
    vscode.languages.registerCodeLensProvider(
      [
        { language: 'yaral', scheme: 'file' },
        { language: 'yaral', scheme: 'untitled' },
      ],
      new TestRuleLensProvider(),
    ),
    // A Test Rule panel comes back after a reload with the result its page kept; nothing runs.
    vscode.window.registerWebviewPanelSerializer(RULE_TEST_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => {
        runs.restore(panel, state);
        return Promise.resolve();
      },
    }),
  );
  return { ctx: { deps, runs } };
}

export const rulesFeature: Feature<RulesContext, Services> = {
  name: 'YARA-L rules',
  commands: RULES_COMMANDS,
  activate: (context, services) => activateRules(context, services),
};
