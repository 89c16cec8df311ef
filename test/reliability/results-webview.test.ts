// The results panel in headless Chromium, on the HTML and CSP the extension generates (ResultsPanel
// under the vscode fake) with the real bundle: rows that arrive in appends after the first paint
// (which the page announces),
// a new run that clears the previous run's rows, the banner of a cut answer, filter suggestions and
// short paths, and the histogram's axis, counts and period pick.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, capturingWebview, vscodeApiScript } from './webview-harness';
import { ResultsHost } from './results-host';
import { useResultsPages } from './results-page';
import type * as WebviewModule from '../../src/platform/webview';
import { useFakeVscode } from '../unit/fakes/vscode';

const browser$ = (): any => globalThis as any;

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

/** The same page with its bundle linked rather than in the page, so a test can hold it back. */
function linkedHtml(origin: string): string {
  const { webview } = capturingWebview(origin);
  const { renderWebviewPage } = require('../../src/platform/webview') as typeof WebviewModule;
  return renderWebviewPage(webview as never, vscode.Uri.file(ROOT), {
    bundle: 'results',
    title: 'UDM Search Results',
    earlyMessages: true,
  });
}

const START = Date.parse('2026-01-01T00:00:00Z');
/** `n` events one minute apart from START, newest last, on hosts host-0..host-9. */
function events(n: number, from = 0): unknown[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      name: `events/${i}`,
      udm: {
        metadata: { eventTimestamp: new Date(START + i * 60_000).toISOString(), eventType: 'NETWORK_DNS' },
        principal: { hostname: `host-${i % 10}` },
      },
    };
  });
}

const RUN = {
  runId: 'run-1',
  kind: 'udm',
  title: 'principal.hostname = /.*/',
  query: 'principal.hostname = /.*/',
  startTime: '2026-01-01T00:00:00Z',
  endTime: '2026-01-02T00:00:00Z',
};

