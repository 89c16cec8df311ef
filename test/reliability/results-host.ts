// The extension's side of the results page, for browser tests: the messages the search controller
// posts (a compact table of the first rows, then the rest) and its answers to the page's rows.*
// requests, computed in Node by the same code the extension host runs (ResultRows).
import type { Page } from 'playwright-core';
import type { ToWebview } from '../../src/core/secops/messages';
import { defaultColumns, type ColumnSpec, type ResultKind } from '../../src/core/secops/results/fields';
import { ResultRows, answerRowsRequest, isRowsRequest } from '../../src/core/secops/results/rowtable';
import { parseFromWebview } from '../../src/core/secops/messages';
import { arrangeRows } from '../../src/core/secops/results/arrange';

export interface HostRun {
  runId: string;
  kind: ResultKind;
  title: string;
  [key: string]: unknown;
}

export class ResultsHost {
  private readonly runs = new Map<string, ResultRows>();
  /** The rows.* requests the page made, in order. */
  readonly requests: string[] = [];

  /**
   * Answers the page's rows.* requests from Node. Call before the page loads and after the init
   * script that defines acquireVsCodeApi: this wraps its postMessage.
   */
  static async attach(page: Page): Promise<ResultsHost> {
    const host = new ResultsHost();
    await page.exposeFunction('__rowsHost', (raw: unknown) => host.answer(raw));
    await page.addInitScript(`
      (() => {
        const original = window.acquireVsCodeApi;
        window.acquireVsCodeApi = () => {
          const api = original();
          return {
            getState: () => api.getState(),
            setState: (s) => api.setState(s),
            postMessage: (m) => {
              api.postMessage(m);
              if (m && typeof m.type === 'string' && m.type.startsWith('rows.'))
                window.__rowsHost(m).then((reply) => reply && window.postMessage(reply, '*'));
            },
          };
        };
      })();
    `);
    return host;
  }

  /** Filters whose answers are held back (see holdFilters), each released by its function. */
  private heldFilters: Array<() => void> | undefined;
  private droppingFilters = false;

  /**
   * Holds back the answers to the page's filters until the function returned is called (then they
   * go, in order, and later ones are answered at once); `lose` never answers them at all, as an
   * answer lost on the way.
   */
  holdFilters(lose = false): () => void {
    this.heldFilters = [];
    this.droppingFilters = lose;
    return () => {
      const held = this.heldFilters ?? [];
      this.heldFilters = undefined;
      this.droppingFilters = false;
      for (const release of held) release();
    };
  }

  /** The extension's answer to a message from the page (undefined: not a rows.* request). */
  answer(raw: unknown): ToWebview | undefined | Promise<ToWebview | undefined> {
    const message = parseFromWebview(raw);
    if (!isRowsRequest(message)) return undefined;
    this.requests.push(message.type);
    const reply = answerRowsRequest(this.runs.get(message.runId), message);
    if (message.type !== 'rows.filter' || !this.heldFilters) return reply;
    if (this.droppingFilters) return new Promise<undefined>(() => {});
    const held = this.heldFilters;
    return new Promise((resolve) => held.push(() => resolve(reply)));
  }

  /**
   * What the controller posts for a run: the results with the first `first` rows, then each chunk
   * of `appends` (the rest after the first paint, or "fetch the rest" windows).
   */
  messages(
    run: HostRun,
    rows: unknown[],
    appends: unknown[][] = [],
    extra: { moreDataAvailable?: boolean; columns?: ColumnSpec[]; first?: number } = {},
  ): ToWebview[] {
    const columns = extra.columns ?? defaultColumns(run.kind);
    const store = new ResultRows(run.kind, rows);
    this.runs.set(run.runId, store);
    const first = Math.min(rows.length, extra.first ?? rows.length);
    const out: ToWebview[] = [
      {
        type: 'results',
        run: run,
        columns,
        table: store.table(columns, 0, first),
        fields: first === rows.length && appends.length === 0 ? store.fields() : [],
        moreDataAvailable: extra.moreDataAvailable ?? false,
        ...(first < rows.length ? { total: rows.length } : {}),
      },
    ];
    if (first < rows.length) out.push({ type: 'append', runId: run.runId, table: store.table(columns, first) });
    let all = rows;
    for (const chunk of appends) {
      const from = all.length;
      all = all.concat(chunk);
      store.setRows(all);
      out.push({ type: 'append', runId: run.runId, table: store.table(columns, from) });
    }
    return out;
  }

  /**
   * What the controller posts while an answer arrives: the first batch as results (arriving), each
   * later batch as an append; the extension's rows grow in arrival order.
   */
  arriving(run: HostRun, batches: unknown[][], columns: ColumnSpec[] = defaultColumns(run.kind)): ToWebview[] {
    const rows: unknown[] = [];
    const store = new ResultRows(run.kind, rows);
    this.runs.set(run.runId, store);
    return batches.map((batch, i) => {
      const from = rows.length;
      rows.push(...batch);
      store.setRows(rows);
      return i === 0
        ? {
            type: 'results',
            run,
            columns,
            table: store.table(columns, 0, rows.length),
            fields: [],
            moreDataAvailable: false,
            arriving: true,
          }
        : { type: 'append', runId: run.runId, table: store.table(columns, from) };
    });
  }

  /** The end of an arriving answer: the extension's rows take their final order, the page is told how. */
  arrived(
    run: HostRun,
    extra: { partial?: { cancelled: boolean; message: string }; moreDataAvailable?: boolean } = {},
  ): ToWebview {
    const held = this.runs.get(run.runId)!;
    const arranged = arrangeRows(run.kind, [...held.rows], { moreDataAvailable: false });
    this.runs.set(run.runId, new ResultRows(run.kind, arranged.rows));
    return {
      type: 'arrived',
      runId: run.runId,
      count: arranged.rows.length,
      ...(arranged.order ? { order: arranged.order } : {}),
      moreDataAvailable: extra.moreDataAvailable ?? false,
      ...(extra.partial ? { partial: extra.partial } : {}),
    };
  }
}
