// What the parts of Search (query runs, pivots, "fetch the rest", export, the pages' messages) reach
// of the controller that holds them together.
import type { SecOpsClient } from '../../core/secops/client';
import type { ResultKind } from '../../core/secops/results/fields';
import type { ResolvedWindow, TimeRangeSpec } from '../../core/secops/timerange';
import type { QuotaCall, UdmSearchBudget } from './clients';
import type { SecOpsDocuments } from '../shared/documents';
import type { RunRecord, RunStore, ShownRows } from './run-store';

export interface SearchContext {
  readonly store: RunStore;
  readonly documents: SecOpsDocuments;
  getClient(): SecOpsClient;
  budget(): UdmSearchBudget | undefined;
  withQuota: QuotaCall;
  showRows(kind: ResultKind, title: string, rows: unknown[], extra?: ShownRows): RunRecord;
  runQuery(query: string, window: ResolvedWindow, limit: number): Promise<RunRecord | undefined>;
  /** A UDM search finished with results (for the query history). */
  /** A query run ended: what it found (when it did) and what it cost of the hourly budget. */
  recordRun(query: string, window: ResolvedWindow, outcome: RunOutcome): void;
  currentWindow(): ResolvedWindow;
  setTimeRange(spec: TimeRangeSpec): Promise<void>;
}

/** How a query run ended, for the run history. */
export interface RunOutcome {
  events?: number;
  /** udmSearch calls the hourly budget was charged for (the service answered them). */
  searches: number;
  failed?: boolean;
}
