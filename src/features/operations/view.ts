import * as vscode from 'vscode';
import { safeText, markdownCode, MESSAGE_LIMIT } from '../../core/display';
import type { OperationsRegistry, TrackedOperation } from './registry';
import type { ListedOperation } from './server';

const ICONS: Record<TrackedOperation['state'], [string, string | undefined]> = {
  running: ['loading~spin', undefined],
  succeeded: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  cancelled: ['circle-slash', 'disabledForeground'],
  detached: ['debug-disconnect', 'disabledForeground'],
  lost: ['question', 'list.warningForeground'],
};

const STATE_TEXT: Record<TrackedOperation['state'], string> = {
  running: 'running',
  succeeded: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  detached: 'no longer followed',
  lost: 'outcome unknown (lost track; Check Again asks the server)',
};

function elapsed(op: TrackedOperation, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round(((op.ended ?? now).getTime() - op.started.getTime()) / 1000));
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
}

/** Words that only restate a state ("done", "running"): a row that says them again repeats itself. */
const RESTATES = /^(done|succeeded|running|failed|cancelled|canceled)\.?$/i;

/**
 * "done · 43s", "running · to gs://b/out · 3s", "failed · needs roles/aiplatform.user
 * (aiplatform.models.delete) · 2s": the state, then what matters most (the brief outcome, else the
 * detail), the elapsed time last, so a narrow view cuts off the least; each fact once. The tooltip
 * has everything.
 */
export function operationDescription(op: TrackedOperation, now: Date = new Date()): string {
  const parts = [STATE_TEXT[op.state]];
  const detail = (op.brief ?? op.detail)?.trim();
  if (detail && !RESTATES.test(detail) && detail.toLowerCase() !== STATE_TEXT[op.state].toLowerCase())
    parts.push(detail);
  parts.push(elapsed(op, now));
  return parts.join(' · ');
}

/** Everything known of an operation, as plain text (the Show Details dialog). */
export function operationDetails(op: TrackedOperation): string {
  return [
    `State: ${STATE_TEXT[op.state]}`,
    `Resource: ${op.resource}`,
    `Operation: ${op.operationName ?? 'not named yet'}`,
    `Started: ${op.started.toLocaleString()}`,
    op.ended ? `Ended: ${op.ended.toLocaleString()} (after ${elapsed(op)})` : `Running for ${elapsed(op)}`,
    op.detail ? `\n${op.detail}` : '',
    op.resourceState ? `\nThe resource now: ${op.resourceState}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export class OperationItem extends vscode.TreeItem {
  constructor(readonly operation: TrackedOperation) {
    super(operation.title, vscode.TreeItemCollapsibleState.None);
    this.id = `operation:${operation.id}`;
    this.contextValue = `operation.${operation.state}`;
    this.description = operationDescription(operation);
    const [icon, color] = ICONS[operation.state];
    this.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${safeText(operation.title, 'markdown')}**\n\n`);
    tip.appendMarkdown(`State: ${STATE_TEXT[operation.state]}\n\n`);
    tip.appendMarkdown(`Resource: ${markdownCode(operation.resource)}\n\n`);
    if (operation.operationName) tip.appendMarkdown(`Operation: ${markdownCode(operation.operationName)}\n\n`);
    tip.appendMarkdown(`Started: ${operation.started.toLocaleString()}`);
    if (operation.ended) tip.appendMarkdown(`\n\nEnded: ${operation.ended.toLocaleString()}`);
    if (operation.detail) tip.appendMarkdown(`\n\n${safeText(operation.detail, 'markdown', MESSAGE_LIMIT)}`);
    this.tooltip = tip;
  }
}

/** The icons of this window's operations, but one running elsewhere turns differently. */
const SERVER_ICONS: Record<ListedOperation['state'], [string, string | undefined]> = {
  ...ICONS,
  running: ['sync~spin', undefined],
};

function ago(date: Date | undefined, now: Date): string {
  if (!date) return '';
  const s = Math.max(0, Math.round((now.getTime() - date.getTime()) / 1000));
  return s < 60 ? `${s}s ago` : s < 3600 ? `${Math.floor(s / 60)}m ago` : `${Math.floor(s / 3600)}h ago`;
}

