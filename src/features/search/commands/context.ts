// What the search commands run with: the feature's controller, time range, stored queries and view.
import type * as vscode from 'vscode';
import type { Services } from '../../services';
import type { SearchController } from '../controller';
import type { TimeRangeState } from '../../shared/time-range';
import type { SearchViewProvider } from '../view';

export interface SearchContext {
  readonly services: Services;
  readonly controller: SearchController;
  readonly timeRange: TimeRangeState;
  /** The workspace's state: its query history and saved queries. */
  readonly state: vscode.Memento;
  /** The Search view (history and saved queries). */
  readonly view: SearchViewProvider;
}
