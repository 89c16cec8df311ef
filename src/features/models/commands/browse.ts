// Browsing the Models view: refresh, the filter, further pages, and copying a resource name.
import * as vscode from 'vscode';
import { safeText } from '../../../core/display';
import type { ModelsContext } from '../context';
import { LoadMoreNode, ModelsNode } from '../tree';

export function refreshModels(ctx: ModelsContext, node?: ModelsNode): void {
  ctx.provider.refresh(node instanceof ModelsNode ? node : undefined);
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
