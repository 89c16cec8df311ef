// The search budget through the real SearchController against the sandbox (vscode fake for the
// editor UI only): repeated runs of a running query spend one search, a changed query asks first,
// a 429 storm ends after the bounded retries in one message with Retry and leaves the hourly count
// as it was, a restored panel shows its kept rows without a search, a cut answer
// opens newest first with the part of the range it covers, "fetch the rest" asks with its cost,
// full events open as read-only documents and every pivot gets its own titled panel; the page gets
// compact tables of the rows and its questions about the events are answered.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeptRuns } from '../../../src/core/storage/kept-runs';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { ResolvedWindow } from '../../../src/core/secops/timerange';
import type * as ServicesModule from '../../../src/features/services';
import type * as ControllerModule from '../../../src/features/search/controller';
import type * as RowTableModule from '../../../src/core/secops/results/rowtable';
import { freshProductModules, scriptConfiguration } from '../../reliability/scripted-config';
import { sandboxEventId, searchControllerForTests } from '../../support/search-controller';
import { fakeWebviewPanel, type FakeWebviewPanel } from '../../support/fake-webview-panel';
import { admin, iso } from '../../support/sandbox-admin';
import { fakeExtensionContext } from '../../unit/fakes/vscode';

const vscode = require('vscode') as Record<string, any>;

type Posted = { type: string; [k: string]: any };
type Panel = FakeWebviewPanel<Posted>;

/** A webview panel as VS Code hands it out: what it was posted, its page's handler, and a close. */
function fakePanel(viewType: string, title = 'restored'): { panel: Panel; webviewPanel: any } {
  const panel = fakeWebviewPanel<Posted>({ viewType, title });
  return { panel, webviewPanel: panel.webviewPanel };
}

