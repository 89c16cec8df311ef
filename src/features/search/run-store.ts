// The runs that open results panels show, the panels themselves, and how a run's rows reach its
// page and the disk. Only what a panel shows is held: every other run's events are let go.
import type * as vscode from 'vscode';
import { randomUUID } from 'node:crypto';
import { StreamedJson } from '../../core/json-pieces';
import type { AssetIndicator } from '../../core/secops/client';
import type { FromWebview, RunInfo, ToWebview } from '../../core/secops/messages';
import { arrangeRows, arrangeTimes, type ArrangedOrder } from '../../core/secops/results/arrange';
import { timeField, type ColumnSpec, type ResultKind } from '../../core/secops/results/fields';
import type { PivotAction } from '../../core/secops/results/pivots';
import { ResultRows, columnKey, type RowTable } from '../../core/secops/results/rowtable';
import type { RestPlan } from '../../core/secops/split';
import type { ResolvedWindow } from '../../core/secops/timerange';
import { getLogger } from '../../platform/log';
import { rowsToKeep, type HeldRows } from './held-rows';
import { keepLater, keptInfo, type KeptResults, type SearchKeeping } from '../shared/keeping';
import { ResultsPanels, type PanelSlot, type ResultsPanel } from './panel';

const log = getLogger('search');

/**
 * The first message carries only what fills the screen, so rows paint before the page has decoded
 * the rest; the rest follows in one message once the page says those rows are painted (or after
 * AFTER_PAINT_FALLBACK_MS), so that its size holds up nothing before the first paint. Both carry a
 * RowTable (times and the shown columns' text); the events stay here and the page asks for them.
 */
export const FIRST_PAINT_ROWS = 200;
export const AFTER_PAINT_FALLBACK_MS = 1_500;
/** A run is written to disk once its rest has reached the page (see keepLater). */
const KEEP_DELAY_MS = AFTER_PAINT_FALLBACK_MS + 500;

export interface RunRecord {
  info: RunInfo;
  slot: PanelSlot;
  rows: unknown[];
  moreDataAvailable: boolean;
  query?: string;
  limit?: number;
  window?: ResolvedWindow;
  /** The asset of an "events for asset" pivot, to ask again over smaller windows. */
  asset?: AssetIndicator;
  /** What "fetch the rest" will ask for, planned from the cut answer. */
  rest?: RestPlan;
  /** Set while "fetch the rest" runs. */
  fetch?: AbortController;
  /** The rows as the results page's questions are answered from them (in the order the page holds them). */
  store?: ResultRows;
  /** The answer is still arriving: `rows` grows in the order the events came. */
  arriving?: boolean;
  /** The answer stopped before it was complete (cancelled, broken off): why. Never kept. */
  partial?: string;
}

/** What a panel of rows from a pivot (or an IoC listing) says besides its rows. */
export interface ShownRows {
  uri?: string[];
  window?: ResolvedWindow;
  moreDataAvailable?: boolean;
  asset?: AssetIndicator;
  source?: string;
  slot?: PanelSlot;
  pivot?: { action: PivotAction; value: string };
}

/** The rows of a run as the page's questions are answered from them. */
export function rowsOf(run: RunRecord): ResultRows {
  if (!run.store) run.store = new ResultRows(run.info.kind, run.rows);
  else if (run.store.rows !== run.rows) run.store.setRows(run.rows);
  return run.store;
}

/**
 * Newest rows first; for an answer cut at its limit, the part it covers and the rest's plan.
 * Returns where each row came from when the order changed (see ArrangedRows.order).
 */
export function arrange(run: RunRecord, held?: HeldRows): Uint32Array | undefined {
  let arranged: ArrangedOrder;
  if (held) {
    // Rows held as text are reordered as they are, by the times read when they arrived.
    arranged = timeField(run.info.kind) ? arrangeTimes(held.rowTimes, run) : {};
    if (arranged.order) held.reorder(arranged.order);
  } else {
    const rows = arrangeRows(run.info.kind, run.rows, run);
    run.rows = rows.rows;
    arranged = rows;
  }
  if (arranged.rest) run.rest = arranged.rest;
  if (arranged.covered) run.info.covered = arranged.covered;
  if (arranged.restSearches !== undefined) run.info.restSearches = arranged.restSearches;
  return arranged.order;
}

