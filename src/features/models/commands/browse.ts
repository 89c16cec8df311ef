// Browsing the Models view: refresh, the filter, further pages, and copying a resource name.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import type { ModelsContext } from '../context';
import { modelLabel } from '../presentation';
import { LoadMoreNode, ModelNode, ModelsNode, PagedParent, ProjectNode, VersionNode } from '../tree';

/**
 * The view's title-bar Refresh: the whole view, read again from ListLocations/ListModels. VS Code
 * hands a title-bar command the selected row, which is ignored here: the row's own Refresh is
 * refreshModelsRow.
 */
export function refreshModels(ctx: ModelsContext): void {
  ctx.provider.refresh();
}

/** A row's Refresh: a model or version is read again (and leaves if gone); other rows reload their children. */
export async function refreshModelsRow(ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  if (!(node instanceof ModelsNode)) return ctx.provider.refresh();
  if (node instanceof ModelNode || node instanceof VersionNode) {
    const shown = await vscode.window.withProgress({ location: { viewId: 'cloudbench.models' } }, () =>
      ctx.provider.refreshRow(node),
    );
    if (shown === 'gone')
      void vscode.window.showInformationMessage(
        node instanceof ModelNode
          ? `Model ${modelLabel(node.model)} no longer exists; it was deleted elsewhere.`
          : `Version ${safeText(node.version.versionId ?? '?')} no longer exists; it was deleted elsewhere.`,
      );
    return;
  }
  // A message or error row stands for its parent's list.
  const target = node instanceof PagedParent || node instanceof ProjectNode ? node : node.parent;
  ctx.provider.refresh(target);
}

/** Asks for a name part (or a ListModels filter) and shows only the models that match. */
export async function filterModels(ctx: ModelsContext): Promise<void> {
  const input = await vscode.window.showInputBox({
    title: 'Filter Models',
    prompt:
      'Part of a model name (any case), e.g. churn. Advanced: a ListModels filter such as labels.team="risk" or display_name!="test".',
    value: ctx.filter() ?? '',
    placeHolder: 'churn',
  });
  if (input === undefined) return;
  await ctx.setFilter(input.trim() || undefined);
}

export async function clearModelsFilter(ctx: ModelsContext): Promise<void> {
  await ctx.setFilter(undefined);
}

export async function loadMoreModels(ctx: ModelsContext, node?: LoadMoreNode): Promise<void> {
  if (!(node instanceof LoadMoreNode)) return;
  await vscode.window.withProgress({ location: { viewId: 'cloudbench.models' } }, () => node.owner.loadMore());
  ctx.provider.redraw(node.owner);
}

export async function copyModelsResourceName(_ctx: ModelsContext, node?: ModelsNode): Promise<void> {
  if (!(node instanceof ModelsNode) || !node.resourceName)
    throw new Error('Run this command from a node of the Models view.');
  await vscode.env.clipboard.writeText(node.resourceName);
  void vscode.window.setStatusBarMessage(`Copied ${safeText(node.resourceName)}`, 3000);
}
