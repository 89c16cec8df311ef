// The query bar completes and checks in the page (src/core/secops/querybar-service.ts); what only
// the extension host knows, the reference lists, is sent to the page when its editor loads and
// again whenever the Reference Lists view learns more, as the language server is told.
import type * as vscode from 'vscode';
import type { QueryBarLists } from '../../core/secops/querybar-service';
import type { ReferenceListStore } from '../shared/reference-list-store';
import type { ResultsPanel } from './panel';

/** The lists as the language server is given them (src/features/language/client.ts). */
export function queryBarLists(store: ReferenceListStore): QueryBarLists {
  const referenceLists = store.entries();
  const knownLists = store.known();
  const listsUnavailable = store.knownError();
  return {
    ...(referenceLists ? { referenceLists } : {}),
    ...(knownLists ? { knownLists: [...knownLists] } : {}),
    ...(knownLists && listsUnavailable !== undefined ? { listsUnavailable } : {}),
  };
}

/** One watch per panel: a page loaded again (a reload of the webview) replaces the last one. */
const watches = new WeakMap<ResultsPanel, vscode.Disposable>();

/** Sends the lists to the panel now and on every change, until the panel closes. */
export function watchQueryBarLists(store: ReferenceListStore, panel: ResultsPanel): void {
  watches.get(panel)?.dispose();
  const send = (): void => panel.post({ type: 'querybar.lists', ...queryBarLists(store) });
  const subscriptions = [store.onDidChangeKnown(send), store.onDidChangeEntries(send)];
  const watch: vscode.Disposable = {
    dispose: () => {
      for (const s of subscriptions.splice(0)) s.dispose();
      if (watches.get(panel) === watch) watches.delete(panel);
    },
  };
  subscriptions.push(
    panel.onDidDispose(() => {
      watch.dispose();
    }),
  );
  watches.set(panel, watch);
  send();
}
