// The "Search" view in the Cloudbench container: saved queries (run, open, rename, delete) and the
// recent runs of this workspace (run, open, save).
import { markdownCode } from '../../core/display';
import * as vscode from 'vscode';
import { queryLabel, readHistory, readSaved, type HistoryEntry, type SavedQuery } from '../../core/secops/history';

export type SearchViewNode =
  | { kind: 'group'; group: 'saved' | 'history' }
  | { kind: 'saved'; saved: SavedQuery }
  | { kind: 'history'; entry: HistoryEntry };

export class SearchViewProvider implements vscode.TreeDataProvider<SearchViewNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SearchViewNode | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly state: vscode.Memento,
    private readonly keys: { history: string; saved: string },
  ) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(node?: SearchViewNode): SearchViewNode[] {
    const saved = readSaved(this.state.get(this.keys.saved));
    const history = readHistory(this.state.get(this.keys.history));
    if (!node) {
      if (saved.length === 0 && history.length === 0) return [];
      return [
        { kind: 'group', group: 'saved' },
        { kind: 'group', group: 'history' },
      ];
    }
    if (node.kind !== 'group') return [];
    return node.group === 'saved'
      ? saved.map((s) => ({ kind: 'saved', saved: s }))
      : history.map((entry) => ({ kind: 'history', entry }));
  }

  getTreeItem(node: SearchViewNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const count =
        node.group === 'saved'
          ? readSaved(this.state.get(this.keys.saved)).length
          : readHistory(this.state.get(this.keys.history)).length;
      const item = new vscode.TreeItem(
        node.group === 'saved' ? 'Saved Queries' : 'Recent Queries',
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `group:${node.group}`;
      item.description = String(count);
      item.contextValue = `searchGroup.${node.group}`;
      return item;
    }
    const query = node.kind === 'saved' ? node.saved.query : node.entry.query;
    const oneLine = query.replace(/\s+/g, ' ').trim();
    const label = queryLabel(query);
    const item = new vscode.TreeItem(
      node.kind === 'saved' ? node.saved.name : label,
      vscode.TreeItemCollapsibleState.None,
    );
    if (node.kind === 'saved') {
      item.id = `saved:${node.saved.name}`;
      item.description = label;
      item.iconPath = new vscode.ThemeIcon('star-full');
      item.contextValue = 'savedQuery';
    } else {
      item.id = `history:${node.entry.ranAt}:${oneLine}`;
      item.description = historyDescription(node.entry);
      item.iconPath = new vscode.ThemeIcon('history');
      item.contextValue = 'recentQuery';
    }
    const tooltip = new vscode.MarkdownString();
    // A fence longer than any backtick run in the query: query text cannot close it and add Markdown.
    tooltip.appendMarkdown(markdownCode(query, true, 'udm'));
    if (node.kind === 'history') tooltip.appendText(`Ran ${new Date(node.entry.ranAt).toLocaleString()}`);
    item.tooltip = tooltip;
    item.command = { command: 'cloudbench.search.view.run', title: 'Run Query', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

/** The query text a view node (or a command argument) stands for. */
export function queryOfNode(node: unknown): string | undefined {
  const n = node as Partial<SearchViewNode> | undefined;
  if (n?.kind === 'saved' && typeof n.saved?.query === 'string') return n.saved.query;
  if (n?.kind === 'history' && typeof n.entry?.query === 'string') return n.entry.query;
  return undefined;
}

/** "Last 24 hours · 120 events · 1 search", "Last hour · failed · no search spent": a run in the history. */
export function historyDescription(entry: HistoryEntry): string {
  const parts = [entry.timeRange];
  if (entry.failed) parts.push('failed');
  else if (entry.events !== undefined) parts.push(`${entry.events.toLocaleString('en-US')} events`);
  if (entry.searches !== undefined)
    parts.push(
      entry.searches === 0 ? 'no search spent' : `${entry.searches} ${entry.searches === 1 ? 'search' : 'searches'}`,
    );
  return parts.join(' · ');
}
