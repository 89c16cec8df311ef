// "▶ Test Rule" above each `rule` of a .yaral file, from the file's own parse: no server round trip.
import * as vscode from 'vscode';
import { parseRuleFile } from '../../udm/rule/parse';

export const TEST_RULE_COMMAND = 'cloudbench.rules.testRule';

export interface RuleLens {
  /** 0-based line of the `rule` word */
  line: number;
  /** the rule's name, or undefined when it has none yet */
  name: string | undefined;
  /** offset of the `rule` word, which the command is handed to find the rule again */
  offset: number;
}

/** Where each rule of `text` starts. */
export function ruleLenses(text: string): RuleLens[] {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return parseRuleFile(text).rules.map((rule) => ({
    line: lineOf(rule.keyword.start),
    name: rule.name?.name,
    offset: rule.keyword.start,
  }));
}

/** What the lens hands the command: the file and which of its rules. */
export interface TestRuleTarget {
  uri: vscode.Uri;
  offset: number;
}

export class TestRuleLensProvider implements vscode.CodeLensProvider {
  // The editor asks again for a text it asked about before (another editor of the file, the file
  // shown again): a 2,000-line file is parsed once per version, not per request.
  private readonly parsed = new WeakMap<vscode.TextDocument, { version: number; lenses: RuleLens[] }>();

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    let known = this.parsed.get(document);
    if (!known || known.version !== document.version) {
      known = { version: document.version, lenses: ruleLenses(document.getText()) };
      this.parsed.set(document, known);
    }
    return known.lenses.map((lens) => {
      const range = new vscode.Range(lens.line, 0, lens.line, 0);
      const target: TestRuleTarget = { uri: document.uri, offset: lens.offset };
      return new vscode.CodeLens(range, {
        title: '$(play) Test Rule',
        command: TEST_RULE_COMMAND,
        arguments: [target],
        tooltip: `Run ${lens.name ?? 'this rule'} over past events (spends one UDM search per event variable)`,
      });
    });
  }
}
