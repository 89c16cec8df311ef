// A tree view over a model that says when it changed: the data provider (the whole tree is asked
// again on every change; a feature's provider adds only its children) and the view's state key.
import * as vscode from 'vscode';

export abstract class ModelTreeProvider<Node extends vscode.TreeItem>
  implements vscode.TreeDataProvider<Node>, vscode.Disposable
{
  private readonly emitter = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subscription: vscode.Disposable;

  constructor(model: { readonly onDidChange: vscode.Event<unknown> }) {
    this.subscription = model.onDidChange(() => this.emitter.fire(undefined));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    return node;
  }

  abstract getChildren(node?: Node): Promise<Node[]>;

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}

/**
 * Publishes a model-backed view's state to its `when` clauses (welcome content, menus) through
 * `contextKey`: the model's state `kind`, or "empty" when it is ready with nothing to show.
 */
export function setViewState(contextKey: string, kind: string, empty: boolean): void {
  void vscode.commands.executeCommand('setContext', contextKey, kind === 'ready' && empty ? 'empty' : kind);
}
