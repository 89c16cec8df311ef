// The query bar's requests through the real SearchController and ResultsPanel (vscode fake for the
// editor UI only) against the sandbox: Run sends the edited text with the current time range and
// the default limit after the same confirmation as "Run Query", and the reference lists reach the
// panel for the bar's completion and checks when it asks and whenever they change.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { ResolvedWindow } from '../../../src/core/secops/timerange';
import { decodeCells } from '../../../src/core/secops/results/rowtable';
import { freshProductModules, scriptConfiguration } from '../../reliability/scripted-config';
import { fakeWebviewPanel } from '../../support/fake-webview-panel';
import { sandboxEventId, searchControllerForTests } from '../../support/search-controller';
import { statsWorkerRoot } from '../../reliability/stats-worker-host';
import { admin, iso } from '../../support/sandbox-admin';
import type * as StatisticsModule from '../../../src/features/statistics';

const vscode = require('vscode') as Record<string, any>;

describe('query bar: Run and the reference lists through the search controller (sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let undo: () => void;
  let window: ResolvedWindow;
  const posted: Array<{ type: string; [k: string]: any }> = [];
  const waiters: Array<{ type: string; resolve: (m: any) => void }> = [];
  let fromPage: (raw: unknown) => void = () => undefined;
  let controller: any;
  const asked: string[] = [];
  let confirm = true;
  const searches: Array<{ query: string; startTime: number; endTime: number; limit?: number }> = [];

  function next(type: string): Promise<any> {
    return new Promise((resolve) => waiters.push({ type, resolve }));
  }

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    const now = Math.floor(sb.clock.now() / 1000) * 1000;
    const events = Array.from({ length: 30 }, (_, i) => ({
      udm: {
        metadata: {
          id: sandboxEventId(i),
          eventTimestamp: iso(now - (i + 1) * 60_000),
          eventType: 'NETWORK_DNS',
        },
        principal: { hostname: i % 2 ? 'host-a' : 'host-b' },
      },
    }));
    await admin(sb, 'events:ingest', { events });
    window = { startMs: now - 3_600_000, endMs: now, start: iso(now - 3_600_000), end: iso(now) };

    undo = scriptConfiguration({ project: 'cloudbench-demo', 'endpoints.secops': sb.http, 'search.defaultLimit': 5 });
    freshProductModules();
    vscode.window.withProgress = async (_options: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task({ report() {} }, { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) });
    vscode.window.createWebviewPanel = () => {
      const panel = fakeWebviewPanel<{ type: string; [k: string]: any }>({
        onPost: (m) => {
          posted.push(m);
          const i = waiters.findIndex((w) => w.type === m.type);
          if (i >= 0) waiters.splice(i, 1)[0].resolve(m);
        },
      });
      fromPage = panel.fromPage;
      return panel.webviewPanel;
    };
    controller = searchControllerForTests(
      () => window,
      (request) => searches.push(request),
    );
    controller.confirmQuery = async (q: string) => {
      asked.push(q);
      return confirm;
    };
    controller.panel('query');
    fromPage({ type: 'ready' });
  });

  after(async () => {
    controller?.dispose();
    undo?.();
    await sb?.close();
  });

  it("Run sends the edited text with the current time range and the default limit, and shows it as the run's query", async () => {
    const results = next('results');
    fromPage({ type: 'runQuery', query: '  principal.hostname = "host-a"\n' });
    const message = await results;
    assert.deepEqual(asked, ['principal.hostname = "host-a"']);
    assert.equal(searches.length, 1);
    const { onCharged, ...sent } = searches[0] as { onCharged?: unknown };
    assert.equal(typeof onCharged, 'function', 'the run counts what it is charged');
    assert.deepEqual(sent, {
      query: 'principal.hostname = "host-a"',
      startTime: window.startMs,
      endTime: window.endMs,
      limit: 5,
    });
    assert.equal(message.run.query, 'principal.hostname = "host-a"');
    assert.equal(message.run.startTime, window.start);
    // The page gets a table of the shown columns; the third is the principal.
    const hosts = decodeCells(message.table)[2];
    assert.equal(message.table.count, 5);
    assert.deepEqual(hosts, Array(5).fill('host-a'));
  });

  it('a query the user declines to run despite its errors spends no search', async () => {
    confirm = false;
    const before = searches.length;
    const runs: Array<Promise<void>> = [];
    const runEditedQuery = controller.runEditedQuery.bind(controller);
    controller.runEditedQuery = (q: string) => {
      const p = runEditedQuery(q);
      runs.push(p);
      return p;
    };
    fromPage({ type: 'runQuery', query: 'metadata.event_typo = "X"' });
    assert.equal(runs.length, 1);
    await runs[0];
    controller.runEditedQuery = runEditedQuery;
    confirm = true;
    assert.equal(asked.at(-1), 'metadata.event_typo = "X"');
    assert.equal(searches.length, before);
  });

  it("sends the bar the Reference Lists view's lists when it asks and on every change, and ignores malformed requests", async () => {
    const before = posted.length;
    fromPage({ type: 'querybar.complete', id: 42, text: 'metadata.', position: { line: 0, character: 9 } });
    fromPage({ type: 'runQuery', query: 42 });
    const first = next('querybar.lists');
    fromPage({ type: 'querybar.watchLists' });
    assert.deepEqual(await first, { type: 'querybar.lists' });
    assert.equal(posted.length, before + 1, 'only the well-formed request got an answer');
    const known = [{ name: 'vip_hosts', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['host-a'] }];
    const update = next('querybar.lists');
    controller.referenceLists.setKnown(known, 'UNAVAILABLE: the list API is down');
    assert.deepEqual(await update, {
      type: 'querybar.lists',
      knownLists: known,
      listsUnavailable: 'UNAVAILABLE: the list API is down',
    });
  });

  it('a statistical query run from the query bar opens the statistics view and goes into the query history', async () => {
    const { StatisticsFeature } = require('../../../src/features/statistics') as typeof StatisticsModule;
    // The table computes in the statistics worker, which the extension finds under its own folder.
    const services = Object.create(controller.services, {
      extensionUri: { value: vscode.Uri.file(statsWorkerRoot()) },
    });
    const feature = new StatisticsFeature(services);
    // The search reaches the statistics feature through Services, as in the extension.
    const provided = services.statistics.provide(feature);
    const history: Array<{ query: string; events: number }> = [];
    const sub = controller.onDidRunQuery((e: { query: string; events: number }) => history.push(e));
    try {
      const before = searches.length;
      const table = next('table');
      const query =
        'principal.hostname != ""\nmatch:\n  principal.hostname\noutcome:\n  $n = count(metadata.id)\norder:\n  principal.hostname';
      const resultsPage = fromPage;
      fromPage({ type: 'runQuery', query });
      // The statistics view opens: its page says it is ready, and the table comes.
      while (fromPage === resultsPage) await new Promise((resolve) => setImmediate(resolve));
      fromPage({ type: 'ready' });
      const message = await table;
      // The filter alone went to udmSearch, with the statistics limit, not the events default of 5.
      assert.equal(searches.length, before + 1);
      assert.equal(searches[before].query, 'principal.hostname != ""');
      assert.notEqual(searches[before].limit, 5);
      assert.deepEqual(JSON.parse(message.rowsJson), [
        ['host-a', 15],
        ['host-b', 15],
      ]);
      // One search spent, recorded with the run.
      assert.deepEqual(history, [{ query, window, events: 30, searches: 1 }]);
    } finally {
      sub.dispose();
      provided.dispose();
      feature.dispose();
    }
  });
});
