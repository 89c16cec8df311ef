// A tree view's data provider over a model that says when it changed: the whole tree is asked again
// on every change. A feature's provider adds only its children.
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
