// The rows of a query run shown while its answer arrives: the first rows as soon as they are parsed,
// later ones in batches (a 10,000-event answer is a few dozen messages, not 10,000), and, once the
// answer is complete, the final order (newest first) sent as a permutation of the rows the page
// already holds instead of the rows again. Until then the page says the answer is arriving.
import type { ToWebview } from '../../core/secops/messages';
import { timeField, type ColumnSpec } from '../../core/secops/results/fields';
import { columnKey, encodeTable, tableParts, type RowTable } from '../../core/secops/results/rowtable';
import { getLogger } from '../../platform/log';
import { HeldRows } from './held-rows';
import type { ResultsPanel } from './panel';
import {
  AFTER_PAINT_FALLBACK_MS,
  FIRST_PAINT_ROWS,
  arrange,
  type RunRecord,
  type RunStore,
  type TableSource,
} from './run-store';

const log = getLogger('search');

/**
 * Rows parsed after the first ones go to the page at most this often (each append costs the page a
 * layout and the editor window a relay: for a 51 MB answer, 4 appends instead of 7 saved the browser
 * about a sixth of its work, with the count still moving several times a second)...
 */
export const ARRIVAL_BATCH_MS = 120;
/** ...or at once when this many are waiting. */
export const ARRIVAL_BATCH_ROWS = 2_500;

/** Why an answer stopped before it was complete, as the page's summary says it. */
export interface PartialAnswer {
  cancelled: boolean;
  message: string;
}

export class RowsArrival {
  /** Rows posted to the page (the first `sent` of the run's rows). */
  private sent = 0;
  private appends = 0;
  private shown = false;
  private painted = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The last message, waiting for the page to paint the first rows. */
  private ending: (() => void) | undefined;
  private closed = false;
  private resolveEnd: (() => void) | undefined;
  /** A closed panel paints nothing: the run ends with it. */
  private readonly panelClosed: { dispose(): void };
  /** The events as the JSON text they came in (`run.rows` parses them when first read). */
  private readonly held: HeldRows;
  /**
   * The table of rows [partsFrom, count) for the columns of `partsKey`: each row's time and cells,
   * read as its batch arrived (rows before partsFrom were posted for columns since changed).
   */
  private partTimes: number[] = [];
  private partCells: string[][] = [];
  private partsFrom = 0;
  private partsKey: string | undefined;

  /**
   * The paths each event is read for while it arrives (see udm-pick.ts): the time and the cells of
   * the columns shown when the run started. Columns chosen later are read from the events' text.
   */
  readonly picks: readonly string[];
  private readonly pickedKey: string;

  constructor(
    private readonly store: RunStore,
    private readonly panel: ResultsPanel,
    readonly run: RunRecord,
  ) {
    this.panelClosed = panel.onDidDispose(() => this.close());
    const columns = this.columns();
    this.pickedKey = columns.map(columnKey).join('\n');
    const time = timeField(run.info.kind);
    this.picks = [...(time ? [time] : []), ...columns.flatMap((c) => [c.id, ...(c.fallbacks ?? [])])];
    this.held = new HeldRows(run.info.kind);
    this.held.attach(run);
  }

  /** Events handed over so far. */
  get count(): number {
    return this.held.count;
  }

  /** Whether the page was sent rows of this run (a failure from now on leaves them shown). */
  get isShown(): boolean {
    return this.shown;
  }

  /** The next events of the answer, in the order they arrived, with the JSON text of each. */
  add(events: readonly unknown[], texts: readonly string[]): void {
    if (this.closed || events.length === 0) return;
    this.held.add(events, texts);
    // Only the table's few fields are read now; the events themselves are not kept (see HeldRows).
    this.addPending(events);
    if (this.shown) this.schedule();
    else this.show();
  }

  private columns(): ColumnSpec[] {
    return this.panel.columnsFor(this.run.info.kind);
  }

  private addPending(events: readonly unknown[]): void {
    const columns = this.columns();
    const key = columns.map(columnKey).join('\n');
    if (key !== this.partsKey && this.partsKey !== undefined) {
      // The columns changed while the answer arrived: the rows not posted yet are read again for them.
      this.partsKey = key;
      this.partsFrom = this.sent;
      const rows = this.held.slice(this.sent);
      const parts = tableParts(rows, this.run.info.kind, columns, 0, rows.length, this.held.rowTimes.slice(this.sent));
      this.partTimes = Array.from(parts.times);
      this.partCells = parts.cells;
      return;
    }
    this.partsKey = key;
    // Events read for other columns than these are read again from their text.
    const rows = key === this.pickedKey ? events : this.held.slice(this.count - events.length);
    // The times were read as the rows were held: they are not read again for the table.
    const times = this.held.rowTimes.slice(this.count - events.length);
    const more = tableParts(rows, this.run.info.kind, columns, 0, rows.length, times);
    if (this.partCells.length === 0) this.partCells = columns.map(() => []);
    for (const t of more.times) this.partTimes.push(t);
    this.partCells.forEach((cells, c) => {
      for (const text of more.cells[c]) cells.push(text);
    });
  }

  /** Rows [from, to) as a table for the columns shown. */
  private tableOf(from: number, to: number): RowTable {
    const a = from - this.partsFrom;
    const b = to - this.partsFrom;
    return encodeTable(
      { times: Float64Array.from(this.partTimes.slice(a, b)), cells: this.partCells.map((c) => c.slice(a, b)) },
      this.columns(),
    );
  }