describe('search budget, cut answers, documents and pivot panels (sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let undo: () => void;
  let window: ResolvedWindow;
  let controller: any;
  const panels: Panel[] = [];
  const progress: string[] = [];
  const errors: string[] = [];
  const warnings: string[] = [];
  let warningAnswer: string | undefined;
  const searches: Array<{ query: string; startTime: number; endTime: number }> = [];
  const documents = new Map<string, string>();
  let provider: { provideTextDocumentContent(uri: unknown): string } | undefined;
  const EVENTS = 60;

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    const now = Math.floor(sb.clock.now() / 1000) * 1000;
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      udm: {
        metadata: {
          id: sandboxEventId(i),
          eventTimestamp: iso(now - (EVENTS - i) * 60_000),
          eventType: 'NETWORK_DNS',
        },
        principal: { hostname: 'host-a', user: { employeeId: 'E1' } },
      },
    }));
    await admin(sb, 'events:ingest', { events });
    window = { startMs: now - 3_600_000 - 60_000, endMs: now, start: iso(now - 3_660_000), end: iso(now) };

    undo = scriptConfiguration({
      project: 'cloudbench-demo',
      'endpoints.secops': sb.http,
      'search.defaultLimit': 20,
      'requests.maxRetries': 1,
      'requests.initialBackoffMs': 50,
    });
    freshProductModules();
    vscode.window.withProgress = async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task(
        { report: (m: { message?: string }) => m.message && progress.push(m.message) },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
    vscode.window.showErrorMessage = async (text: string) => {
      errors.push(text);
      return undefined;
    };
    vscode.window.showWarningMessage = async (text: string) => {
      warnings.push(text);
      return warningAnswer;
    };
    vscode.window.showTextDocument = async () => undefined;
    vscode.workspace.registerTextDocumentContentProvider = (_scheme: string, p: typeof provider) => {
      provider = p;
      return { dispose() {} };
    };
    vscode.workspace.openTextDocument = async (uri: { toString(): string }) => {
      documents.set(uri.toString(), provider!.provideTextDocumentContent(uri));
      return { uri };
    };
    vscode.window.createWebviewPanel = (viewType: string) => {
      // The page says it is ready as soon as it exists, and that it painted each run's first rows.
      const panel = fakeWebviewPanel<Posted>({
        viewType,
        ready: true,
        painted: viewType === 'cloudbench.search.results',
      });
      panels.push(panel);
      return panel.webviewPanel;
    };
    controller = searchControllerForTests(
      () => window,
      (request) => searches.push(request),
    );
  });

  after(async () => {
    controller?.dispose();
    undo?.();
    await sb?.close();
  });

  beforeEach(async () => {
    await admin(sb, 'faults', []);
    searches.length = 0;
    progress.length = 0;
    errors.length = 0;
    warnings.length = 0;
  });

  it('pressing Run five times while the query runs spends one search and shows one run', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', latencyMs: 600 }]);
    const runs = Array.from({ length: 5 }, () => controller.runQuery('principal.hostname = "host-a"', window, 20));
    const records = await Promise.all(runs);
    assert.equal(searches.length, 1);
    assert.ok(records.every((r) => r === records[0]));
    assert.deepEqual(warnings, [], 'the same query asks nothing');
  });

  it('a changed query while one runs asks first; declining keeps the running one, agreeing cancels it', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', latencyMs: 600 }]);
    warningAnswer = undefined;
    const first = controller.runQuery('principal.hostname = "host-a"', window, 20);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 20), undefined);
    assert.match(warnings[0], /still running: "principal\.hostname = "host-a""/);
    assert.ok((await first).rows.length > 0, 'the running search went on');
    assert.equal(searches.length, 1);

    warningAnswer = 'Cancel It and Run';
    const second = controller.runQuery('principal.hostname = "host-a"', window, 20);
    second.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    const third = await controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 20);
    await assert.rejects(second, (err: Error) => err.name === 'CancelledError');
    assert.equal(third.query, 'metadata.event_type = "NETWORK_DNS"');
    assert.equal(searches.length, 3);
  });

  it('a cut answer opens newest first, names the part of the range it covers, and Fetch the rest asks with its cost', async () => {
    const record = await controller.runQuery('principal.hostname = "host-a"', window, 20);
    const panel = panels.find((p) => p.viewType === 'cloudbench.search.results')!;
    const runId = record.info.runId;
    // The panel heard of the run before its rows, with the query itself, for its query bar.
    const running = panel.posted.filter((m) => m.type === 'running').at(-1)!;
    assert.equal(running.query, 'principal.hostname = "host-a"');
    assert.ok(
      panel.posted.indexOf(running) < panel.posted.findIndex((m) => m.type === 'results' && m.run.runId === runId),
    );
    const results = panel.posted.filter((m) => m.type === 'results').at(-1)!;
    assert.equal(results.run.runId, runId);
    assert.equal(results.arriving, true, 'the first rows were shown while the answer arrived');
    // The page's rows: the tables as they came, then the order the answer ends with.
    const sent = panel.posted.filter((m) => (m.type === 'append' && m.runId === runId) || m === results);
    const arrived = panel.posted.find((m) => m.type === 'arrived' && m.runId === runId)!;
    const came = sent.flatMap((m) => [...(m.table.times as Float64Array)]);
    const times = arrived.order ? [...(arrived.order as Uint32Array)].map((i) => came[i]) : came;
    assert.equal(arrived.count, 20);
    assert.equal(times.length, 20);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.deepEqual(
      (record.rows as Array<{ udm: { metadata: { eventTimestamp: string } } }>).map((r) =>
        Date.parse(r.udm.metadata.eventTimestamp),
      ),
      times,
      "the extension's rows are in the page's order",
    );
    assert.equal(arrived.moreDataAvailable, true);
    // The sandbox keeps the oldest 20 of 60: the rows cover the start of the range up to the 20th.
    assert.equal(arrived.covered.start, window.start);
    assert.equal(Date.parse(arrived.covered.end), Math.max(...times) + 1000);
    assert.ok(arrived.restSearches >= 2, `plans ${arrived.restSearches} searches`);

    warningAnswer = undefined;
    panel.fromPage({ type: 'fetchRest', runId: record.info.runId });
    await new Promise((r) => setTimeout(r, 200));
    assert.match(warnings.at(-1)!, /will spend about \d+ UDM searches.*\d+ of 360 remain this hour/);
    assert.equal(searches.length, 1, 'declining spends nothing');

    warningAnswer = 'Fetch the Rest';
    await controller.fetchRest(record.info.runId);
    const all = controller.runInfo(record.info.runId).rows as unknown[];
    assert.equal(all.length, EVENTS);
    const done = panel.posted.filter((m) => m.type === 'status').at(-1)!;
    assert.equal(done.moreDataAvailable, false);
    assert.match(done.message, /All 60 events fetched with \d+ more searches?\./);
    assert.ok(searches.length - 1 <= arrived.restSearches + 1, `${searches.length - 1} searches spent`);
  });

  it('a full event opens as a read-only document titled by the event', async () => {
    const record = await controller.runQuery('principal.hostname = "host-a"', window, 20);
    const id = (record.rows[0] as { udm: { metadata: { id: string } } }).udm.metadata.id;
    await controller.pivot('fullEvent', id, window, { runId: record.info.runId, row: 0 });
    const [uri, text] = [...documents.entries()].at(-1)!;
    assert.match(uri, /^cloudbench-secops:\/\/\/Event NETWORK_DNS host-a \d{4}-\d\d-\d\dT[\d:]+Z\.json\?\d+$/);
    assert.equal(JSON.parse(text).metadata.id, id);
  });

  it('each pivot opens its own panel, titled by what it pivots on and where it came from', async () => {
    const record = await controller.runQuery('principal.hostname = "host-a"', window, 20);
    const before = panels.length;
    await controller.pivot('assetEvents.hostname', 'host-a', window, { runId: record.info.runId });
    await controller.pivot('userAliases.employeeId', 'E1', window, { runId: record.info.runId });
    const opened = panels.slice(before);
    assert.equal(opened.length, 2);
    assert.deepEqual(
      opened.map((p) => p.title),
      [
        'Events for host-a · from "principal.hostname = "host-a""',
        'Aliases of user E1 · from "principal.hostname = "host-a""',
      ],
    );
    assert.ok(opened.every((p) => p.viewType === 'cloudbench.search.pivot'));
    const results = opened[0].posted.find((m) => m.type === 'results')!;
    assert.equal(results.run.source, 'from "principal.hostname = "host-a""');
    assert.deepEqual(results.run.pivot, { action: 'assetEvents.hostname', value: 'host-a' });
  });
  it("keeps only the runs open panels show: a newer run in the same panel or a closed panel lets a run's events go", async () => {
    const first = await controller.runQuery('principal.hostname = "host-a"', window, 20);
    const before = panels.length;
    await controller.pivot('assetEvents.hostname', 'host-a', window, { runId: first.info.runId });
    const pivotPanel = panels[before];
    const pivotRunId = pivotPanel.posted.find((m) => m.type === 'results')!.run.runId as string;
    assert.ok(controller.runInfo(first.info.runId), 'the shown run is kept');
    const second = await controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 20);
    assert.equal(
      controller.runInfo(first.info.runId),
      undefined,
      'the run the results panel no longer shows is let go',
    );
    assert.equal(controller.runInfo(second.info.runId)?.rows.length, 20);
    assert.ok(controller.runInfo(pivotRunId), 'the open pivot keeps its run');
    pivotPanel.close();
    assert.equal(controller.runInfo(pivotRunId), undefined, 'the closed pivot lets its run go');
    assert.ok(controller.runInfo(second.info.runId), 'the results panel still shows its run');
  });

  it('a restored panel whose run was kept shows its rows and spends no search', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-runs-'));
    try {
      const runs = new KeptRuns(dir);
      controller.dispose();
      const { createServices } = require('../../../src/features/services') as typeof ServicesModule;
      const { SearchController } = require('../../../src/features/search/controller') as typeof ControllerModule;
      controller = new SearchController(createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent')), {
        runs,
      });
      controller.currentWindow = () => window;
      const run = await controller.runQuery('principal.hostname = "host-a"', window, 20);
      assert.ok(run.info.ranAt, 'the run knows when it ran');
      while (!(await runs.list()).includes(run.info.runId)) await new Promise((r) => setTimeout(r, 50));
      // Kept as the text the events came in: keeping parsed none of them (run.rows still reads through the holder).
      assert.ok(Object.getOwnPropertyDescriptor(run, 'rows')?.get, 'the events were not parsed to be kept');
      const kept = (await runs.load(run.info.runId)) as { rows: unknown[] };
      assert.equal(kept.rows.length, 20);
      assert.deepEqual(kept.rows, run.rows, 'the kept rows are the run’s events, in its order');

      const before = searches.length;
      const restoredPanel = fakePanel('cloudbench.search.results');
      await controller.restorePanel(restoredPanel.webviewPanel, 'query', {
        restore: { runId: run.info.runId, kind: 'udm', title: run.info.title },
      });
      restoredPanel.panel.fromPage({ type: 'ready' });
      const results = restoredPanel.panel.posted.find((m) => m.type === 'results')!;
      assert.ok(results, 'the kept rows are posted');
      assert.equal(results.run.runId, run.info.runId);
      assert.equal(results.run.restored, true);
      assert.equal(results.run.ranAt, run.info.ranAt);
      assert.equal(results.table.count, run.rows.length);
      assert.equal(searches.length, before, 'no search was spent');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a restored panel whose kept run holds junk rows shows the valid ones and says once what it dropped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-runs-'));
    try {
      const runs = new KeptRuns(dir);
      controller.dispose();
      const { createServices } = require('../../../src/features/services') as typeof ServicesModule;
      const { SearchController } = require('../../../src/features/search/controller') as typeof ControllerModule;
      controller = new SearchController(createServices(fakeExtensionContext({ contributes: {} }, '/nonexistent')), {
        runs,
      });
      controller.currentWindow = () => window;
      const run = await controller.runQuery('principal.hostname = "host-a"', window, 20);
      while (!(await runs.list()).includes(run.info.runId)) await new Promise((r) => setTimeout(r, 50));
      // Someone (or a damaged disk) put rows into the file that are not rows.
      const file = readdirSync(dir).find((f) => f.includes(run.info.runId))!;
      const kept = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { rows: unknown[] };
      kept.rows.push('a string', null, 42);
      writeFileSync(join(dir, file), JSON.stringify(kept));
      warnings.length = 0;

      const restoredPanel = fakePanel('cloudbench.search.results');
      await controller.restorePanel(restoredPanel.webviewPanel, 'query', {
        restore: { runId: run.info.runId, kind: 'udm', title: run.info.title },
      });
      restoredPanel.panel.fromPage({ type: 'ready' });
      const results = restoredPanel.panel.posted.find((m) => m.type === 'results')!;
      assert.ok(results, 'the valid rows are posted');
      assert.equal(results.table.count, run.rows.length, 'only the rows that are rows');
      assert.equal(warnings.length, 1, warnings.join(' | '));
      assert.match(warnings[0], /^The results panel after the reload: .*3/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a results panel and a pivot panel restored without kept rows run nothing until asked, then run in themselves', async () => {
    controller.dispose();
    controller = searchControllerForTests(
      () => window,
      (request) => searches.push(request),
    );
    controller.confirmQuery = () => Promise.resolve(true);
    const query = fakePanel('cloudbench.search.results');
    const pivot = fakePanel('cloudbench.search.pivot');
    // The restored panels are this controller's panels from now on, like the ones it opens.
    panels.push(query.panel, pivot.panel);
    await controller.restorePanel(query.webviewPanel, 'query', { restore: { runId: 'gone', kind: 'udm', title: 't' } });
    await controller.restorePanel(pivot.webviewPanel, 'pivot');
    query.panel.fromPage({ type: 'ready' });
    pivot.panel.fromPage({ type: 'ready' });
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(searches.length, 0, 'restoring runs nothing');
    assert.deepEqual(
      [...query.panel.posted, ...pivot.panel.posted].map((m) => m.type),
      ['notKept', 'notKept'],
      'the pages say their rows were not kept',
    );

    const range = { startTime: iso(window.startMs + 600_000), endTime: iso(window.endMs) };
    query.panel.fromPage({ type: 'runQuery', query: 'principal.hostname = "host-a"', ...range });
    for (let i = 0; i < 100 && !query.panel.posted.some((m) => m.type === 'results'); i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.equal(searches.length, 1);
    assert.equal(searches[0].startTime, window.startMs + 600_000, 'the restored time range, not the current one');

    const before = panels.length;
    pivot.panel.fromPage({ type: 'pivot', runId: 'restored', action: 'assetEvents.hostname', value: 'host-a' });
    for (let i = 0; i < 100 && !pivot.panel.posted.some((m) => m.type === 'results'); i++)
      await new Promise((r) => setTimeout(r, 50));
    const results = pivot.panel.posted.find((m) => m.type === 'results')!;
    assert.equal(results.run.title, 'Events for host-a');
    assert.equal(panels.length, before, 'the pivot ran in the restored panel, not a new one');
  });

  it('a 429 storm ends after the bounded retries in one message with Retry, and the hourly count stays', async () => {
    const spentBefore = controller.budget().remaining;
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', errorRate: 1, codes: [429] }]);
    const started = Date.now();
    const record = await controller.runQuery('principal.hostname = "host-a"', window, 20);
    assert.equal(record, undefined, 'the run ended without results');
    assert.deepEqual(errors, [], 'no error toast');
    assert.equal(warnings.length, 1, `one message: ${warnings.join(' | ')}`);
    // requests.maxRetries is 1: two attempts.
    assert.match(warnings[0], /^UDM search: .*RESOURCE_EXHAUSTED.*Cloudbench tried 2 times over \d+ s and stopped/);
    assert.ok(Date.now() - started < 30_000);
    const budget = controller.budget();
    assert.equal(budget.remaining, spentBefore, 'a 429 does not change the hourly count');
    assert.ok(
      progress.some((m) => /^Throttled by the service until /.test(m)),
      `progress: ${progress.join(' | ')}`,
    );
    const failed = panels
      .flatMap((p) => p.posted)
      .filter((m) => m.type === 'failed')
      .pop();
    assert.match(failed?.message ?? '', /Cloudbench tried 2 times/);
  });

  it('the page gets a table of the first rows, the rest once it says they painted, and answers about the events', async () => {
    const { FIRST_PAINT_ROWS } = require('../../../src/features/search/controller') as typeof ControllerModule;
    const { decodeCells } = require('../../../src/core/secops/results/rowtable') as typeof RowTableModule;
    const start = Date.parse(window.start);
    const rows = Array.from({ length: FIRST_PAINT_ROWS + 50 }, (_, i) => ({
      name: `events/${i}`,
      udm: {
        metadata: { id: `id-${i}`, eventTimestamp: iso(start + i * 1000), eventType: 'NETWORK_DNS' },
        principal: { hostname: `host-${i % 5}` },
        about: { labels: [{ key: 'tag', value: `tag-${i}-end` }] },
      },
    }));
    const record = controller.showRows('udm', 'Events for host', rows, { window });
    const runId: string = record.info.runId;
    const panel = panels.at(-1)!;
    await new Promise((r) => setImmediate(r));
    const results = panel.posted.find((m) => m.type === 'results')!;
    assert.equal(results.table.count, FIRST_PAINT_ROWS);
    assert.equal(results.total, rows.length, 'the page counts the run by its total from the first rows on');
    // Newest first, and only the shown columns' text travels: no labels, no event names.
    assert.equal(decodeCells(results.table)[0][0], iso(start + (rows.length - 1) * 1000));
    assert.equal(new TextDecoder().decode(results.table.cells).includes('tag-'), false);
    assert.equal(panel.posted.filter((m) => m.type === 'append').length, 0, 'the rest waits for the first paint');

    panel.fromPage({ type: 'painted', runId });
    const append = panel.posted.find((m) => m.type === 'append')!;
    assert.equal(append.table.count, 50);
    assert.equal(append.table.times.length, 50);

    const answer = async (request: Record<string, unknown>): Promise<any> => {
      const before = panel.posted.length;
      panel.fromPage({ runId, ...request });
      for (let i = 0; i < 50 && panel.posted.length === before; i++) await new Promise((r) => setImmediate(r));
      return panel.posted.at(-1);
    };
    const columns = [{ id: 'metadata.eventTimestamp', label: 'Time' }];
    const filtered = await answer({ type: 'rows.filter', id: 1, filter: 'tag-7-end', columns });
    assert.equal(filtered.type, 'rows.filtered');
    assert.equal(filtered.count, rows.length);
    // Positions are the page's: the rows newest first, so tag-7 (the 8th oldest) sits near the end.
    const event = await answer({ type: 'rows.event', id: 2, index: filtered.indices[0] });
    assert.equal(JSON.parse(event.eventJson).udm.about.labels[0].value, 'tag-7-end');
    assert.equal(filtered.indices.length, 1);
    const fields = await answer({ type: 'rows.fields', id: 3 });
    assert.ok(fields.paths.includes('udm.about.labels.value'));
    const cells = await answer({ type: 'rows.cells', id: 4, columns: [{ id: 'udm.metadata.id', label: 'id' }] });
    assert.equal(cells.table.count, rows.length);
    assert.equal(decodeCells(cells.table)[0][filtered.indices[0]], 'id-7');
    const gone = await answer({ type: 'rows.event', runId: 'no-such-run', id: 5, index: 0 });
    assert.deepEqual([gone.type, gone.id], ['rows.unavailable', 5]);

    // A second run in the same (ready) panel: the rest is built while the first rows paint.
    const again = controller.showRows('udm', 'Events for host', rows, { window, slot: record.slot });
    await new Promise((r) => setTimeout(r, 20));
    const count = panel.posted.length;
    panel.fromPage({ type: 'painted', runId: again.info.runId });
    assert.equal(panel.posted.length, count + 1);
    assert.equal(panel.posted.at(-1)!.type, 'append');
    assert.equal(panel.posted.at(-1)!.table.count, 50);
  });
});
