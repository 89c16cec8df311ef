// The events of an answer read while it arrives are held as the JSON text they came in, and parsed
// again the first time something needs whole events (the detail pane, the quick filter, export, the
// copy kept for a reload). The table the page shows needs only a few fields of each event, read as
// each batch arrives; holding 10,000 parsed events of several KB from the moment they arrive would
// cost the extension host about as much garbage-collector copying again as the parse itself, while
// the page is still waiting for the last rows.
import { JsonText } from '../../core/json-pieces';
import { timeField, timeReader, type ResultKind } from '../../core/secops/results/fields';
import type { RunRecord } from './run-store';

/** The held rows a run's `rows` read from (see HeldRows.attach). */
const heldOf = new WeakMap<RunRecord, HeldRows>();

/**
 * The run's rows as they are written to disk for a reload: rows still held as the text they came in
 * are written as that text, so that keeping a run parses and serializes nothing again.
 */
export function rowsToKeep(run: RunRecord): readonly unknown[] {
  return heldOf.get(run)?.toKeep() ?? run.rows;
}

export class HeldRows {
  private texts: string[] = [];
  private parsed: unknown[] = [];
  /** Each row's time as the final order reads it (see timesOf), in the order the rows are held. */
  private times: number[] = [];
  private readonly time: ((row: unknown) => number) | undefined;
  /** The run whose `rows` read from here, once the answer is complete (see settle). */
  private settledRun: RunRecord | undefined;

  constructor(kind: ResultKind) {
    const path = timeField(kind);
    this.time = path ? timeReader(path) : undefined;
  }

  get count(): number {
    return Math.max(this.texts.length, this.parsed.length);
  }

  /** The next events and their JSON text (the events are not kept). */
  add(events: readonly unknown[], texts: readonly string[]): void {
    if (events.length !== texts.length) throw new Error('each event needs its text');
    for (const t of texts) this.texts.push(t);
    const time = this.time;
    for (const e of events) this.times.push(time ? time(e) : Number.NaN);
  }

  /** The rows' times, in the order held. */
  get rowTimes(): readonly number[] {
    return this.times;
  }

  /** The events of rows [from, to), parsed for the occasion when not parsed yet (not kept). */
  slice(from: number, to = this.texts.length): unknown[] {
    const out: unknown[] = [];
    for (let i = from; i < to; i++) out.push(i < this.parsed.length ? this.parsed[i] : JSON.parse(this.texts[i]));
    return out;
  }

  /** Every event, parsed as far as not done before (the same array each time, grown). */
  events(): unknown[] {
    const { texts, parsed } = this;
    while (parsed.length < texts.length) parsed.push(JSON.parse(texts[parsed.length]));
    const run = this.settledRun;
    if (run) {
      // All parsed and no more to come: the run holds the events themselves, and the text goes.
      this.settledRun = undefined;
      this.texts = [];
      run.rows = parsed;
    }
    return parsed;
  }

  /** Each row as its text while every row still has it (in the order held), else each event. */
  toKeep(): readonly unknown[] {
    const { texts, parsed } = this;
    if (parsed.length === texts.length || texts.length !== this.times.length) return this.events();
    return texts.map((t) => new JsonText(t));
  }

  /** No more rows will come, nor another order: once parsed, the events need no text. */
  settle(run: RunRecord): void {
    this.settledRun = run;
  }

  /** Row i becomes the row held at order[i]. */
  reorder(order: Uint32Array): void {
    if (order.length !== this.texts.length) throw new Error('the order does not cover the rows held');
    const { texts, times, parsed } = this;
    this.texts = Array.from(order, (i) => texts[i]);
    this.times = Array.from(order, (i) => times[i]);
    this.parsed = parsed.length === texts.length ? Array.from(order, (i) => parsed[i]) : [];
  }

  /**
   * Makes `run.rows` read the events from here, parsing them on first read. Assigning `run.rows`
   * (a run whose rows are replaced, say by "fetch the rest") makes it a plain array again.
   */
  attach(run: RunRecord): void {
    heldOf.set(run, this);
    Object.defineProperty(run, 'rows', {
      configurable: true,
      enumerable: true,
      get: () => this.events(),
      set: (rows: unknown[]) => {
        heldOf.delete(run);
        Object.defineProperty(run, 'rows', { configurable: true, enumerable: true, writable: true, value: rows });
      },
    });
  }
}
