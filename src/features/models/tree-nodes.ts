// The Models tree's building blocks: the node base classes (message, error, load-more rows, a
// parent whose children come page by page) and what nodes need from the feature.
import * as vscode from 'vscode';
import type { ModelRegistryClient } from '../../core/models/client';
import type { EvaluatedAnnotation } from '../../core/models/types';
import { PagedList, loadMoreText } from '../../core/paging';
import { describeError, GoogleApiError, isConnectionLoss } from '../../core/google/errors';
import { treeRowFix, type Fix } from '../../platform/commands';
import { getLogger } from '../../platform/log';
import { wrapText } from '../../platform/wrap';
import { requirementOf } from '../../core/google/method-requirements';

const log = getLogger('models');

export const PAGE_SIZE = 50;

/** What nodes need from the feature: the current client and project, and a way to ask for a redraw. */
export interface TreeContext {
  client(): ModelRegistryClient | undefined;
  project(): string | undefined;
  configuredLocations(): string[];
  filter(): string | undefined;
  changed(node: ModelsNode | undefined): void;
  /** Annotations imported in this window, per slice name (the API has no call that lists them). */
  importedAnnotations(slice: string): EvaluatedAnnotation[];
  /** Items per page of every paged list; PAGE_SIZE unless a test wants small pages. */
  pageSize?(): number;
}

export function pageSizeOf(ctx: TreeContext): number {
  return ctx.pageSize?.() ?? PAGE_SIZE;
}

export abstract class ModelsNode extends vscode.TreeItem {
  /** Full resource name, when the node stands for a resource. */
  abstract readonly resourceName: string | undefined;
  parent: ModelsNode | undefined;
  getChildren(): Promise<ModelsNode[]> {
    return Promise.resolve([]);
  }
  /** The JSON the details view shows. */
  details(): unknown {
    return undefined;
  }
}

export class MessageNode extends ModelsNode {
  readonly resourceName = undefined;
  constructor(message: string, icon = 'info', tooltip?: string) {
    super(message, vscode.TreeItemCollapsibleState.None);
    this.contextValue = 'message';
    this.iconPath = new vscode.ThemeIcon(icon);
    if (tooltip) this.tooltip = tooltip;
  }
}

/** One line of an explanation too long for its row, under the row it explains. */
export class DetailLineNode extends ModelsNode {
  readonly resourceName = undefined;
  constructor(line: string) {
    super(line, vscode.TreeItemCollapsibleState.None);
    this.contextValue = 'message.detail';
    this.tooltip = line;
  }
}

export class ErrorNode extends MessageNode {
  /** The fix the message suggests; the row's button and click run it. */
  readonly fix: Fix;
  /** The whole explanation, which the row cuts off: its lines are the row's children. */
  readonly fullText: string;
  /** The load failed for want of a connection (refused, unreachable, UNAVAILABLE): worth trying again by itself. */
  readonly connectionLost: boolean;
  constructor(what: string, err: unknown) {
    super(`Could not load ${what}`, 'error', describeError(err));
    this.connectionLost = isConnectionLoss(err);
    // Every failed load is in the log too (a 403 as one warning line), not only in the row.
    log.failure(`loading ${what}`, err);
    this.fullText = describeError(err);
    this.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    // A refusal names what is missing right in the row, not only in its tooltip.
    const requirement = err instanceof GoogleApiError ? requirementOf(err.options.method) : undefined;
    this.description =
      err instanceof GoogleApiError
        ? requirement && err.status === 'PERMISSION_DENIED'
          ? `${err.status} · needs ${requirement.permission} (${requirement.roles.join(' or ')})`
          : err.status
        : undefined;
    this.contextValue = 'error.fix';
    this.fix = treeRowFix(err);
    this.command = { command: 'cloudbench.runFix', title: this.fix.label, arguments: [this] };
  }

  override getChildren(): Promise<ModelsNode[]> {
    return Promise.resolve(
      wrapText(this.fullText).map((line) => {
        const node = new DetailLineNode(line);
        node.parent = this;
        return node;
      }),
    );
  }
}