const columnsKey = (columns: readonly ColumnSpec[]): string => columns.map(columnKey).join('\n');

/** Tables of a run's rows built before they are posted (undefined for columns it was not built for). */
export interface TableSource {
  count: number;
  table(columns: readonly ColumnSpec[], from: number, to: number): RowTable | undefined;
}

export function postResults(panel: ResultsPanel, run: RunRecord, source?: TableSource): void {
  const { runId, kind } = run.info;
  const total = source ? source.count : rowsOf(run).rows.length;
  const tableOf = (columns: readonly ColumnSpec[], from: number, to: number): RowTable =>
    source?.table(columns, from, to) ?? rowsOf(run).table(columns, from, to);
  const first = Math.min(total, FIRST_PAINT_ROWS);
  const columns = panel.columnsFor(kind);
  const message: ToWebview = {
    type: 'results',
    run: run.info,
    columns,
    table: tableOf(columns, 0, first),
    fields: first === total ? rowsOf(run).fields() : [],
    moreDataAvailable: run.moreDataAvailable,
    ...(first < total ? { total } : {}),
  };
  if (first === total) {
    panel.post(message);
    return;
  }
  // The table of the rest is built while the page paints the first rows (once VS Code has handed
  // them over, so that the work delays nothing on their way), and posted when the page says so.
  const build = (): { key: string; table: RowTable; ms: number } => {
    const started = Date.now();
    const shown = panel.columnsFor(kind);
    return { key: columnsKey(shown), table: tableOf(shown, first, total), ms: Date.now() - started };
  };
  let built: ReturnType<typeof build> | undefined;
  let sent = false;
  panel.post(message, () => {
    if (!sent && panel.runId === runId) built = build();
  });
  panel.whenPainted(
    runId,
    () => {
      const painted = Date.now();
      const early = built?.key === columnsKey(panel.columnsFor(kind)) ? built : undefined;
      const rest = early ?? build();
      built = undefined;
      sent = true;
      panel.post({ type: 'append', runId, table: rest.table });
      // npm run bench -- editor reads this line.
      log.info(
        `rest of the rows: ${rest.table.count} rows, ${rest.table.cells.byteLength} bytes of cells, built in ${rest.ms} ms ${early ? 'while the first rows painted' : 'after they painted'}; posted ${Date.now() - painted} ms after the page painted them`,
      );
    },
    AFTER_PAINT_FALLBACK_MS,
  );
}

export class RunStore {
  /** The runs open panels show (see letGoOfHiddenRuns), by run ID. */
  private readonly runs = new Map<string, RunRecord>();
  private readonly watchedPanels = new WeakSet<ResultsPanel>();
  /** Writes to disk not yet made, by run ID: a run let go drops its write (and its rows) at once. */
  private readonly pendingKeeps = new Map<string, { cancel(): void }>();

  constructor(
    /** Read when a panel opens: the services may be filled in after this store is made. */
    private readonly extensionUri: () => vscode.Uri,
    private readonly keeping: SearchKeeping,
    private readonly onMessage: (message: FromWebview, panel: ResultsPanel) => void,
  ) {}

  /** The results and pivot panels open in this window. */
  readonly panels = new ResultsPanels();