  /** The next `n` rows not posted yet, as a table (they count as posted from now on). */
  private takePending(n: number): RowTable {
    const table = this.tableOf(this.sent, this.sent + n);
    this.sent += n;
    return table;
  }

  /**
   * The table of the whole answer in its final order (`order`, see arrange), for the columns of
   * the moment, when every row was read for them as it arrived.
   */
  private finalTables(order: Uint32Array | undefined): TableSource | undefined {
    if (this.partsFrom !== 0 || this.partsKey !== this.columns().map(columnKey).join('\n')) return undefined;
    if (order) {
      const times = this.partTimes;
      this.partTimes = Array.from(order, (i) => times[i]);
      this.partCells = this.partCells.map((cells) => Array.from(order, (i) => cells[i]));
    }
    const key = this.partsKey;
    return {
      count: this.count,
      table: (columns, from, to) => (columns.map(columnKey).join('\n') === key ? this.tableOf(from, to) : undefined),
    };
  }

  private show(): void {
    this.shown = true;
    const { run, panel } = this;
    run.arriving = true;
    // When the service answered: its first events are here.
    run.info.ranAt = new Date().toISOString();
    this.store.remember(run);
    const first = Math.min(this.count, FIRST_PAINT_ROWS);
    const columns = this.columns();
    panel.post({
      type: 'results',
      run: run.info,
      columns,
      table: this.takePending(first),
      fields: [],
      moreDataAvailable: false,
      arriving: true,
    });
    // Later rows wait for the first ones to be on screen, so that no larger message delays them.
    panel.whenPainted(
      run.info.runId,
      () => {
        this.painted = true;
        if (this.ending) this.ending();
        else this.flush();
      },
      AFTER_PAINT_FALLBACK_MS,
    );
  }

  private schedule(): void {
    if (!this.painted) return;
    if (this.count - this.sent >= ARRIVAL_BATCH_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), ARRIVAL_BATCH_MS);
  }

  /** Posts the rows parsed since the last post. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { run, panel } = this;
    const total = this.count;
    if (this.closed || total <= this.sent || panel.runId !== run.info.runId) return;
    // Answers the page asked for about the rows come from the rows held, grown.
    if (run.store) run.store.setRows(run.rows);
    this.addPending([]);
    panel.post({ type: 'append', runId: run.info.runId, table: this.takePending(total - this.sent) });
    this.appends++;
  }

  /**
   * The answer is complete (or stopped short: `partial`). The rows take their final order; a
   * complete answer is kept for a window reload, a partial one is not (it would come back as if
   * it were the whole answer). Resolves once the page was sent the final order (after it painted
   * the first rows), or when the panel went on to another run.
   */
  finish(moreDataAvailable: boolean, partial?: PartialAnswer): Promise<void> {
    if (this.closed) return Promise.resolve();
    const { run, panel, store } = this;
    run.moreDataAvailable = partial ? false : moreDataAvailable;
    if (!this.shown || (!panel.isReady && !partial)) {
      // Nothing reached the page yet (no events, or it is still loading): the whole answer in its
      // final order replaces what waits for it, in the form a run that did not stream takes.
      this.close();
      run.arriving = false;
      const answered = Date.now();
      const order = arrange(run, this.held);
      this.held.settle(run);
      store.remember(run);
      run.store = undefined;
      const arranged = Date.now();
      store.post(panel, run, this.finalTables(order));
      logShown(this.count, arranged - answered, Date.now() - arranged);
      return Promise.resolve();
    }
    const end = (): void => {
      this.flush();
      this.close();
      if (panel.runId !== run.info.runId) return;
      const count = this.count;
      const started = Date.now();
      const order = arrange(run, this.held);
      this.held.settle(run);
      // The search texts of the rows held are by position: they are built again for the new order.
      run.store = undefined;
      run.arriving = false;
      if (partial) run.partial = partial.message;
      const arranged = Date.now();
      const message: ToWebview = {
        type: 'arrived',
        runId: run.info.runId,
        count,
        ...(order ? { order } : {}),
        moreDataAvailable: run.moreDataAvailable,
        ...(run.info.covered ? { covered: run.info.covered } : {}),
        ...(run.info.restSearches !== undefined ? { restSearches: run.info.restSearches } : {}),
        ...(partial ? { partial } : {}),
      };
      panel.post(message);
      if (!partial) store.keep(run);
      logShown(count, arranged - started, Date.now() - arranged);
      // npm run bench -- editor reads this line.
      log.info(
        `rest of the rows: ${count - Math.min(count, FIRST_PAINT_ROWS)} rows in ${this.appends} appends while the answer arrived`,
      );
    };
    const ended = new Promise<void>((resolve) => (this.resolveEnd = resolve));
    if (this.painted) end();
    else this.ending = end;
    return ended;
  }

  /** Stops posting: the panel shows another run, or the last message went. */
  close(): void {
    this.closed = true;
    this.ending = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.panelClosed.dispose();
    this.resolveEnd?.();
    this.resolveEnd = undefined;
  }
}

function logShown(count: number, arrangeMs: number, postMs: number): void {
  // Where the time between the answer and the panel goes (npm run bench -- editor reads this line).
  log.info(`udmSearch: ${count} events shown; arranged in ${arrangeMs} ms, posted in ${postMs} ms`);
}
