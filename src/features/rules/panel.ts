// The Test Rule panels: one per rule, created on first use and revealed afterwards. Messages from
// the page are checked before anything acts on them; messages to it wait until it says it is ready
// (the one PagePanel lifecycle).
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import {
  parseFromRuleTestView,
  RuleTestMessageError,
  type FromRuleTestView,
  type ToRuleTestView,
} from '../../core/secops/rule-test/protocol';
import { getLogger } from '../../platform/log';
import { PagePanel, type PageSpec } from '../../platform/page-panel';
import { webviewPanelOptions } from '../../platform/webview';

const log = getLogger('rules');
export const RULE_TEST_VIEW_TYPE = 'cloudbench.rules.testResult';

const RULE_TEST_PAGE: PageSpec<FromRuleTestView, ToRuleTestView> = {
  page: { bundle: 'rule-test', title: 'Test Rule', placeholder: '<p id="rule-test-loading">Loading…</p>' },
  what: 'the Test Rule page',
  parse: parseFromRuleTestView,
  malformed: RuleTestMessageError,
  log,
  // Only the newest state matters to a page that has not started yet.
  replacesQueued: () => true,
};

export class RuleTestPanel implements vscode.Disposable {
  private readonly page: PagePanel<FromRuleTestView, ToRuleTestView>;

  constructor(
    panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    onMessage: (message: FromRuleTestView, panel: RuleTestPanel) => void,
    closed: () => void = () => undefined,
  ) {
    this.page = new PagePanel(panel, extensionUri, RULE_TEST_PAGE, { onMessage: (m) => onMessage(m, this) }, closed);
  }

  static create(
    extensionUri: vscode.Uri,
    ruleName: string,
    onMessage: (message: FromRuleTestView, panel: RuleTestPanel) => void,
    closed?: () => void,
  ): RuleTestPanel {
    const panel = vscode.window.createWebviewPanel(
      RULE_TEST_VIEW_TYPE,
      'Test Rule',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewPanelOptions(extensionUri),
    );
    const p = new RuleTestPanel(panel, extensionUri, onMessage, closed);
    p.setTitle(ruleName);
    return p;
  }

  get panel(): vscode.WebviewPanel {
    return this.page.panel;
  }

  setTitle(ruleName: string): void {
    this.page.setTitle(safeText(`Test Rule: ${ruleName}`, 'plain', 58));
  }

  reveal(): void {
    this.page.reveal();
  }

  post(message: ToRuleTestView): void {
    this.page.post(message);
  }

  dispose(): void {
    this.page.dispose();
  }
}