/** "Load more" at the end of a paged list; the command loads the next page into `owner`. */
export class LoadMoreNode extends ModelsNode {
  readonly resourceName = undefined;
  constructor(
    readonly owner: PagedParent,
    list?: PagedList<ModelsNode>,
  ) {
    super('Load more…', vscode.TreeItemCollapsibleState.None);
    if (list) {
      const text = loadMoreText(owner.pagedWhat, list);
      this.description = text.description;
      this.tooltip = text.tooltip;
    }
    this.contextValue = 'loadMore';
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.command = { command: 'cloudbench.models.loadMore', title: 'Load More', arguments: [this] };
  }
}

/** A node whose children come page by page. */
export abstract class PagedParent extends ModelsNode {
  protected list: PagedList<ModelsNode> | undefined;
  protected error: unknown;
  /** The first page while it loads: a second caller (the tree and a reveal) waits for the same one. */
  private firstPage: Promise<void> | undefined;

  protected abstract createList(): PagedList<ModelsNode>;
  protected abstract what: string;
  /** What the list holds, for its "Load more" node ("models", "versions"). */
  get pagedWhat(): string {
    return this.what;
  }
  protected emptyText = 'Nothing here';
  protected leading(): ModelsNode[] {
    return [];
  }
  /** Rows found gone since the list was loaded (deleted here or by someone else): no longer shown. */
  private readonly dropped = new Set<string>();

  reset(): void {
    this.list = undefined;
    this.error = undefined;
    this.firstPage = undefined;
    this.dropped.clear();
  }

  /** The children loaded so far, without loading anything. */
  loadedChildren(): ModelsNode[] {
    return (this.list?.items ?? []).filter((n) => !this.dropped.has(n.id ?? ''));
  }

  /** Stops showing a child whose resource is gone, keeping the rest of what was loaded. */
  drop(child: ModelsNode): void {
    if (child.id) this.dropped.add(child.id);
  }

  async loadMore(): Promise<void> {
    if (!this.list) this.list = this.createList();
    await this.list.loadMore();
  }

  override async getChildren(): Promise<ModelsNode[]> {
    const lead = this.leading();
    for (const n of lead) n.parent = this;
    if (!this.list || this.firstPage) {
      if (!this.firstPage) {
        const list = this.createList();
        this.list = list;
        this.firstPage = list.loadMore().then(
          () => {
            this.error = undefined;
          },
          (err: unknown) => {
            if (this.list === list) {
              this.error = err;
              this.list = undefined;
            }
          },
        );
      }
      const loading = this.firstPage;
      await loading;
      if (this.firstPage === loading) this.firstPage = undefined;
      if (!this.list) return [...lead, new ErrorNode(this.what, this.error)];
    }
    const items = this.loadedChildren();
    for (const n of items) n.parent = this;
    const out: ModelsNode[] = [...lead, ...items];
    if (this.list.hasMore) {
      const more = new LoadMoreNode(this, this.list);
      more.parent = this;
      out.push(more);
    }
    if (items.length === 0 && lead.length === 0) out.push(new MessageNode(this.emptyText));
    return out;
  }
}

/** A child list fetched page by page from the client, each item shown by `toNode`. */
export function pagedNodes<T>(
  ctx: TreeContext,
  fetchPage: (
    client: ModelRegistryClient,
    page: { pageSize: number; pageToken?: string },
  ) => Promise<{ items: T[]; nextPageToken?: string | undefined }>,
  toNode: (item: T) => ModelsNode,
): PagedList<ModelsNode> {
  return new PagedList<ModelsNode>(async (pageToken) => {
    const client = ctx.client();
    if (!client) return { items: [] };
    const page = await fetchPage(client, { pageSize: pageSizeOf(ctx), ...(pageToken ? { pageToken } : {}) });
    return { items: page.items.map(toNode), nextPageToken: page.nextPageToken };
  }, pageSizeOf(ctx));
}
