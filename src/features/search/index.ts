// SecOps search in the editor: Run Query (command, CodeLens, Ctrl+Enter), the time range, the
// udmSearch budget in the status bar, the Search view, and the pivot commands. The search is
// offered to the other features (notebooks, statistics) as a service on Services.
import * as vscode from 'vscode';
import { addToHistory, readHistory } from '../../core/secops/history';
import { describeTimeRange, resolveTimeRange, type ResolvedWindow } from '../../core/secops/timerange';
import type { Feature, FeatureStart } from '../../platform/command-table';
import type { Services } from '../services';
import { SEARCH_COMMANDS, type SearchContext } from './commands';
import { confirmDespiteErrors } from './commands/run';
import { SearchController } from './controller';
import { keptRunsOf } from '../shared/keeping';
import { PIVOT_VIEW_TYPE, RESULTS_VIEW_TYPE } from './panel';
import { showRunLenses, showSearchStatus } from './status';
import { HISTORY_KEY, SAVED_KEY } from './stored-queries';
import { TimeRangeState } from '../shared/time-range';
import { SearchViewProvider } from './view';

export { pickTimeRange } from '../shared/time-range';

function activateSearch(context: vscode.ExtensionContext, services: Services): FeatureStart<SearchContext> {
  const controller = new SearchController(services, { runs: keptRunsOf(context), state: context.globalState });
  context.subscriptions.push(controller);

  const timeRange = new TimeRangeState(context, services);
  controller.currentWindow = () => resolveTimeRange(timeRange.spec, Date.now());
  controller.confirmQuery = confirmDespiteErrors;
  controller.setTimeRange = (spec) => timeRange.set(spec);
  // Results and pivot panels come back after a window reload with the rows of the run they showed
  // (kept on disk); nothing runs until the user asks.
  for (const [viewType, kind] of [
    [RESULTS_VIEW_TYPE, 'query'],
    [PIVOT_VIEW_TYPE, 'pivot'],
  ] as const) {
    context.subscriptions.push(
      vscode.window.registerWebviewPanelSerializer(viewType, {
        deserializeWebviewPanel: async (panel, state: unknown) => {
          context.subscriptions.push(await controller.restorePanel(panel, kind, state));
        },
      }),
    );
  }
  // Notebooks and statistics run through this controller, whichever feature started first.
  context.subscriptions.push(services.search.provide({ controller, timeRange: () => timeRange.spec }));

  showSearchStatus(context, services, controller, timeRange);
  showRunLenses(context, timeRange);

  // ---- the Search view: history and saved queries -------------------------------------------------
  const view = new SearchViewProvider(context.workspaceState, { history: HISTORY_KEY, saved: SAVED_KEY });
  context.subscriptions.push(
    view,
    vscode.window.createTreeView('cloudbench.search', { treeDataProvider: view, showCollapseAll: false }),
    controller.onDidRunQuery(({ query, events, searches, failed }) => {
      const history = addToHistory(readHistory(context.workspaceState.get(HISTORY_KEY)), {
        query,
        ranAt: new Date().toISOString(),
        timeRange: describeTimeRange(timeRange.spec),
        ...(events !== undefined ? { events } : {}),
        searches,
        ...(failed ? { failed } : {}),
      });
      void context.workspaceState.update(HISTORY_KEY, history).then(() => view.refresh());
    }),
  );
  return { ctx: { services, controller, timeRange, state: context.workspaceState, view } };
}

/** UDM search: runs, pivots, the time range, the budget and the stored queries. */
export const searchFeature: Feature<SearchContext, Services> = {
  name: 'SecOps search',
  commands: SEARCH_COMMANDS,
  activate: activateSearch,
};

export type { ResolvedWindow };
