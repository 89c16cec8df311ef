// The rows of a query run shown while its answer arrives: the first rows as soon as they are parsed,
// later ones in batches (a 10,000-event answer is a few dozen messages, not 10,000), and, once the
// answer is complete, the final order (newest first) sent as a permutation of the rows the page
// already holds instead of the rows again. Until then the page says the answer is arriving.
import type { ToWebview } from '../../core/secops/messages';
import { getLogger } from '../../platform/log';
import type { ResultsPanel } from './panel';
import { AFTER_PAINT_FALLBACK_MS, FIRST_PAINT_ROWS, arrange, rowsOf, type RunRecord, type RunStore } from './run-store';

const log = getLogger('search');

/** Rows parsed after the first ones go to the page at most this often... */
export const ARRIVAL_BATCH_MS = 50;
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

  constructor(
    private readonly store: RunStore,
    private readonly panel: ResultsPanel,
    readonly run: RunRecord,
  ) {
    this.panelClosed = panel.onDidDispose(() => this.close());
  }

  /** Events handed over so far. */
  get count(): number {
    return this.run.rows.length;
  }

  /** Whether the page was sent rows of this run (a failure from now on leaves them shown). */
  get isShown(): boolean {
    return this.shown;
  }

  /** The next events of the answer, in the order they arrived. */
  add(events: readonly unknown[]): void {
    if (this.closed || events.length === 0) return;
    const rows = this.run.rows;
    for (const event of events) rows.push(event);
    if (this.shown) this.schedule();
    else this.show();
  }

  private show(): void {
    this.shown = true;
    const { run, panel } = this;
    run.arriving = true;
    // When the service answered: its first events are here.
    run.info.ranAt = new Date().toISOString();
    this.store.remember(run);
    const rows = rowsOf(run);
    const first = Math.min(run.rows.length, FIRST_PAINT_ROWS);
    const columns = panel.columnsFor(run.info.kind);
    panel.post({
      type: 'results',
      run: run.info,
      columns,
      table: rows.table(columns, 0, first),
      fields: [],
      moreDataAvailable: false,
      arriving: true,
    });
    this.sent = first;
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
    if (this.run.rows.length - this.sent >= ARRIVAL_BATCH_ROWS) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), ARRIVAL_BATCH_MS);
  }

  /** Posts the rows parsed since the last post. */
  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const { run, panel } = this;
    const total = run.rows.length;
    if (this.closed || total <= this.sent || panel.runId !== run.info.runId) return;
    const rows = rowsOf(run);
    // The same array, grown: the field list is found again, the search texts kept.
    rows.setRows(run.rows);
    const columns = panel.columnsFor(run.info.kind);
    panel.post({ type: 'append', runId: run.info.runId, table: rows.table(columns, this.sent, total) });
    this.sent = total;
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
      store.arrangeAndRemember(run);
      run.store = undefined;
      const arranged = Date.now();
      store.post(panel, run);
      logShown(run.rows.length, arranged - answered, Date.now() - arranged);
      return Promise.resolve();
    }
    const end = (): void => {
      this.flush();
      this.close();
      if (panel.runId !== run.info.runId) return;
      const count = run.rows.length;
      const started = Date.now();
      const order = arrange(run);
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
