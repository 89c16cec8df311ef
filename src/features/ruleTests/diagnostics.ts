// Problems of an open rule test file, as `cloudbench test` reports them, while it is edited. With
// the YAML extension installed it validates the file against the published schema itself, so only
// what the schema cannot see (names given twice, times that do not exist) is added here.
import * as vscode from 'vscode';
import { parseRuleTestFile } from '../../udm/rule/test-file';
import { ruleOfTestFile } from './discovery';

const YAML_EXTENSION = 'redhat.vscode-yaml';
const DEBOUNCE_MS = 250;

export class TestFileDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('cloudbench-rule-tests');
  private readonly disposables: vscode.Disposable[] = [this.collection];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor() {
    this.disposables.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.later(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      vscode.extensions.onDidChange(() => vscode.workspace.textDocuments.forEach((d) => this.update(d))),
    );
    vscode.workspace.textDocuments.forEach((d) => this.update(d));
  }

  private later(document: vscode.TextDocument): void {
    if (!ruleOfTestFile(document.uri)) return;
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.update(document);
      }, DEBOUNCE_MS),
    );
  }

  /** The document's problems, now. */
  update(document: vscode.TextDocument): void {
    if (!ruleOfTestFile(document.uri) || document.isClosed) return;
    const yamlChecks = vscode.extensions.getExtension(YAML_EXTENSION) !== undefined;
    const problems = parseRuleTestFile(document.getText()).problems.filter((p) => !yamlChecks || p.stage === 'meaning');
    this.collection.set(
      document.uri,
      problems.map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.line - 1, p.column - 1, p.endLine - 1, p.endColumn - 1),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = 'cloudbench test';
        return d;
      }),
    );
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