  get(runId: string): RunRecord | undefined {
    return this.runs.get(runId);
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** Stops every "fetch the rest" still running in `slot` (all of them without a slot). */
  stopFetches(slot?: PanelSlot): void {
    for (const run of this.runs.values()) if (slot === undefined || run.slot === slot) run.fetch?.abort();
  }

  remember(run: RunRecord): void {
    // A panel shows one run at a time: a "fetch the rest" still filling the old one would only
    // spend the search budget on rows nobody sees.
    this.stopFetches(run.slot);
    this.runs.set(run.info.runId, run);
    this.letGoOfHiddenRuns(run);
  }

  /**
   * Only the runs that open panels show can be exported, completed or asked about: every other run's
   * events (10,000 of them are tens of MB) are let go, the run a panel showed before `current`
   * replaced it in the same slot included. A closed panel calls this with no current run.
   */
  private letGoOfHiddenRuns(current?: RunRecord): void {
    const shown = new Map(this.panels.values().map((p) => [p.runId, p.slot]));
    for (const [runId, old] of this.runs) {
      if (runId === current?.info.runId) continue;
      if (shown.has(runId) && old.slot !== current?.slot) continue;
      old.fetch?.abort();
      this.pendingKeeps.get(runId)?.cancel();
      this.pendingKeeps.delete(runId);
      this.runs.delete(runId);
    }
  }

  /** Writes a run to disk for a window reload (after its rows reached the page). */
  keep(run: RunRecord): void {
    // Only a whole answer: a partial one would come back after a reload as if it were complete.
    if (run.arriving || run.partial !== undefined) return;
    const pending = keepLater(
      this.keeping.runs,
      run.info.runId,
      (): StreamedJson | undefined => {
        if (!this.runs.has(run.info.runId)) return undefined;
        const kept: KeptResults = {
          version: 1,
          panel: 'results',
          info: keptInfo(run.info),
          // Rows still held as the text they came in are written as that text (see rowsToKeep).
          rows: rowsToKeep(run) as unknown[],
          moreDataAvailable: run.moreDataAvailable,
          ...(run.query !== undefined ? { query: run.query } : {}),
          ...(run.limit !== undefined ? { limit: run.limit } : {}),
          ...(run.window ? { window: run.window } : {}),
        };
        return new StreamedJson(kept as unknown as Record<string, unknown>, 'rows');
      },
      KEEP_DELAY_MS,
    );
    this.pendingKeeps.set(run.info.runId, pending);
    setTimeout(() => this.pendingKeeps.delete(run.info.runId), KEEP_DELAY_MS + 1);
  }

  panel(slot: PanelSlot): ResultsPanel {
    return this.watched(this.panels.show(slot, this.extensionUri(), this.onMessage));
  }

  /** Hands a panel VS Code restored after a reload to this store. */
  adopt(slot: PanelSlot, webviewPanel: vscode.WebviewPanel): ResultsPanel {
    return this.watched(this.panels.adopt(slot, webviewPanel, this.extensionUri(), this.onMessage));
  }

  /** A panel's run is let go when the panel closes. */
  private watched(panel: ResultsPanel): ResultsPanel {
    if (!this.watchedPanels.has(panel)) {
      this.watchedPanels.add(panel);
      const closed = panel.onDidDispose(() => {
        closed.dispose();
        this.watchedPanels.delete(panel);
        this.letGoOfHiddenRuns();
      });
    }
    return panel;
  }

  /** Shows rows from a pivot (or an IoC listing) in a panel of its own. */
  show(kind: ResultKind, title: string, rows: unknown[], extra: ShownRows = {}): RunRecord {
    const run: RunRecord = {
      info: {
        runId: randomUUID(),
        kind,
        title,
        ...(extra.window ? { startTime: extra.window.start, endTime: extra.window.end } : {}),
        ...(extra.uri?.length ? { uri: extra.uri } : {}),
        ...(extra.source ? { source: extra.source } : {}),
        ...(extra.pivot ? { pivot: extra.pivot } : {}),
        ranAt: new Date().toISOString(),
      },
      slot: extra.slot ?? this.panels.nextPivotSlot(),
      rows,
      moreDataAvailable: extra.moreDataAvailable ?? false,
      limit: 10_000,
      ...(extra.window ? { window: extra.window } : {}),
      ...(extra.asset ? { asset: extra.asset } : {}),
    };
    this.arrangeAndRemember(run);
    const panel = this.panel(run.slot);
    panel.setTitle(extra.source ? `${title} · ${extra.source}` : title);
    this.post(panel, run);
    return run;
  }

  /** Newest first, with the rest's plan, and held as what its slot's panel shows. */
  arrangeAndRemember(run: RunRecord): void {
    arrange(run);
    this.remember(run);
  }

  /** Sends a held run to its panel, and keeps it for a reload once its rows are there. */
  post(panel: ResultsPanel, run: RunRecord, source?: TableSource): void {
    postResults(panel, run, source);
    this.keep(run);
  }
}
