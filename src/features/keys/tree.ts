// The API Keys tree: project → keys, "Load more", and a "Deleted keys" group with the days left to
// undelete. The data (paged lists) lives in KeysModel; the provider only turns it into nodes.
import * as vscode from 'vscode';
import { daysLeftToUndelete, explainKeysError, type ApiKeysClient } from '../../core/apikeys/client';
import { ROTATED_TO_ANNOTATION, auditKey, type AuditFinding } from '../../core/apikeys/audit';
import { describeRestrictions, summarizeRestrictions } from '../../core/apikeys/describe';
import type { ApiKey } from '../../core/apikeys/types';
import { describeError, describeFailure, isConnectionLoss } from '../../core/google/errors';
import { ReconnectSchedule, reconnectNote } from '../../core/reconnect';
import { treeRowFix, type Fix } from '../../platform/commands';
import { PagedList, loadMoreText } from '../../core/paging';
import { getLogger } from '../../platform/log';
import { wrapText } from '../../platform/wrap';

const log = getLogger('keys');
const PAGE_SIZE = 50;

/** The service's message plus, for the usual causes (role, org policy, location), what to do. */
export function describeKeysFailure(err: unknown): string {
  const explanation = explainKeysError(err);
  if (!explanation) return describeError(err);
  // describeError may already hold the explanation (a method's permission and role): say it once.
  const { what, next } = describeFailure(err);
  if (next?.includes(explanation)) return describeError(err);
  // Otherwise the API Keys explanation (org policy, location, a key reloaded after a conflict) is
  // the one next step.
  return `${what}. ${explanation}`;
}

