// What the results and pivot pages' messages do: each type reaches the one action it names with the
// arguments it carries, a failure is reported under the name of what the user did, a cancellation is
// not, and the rows the page asks about are answered from the run's rows.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as RoutingModule from '../../../src/features/search/routing';
import type { FromWebview, ToWebview } from '../../../src/core/secops/messages';
import type { RunRecord } from '../../../src/features/search/run-store';
import type { ResultsPanel } from '../../../src/features/search/panel';
import type { ResolvedWindow } from '../../../src/core/secops/timerange';
import type * as StoreModule from '../../../src/features/shared/reference-list-store';

const record = useFakeVscode();

const { routeMessage, describeMessage } = require('../../../src/features/search/routing') as typeof RoutingModule;
const { ReferenceListStore } = require('../../../src/features/shared/reference-list-store') as typeof StoreModule;

const RUN_WINDOW: ResolvedWindow = { startMs: 1000, endMs: 2000, start: 'a', end: 'b' };
const CURRENT: ResolvedWindow = { startMs: 5000, endMs: 6000, start: 'c', end: 'd' };

function harness(runs: Record<string, Partial<RunRecord>> = {}, fail?: Error) {
  const calls: Array<[string, ...unknown[]]> = [];
  const act =
    (name: string) =>
    async (...args: unknown[]): Promise<undefined> => {
      calls.push([name, ...args]);
      if (fail !== undefined) throw fail;
      return undefined;
    };
  const actions: RoutingModule.ResultsActions = {
    runInfo: (runId) => runs[runId] as RunRecord | undefined,
    fetchRest: act('fetchRest'),
    exportRun: act('exportRun'),
    openLink: act('openLink'),
    pivot: act('pivot'),
    pivotWindow: (runId, fallback) => runs[runId]?.window ?? fallback(),
    currentWindow: () => CURRENT,
    narrowToNewest: act('narrowToNewest'),
    searchPeriod: act('searchPeriod'),
    runQuery: act('runQuery'),
    runEditedQuery: act('runEditedQuery'),
    referenceLists: new ReferenceListStore(),
  };
  const posted: ToWebview[] = [];
  const closers: Array<() => void> = [];
  const panel = (slot: string) =>
    ({
      slot,
      post: (m: ToWebview) => posted.push(m),
      onDidDispose: (listener: () => void) => {
        closers.push(listener);
        return { dispose: () => closers.splice(closers.indexOf(listener) >>> 0, 1) };
      },
    }) as unknown as ResultsPanel;
  const closeAll = (): void => {
    for (const close of [...closers]) close();
  };
  return { actions, calls, posted, panel, closeAll };
}

