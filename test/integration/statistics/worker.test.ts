// The statistics table computes in a worker thread: the same table as the engine on the main
// thread, the main thread free while it computes, and Cancel or the time limit end the worker.
import assert from 'node:assert/strict';
import { CancelledError } from '../../../src/core/google/errors';
import { ComputeTimeoutError, StatsWorkerFeed } from '../../../src/features/statistics/compute';
import { EVENTS_PER_SLICE } from '../../../src/features/statistics/compute-protocol';
import { compileStatistics } from '../../../src/udm/stats';
import { computeTableOffThread, statsWorkerPath } from '../../reliability/stats-worker-host';

const QUERY = `metadata.event_type = "USER_LOGIN"
$h = principal.hostname
match:
  $h
outcome:
  $n = count(metadata.id)
  $users = count_distinct(principal.user.userid)
order:
  $n desc`;

function events(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    metadata: { id: `e${i}`, eventType: 'USER_LOGIN', eventTimestamp: new Date(1.7e12 + i * 1000).toISOString() },
    principal: { hostname: `host-${i % 7}`, user: { userid: `u${i % 13}` } },
  }));
}

describe('statistics computed in a worker thread', function () {
  this.timeout(60_000);
  let workerFile: string;
  before(() => {
    workerFile = statsWorkerPath();
  });

  it('gives the table the engine gives on the main thread', async () => {
    const evs = events(700);
    const here = compileStatistics(QUERY)!.engine.run(evs, { timeZone: 'UTC' });
    const there = await computeTableOffThread(workerFile, QUERY, evs);
    assert.deepEqual(there.columns, here.columns);
    assert.deepEqual(there.rows, here.rows);
    assert.deepEqual(there.rows[0], ['host-0', 100, 13]);
  });

  it('a worker handed the events in batches while they arrive gives the same table', async () => {
    const evs = events(2_600);
    const here = compileStatistics(QUERY)!.engine.run(evs, { timeZone: 'UTC' });
    const feed = new StatsWorkerFeed(workerFile);
    for (let i = 0; i < evs.length; i += 333) feed.add(evs.slice(i, i + 333));
    assert.equal(feed.count, evs.length);
    const there = await feed.compute({ query: QUERY, referenceLists: {}, timeZone: 'UTC' }, {});
    assert.deepEqual(there.rows, here.rows);
    feed.dispose();
  });

  it('a fed worker stops on Cancel, and a worker that cannot start fails at compute, not before', async () => {
    const feed = new StatsWorkerFeed(workerFile);
    feed.add(events(10));
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(
      feed.compute({ query: QUERY, referenceLists: {}, timeZone: 'UTC' }, { signal: abort.signal }),
      CancelledError,
    );
    const broken = new StatsWorkerFeed('/nonexistent/stats-worker.js');
    broken.add(events(10));
    await assert.rejects(
      broken.compute({ query: QUERY, referenceLists: {}, timeZone: 'UTC' }, {}),
      /nonexistent|Cannot find/,
    );
  });

  it('leaves the main thread free while it computes: events go over in slices between its turns', async () => {
    let done = false;
    let turns = 0;
    const computing = computeTableOffThread(workerFile, QUERY, events(20_000)).finally(() => (done = true));
    // Count the main thread's turns until the table arrives; sending 20,000 events in one message
    // would have taken a single long one.
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        if (done) return resolve();
        turns++;
        setImmediate(tick);
      };
      tick();
    });
    const table = await computing;
    assert.equal(table.rows.length, 7);
    assert.deepEqual(table.rows[0], ['host-0', 2858, 13]);
    assert.ok(turns >= 20_000 / EVENTS_PER_SLICE, `${turns} turns`);
  });

  it('Cancel ends the computation with a CancelledError', async () => {
    const abort = new AbortController();
    const computing = computeTableOffThread(workerFile, QUERY, events(5000), { signal: abort.signal });
    abort.abort();
    await assert.rejects(computing, CancelledError);
    await assert.rejects(
      computeTableOffThread(workerFile, QUERY, events(1), { signal: abort.signal }),
      CancelledError,
      'an already cancelled run does not start a worker',
    );
  });

  it('stops at the time limit with a message that says what to do', async () => {
    await assert.rejects(
      computeTableOffThread(workerFile, QUERY, events(20_000), { timeLimitMs: 1 }),
      (err: unknown) => err instanceof ComputeTimeoutError && /narrow the filter/.test(err.message),
    );
  });

  it('reports a query the worker cannot compute', async () => {
    await assert.rejects(computeTableOffThread(workerFile, 'principal.hostname = "a"', events(1)), /no match:/);
  });
});
