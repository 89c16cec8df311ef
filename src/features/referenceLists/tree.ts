// The Reference Lists view: one row per list with its content type, size, description and last
// update. Empty, signed-out and error states are the view's welcome content (a context key says which).
import { safeText, markdownCode, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { ModelTreeProvider } from '../../platform/model-tree';
import type { ReferenceListDetails } from '../../core/secops/client';
import { contentTypeLabel, referenceListEntries } from '../../core/secops/reference-lists';
import { PREVIEW_LINES, type ReferenceListsModel } from './model';

export const VIEW_ID = 'cloudbench.referenceLists';
export const STATE_CONTEXT_KEY = 'cloudbench.referenceLists.state';
export const OPEN_COMMAND = 'cloudbench.referenceLists.open';

const ICONS: Record<ReferenceListDetails['contentType'], string> = {
  CONTENT_TYPE_DEFAULT_STRING: 'symbol-string',
  REGEX: 'regex',
  CIDR: 'globe',
};

/** "3 entries" / "1 entry". */
export function entryCount(n: number): string {
  return `${n} ${n === 1 ? 'entry' : 'entries'}`;
}

/** A short local date and time of an RFC 3339 time, or undefined when there is none. */
export function formatUpdateTime(rfc3339: unknown): string | undefined {
  if (typeof rfc3339 !== 'string') return undefined;
  const t = Date.parse(rfc3339);
  if (Number.isNaN(t)) return undefined;
  return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The day of an RFC 3339 time, short ("12 Nov", with the year when it is not this year). */
export function formatUpdateDay(rfc3339: unknown, now = new Date()): string | undefined {
  if (typeof rfc3339 !== 'string') return undefined;
  const t = Date.parse(rfc3339);
  if (Number.isNaN(t)) return undefined;
  const d = new Date(t);
  return d.toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    ...(d.getFullYear() !== now.getFullYear() ? { year: 'numeric' } : {}),
  });
}

export class ReferenceListItem extends vscode.TreeItem {
  constructor(readonly list: ReferenceListDetails) {
    super(list.name, vscode.TreeItemCollapsibleState.None);
    const entries = referenceListEntries(list.lines);
    const updated = formatUpdateTime(list.createTime);
    this.id = `referenceList:${list.name}`;
    this.contextValue = 'referenceList';
    this.iconPath = new vscode.ThemeIcon(ICONS[list.contentType]);
    const day = formatUpdateDay(list.createTime);
    this.description = [
      contentTypeLabel(list.contentType),
      entryCount(entries.length),
      ...(day ? [`updated ${day}`] : []),
      ...(list.description ? [list.description] : []),
    ].join(' · ');
    const tip = new vscode.MarkdownString();
    tip.appendMarkdown(`**%${safeText(list.name, 'markdown')}**\n\n`);
    if (list.description) tip.appendMarkdown(`${safeText(list.description, 'markdown', MESSAGE_LIMIT)}\n\n`);
    tip.appendText(`${contentTypeLabel(list.contentType)} (${list.contentType}), ${entryCount(entries.length)}`);
    const comments = list.lines.length - entries.length;
    if (comments > 0) tip.appendText(`, ${comments} comment or blank line${comments > 1 ? 's' : ''}`);
    tip.appendText('\n\n');
    if (updated) tip.appendText(`Last update: ${updated}\n\n`);
    if (entries.length > 0) tip.appendMarkdown(markdownCode(entries.slice(0, PREVIEW_LINES).join('\n'), true, 'text'));
    this.tooltip = tip;
    this.accessibilityInformation = {
      label: `${list.name}, ${contentTypeLabel(list.contentType)}, ${entryCount(entries.length)}${updated ? `, last update ${updated}` : ''}`,
    };
    this.command = { command: OPEN_COMMAND, title: 'Open Reference List', arguments: [list.name] };
  }
}

export class ReferenceListsTreeProvider extends ModelTreeProvider<ReferenceListItem> {
  constructor(private readonly model: ReferenceListsModel) {
    super(model);
  }

  async getChildren(item?: ReferenceListItem): Promise<ReferenceListItem[]> {
    if (item) return [];
    await this.model.ensureLoaded();
    const state = this.model.current;
    return state.kind === 'ready' ? state.lists.map((l) => new ReferenceListItem(l)) : [];
  }
}