/** "running · started elsewhere · projects/…/models/123 · 2m ago" */
export function serverOperationDescription(op: ListedOperation, now: Date = new Date()): string {
  return [
    STATE_TEXT[op.state],
    'started elsewhere',
    op.state === 'failed' && op.error ? op.error : '',
    op.state === 'succeeded' && op.result ? `made ${op.result.split('/').pop()}` : '',
    ago(op.state === 'running' ? op.started : (op.updated ?? op.started), now),
  ]
    .filter(Boolean)
    .map((p) => safeText(p))
    .join(' · ');
}

/** An operation the server reports that this window did not start (or no longer follows). */
export class ServerOperationItem extends vscode.TreeItem {
  constructor(readonly operation: ListedOperation) {
    super(safeText(operation.title), vscode.TreeItemCollapsibleState.None);
    this.id = `server-operation:${operation.name}`;
    const followable = operation.state === 'running' && operation.kind ? '.followable' : '';
    const result = operation.state === 'succeeded' && operation.result ? '.result' : '';
    this.contextValue = `serverOperation.${operation.state}${followable}${result}`;
    this.description = serverOperationDescription(operation);
    const [icon, color] = SERVER_ICONS[operation.state];
    this.iconPath = new vscode.ThemeIcon(icon, color ? new vscode.ThemeColor(color) : undefined);
    const tip = new vscode.MarkdownString(undefined, true);
    tip.appendMarkdown(`**${safeText(operation.title, 'markdown')}** (started outside this window)\n\n`);
    tip.appendMarkdown(`State: ${STATE_TEXT[operation.state]}\n\n`);
    tip.appendMarkdown(`Resource: ${markdownCode(operation.resource)}\n\n`);
    tip.appendMarkdown(`Operation: ${markdownCode(operation.name)}`);
    if (operation.started) tip.appendMarkdown(`\n\nStarted: ${operation.started.toLocaleString()}`);
    if (operation.result) tip.appendMarkdown(`\n\nResult: ${markdownCode(operation.result)}`);
    if (operation.error) tip.appendMarkdown(`\n\nError: ${safeText(operation.error, 'markdown', MESSAGE_LIMIT)}`);
    this.tooltip = tip;
    if (result) this.command = { command: 'cloudbench.operations.openResult', title: 'Open Result', arguments: [this] };
  }
}

/** Everything known of a server-listed operation, as plain text (its details document). */
export function serverOperationDetails(op: ListedOperation): string {
  return [
    `${op.title} (started outside this window)`,
    `State: ${STATE_TEXT[op.state]}`,
    `Resource: ${op.resource}`,
    `Operation: ${op.name}`,
    op.started ? `Started: ${op.started.toLocaleString()}` : '',
    op.updated ? `${op.state === 'running' ? 'Last update' : 'Ended'}: ${op.updated.toLocaleString()}` : '',
    op.result ? `Result: ${op.result}` : '',
    op.error ? `Error: ${op.error}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export type OperationsRow = OperationItem | ServerOperationItem;

export class OperationsTreeProvider implements vscode.TreeDataProvider<OperationsRow>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OperationsRow | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly registry: OperationsRegistry) {
    this.subscriptions = [
      registry.onDidChange(() => this.refresh()),
      registry.server.onDidChange(() => this.refresh()),
    ];
  }

  refresh(): void {
    this.changed.fire(undefined);
    // Elapsed times of running operations move; refresh them while any runs.
    const running = this.registry.list().some((o) => o.state === 'running');
    if (running && !this.ticker) {
      this.ticker = setInterval(() => this.changed.fire(undefined), 1000);
    } else if (!running && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  getTreeItem(element: OperationsRow): vscode.TreeItem {
    return element;
  }

  /** The operations started here, then the server's others (one row per operation name). */
  getChildren(element?: OperationsRow): OperationsRow[] {
    if (element) return [];
    const local = this.registry.list();
    const followed = new Set(local.map((o) => o.operationName).filter(Boolean));
    return [
      ...local.map((op) => new OperationItem(op)),
      ...this.registry.server
        .list()
        .filter((o) => !followed.has(o.name))
        .map((o) => new ServerOperationItem(o)),
    ];
  }

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
