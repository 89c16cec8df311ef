// A query run's rows while its answer arrives: the first batch goes to the page at once in the order
// it came, later ones wait for the first paint and then go in a few batches (not one message per
// event), and the end sends the page the permutation to newest first, after which the extension's
// rows are in the page's order. A partial answer is marked and never kept; an answer complete before
// the page loaded goes as one results message; a closed panel ends the run.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as ArrivalModule from '../../../src/features/search/arrival';
import type * as StoreModule from '../../../src/features/search/run-store';
import type { ToWebview } from '../../../src/core/secops/messages';
import type { RunRecord } from '../../../src/features/search/run-store';
import type { ResultsPanel } from '../../../src/features/search/panel';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { RowsArrival, ARRIVAL_BATCH_ROWS } = require('../../../src/features/search/arrival') as typeof ArrivalModule;
const { RunStore, FIRST_PAINT_ROWS } = require('../../../src/features/search/run-store') as typeof StoreModule;

const BASE = Date.parse('2026-01-01T00:00:00Z');
/** Events at scrambled times (a prime stride), so that arrival order and newest first differ. */
function events(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `events/${i}`,
    udm: { metadata: { eventTimestamp: new Date(BASE + ((i * 7919) % n) * 1000).toISOString() } },
  }));
}
const timeOf = (e: unknown): number =>
  Date.parse((e as { udm: { metadata: { eventTimestamp: string } } }).udm.metadata.eventTimestamp);

/** Hands events over as the stream does: each with the JSON text it was parsed from. */
function add(arrival: ArrivalModule.RowsArrival, given: unknown[]): void {
  arrival.add(
    given,
    given.map((e) => JSON.stringify(e)),
  );
}

class FakePanel {
  posted: ToWebview[] = [];
  ready = true;
  painted: (() => void) | undefined;
  private readonly closed = new vscode.EventEmitter();
  readonly onDidDispose = this.closed.event;
  runId: string | undefined;
  private waiting: Array<() => void> = [];
  get isReady(): boolean {
    return this.ready;
  }
  columns: Array<{ id: string; label: string }> = [{ id: 'udm.metadata.eventTimestamp', label: 'Time' }];
  columnsFor(): Array<{ id: string; label: string }> {
    return this.columns;
  }
  post(message: ToWebview): void {
    if (message.type === 'results') this.runId = message.run.runId;
    this.posted.push(message);
    for (const w of this.waiting.splice(0)) w();
  }
  whenPainted(_runId: string, send: () => void): void {
    this.painted = send;
  }
  close(): void {
    this.runId = undefined;
    this.closed.fire();
  }
  /** Resolves at the next message posted. */
  next(): Promise<void> {
    return new Promise((r) => this.waiting.push(r));
  }
  of<T extends ToWebview['type']>(type: T): Array<Extract<ToWebview, { type: T }>> {
    return this.posted.filter((m): m is Extract<ToWebview, { type: T }> => m.type === type);
  }
  /** The times of the rows as the page holds them: the tables as they came, in the order given last. */
  pageTimes(): number[] {
    const came = this.posted.flatMap((m) => (m.type === 'results' || m.type === 'append' ? [...m.table.times] : []));
    const order = this.of('arrived').at(-1)?.order;
    return order ? [...order].map((i) => came[i]) : came;
  }
}

function setup(): { store: StoreModule.RunStore; panel: FakePanel; run: RunRecord; kept: RunRecord[] } {
  const store = new RunStore(
    () => vscode.Uri.file('/ext'),
    {},
    () => undefined,
  );
  const kept: RunRecord[] = [];
  store.keep = (run: RunRecord) => kept.push(run);
  const run: RunRecord = {
    info: { runId: `run-${Math.random()}`, kind: 'udm', title: 'q' },
    slot: 'query',
    rows: [],
    moreDataAvailable: false,
  };
  return { store, panel: new FakePanel(), run, kept };
}

