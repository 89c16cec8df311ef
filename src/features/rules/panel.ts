// The Test Rule panels: one per rule, created on first use and revealed afterwards. Messages from
// the page are checked before anything acts on them; messages to it wait until it says it is ready.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import {
  parseFromRuleTestView,
  RuleTestMessageError,
  type FromRuleTestView,
  type ToRuleTestView,
} from '../../core/secops/rule-test/protocol';
import { getLogger } from '../../platform/log';
import { onPageMessage, renderWebviewPage, webviewPanelOptions } from '../../platform/webview';

const log = getLogger('rules');
export const RULE_TEST_VIEW_TYPE = 'cloudbench.rules.testResult';

export class RuleTestPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private ready = false;
  private queue: ToRuleTestView[] = [];
  /** Called once when the panel closes. */
  onClosed: () => void = () => undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly onMessage: (message: FromRuleTestView, panel: RuleTestPanel) => void,
  ) {
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'cloudbench.svg');
    panel.webview.html = renderWebviewPage(panel.webview, extensionUri, {
      bundle: 'rule-test',
      title: 'Test Rule',
      placeholder: '<p id="rule-test-loading">Loading…</p>',
    });
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      onPageMessage(
        panel.webview,
        'the Test Rule page',
        parseFromRuleTestView,
        RuleTestMessageError,
        log,
        (message) => {
          if (message.type === 'ready') {
            this.ready = true;
            for (const queued of this.queue.splice(0)) void this.panel.webview.postMessage(queued);
          }
          this.onMessage(message, this);
        },
      ),
    );
  }

  static create(
    extensionUri: vscode.Uri,
    ruleName: string,
    onMessage: (message: FromRuleTestView, panel: RuleTestPanel) => void,
  ): RuleTestPanel {
    const panel = vscode.window.createWebviewPanel(
      RULE_TEST_VIEW_TYPE,
      'Test Rule',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      webviewPanelOptions(extensionUri),
    );
    const p = new RuleTestPanel(panel, extensionUri, onMessage);
    p.setTitle(ruleName);
    return p;
  }

  setTitle(ruleName: string): void {
    this.panel.title = safeText(`Test Rule: ${ruleName}`, 'plain', 58);
  }

  reveal(): void {
    this.panel.reveal(this.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
  }

  post(message: ToRuleTestView): void {
    if (!this.ready) {
      // Only the newest state matters to a page that has not started yet.
      this.queue = [message];
      return;
    }
    void this.panel.webview.postMessage(message);
  }

  dispose(): void {
    if (this.disposables.length === 0) return;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onClosed();
  }
}