export function keyIdOf(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** Paged keys of one project; deleted keys are loaded separately when their group opens. */
export class KeysModel {
  active: PagedList<ApiKey>;
  deleted: ApiKey[] | undefined;
  activeError: string | undefined;
  deletedError: string | undefined;
  /** The fix the last failure suggests (for the error row's button). */
  fix: Fix | undefined;

  constructor(
    readonly project: string,
    private readonly client: ApiKeysClient,
    /** Now on the service's clock (its Date header), which the 30-day undelete window runs on. */
    readonly now: () => number = () => client.serverNow(),
    /** Keys per page (cloudbench.pageSize; the API allows at most 300). */
    private readonly pageSize = PAGE_SIZE,
  ) {
    this.active = this.newActiveList();
  }

  private newActiveList(): PagedList<ApiKey> {
    return new PagedList<ApiKey>(
      (pageToken, signal) =>
        this.client.listKeys(this.project, {
          pageSize: Math.min(300, this.pageSize),
          ...(pageToken ? { pageToken } : {}),
          ...(signal ? { signal } : {}),
        }),
      Math.min(300, this.pageSize),
    );
  }

  private firstPageLoaded = false;

  get started(): boolean {
    return this.firstPageLoaded;
  }

  private loadingActive: Promise<ApiKey[]> | undefined;
  private loadingDeleted: Promise<ApiKey[]> | undefined;

  /** Loads the next page; a call while one is in flight joins it (the tree and a reveal may both ask). */
  loadMore(signal?: AbortSignal): Promise<ApiKey[]> {
    this.loadingActive ??= this.active.loadMore(signal).then(
      (items) => {
        this.firstPageLoaded = true;
        this.loadingActive = undefined;
        return items;
      },
      (err: unknown) => {
        this.loadingActive = undefined;
        throw err;
      },
    );
    return this.loadingActive;
  }

  loadDeleted(signal?: AbortSignal): Promise<ApiKey[]> {
    this.loadingDeleted ??= (async () => {
      try {
        const keys: ApiKey[] = [];
        for await (const key of this.client.iterateKeys(this.project, {
          showDeleted: true,
          pageSize: PAGE_SIZE,
          ...(signal ? { signal } : {}),
        })) {
          if (key.deleteTime) keys.push(key);
        }
        this.deleted = keys;
        return keys;
      } finally {
        this.loadingDeleted = undefined;
      }
    })();
    return this.loadingDeleted;
  }

  find(name: string): { key: ApiKey; deleted: boolean } | undefined {
    const active = this.active.items.find((k) => k.name === name);
    if (active) return { key: active, deleted: false };
    const deleted = this.deleted?.find((k) => k.name === name);
    return deleted ? { key: deleted, deleted: true } : undefined;
  }

  /** Replaces a key in the loaded lists after an update, so the tree shows it without a reload. */
  replace(key: ApiKey): void {
    const items = this.active.items as ApiKey[];
    const i = items.findIndex((k) => k.name === key.name);
    if (i >= 0) items[i] = key;
  }

  reset(): void {
    this.active.reset();
    this.firstPageLoaded = false;
    this.deleted = undefined;
    this.activeError = undefined;
    this.deletedError = undefined;
  }
}

export class ProjectNode extends vscode.TreeItem {
  constructor(readonly project: string) {
    super(project, vscode.TreeItemCollapsibleState.Expanded);
    this.id = `keys-project:${project}`;
    this.contextValue = 'keysProject';
    this.iconPath = new vscode.ThemeIcon('project');
    this.tooltip = `API keys of project ${project} (location global)`;
  }
}

export class KeyNode extends vscode.TreeItem {
  constructor(
    readonly key: ApiKey,
    readonly deleted: boolean,
    readonly parent: ProjectNode | DeletedGroupNode,
    now: number,
    /** The last key audit's findings for this key (none before an audit ran). */
    readonly findings: readonly AuditFinding[] = [],
  ) {
    const keyId = keyIdOf(key.name);
    const label = key.displayName || keyId;
    super(label, vscode.TreeItemCollapsibleState.None);
    this.id = `key:${deleted ? 'deleted' : 'active'}:${key.name}`;
    const bound = key.serviceAccountEmail ? '.bound' : '';
    const lines = [
      `${key.displayName || '(no display name)'}`,
      `Name: ${key.name}`,
      `UID: ${key.uid ?? '—'}`,
      `Created: ${key.createTime ?? '—'}`,
    ];
    if (key.updateTime) lines.push(`Updated: ${key.updateTime}`);
    if (key.serviceAccountEmail) lines.push(`Service account: ${key.serviceAccountEmail}`);
    if (deleted) {
      const left = daysLeftToUndelete(key.deleteTime, now);
      const expired = left === undefined || left <= 0;
      this.contextValue = `key.deleted${expired ? '.expired' : ''}${bound}`;
      this.description = `${keyId} · ${expired ? 'past the 30-day undelete window' : `deleted, ${formatDaysLeft(left)} to undelete`}`;
      this.iconPath = new vscode.ThemeIcon('trash', new vscode.ThemeColor('disabledForeground'));
      lines.push(`Deleted: ${key.deleteTime}`);
    } else {
      this.contextValue = `key.active${bound}${findings.length ? '.finding' : ''}`;
      const summary = summarizeRestrictions(key.restrictions);
      const rotatedTo = key.annotations?.[ROTATED_TO_ANNOTATION];
      const notes = [
        ...(typeof rotatedTo === 'string' && rotatedTo ? [`rotated to ${rotatedTo}`] : []),
        ...(findings.length ? [`⚠ ${findings.length} audit finding${findings.length === 1 ? '' : 's'}`] : []),
      ];
      // The notes before the summary: a narrow view cuts the end of a row.
      this.description = [keyId, ...notes, summary].join(' · ');
      this.iconPath = findings.length
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
        : summary === 'unrestricted'
          ? new vscode.ThemeIcon('unlock', new vscode.ThemeColor('list.warningForeground'))
          : new vscode.ThemeIcon(key.serviceAccountEmail ? 'person' : 'key');
    }
    lines.push('', ...describeRestrictions(key.restrictions));
    if (findings.length)
      lines.push('', 'Key audit (CIS):', ...findings.map((f) => `⚠ ${f.cis} ${f.title}: ${f.detail}`));
    this.tooltip = lines.join('\n');
    this.accessibilityInformation = { label: `${label}, key ${keyId}, ${String(this.description ?? '')}` };
  }
}

export function formatDaysLeft(days: number): string {
  if (days < 1) {
    const hours = Math.max(1, Math.floor(days * 24));
    return `${hours} hour${hours === 1 ? '' : 's'}`;
  }
  // As people count: the day of deletion still has 30 days to go (29.9 days left is "30 days").
  const whole = Math.ceil(days);
  return `${whole} day${whole === 1 ? '' : 's'}`;
}

export class DeletedGroupNode extends vscode.TreeItem {
  constructor(readonly parent: ProjectNode) {
    super('Deleted keys', vscode.TreeItemCollapsibleState.Collapsed);
    this.id = `keys-deleted:${parent.project}`;
    this.contextValue = 'keysDeletedGroup';
    this.iconPath = new vscode.ThemeIcon('trash');
    this.tooltip = 'Keys deleted in the last 30 days; they can be undeleted until the window ends.';
  }
}

export class LoadMoreNode extends vscode.TreeItem {
  constructor(
    readonly parent: ProjectNode,
    list?: PagedList<ApiKey>,
  ) {
    super('Load more…', vscode.TreeItemCollapsibleState.None);
    if (list) {
      const text = loadMoreText('keys', list);
      this.description = text.description;
      this.tooltip = text.tooltip;
    }
    this.id = `keys-load-more:${parent.project}`;
    this.contextValue = 'keysLoadMore';
    this.iconPath = new vscode.ThemeIcon('ellipsis');
    this.command = { command: 'cloudbench.keys.loadMore', title: 'Load More Keys', arguments: [this] };
  }
}

export class MessageNode extends vscode.TreeItem {
  constructor(
    message: string,
    readonly parent: ProjectNode | DeletedGroupNode,
    kind: 'error' | 'info' = 'info',
  ) {
    // An error's explanation is longer than a row: the row expands into its lines.
    super(message, kind === 'error' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    this.fullText = message;
    this.id = `keys-message:${parent.id}:${kind}`;
    this.contextValue = kind === 'error' ? 'keysError' : 'keysMessage';
    this.iconPath = new vscode.ThemeIcon(
      kind === 'error' ? 'error' : 'info',
      kind === 'error' ? new vscode.ThemeColor('errorForeground') : undefined,
    );
    this.tooltip = message;
  }

  /** Gives an error row the button (and click) that runs the fix its message suggests. */
  withFix(fix: Fix | undefined): this {
    if (fix) {
      this.fix = fix;
      this.contextValue = 'keysError.fix';
      this.command = { command: 'cloudbench.runFix', title: fix.label, arguments: [this] };
    }
    return this;
  }
  fix: Fix | undefined;
  readonly fullText: string;

  detailLines(): DetailLineNode[] {
    return wrapText(this.fullText).map((line, i) => new DetailLineNode(line, this, i));
  }
}

/** One line of an error row's explanation. */
export class DetailLineNode extends vscode.TreeItem {
  constructor(
    line: string,
    readonly parent: MessageNode,
    index: number,
  ) {
    super(line, vscode.TreeItemCollapsibleState.None);
    this.id = `${parent.id}:line:${index}`;
    this.contextValue = 'keysMessageLine';
    this.tooltip = line;
  }
}

export type KeysTreeNode = ProjectNode | KeyNode | DeletedGroupNode | LoadMoreNode | MessageNode | DetailLineNode;

export class KeysTreeProvider implements vscode.TreeDataProvider<KeysTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<KeysTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private model: KeysModel | undefined;
  private projectNode: ProjectNode | undefined;
  private deletedNode: DeletedGroupNode | undefined;
  private keyNodes = new Map<string, KeyNode>();

  /** A list that failed for want of a connection is read again by itself, with a growing wait. */
  private readonly reconnect: ReconnectSchedule;

  constructor(
    private readonly createModel: () => KeysModel | undefined,
    reconnect?: ReconnectSchedule,
  ) {
    this.reconnect = reconnect ?? new ReconnectSchedule();
  }

  /** Reads a list that failed for want of a connection again now (the window regained focus). */
  checkNow(): void {
    this.reconnect.checkNow();
  }

  get current(): KeysModel | undefined {
    return this.model;
  }

  /** Drops everything loaded (project, endpoint or credentials changed, or the user asked). */
  refresh(): void {
    this.model = this.createModel();
    this.projectNode = this.model ? new ProjectNode(this.model.project) : undefined;
    this.deletedNode = this.projectNode ? new DeletedGroupNode(this.projectNode) : undefined;
    this.keyNodes.clear();
    this.changed.fire(undefined);
  }

  /** Redraws the keys without reloading them. */
  redraw(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: KeysTreeNode): vscode.TreeItem {
    return node;
  }

  getParent(node: KeysTreeNode): KeysTreeNode | undefined {
    return node instanceof ProjectNode ? undefined : node.parent;
  }

  async getChildren(node?: KeysTreeNode): Promise<KeysTreeNode[]> {
    if (!node) {
      if (this.model === undefined) this.refresh();
      return this.projectNode ? [this.projectNode] : [];
    }
    if (node instanceof MessageNode) return node.detailLines();
    const model = this.model;
    if (!model) return [];
    if (node instanceof ProjectNode) {
      if (!model.started && !model.activeError) await this.loadFirstPage(model);
      const children: KeysTreeNode[] = model.active.items.map((k) => this.keyNode(k, false, node));
      if (model.activeError)
        children.push(new MessageNode(`Could not list keys: ${model.activeError}`, node, 'error').withFix(model.fix));
      else if (model.active.items.length === 0)
        children.push(new MessageNode('No API keys yet. Create one with the + button.', node));
      if (model.active.hasMore && !model.activeError && model.started)
        children.push(new LoadMoreNode(node, model.active));
      children.push(this.deletedNode!);
      return children;
    }
    if (node instanceof DeletedGroupNode) {
      if (model.deleted === undefined && !model.deletedError) {
        try {
          await model.loadDeleted();
        } catch (err) {
          model.deletedError = describeKeysFailure(err);
          model.fix = treeRowFix(err);
          log.failure(`listing deleted keys of ${model.project}`, err);
        }
      }
      if (model.deletedError)
        return [
          new MessageNode(`Could not list deleted keys: ${model.deletedError}`, node, 'error').withFix(model.fix),
        ];
      const deleted = model.deleted ?? [];
      if (deleted.length === 0) return [new MessageNode('No keys deleted in the last 30 days.', node)];
      return deleted.map((k) => this.keyNode(k, true, node));
    }
    return [];
  }

  /** What the view says above its rows: "Connecting…" while the first page of keys is pending. */
  message: string | undefined;
  private readonly messageChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeMessage = this.messageChanged.event;

  private setMessage(message: string | undefined): void {
    if (this.message === message) return;
    this.message = message;
    this.messageChanged.fire();
  }

  /**
   * Loads the first page of keys, saying "Connecting…" meanwhile (a refused connection may take
   * seconds). A failed connection is tried again by itself; the list shows when it works.
   */
  private async loadFirstPage(model: KeysModel): Promise<void> {
    this.setMessage('Connecting…');
    try {
      await model.loadMore();
      this.reconnect.succeeded();
    } catch (err) {
      model.activeError = describeKeysFailure(err);
      model.fix = treeRowFix(err);
      log.failure(`listing keys of ${model.project}`, err);
      if (isConnectionLoss(err) && this.reconnect.failed(() => this.refresh()))
        model.activeError += ` ${reconnectNote()}`;
    } finally {
      if (this.model === model) this.setMessage(undefined);
    }
  }

  /** The rotation age of the last key audit; rows show findings once an audit ran. */
  auditMaxAgeDays: () => number | undefined = () => undefined;

  private keyNode(key: ApiKey, deleted: boolean, parent: ProjectNode | DeletedGroupNode): KeyNode {
    const now = this.model?.now() ?? Date.now();
    const maxAgeDays = deleted ? undefined : this.auditMaxAgeDays();
    const findings = maxAgeDays === undefined ? [] : auditKey(key, { now, maxAgeDays }).findings;
    const node = new KeyNode(key, deleted, parent, now, findings);
    this.keyNodes.set(`${deleted ? 'deleted' : 'active'}:${key.name}`, node);
    return node;
  }

  /** The node shown for a key, loading further pages or the deleted group as needed. */
  async findNode(name: string, deleted: boolean, signal?: AbortSignal): Promise<KeyNode | undefined> {
    const model = this.model;
    if (!model || !this.projectNode) return undefined;
    if (deleted) {
      if (model.deleted === undefined) await model.loadDeleted(signal);
      const key = model.deleted?.find((k) => k.name === name);
      return key ? this.keyNode(key, true, this.deletedNode!) : undefined;
    }
    for (;;) {
      const key = model.active.items.find((k) => k.name === name);
      if (key) return this.keyNode(key, false, this.projectNode);
      if (model.started && !model.active.hasMore) return undefined;
      await model.loadMore(signal);
      this.changed.fire(undefined);
    }
  }

  dispose(): void {
    this.reconnect.dispose();
    this.messageChanged.dispose();
    this.changed.dispose();
  }
}