describe('the results pages’ messages', () => {
  it('each action reaches its handler with what the message carries', async () => {
    const { actions, calls, panel } = harness({ r1: { query: 'q', limit: 7, window: RUN_WINDOW } });
    const p = panel('query');
    const send = (m: FromWebview) => routeMessage(actions, m, p);
    await send({ type: 'fetchRest', runId: 'r1' });
    await send({ type: 'export', runId: 'r1', format: 'csv', columns: [] });
    await send({ type: 'openLink', url: 'https://example.com' });
    await send({ type: 'narrowToNewest', runId: 'r1' });
    await send({ type: 'searchPeriod', runId: 'r1', startTime: 's', endTime: 'e' });
    await send({ type: 'rerun', runId: 'r1' });
    await send({ type: 'rerun', runId: 'gone' });
    await send({ type: 'runQuery', query: 'x' });
    await send({ type: 'runQuery', query: 'y', startTime: 's', endTime: 'e' });
    await send({ type: 'ready' });
    await send({ type: 'painted', runId: 'r1' });
    assert.deepEqual(calls, [
      ['fetchRest', 'r1'],
      ['exportRun', 'r1', 'csv', [], {}],
      ['openLink', 'https://example.com'],
      ['narrowToNewest', 'r1'],
      ['searchPeriod', 'r1', 's', 'e'],
      ['runQuery', 'q', CURRENT, 7],
      ['runEditedQuery', 'x', undefined],
      ['runEditedQuery', 'y', { startTime: 's', endTime: 'e' }],
    ]);
  });

  it('a pivot uses its run’s window, and a restored pivot panel without its run pivots in itself', async () => {
    const { actions, calls, panel } = harness({ r1: { window: RUN_WINDOW } });
    await routeMessage(actions, { type: 'pivot', runId: 'r1', action: 'rawLog', value: 'v', row: 3 }, panel('pivot-2'));
    await routeMessage(actions, { type: 'pivot', runId: 'gone', action: 'rawLog', value: 'v' }, panel('pivot-2'));
    await routeMessage(actions, { type: 'pivot', runId: 'gone', action: 'rawLog', value: 'v' }, panel('query'));
    assert.deepEqual(calls, [
      ['pivot', 'rawLog', 'v', RUN_WINDOW, { runId: 'r1', row: 3 }],
      ['pivot', 'rawLog', 'v', CURRENT, { runId: 'gone', slot: 'pivot-2' }],
      ['pivot', 'rawLog', 'v', CURRENT, { runId: 'gone' }],
    ]);
  });

  it('stopping a fetch aborts the run’s fetch', async () => {
    const fetch = new AbortController();
    const { actions, panel } = harness({ r1: { fetch } });
    await routeMessage(actions, { type: 'stopFetch', runId: 'r1' }, panel('query'));
    assert.equal(fetch.signal.aborted, true);
  });

  it('a failure is reported under what the user did; a cancellation is not reported', async () => {
    record.messages.length = 0;
    const failing = harness({}, new Error('the disk is full'));
    await routeMessage(
      failing.actions,
      { type: 'export', runId: 'r1', format: 'ndjson', columns: [] },
      failing.panel('q'),
    );
    assert.equal(record.messages.length, 1);
    assert.equal(record.messages[0].level, 'error');
    assert.match(record.messages[0].text, /^Export NDJSON: .*the disk is full/);
    const cancelled = harness({}, Object.assign(new Error('aborted'), { name: 'AbortError' }));
    await routeMessage(cancelled.actions, { type: 'fetchRest', runId: 'r1' }, cancelled.panel('q'));
    assert.equal(record.messages.length, 1);
  });

  it('names failures by what the user did', () => {
    assert.equal(describeMessage({ type: 'pivot', runId: 'r', action: 'fullEvent', value: 'v' }), 'Full event');
    assert.equal(describeMessage({ type: 'fetchRest', runId: 'r' }), 'Fetch the rest');
    assert.equal(describeMessage({ type: 'searchPeriod', runId: 'r', startTime: 's', endTime: 'e' }), 'Run UDM Query');
    assert.equal(describeMessage({ type: 'querybar.watchLists' }), 'Query bar');
    assert.equal(describeMessage({ type: 'rows.fields', runId: 'r', id: 1 }), 'Results');
    assert.equal(describeMessage({ type: 'stopFetch', runId: 'r' }), 'Results');
  });

  it('rows of a run no longer held are answered as unavailable, not dropped', async () => {
    const { actions, posted, panel } = harness();
    await routeMessage(actions, { type: 'rows.fields', runId: 'gone', id: 4 }, panel('query'));
    assert.equal(posted.length, 1);
    assert.equal(posted[0].type, 'rows.unavailable');
    assert.equal((posted[0] as { id: number }).id, 4);
  });

  it('sends the query bar the reference lists the store holds, now and on every change, until the panel closes', async () => {
    const { actions, posted, panel, closeAll } = harness();
    const lists = actions.referenceLists;
    const queryPanel = panel('query');
    await routeMessage(actions, { type: 'querybar.watchLists' }, queryPanel);
    // Nothing known yet: the page's bar flags no list name.
    assert.deepEqual(posted.splice(0), [{ type: 'querybar.lists' }]);
    const known = [
      { name: 'bad_ips', contentType: 'CONTENT_TYPE_DEFAULT_STRING' as const, size: 1, preview: ['10.0.0.1'] },
    ];
    lists.setKnown(known);
    assert.deepEqual(posted.splice(0), [{ type: 'querybar.lists', knownLists: known }]);
    lists.setEntries({ bad_ips: ['10.0.0.1'] });
    lists.setKnown(known, 'UNAVAILABLE: connect ECONNREFUSED');
    assert.deepEqual(posted.splice(0), [
      { type: 'querybar.lists', referenceLists: { bad_ips: ['10.0.0.1'] }, knownLists: known },
      {
        type: 'querybar.lists',
        referenceLists: { bad_ips: ['10.0.0.1'] },
        knownLists: known,
        listsUnavailable: 'UNAVAILABLE: connect ECONNREFUSED',
      },
    ]);
    // A page loaded again asks again: one watch per panel, not two.
    await routeMessage(actions, { type: 'querybar.watchLists' }, queryPanel);
    posted.length = 0;
    lists.setKnown([]);
    assert.equal(posted.length, 1);
    posted.length = 0;
    closeAll();
    lists.setKnown(known);
    assert.deepEqual(posted, [], 'a closed panel is sent nothing');
  });
});
