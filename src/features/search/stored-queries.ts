// The queries of a workspace: those run lately (the history) and those saved by name, in a quick pick.
import { safeText, MESSAGE_LIMIT } from '../../core/display';
import * as vscode from 'vscode';
import { queryLabel, readHistory, readSaved, removeSaved, type SavedQuery } from '../../core/secops/history';

export const HISTORY_KEY = 'cloudbench.search.history';
export const SAVED_KEY = 'cloudbench.search.savedQueries';

type StoredItem = vscode.QuickPickItem & { query?: string; saved?: SavedQuery };

/** Saved queries, then the recent ones; buttons open a query in an editor or save/delete it. */
export async function pickStoredQuery(
  state: vscode.Memento,
  refreshView: () => void,
): Promise<{ query: string; open: boolean } | undefined> {
  const openButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('go-to-file'),
    tooltip: 'Open in an editor',
  };
  const deleteButton: vscode.QuickInputButton = {
    iconPath: new vscode.ThemeIcon('trash'),
    tooltip: 'Delete this saved query',
  };
  const build = (): StoredItem[] => {
    const saved = readSaved(state.get(SAVED_KEY));
    const history = readHistory(state.get(HISTORY_KEY));
    const items: StoredItem[] = [];
    if (saved.length) items.push({ label: 'Saved', kind: vscode.QuickPickItemKind.Separator });
    for (const s of saved)
      items.push({
        label: `$(star-full) ${safeText(s.name)}`,
        detail: safeText(queryLabel(s.query), 'plain', MESSAGE_LIMIT),
        query: s.query,
        saved: s,
        buttons: [openButton, deleteButton],
      });
    if (history.length) items.push({ label: 'Recent', kind: vscode.QuickPickItemKind.Separator });
    for (const h of history) {
      items.push({
        label: safeText(queryLabel(h.query), 'plain', MESSAGE_LIMIT),
        description: `${new Date(h.ranAt).toLocaleString()} · ${safeText(h.timeRange)}${h.events !== undefined ? ` · ${h.events.toLocaleString('en-US')} events` : ''}`,
        query: h.query,
        buttons: [openButton],
      });
    }
    return items;
  };
  const pick = vscode.window.createQuickPick<StoredItem>();
  pick.title = 'Run Query from History';
  pick.placeholder = 'Pick a query to run with the current time range';
  pick.matchOnDetail = true;
  pick.items = build();
  if (pick.items.length === 0) {
    pick.dispose();
    void vscode.window.showInformationMessage('No UDM queries run or saved in this workspace yet.');
    return undefined;
  }
  return new Promise((resolve) => {
    let result: { query: string; open: boolean } | undefined;
    const subs: vscode.Disposable[] = [];
    subs.push(
      pick.onDidTriggerItemButton(async (e) => {
        if (e.button === openButton && e.item.query !== undefined) {
          result = { query: e.item.query, open: true };
          pick.hide();
        } else if (e.button === deleteButton && e.item.saved) {
          await state.update(SAVED_KEY, removeSaved(readSaved(state.get(SAVED_KEY)), e.item.saved.name));
          refreshView();
          pick.items = build();
        }
      }),
    );
    subs.push(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0];
        if (item?.query !== undefined) result = { query: item.query, open: false };
        pick.hide();
      }),
    );
    subs.push(
      pick.onDidHide(() => {
        for (const s of subs.splice(0)) s.dispose();
        pick.dispose();
        resolve(result);
      }),
    );
    pick.show();
  });
}
