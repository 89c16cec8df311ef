// The statistics table computes in a worker thread: the same table as the engine on the main
// thread, the main thread free while it computes, and Cancel or the time limit end the worker.
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
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
    const feed = new StatsWorkerFeed(workerFile, { query: QUERY, referenceLists: {}, timeZone: 'UTC' });
    for (let i = 0; i < evs.length; i += 333) feed.add(evs.slice(i, i + 333));
    assert.equal(feed.count, evs.length);
    const there = await feed.compute();
    assert.deepEqual(there.rows, here.rows);
    feed.dispose();
  });

  it('a fed worker stops on Cancel, and a worker that cannot start fails at compute, not before', async () => {
    const feed = new StatsWorkerFeed(workerFile, { query: QUERY, referenceLists: {}, timeZone: 'UTC' });
    feed.add(events(10));
    const abort = new AbortController();
    abort.abort();
    await assert.rejects(feed.compute({ signal: abort.signal }), CancelledError);
    const broken = new StatsWorkerFeed('/nonexistent/stats-worker.js', {
      query: QUERY,
      referenceLists: {},
      timeZone: 'UTC',
    });
    broken.add(events(10));
    await assert.rejects(broken.compute(), /nonexistent|Cannot find/);
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

  it('answers messages out of order, or of another shape, with an error instead of a table', async () => {
    const ask = async (messages: unknown[]): Promise<unknown> => {
      const worker = new Worker(workerFile);
      try {
        const reply = new Promise((resolve) => worker.once('message', resolve));
        for (const m of messages) worker.postMessage(m);
        return await reply;
      } finally {
        await worker.terminate();
      }
    };
    const begin = { type: 'begin', query: QUERY, referenceLists: {}, timeZone: 'UTC' };
    const slice = { type: 'events', events: events(3) };
    assert.deepEqual(await ask([slice, begin, { type: 'compute' }]), {
      type: 'error',
      message: 'The statistics worker was given events before the query.',
    });
    assert.deepEqual(await ask([begin, begin, { type: 'compute' }]), {
      type: 'error',
      message: 'The statistics worker was given a second query.',
    });
    assert.deepEqual(await ask([begin, { type: 'events', events: 'x' }, slice, { type: 'compute' }]), {
      type: 'error',
      message: 'The statistics worker got a message it does not understand.',
    });
    assert.deepEqual(await ask([{ ...begin, referenceLists: { l: [1] } }, { type: 'compute' }]), {
      type: 'error',
      message: 'The statistics worker got a message it does not understand.',
    });
    const fine = (await ask([begin, slice, slice, { type: 'compute' }])) as {
      type: string;
      result: { eventsIn: number };
    };
    assert.equal(fine.type, 'result');
    assert.equal(fine.result.eventsIn, 6);
  });

  it('reports a query the worker cannot compute', async () => {
    await assert.rejects(computeTableOffThread(workerFile, 'principal.hostname = "a"', events(1)), /no match:/);
  });
});
