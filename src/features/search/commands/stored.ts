// The stored queries: the history, the saved queries, and the Search view's commands on them.
import { safeText, MESSAGE_LIMIT } from '../../../core/display';
import * as vscode from 'vscode';
import { readSaved, removeSaved, renameSaved, saveQuery as storeQuery } from '../../../core/secops/history';
import { resolveTimeRange } from '../../../core/secops/timerange';
import { SAVED_KEY, pickStoredQuery } from '../stored-queries';
import { queryOfNode, type SearchViewNode } from '../view';
import type { SearchContext } from './context';
import { documentFor } from './run';

/** Runs a stored query over the current time range. */
async function runStored(ctx: SearchContext, query: string): Promise<void> {
  await ctx.controller.runQuery(
    query,
    resolveTimeRange(ctx.timeRange.spec, Date.now()),
    ctx.services.connection().settings.search.defaultLimit,
  );
}

function nodeQuery(node: unknown): string {
  const query = queryOfNode(node);
  if (query === undefined) throw new Error('Pick a query in the Search view first.');
  return query;
}

/** Saved and recent queries in a quick pick: run one, or open it in an editor. */
export async function showHistory(ctx: SearchContext): Promise<void> {
  const picked = await pickStoredQuery(ctx.state, () => ctx.view.refresh());
  if (!picked) return;
  if (picked.open) {
    const doc = await vscode.workspace.openTextDocument({ content: picked.query, language: 'udm' });
    await vscode.window.showTextDocument(doc);
    return;
  }
  await runStored(ctx, picked.query);
}

export async function runViewQuery(ctx: SearchContext, node?: unknown): Promise<void> {
  await runStored(ctx, nodeQuery(node));
}

export async function openViewQuery(_ctx: SearchContext, node?: unknown): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({ content: nodeQuery(node), language: 'udm' });
  await vscode.window.showTextDocument(doc);
}

export async function renameSavedQuery(ctx: SearchContext, node?: unknown): Promise<void> {
  const n = node as SearchViewNode | undefined;
  if (n?.kind !== 'saved') throw new Error('Pick a saved query in the Search view first.');
  const saved = readSaved(ctx.state.get(SAVED_KEY));
  const name = await vscode.window.showInputBox({
    title: `Rename Saved Query "${safeText(n.saved.name)}"`,
    value: n.saved.name,
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        renameSaved(saved, n.saved.name, v);
        return undefined;
      } catch (err) {
        return safeText((err as Error).message, 'plain', MESSAGE_LIMIT);
      }
    },
  });
  if (name === undefined || name.trim() === n.saved.name) return;
  await ctx.state.update(SAVED_KEY, renameSaved(saved, n.saved.name, name));
  ctx.view.refresh();
}

export async function deleteSavedQuery(ctx: SearchContext, node?: unknown): Promise<void> {
  const n = node as SearchViewNode | undefined;
  if (n?.kind !== 'saved') throw new Error('Pick a saved query in the Search view first.');
  const answer = await vscode.window.showWarningMessage(
    `Delete the saved query "${safeText(n.saved.name)}"?`,
    { modal: true },
    'Delete',
  );
  if (answer !== 'Delete') return;
  await ctx.state.update(SAVED_KEY, removeSaved(readSaved(ctx.state.get(SAVED_KEY)), n.saved.name));
  ctx.view.refresh();
}

export function refreshView(ctx: SearchContext): void {
  ctx.view.refresh();
}

/** The Search view's Save: the same as Save Query with the row's query. */
export function saveViewQuery(_ctx: SearchContext, node?: unknown): Thenable<unknown> {
  return vscode.commands.executeCommand('cloudbench.search.saveQuery', node);
}

/** Saves the query of a view row, an editor's selection or an editor under a name. */
export async function saveQuery(ctx: SearchContext, uri?: unknown): Promise<void> {
  const fromView = queryOfNode(uri);
  let query: string;
  if (fromView !== undefined) query = fromView.trim();
  else {
    const document = await documentFor(uri);
    const editor = vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor : undefined;
    query = (editor && !editor.selection.isEmpty ? document.getText(editor.selection) : document.getText()).trim();
  }
  if (query === '') throw new Error('The query is empty: there is nothing to save.');
  const saved = readSaved(ctx.state.get(SAVED_KEY));
  const name = await vscode.window.showInputBox({
    title: 'Save UDM Query',
    prompt: 'A name for this query (an existing name is replaced)',
    value: query.replace(/\s+/g, ' ').slice(0, 60),
    ignoreFocusOut: true,
    validateInput: (v) =>
      v.trim() === '' ? 'Enter a name.' : v.trim().length > 200 ? 'Keep the name under 200 characters.' : undefined,
  });
  if (name === undefined) return;
  await ctx.state.update(SAVED_KEY, storeQuery(saved, name, query, new Date()));
  ctx.view.refresh();
  void vscode.window.showInformationMessage(
    `Saved the query as "${safeText(name.trim())}". Run it again with "Cloudbench: Run UDM Query from History…".`,
  );
}
