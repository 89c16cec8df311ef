// The search commands, by id.
import { saveResultsAsTestCase } from './test-case';
import type { CommandTable } from '../../../platform/command-table';
import type { SearchContext } from './context';
import { PIVOT_COMMANDS } from './pivots';
import { runQuery, runSelection, setTimeRange, showIocMatches } from './run';
import {
  deleteSavedQuery,
  openViewQuery,
  refreshView,
  renameSavedQuery,
  runViewQuery,
  saveQuery,
  saveViewQuery,
  showHistory,
} from './stored';

export type { SearchContext } from './context';

export const SEARCH_COMMANDS: CommandTable<SearchContext> = {
  'cloudbench.search.run': runQuery,
  'cloudbench.search.runSelection': runSelection,
  'cloudbench.search.setTimeRange': setTimeRange,
  'cloudbench.search.showIocMatches': showIocMatches,
  'cloudbench.search.showHistory': showHistory,
  'cloudbench.search.view.run': runViewQuery,
  'cloudbench.search.view.open': openViewQuery,
  'cloudbench.search.view.rename': renameSavedQuery,
  'cloudbench.search.view.delete': deleteSavedQuery,
  'cloudbench.search.view.refresh': refreshView,
  'cloudbench.search.view.save': saveViewQuery,
  'cloudbench.search.saveQuery': saveQuery,
  'cloudbench.search.saveAsTestCase': saveResultsAsTestCase,
  ...PIVOT_COMMANDS,
};
