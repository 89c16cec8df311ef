// The quick filter's search texts of a run's rows are made ahead in slices, between other work:
// all of them while the run is wanted, none more once it is not, and the filter's answers are the
// ones it gives when it makes them itself.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import { ResultRows } from '../../../src/core/secops/results/rowtable';
import type * as PrepModule from '../../../src/features/search/filter-prep';
import type { ResultsPanel } from '../../../src/features/search/panel';
import type { RunRecord } from '../../../src/features/search/run-store';

useFakeVscode();
const prep = require('../../../src/features/search/filter-prep') as typeof PrepModule;

const rows = Array.from({ length: 3_000 }, (_, i) => ({
  name: `events/${i}`,
  udm: { metadata: { eventType: i % 3 ? 'NETWORK_DNS' : 'USER_LOGIN' }, principal: { hostname: `host-${i % 7}` } },
}));
const columns = [{ id: 'udm.metadata.eventType', label: 'Event type' }];

describe('quick filter made ahead', () => {
  it('makes every row’s search text in slices, leaving the event loop free between them', async () => {
    const store = new ResultRows('udm', rows);
    let turns = 0;
    const ticking = setInterval(() => turns++, 1);
    const started = Date.now();
    await new Promise<void>((done) => prep.prepareFilterAhead(store, () => true, done));
    clearInterval(ticking);
    // Nothing is left to make, and the event loop ran between the slices.
    assert.equal(store.prepareFilter(0), true);
    assert.ok(turns > 0, `no timer ran in ${Date.now() - started} ms`);
    const fresh = new ResultRows('udm', rows);
    for (const filter of ['host-3 login', 'udm.principal.hostname:host-5', '-network_dns'])
      assert.deepEqual(store.filter(filter, columns), fresh.filter(filter, columns), filter);
  });

  it('stops as soon as the run is no longer wanted (another run shown, the panel closed)', async () => {
    const many = Array.from({ length: 40 }, () => rows).flat();
    const store = new ResultRows('udm', many);
    let asked = 0;
    prep.prepareFilterAhead(store, () => ++asked < 3);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(asked, 3);
    // Two slices of at most ~12 ms each cannot make 120,000 texts.
    assert.equal(store.prepareFilter(0), false);
  });

  it('runs once per rows at a time', async () => {
    const store = new ResultRows('udm', rows);
    let asked = 0;
    const wanted = (): boolean => {
      asked++;
      return true;
    };
    const done = new Promise<void>((r) => prep.prepareFilterAhead(store, wanted, r));
    prep.prepareFilterAhead(store, wanted, () => assert.fail('a second preparation of the same rows ran'));
    await done;
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(asked >= 1);
  });
});

describe('which runs have their filter made ahead', () => {
  const runOf = (n: number): RunRecord => ({
    info: { runId: 'r', kind: 'udm', title: 'q' },
    slot: 'query',
    rows: Array.from({ length: n }, (_, i) => rows[i % rows.length]),
    moreDataAvailable: false,
  });

  it('a table of more rows than one answer (fetch the rest), while its panel shows it', async () => {
    const shown = { runId: 'r' } as ResultsPanel;
    const small = runOf(prep.FILTER_AHEAD_MIN_ROWS - 1);
    const large = runOf(prep.FILTER_AHEAD_MIN_ROWS);
    const elsewhere = runOf(prep.FILTER_AHEAD_MIN_ROWS);
    prep.prepareRunFilter(small, shown);
    prep.prepareRunFilter(large, shown);
    prep.prepareRunFilter(elsewhere, { runId: 'another run' } as ResultsPanel);
    await new Promise((r) => setTimeout(r, 2_000));
    // One answer's rows wait for the first filter; the large table is done; another panel's run is not.
    assert.equal(small.store, undefined);
    assert.equal(large.store?.prepareFilter(0), true);
    assert.equal(elsewhere.store?.prepareFilter(0), false);
  });
});

describe('a filter asked before the texts are all made', () => {
  // More rows than one slice of work makes on any machine.
  const many = Array.from({ length: 200_000 }, (_, i) => rows[i % rows.length]);

  it('waits for the rest, made in slices with the event loop running between them', async () => {
    const store = new ResultRows('udm', many);
    let turns = 0;
    let stopTicking = false;
    const tick = (): void => {
      turns++;
      if (!stopTicking) setImmediate(tick);
    };
    setImmediate(tick);
    assert.equal(await prep.filterWhenReady(store, () => true), true);
    stopTicking = true;
    assert.equal(store.prepareFilter(0), true);
    assert.ok(turns > 1, `the event loop ran ${turns} times while 200,000 texts were made`);
    assert.deepEqual(
      store.filter('host-3', columns).indices,
      new ResultRows('udm', many).filter('host-3', columns).indices,
    );
  });

  it('gives up when the run is no longer shown, and answers at once for one answer’s rows', async () => {
    const store = new ResultRows('udm', many);
    assert.equal(await prep.filterWhenReady(store, () => false), false);
    assert.equal(store.prepareFilter(0), false);
    const small = new ResultRows('udm', rows);
    assert.equal(await prep.filterWhenReady(small, () => false), true);
  });
});