describe('rows while the answer arrives', () => {
  it('first batch at once in arrival order, the rest in a few batches after the paint, then newest first', async () => {
    const { store, panel, run, kept } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    const all = events(6000);
    add(arrival, all.slice(0, 30));
    const [results] = panel.of('results');
    assert.equal(results.arriving, true);
    assert.equal(results.table.count, 30);
    assert.deepEqual([...results.table.times], all.slice(0, 30).map(timeOf), 'in the order they came');
    assert.equal(run.arriving, true);
    assert.equal(store.get(run.info.runId), run, 'the page can ask about the rows already');

    // Before the page painted, the rows that come wait.
    for (let i = 30; i < 3000; i += 10) add(arrival, all.slice(i, i + 10));
    assert.equal(panel.posted.length, 1);
    panel.painted!();
    assert.equal(panel.of('append').length, 1);
    assert.equal(panel.of('append')[0].table.count, 2970);

    // After it, small pieces are gathered into a batch.
    for (let i = 3000; i < 3100; i += 10) add(arrival, all.slice(i, i + 10));
    assert.equal(panel.of('append').length, 1, 'not one message per piece');
    await panel.next();
    assert.equal(panel.of('append').length, 2);
    assert.equal(panel.of('append')[1].table.count, 100);
    // Many rows at once go without waiting.
    add(arrival, all.slice(3100, 3100 + ARRIVAL_BATCH_ROWS));
    assert.equal(panel.of('append').length, 3);
    add(arrival, all.slice(3100 + ARRIVAL_BATCH_ROWS));

    await arrival.finish(true);
    const [arrived] = panel.of('arrived');
    assert.equal(arrived.count, 6000);
    assert.ok(arrived.order, 'the order changed');
    assert.equal(arrived.partial, undefined);
    assert.equal(arrived.moreDataAvailable, true);
    const times = panel.pageTimes();
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.deepEqual(run.rows.map(timeOf), times, "the extension's rows are in the page's order");
    assert.equal(run.arriving, false);
    assert.deepEqual(kept, [run], 'a whole answer is kept for a reload');
    assert.ok(panel.posted.length <= 6, `${panel.posted.length} messages`);
  });

  it('a first batch larger than a screen sends only the first rows, the rest after the paint', () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    add(arrival, events(FIRST_PAINT_ROWS + 25));
    assert.equal(panel.of('results')[0].table.count, FIRST_PAINT_ROWS);
    panel.painted!();
    assert.equal(panel.of('append')[0].table.count, 25);
  });

  it('the end waits for the first paint, so the order never arrives before the rows it orders', async () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    add(arrival, events(500));
    const ended = arrival.finish(false);
    assert.deepEqual(
      panel.posted.map((m) => m.type),
      ['results'],
    );
    panel.painted!();
    await ended;
    assert.deepEqual(
      panel.posted.map((m) => m.type),
      ['results', 'append', 'arrived'],
    );
    assert.equal(panel.pageTimes().length, 500);
  });

  it('a partial answer (cancelled) says so, stays shown in its final order, and is never kept', async () => {
    const { store, panel, run, kept } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    panel.ready = true;
    add(arrival, events(40));
    panel.painted!();
    await arrival.finish(true, { cancelled: true, message: 'Cancelled after 40 events had arrived' });
    const [arrived] = panel.of('arrived');
    assert.deepEqual(arrived.partial, { cancelled: true, message: 'Cancelled after 40 events had arrived' });
    assert.equal(arrived.moreDataAvailable, false, 'no "fetch the rest" for a part of an answer');
    assert.equal(run.partial, 'Cancelled after 40 events had arrived');
    assert.deepEqual(kept, []);
    const times = panel.pageTimes();
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  it('an answer complete before the page loaded goes as one results message, newest first', async () => {
    const { store, panel, run, kept } = setup();
    panel.ready = false;
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    add(arrival, events(120));
    await arrival.finish(false);
    const results = panel.of('results');
    assert.equal(results.length, 2);
    assert.equal(results[1].arriving, undefined);
    assert.equal(results[1].table.count, 120);
    assert.equal(results[1].fields.length > 0, true, 'all the rows: their fields come along');
    const times = [...results[1].table.times];
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
    assert.deepEqual(kept, [run]);
  });

  it('an answer with no events shows the empty table', async () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    await arrival.finish(false);
    assert.deepEqual(
      panel.posted.map((m) => m.type),
      ['results'],
    );
    assert.equal(panel.of('results')[0].table.count, 0);
  });

  it('rows not posted when the columns change are read again for the new columns', async () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    const all = events(30);
    add(arrival, all.slice(0, 10));
    add(arrival, all.slice(10, 20));
    panel.columns = [...panel.columns, { id: 'name', label: 'Name' }];
    add(arrival, all.slice(20));
    panel.painted!();
    const [append] = panel.of('append');
    assert.deepEqual(
      append.table.columns.map((c) => c.id),
      ['udm.metadata.eventTimestamp', 'name'],
    );
    assert.equal(append.table.count, 20);
    const cells = JSON.parse(new TextDecoder().decode(append.table.cells)) as string[][];
    assert.deepEqual(
      cells[1],
      all.slice(10).map((e) => (e as { name: string }).name),
    );
    await arrival.finish(false);
    assert.equal(run.rows.length, 30);
  });

  it('events read for the columns shown at the start are read again from their text for columns chosen since', () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    assert.deepEqual(arrival.picks, ['udm.metadata.eventTimestamp', 'udm.metadata.eventTimestamp']);
    const all = events(5);
    // What the stream hands over: skeletons of the paths asked for, and each event's whole text.
    const skeletons = all.map((e) => ({ udm: (e as { udm: unknown }).udm }));
    panel.columns = [...panel.columns, { id: 'name', label: 'Name' }];
    arrival.add(
      skeletons,
      all.map((e) => JSON.stringify(e)),
    );
    const [results] = panel.of('results');
    const cells = JSON.parse(new TextDecoder().decode(results.table.cells)) as string[][];
    assert.deepEqual(
      cells[1],
      all.map((e) => (e as { name: string }).name),
    );
    assert.deepEqual(run.rows, all, 'the rows are the whole events');
  });

  it('a panel closed while the end waits for its paint ends the run instead of leaving it waiting', async () => {
    const { store, panel, run } = setup();
    const arrival = new RowsArrival(store, panel as unknown as ResultsPanel, run);
    add(arrival, events(10));
    const ended = arrival.finish(false);
    panel.close();
    await ended;
    assert.deepEqual(
      panel.posted.map((m) => m.type),
      ['results'],
    );
  });
});
