// The quick filter's search texts of a run's rows are made ahead in slices, between other work:
// all of them while the run is wanted, none more once it is not, and the filter's answers are the
// ones it gives when it makes them itself.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import { ResultRows } from '../../../src/core/secops/results/rowtable';
import type * as PrepModule from '../../../src/features/search/filter-prep';

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
