// "▶ Run Test" above each case of a rule's test file and "Run All Tests" above the first, from the
// file's own text (what is on screen, saved or not).
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import { parseRuleTestFile } from '../../udm/rule/test-file';
import { rangeOf, ruleOfTestFile } from './discovery';

export const RUN_CASE_COMMAND = 'cloudbench.ruleTests.runCase';
export const RUN_FILE_COMMAND = 'cloudbench.ruleTests.runFile';

export class TestCaseLensProvider implements vscode.CodeLensProvider {
  private readonly parsed = new WeakMap<vscode.TextDocument, { version: number; lenses: vscode.CodeLens[] }>();

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!ruleOfTestFile(document.uri)) return [];
    const known = this.parsed.get(document);
    if (known && known.version === document.version) return known.lenses;
    const file = parseRuleTestFile(document.getText()).file;
    const lenses: vscode.CodeLens[] = [];
    file?.cases.forEach((c, i) => {
      const range = rangeOf(c.span);
      if (i === 0)
        lenses.push(
          new vscode.CodeLens(range, {
            title: `$(run-all) Run All ${file.cases.length} Tests`,
            command: RUN_FILE_COMMAND,
            arguments: [document.uri],
            tooltip: 'Run every case of this file offline (saved files are run; no search is spent)',
          }),
        );
      lenses.push(
        new vscode.CodeLens(range, {
          title: '$(play) Run Test',
          command: RUN_CASE_COMMAND,
          arguments: [document.uri, c.name],
          tooltip: `Run "${safeText(c.name, 'plain', 80)}" offline (the saved file is run; no search is spent)`,
        }),
      );
    });
    this.parsed.set(document, { version: document.version, lenses });
    return lenses;
  }
}
