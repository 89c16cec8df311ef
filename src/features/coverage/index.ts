// ATT&CK coverage in the editor: the Rule Coverage view (tactics → techniques → rules, with which
// rules have tests), kept up to date as rules and their test files change, and the Navigator layer
// export. Nothing is read until the view is first shown.
import * as vscode from 'vscode';
import type { Feature, FeatureStart } from '../../platform/command-table';
import { setViewState } from '../../platform/model-tree';
import type { Services } from '../services';
import { COVERAGE_COMMANDS, type CoverageContext } from './commands';
import { CoverageModel } from './model';
import { CoverageTreeProvider, STATE_CONTEXT_KEY, VIEW_ID } from './tree';

function activateCoverage(context: vscode.ExtensionContext): FeatureStart<CoverageContext> {
  const model = new CoverageModel();
  const provider = new CoverageTreeProvider(model);
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const showState = (): void => {
    const state = model.current;
    setViewState(STATE_CONTEXT_KEY, state.kind, state.kind === 'ready' && !state.coverage.rules.length);
    if (state.kind === 'ready' && state.coverage.rules.length) {
      const c = state.coverage;
      const tested = c.rules.filter((r) => r.hasTests).length;
      view.description = `${c.techniqueIds.length} techniques · ${tested}/${c.rules.length} rules tested`;
    } else view.description = undefined;
  };
  context.subscriptions.push(model, provider, view, model.onDidChange(showState));
  return { ctx: { model } };
}

export const coverageFeature: Feature<CoverageContext, Services> = {
  name: 'Rule coverage',
  commands: COVERAGE_COMMANDS,
  activate: (context) => activateCoverage(context),
};