describe('reliability: the results webview (headless Chromium)', function () {
  this.timeout(120_000);
  const fixture = useResultsPages('results', (origin) => ({ '/linked': linkedHtml(origin) }));
  let page: Page;
  let host: ResultsHost;
  beforeEach(() => {
    page = fixture.page;
    host = fixture.host;
  });

  /** Posts a results message and then appends, as the extension sends them (tables of the rows). */
  async function show(
    first: unknown[],
    appends: unknown[][] = [],
    extra: { run?: object; moreDataAvailable?: boolean } = {},
  ): Promise<void> {
    const messages = host.messages({ ...RUN, ...extra.run } as never, first, appends, {
      moreDataAvailable: extra.moreDataAvailable ?? false,
    });
    await page.evaluate((list: unknown[]) => {
      for (const m of list) browser$().postMessage(m, '*');
    }, messages as unknown[]);
  }

  const count = (): Promise<string> => page.locator('#count').innerText();

  /** Waits until the event of `minute` heads the table (the grid paints a frame after the count). */
  const newestRowIs = (minute: number): Promise<void> =>
    page
      .locator('#grid .row')
      .first()
      .filter({ hasText: new Date(START + minute * 60_000).toISOString().slice(0, 16) })
      .waitFor({ timeout: 10_000 });

  it('says when the first rows are painted, then shows every appended chunk, newest first', async () => {
    await show(events(200), [events(2500, 200), events(2500, 2700), events(300, 5200)]);
    await page.locator('#count', { hasText: /^5,500 rows$/ }).waitFor();
    const painted = await page.evaluate(() =>
      (browser$().__posted as Array<{ type: string; runId?: string }>).filter((m) => m.type === 'painted'),
    );
    assert.deepEqual(painted, [{ type: 'painted', runId: 'run-1' }]);
    // Newest first across all chunks: the last event of the last chunk heads the table.
    await newestRowIs(5499);
    assert.match(await page.locator('#run-summary').innerText(), /^5,500 rows/);
  });

  it('counts the run by its total from the first rows on, while the rest is on its way', async () => {
    const all = events(1000);
    const [first, rest] = host.messages(RUN as never, all, [], { first: 200 });
    assert.equal((first as { total?: number }).total, 1000);
    await page.evaluate((m) => browser$().postMessage(m, '*'), first as unknown);
    await page.locator('#grid .row').first().waitFor();
    // Only the first 200 rows are on the page: the count is still the run's.
    assert.match(await page.locator('#run-summary').innerText(), /^1,000 rows/);
    assert.equal(await count(), '1,000 rows');
    await page.evaluate((m) => browser$().postMessage(m, '*'), rest as unknown);
    await newestRowIs(999);
    assert.match(await page.locator('#run-summary').innerText(), /^1,000 rows/);
    assert.equal(await count(), '1,000 rows');
  });

  it('keeps its script and styles in the page, run by its nonce alone', async () => {
    assert.match(fixture.html, /<script nonce="[^"]+">[^<]/);
    assert.doesNotMatch(fixture.html, /<script[^>]* src=/);
    assert.doesNotMatch(fixture.html, /<link rel="stylesheet"/);
    assert.match(fixture.html, /script-src 'nonce-[^']+'/);
    assert.doesNotMatch(fixture.html, /unsafe-inline|unsafe-eval/);
    assert.equal(await page.locator('#count').count(), 1, 'the inline bundle built the page');
  });

  it('takes what was posted while it loaded at once, each message once and in order', async () => {
    const loading = await fixture.browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors: string[] = [];
    loading.on('pageerror', (e) => errors.push(e.message));
    try {
      await loading.addInitScript(vscodeApiScript({ violations: 'directive' }));
      const loadingHost = await ResultsHost.attach(loading);
      // The page's bundle is slow to come, as in a webview that is still starting.
      let release!: () => void;
      const bundleHeld = new Promise<void>((r) => (release = r));
      await loading.route('**/results.js', async (route) => {
        await bundleHeld;
        await route.continue();
      });
      const opened = loading.goto(`${fixture.origin}/linked`);
      await loading.waitForFunction(() => typeof browser$().takeEarlyMessages === 'function');
      const [results, append, last] = loadingHost
        .messages(RUN as never, events(50), [events(30, 50), events(20, 80)])
        .map((m, i) => ({ ...(m as object), seq: i + 1 }));
      // Posted before the bundle ran; the second is lost on the way, so the third must wait for it.
      await loading.evaluate(
        ([a, c]) => {
          browser$().postMessage(a, '*');
          browser$().postMessage(c, '*');
        },
        [results, last],
      );
      release();
      await opened;
      await loading.locator('#count', { hasText: /^50 rows$/ }).waitFor();
      const posted = await loading.evaluate(() => (browser$().__posted as Array<{ type: string }>).map((m) => m.type));
      assert.equal(posted[0], 'ready');
      // After "ready" the extension sends them all again: the first is not taken twice.
      await loading.evaluate(
        (list) => {
          for (const m of list) browser$().postMessage(m, '*');
        },
        [results, append, last, append],
      );
      await loading.locator('#count', { hasText: /^100 rows$/ }).waitFor();
      await loading.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      assert.equal(await loading.locator('#count').innerText(), '100 rows');
      assert.deepEqual(await loading.evaluate(() => browser$().__violations), []);
      assert.deepEqual(errors, []);
    } finally {
      await loading.close();
    }
  });

  it('ignores appends of an older run and malformed rows without losing the table', async () => {
    await show(events(50));
    await page.locator('#count', { hasText: /^50 rows$/ }).waitFor();
    await page.locator('#grid .row').first().waitFor();
    const older = host.messages({ ...RUN, runId: 'older-run' } as never, [], [events(5)])[1];
    await page.evaluate((older) => {
      const w = browser$();
      const enc = (t: string): unknown => new w.TextEncoder().encode(t);
      const table = (count: number, cells: string): unknown => ({
        count,
        times: new w.Float64Array(count),
        columns: [{ id: 'udm.metadata.eventType', label: 'Event type' }],
        cells: enc(cells),
      });
      w.postMessage(older, '*');
      // Rows as JSON (the old form), cells that are not JSON, cells that do not match the rows.
      w.postMessage({ type: 'append', runId: 'run-1', rowsJson: '[{"udm":{}}]' }, '*');
      w.postMessage({ type: 'append', runId: 'run-1', table: table(1, 'not json') }, '*');
      w.postMessage({ type: 'append', runId: 'run-1', table: table(2, '[["a"]]') }, '*');
      w.postMessage({ type: 'append', runId: 'run-1', table: table(0, '[[]]') }, '*');
    }, older as unknown);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    assert.equal(await count(), '50 rows');
    assert.equal(await page.locator('#grid .row').first().isVisible(), true);
  });

  it('a new run keeps the previous rows, marked as the earlier run’s, until its own rows come', async () => {
    await show(events(30));
    await page.locator('#grid .row').first().waitFor();
    await page.evaluate(() =>
      browser$().postMessage({ type: 'running', title: 'metadata.event_type = "USER_LOGIN"' }, '*'),
    );
    await page.locator('#run-summary', { hasText: /^Running…/ }).waitFor();
    assert.equal(await page.locator('#run-title').innerText(), 'metadata.event_type = "USER_LOGIN"');
    await page.locator('#earlier-run', { hasText: /^The rows below are from the earlier run "/ }).waitFor();
    assert.equal(await page.locator('#grid .row').first().isVisible(), true, 'the earlier rows stay');
    // The new run's rows replace them, and the mark goes.
    await show(events(5));
    await page.locator('#earlier-run').waitFor({ state: 'hidden' });
    assert.equal(await page.locator('#earlier-run').innerText(), '');
  });

  it('a failed run keeps the earlier rows on screen, marked as from the earlier run', async () => {
    await show(events(30));
    await page.locator('#grid .row').first().waitFor();
    await page.evaluate(() => {
      const w = browser$();
      w.postMessage({ type: 'running', title: 'metadata.event_type = "USER_LOGIN"' }, '*');
      w.postMessage(
        {
          type: 'failed',
          title: 'metadata.event_type = "USER_LOGIN"',
          cancelled: false,
          message: 'the connection to the server failed (ECONNREFUSED)',
        },
        '*',
      );
    });
    await page.locator('#run-summary', { hasText: /^Failed: the connection/ }).waitFor();
    await page.locator('#earlier-run', { hasText: /from the earlier run ".*": this search failed\./ }).waitFor();
    assert.equal(await page.locator('#grid .row').first().isVisible(), true, 'the table is not emptied');
    assert.equal(await count(), '30 rows');
  });

  it('a cut answer says which part of the range the rows cover and offers the rest or the newest part', async () => {
    await show(events(100), [], {
      moreDataAvailable: true,
      run: { covered: { start: '2026-01-01T18:00:00Z', end: '2026-01-02T00:00:00Z' }, restSearches: 4 },
    });
    await page.locator('#banner.visible').waitFor();
    const text = await page.locator('#banner-text').innerText();
    assert.match(
      text,
      /cover only 2026-01-01T18:00:00Z – 2026-01-02T00:00:00Z of the range 2026-01-01T00:00:00Z – 2026-01-02T00:00:00Z/,
    );
    assert.equal(await page.locator('#fetch-rest').innerText(), 'Fetch the rest (about 4 searches)');
    assert.equal(await page.locator('#narrow-newest').innerText(), 'Search only the newest 6 h');
    await page.locator('#fetch-rest').click();
    const posted = await page.evaluate(() => browser$().__posted as Array<{ type: string; runId?: string }>);
    assert.ok(posted.some((m) => m.type === 'fetchRest' && m.runId === 'run-1'));
  });

  it('the filter suggests fields, finds rows by a path without "udm." and says what it searched', async () => {
    await show(events(200));
    await page.locator('#count', { hasText: /^200 rows$/ }).waitFor();
    await page.locator('#filter').click();
    await page.keyboard.type('hostn');
    await page.locator('#filter-suggest .suggestion', { hasText: 'principal.hostname:' }).first().waitFor();
    await page.locator('#filter').fill('principal.hostname:host-3');
    await page.locator('#count', { hasText: /^20 of 200 rows$/ }).waitFor();
    await page.locator('#filter').fill('hostname:host-7');
    await page.locator('#count', { hasText: /^20 of 200 rows$/ }).waitFor();
    await page.locator('#filter').fill('principal.hostname:nowhere');
    await page.locator('#count', { hasText: /^0 of 200 rows$/ }).waitFor();
    assert.match(await page.locator('#empty').innerText(), /"principal\.hostname" searched .*principal\.hostname/);
  });

  it('a filter, its clearing and new rows each show in the order the sort gives them, sorted or not', async () => {
    const filter = async (text: string, label: RegExp): Promise<void> => {
      await page.locator('#filter').fill(text);
      await page.locator('#count', { hasText: label }).waitFor();
    };
    await show(events(100));
    await page.locator('#count', { hasText: /^100 rows$/ }).waitFor();
    await filter('host-3', /^10 of 100 rows$/);
    await newestRowIs(93);
    await filter('', /^100 rows$/);
    await newestRowIs(99);
    // Sorted by time, oldest first, then newest first: the filter's rows follow each sort.
    const time = page.locator('#grid-header [data-column="udm.metadata.eventTimestamp"]');
    await time.click();
    await page.locator('#grid-header [data-column="udm.metadata.eventTimestamp"][aria-sort="ascending"]').waitFor();
    await newestRowIs(0);
    await filter('host-3', /^10 of 100 rows$/);
    await newestRowIs(3);
    await time.click();
    await page.locator('#grid-header [data-column="udm.metadata.eventTimestamp"][aria-sort="descending"]').waitFor();
    await newestRowIs(93);
    await filter('', /^100 rows$/);
    await newestRowIs(99);
    // Another run, its rows in two parts: nothing of the earlier rows' order is used for them.
    await show(events(200, 1000), [events(100, 1200)], { run: { runId: 'run-2' } });
    await page.locator('#count', { hasText: /^300 rows$/ }).waitFor();
    await newestRowIs(1299);
    await filter('host-7', /^30 of 300 rows$/);
    await newestRowIs(1297);
  });

  it('asks the extension for one filter at a time: keys typed while it answers wait for that answer', async () => {
    await show(events(100));
    await page.locator('#count', { hasText: /^100 rows$/ }).waitFor();
    const filters = (): number => host.requests.filter((r) => r === 'rows.filter').length;
    const release = host.holdFilters();
    await page.locator('#filter').pressSequentially('host-3', { delay: 30 });
    await page.locator('#count', { hasText: /^Filtering/ }).waitFor();
    assert.equal(filters(), 1, 'only the first key was asked while its answer was on its way');
    release();
    await page.locator('#count', { hasText: /^10 of 100 rows$/ }).waitFor();
    await newestRowIs(93);
    assert.equal(filters(), 2, 'the first key, then the whole filter once');
    // An answer lost on the way holds the latest filter up for a while only.
    host.holdFilters(true);
    await page.locator('#filter').pressSequentially(' -dns', { delay: 30 });
    await page.locator('#count', { hasText: /^Filtering/ }).waitFor();
    const asked = filters();
    host.holdFilters()(); // answered again from now on; the filter asked meanwhile stays lost
    await page.locator('#count', { hasText: /^0 of 100 rows$/ }).waitFor({ timeout: 10_000 });
    assert.equal(filters(), asked + 1, 'the latest filter, asked again once');
  });

  it('the histogram has a labelled axis and counts, follows the filter, and a click picks a period', async () => {
    await show(events(600));
    await page.locator('#histogram-wrap.visible').waitFor();
    const ticks = await page.locator('#histogram-axis .tick:not([hidden])').allInnerTexts();
    // Every three hours: at 1,200 px all nine labels fit (the narrow-panel test thins them).
    assert.deepEqual(ticks, ['00:00', '03:00', '06:00', '09:00', '12:00', '15:00', '18:00', '21:00', '00:00']);
    // 600 events, one a minute, over the first 10 hours of a 24-hour range in 30-minute bars: 30 in each.
    assert.equal(await page.locator('#histogram-scale .max').innerText(), '30');
    assert.equal(await page.locator('#histogram .bar').count(), 48);
    await page.locator('#filter').fill('hostname:host-1');
    await page.waitForFunction(() => browser$().document.querySelector('#histogram-scale .max')?.textContent !== '30');
    const filteredMax = Number(await page.locator('#histogram-scale .max').innerText());
    assert.equal(filteredMax, 3, 'one event in ten is on host-1');
    await page.locator('#filter').fill('');
    await page.locator('#count', { hasText: /^600 rows$/ }).waitFor();

    await page.locator('#histogram .bar[data-bin="0"]').click();
    await page.locator('#period.visible').waitFor();
    assert.match(await count(), /^30 of 600 rows$/);
    assert.match(await page.locator('#period-text').innerText(), /Showing 2026-01-01 00:00 UTC – 2026-01-01 00:30 UTC/);
    await page.locator('#period-search').click();
    const posted = await page.evaluate(() => browser$().__posted as Array<Record<string, unknown>>);
    assert.deepEqual(
      posted.filter((m) => m.type === 'searchPeriod'),
      [
        {
          type: 'searchPeriod',
          runId: 'run-1',
          startTime: '2026-01-01T00:00:00.000Z',
          endTime: '2026-01-01T00:30:00.000Z',
        },
      ],
    );
    await page.locator('#period-clear').click();
    await page.locator('#count', { hasText: /^600 rows$/ }).waitFor();
  });

  it('in a narrow panel, sorting by a partly hidden column keeps every header over its column', async () => {
    await page.setViewportSize({ width: 520, height: 500 });
    await show(events(100));
    await page.locator('#count', { hasText: /^100 rows$/ }).waitFor();
    const target = page.locator('#grid-header [data-column="udm.target.hostname"]');
    const box = (await target.boundingBox())!;
    const edge = await page.evaluate(() => {
      const viewport = browser$().document.querySelector('#viewport');
      return viewport.getBoundingClientRect().left + viewport.clientWidth;
    });
    assert.ok(box.x < edge && box.x + box.width > edge, `the Target header is cut by the panel's edge: ${box.x}`);
    // The click brings the header into view first, as focusing it does in the editor.
    await target.click();
    await page.locator('#grid-header [data-column="udm.target.hostname"][aria-sort="ascending"]').waitFor();
    await page.evaluate(
      () => new Promise((r) => browser$().requestAnimationFrame(() => browser$().requestAnimationFrame(r))),
    );
    const geometry = await page.evaluate(() => {
      const d = browser$().document;
      const left = (e: any): number => Math.round(e.getBoundingClientRect().left);
      const row = d.querySelector('#grid .row[data-pos="0"]');
      return {
        headers: [...d.querySelectorAll('#grid-header .cell')].map(left),
        cells: [...row.children].map(left),
        headerTop: Math.round(d.querySelector('#grid-header').getBoundingClientRect().top),
        viewportTop: Math.round(d.querySelector('#viewport').getBoundingClientRect().top),
      };
    });
    assert.deepEqual(geometry.headers, geometry.cells, 'each header sits over its column');
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results', 'results-narrow-sorted.png') });
    assert.equal(geometry.headerTop, geometry.viewportTop, 'the header stays at the top of the table');
    // And scrolled sideways by hand, down the rows, the header follows the rows.
    await page.locator('#viewport').evaluate((e) => {
      e.scrollLeft = 200;
      e.scrollTop = 22 * 40;
    });
    await page.evaluate(
      () => new Promise((r) => browser$().requestAnimationFrame(() => browser$().requestAnimationFrame(r))),
    );
    const after = await page.evaluate(() => {
      const d = browser$().document;
      const left = (e: any): number => Math.round(e.getBoundingClientRect().left);
      const row = d.querySelector('#grid .row[data-pos="45"]');
      return { headers: [...d.querySelectorAll('#grid-header .cell')].map(left), cells: [...row.children].map(left) };
    });
    assert.deepEqual(after.headers, after.cells, 'each header sits over its column after scrolling');
  });

  it('holds only the shown columns: the detail pane, new columns and word filters ask the extension for the events', async () => {
    const rows = events(300).map((e, i) => ({
      ...(e as object),
      udm: { ...(e as any).udm, about: { labels: [{ value: `tag-${i}` }] } },
    }));
    await show(rows.slice(0, 200), [rows.slice(200)]);
    await page.locator('#count', { hasText: /^300 rows$/ }).waitFor();
    // A word that is in no shown column is found in the events.
    await page.locator('#filter').fill('tag-123');
    await page.locator('#count', { hasText: /^1 of 300 rows$/ }).waitFor();
    await page.locator('#filter').fill('');
    await page.locator('#count', { hasText: /^300 rows$/ }).waitFor();

    // The detail pane shows the whole event, which the page never held.
    await page.locator('#grid .row').first().click();
    const label = page.locator('#detail-tree [data-path="udm.about.labels.value"]');
    await label.waitFor({ state: 'attached' });
    assert.equal(await label.textContent(), 'value: tag-299');
    assert.match(await page.locator('#detail-tree').innerText(), /name: events\/299/);

    // Sorting by a shown column uses its cells: host-0 first (ascending), then the same order reversed.
    await page.locator('#grid-header [data-column="udm.principal.hostname"]').click();
    await page.waitForFunction(() => /host-0/.test(browser$().document.querySelector('#grid .row')?.textContent ?? ''));
    // An export asks for the rows in that sort, in the shown columns (or every field when ticked).
    await page.locator('#export-csv').click();
    await page.locator('#export-all-columns').check();
    await page.locator('#export-json').click();
    const exports = await page.evaluate(() => (browser$().__posted as any[]).filter((m) => m.type === 'export'));
    assert.deepEqual([exports[0].sort?.column.id, exports[0].sort?.direction], ['udm.principal.hostname', 'asc']);
    assert.equal(exports[0].allColumns, undefined);
    assert.equal(exports[1].allColumns, true);
    await page.locator('#export-all-columns').uncheck();

    // The chooser lists every field of the events (asked for), and a chosen column gets its cells.
    await page.locator('#columns-button').click();
    await page.locator('#chooser-filter').fill('labels');
    const box = page.locator('#chooser-list input[data-column="udm.about.labels.value"]');
    await box.waitFor();
    // The chooser names fields as UDM does, not by their path in the API's answer.
    assert.equal(
      (
        await page
          .locator('#chooser-list label', { has: page.locator('input[data-column="udm.about.labels.value"]') })
          .innerText()
      ).trim(),
      'about.labels.value',
    );
    await page.locator('#chooser-filter').fill('');
    const names = await page.locator('#chooser-list label').allInnerTexts();
    assert.ok(names.length > 3 && names.every((n) => !n.trim().startsWith('udm.')), names.join(', '));
    await page.locator('#chooser-filter').fill('labels');
    await box.check();
    await page.locator('#grid-header [data-column="udm.about.labels.value"]').waitFor();
    await page.waitForFunction(() =>
      Array.from<any>(browser$().document.querySelectorAll('#grid .row')).some((r: any) =>
        /tag-\d+/.test(r.textContent),
      ),
    );
    assert.deepEqual([...new Set(host.requests)].sort(), ['rows.cells', 'rows.event', 'rows.fields', 'rows.filter']);
    const posted = await page.evaluate(() => browser$().__posted as Array<{ type: string; kind?: string }>);
    assert.ok(
      posted.some((m) => m.type === 'columns' && m.kind === 'udm'),
      'the chosen columns are told to the extension for the next results',
    );
  });
});
