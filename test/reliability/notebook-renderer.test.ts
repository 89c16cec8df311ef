// The UDM notebook renderer (dist/webview/notebook-renderer.js, the ES module VS Code loads into a
// notebook's output webview) in headless Chromium, under a CSP as strict as the results panel's (no
// inline script or style, no eval): kept results as a virtualized table that sorts and filters,
// hostile values inserted as text, row actions posted to the extension, and a statistics table
// with its chart.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT, launchChromium, serveWebviewPages } from './webview-harness';

const browser$ = (): any => globalThis as any;
const BUNDLE = join(ROOT, 'dist/webview/notebook-renderer.js');
const NONCE = 'bm90ZWJvb2stcmVuZGVyZXI';
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

interface Box {
  label: string;
  left: number;
  right: number;
}

function pageHtml(origin: string): string {
  return `<!doctype html>
<html><head>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${NONCE}' ${origin}; style-src ${origin}; img-src ${origin}">
</head><body><div id="out"></div>
<script type="module" nonce="${NONCE}">
import { activate } from '${origin}/dist/webview/notebook-renderer.js';
const renderer = activate({ postMessage: (m) => window.__posted.push(m) });
window.__render = (data) =>
  renderer.renderOutputItem({ id: 'o1', mime: 'application/vnd.cloudbench.udm-results+json', json: () => data }, document.getElementById('out'));
window.__ready = true;
</script></body></html>`;
}

function event(i: number): unknown {
  return {
    name: `events/${i}`,
    udm: {
      metadata: {
        id: `id-${String(i).padStart(4, '0')}`,
        eventTimestamp: new Date(Date.parse('2026-11-20T10:00:00Z') + i * 1000).toISOString(),
        eventType: 'USER_LOGIN',
      },
      principal: { hostname: i === 37 ? HOSTILE : `host-${i % 10}`, user: { userid: `user-${i % 3}` } },
      securityResult: [{ action: ['BLOCK'] }],
    },
  };
}

function results(n: number): unknown {
  return {
    kind: 'results',
    ranAt: '2026-11-20T11:00:05.000Z',
    durationMs: 120,
    query: 'metadata.event_type = "USER_LOGIN"',
    window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' },
    totalEvents: n + 500,
    moreDataAvailable: true,
    keptRows: n,
    events: Array.from({ length: n }, (_, i) => event(i)),
  };
}

describe('reliability: the UDM notebook renderer (headless Chromium)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let browser: Browser;
  let page: Page;
  let html = '';

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build (npm test does) first`);
    server = await serveWebviewPages(() => ({ '/': html }));
    html = pageHtml(server.origin);
    browser = await launchChromium('nbrenderer');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.addInitScript(`
      window.__name = (f) => f;
      window.browser$ = () => window;
      window.__posted = [];
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
    `);
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => browser$().__ready === true);
  });

  afterEach(async () => {
    await page?.close();
  });

  const render = (data: unknown): Promise<void> => page.evaluate((d) => browser$().__render(d), data);
  const rowTexts = (): Promise<string[]> =>
    page.$$eval('.cb-scroll .cb-row', (els) =>
      [...els].sort((a, b) => (a as any).offsetTop - (b as any).offsetTop).map((e) => e.textContent ?? ''),
    );

  it('draws only the rows in view of 2,000 kept events, says how much was kept, styled without a CSP violation', async () => {
    await render(results(2000));
    await page.waitForSelector('.cb-row');
    const note = (await page.textContent('[data-testid="kept-note"]')) ?? '';
    assert.match(note, /^2,500 events \(cut at the limit\), the newest 2,000 kept in the notebook/);
    const drawn = await page.$$eval('.cb-scroll .cb-row', (els) => els.length);
    assert.ok(drawn > 0 && drawn < 100, `virtualized: ${drawn} rows in the DOM for 2,000`);
    // The header row counts among the grid's rows.
    assert.equal(await page.getAttribute('.cb-scroll', 'aria-rowcount'), '2001');
    assert.match((await page.textContent('.cb-bar .cb-note')) ?? '', /^2,000 rows$/);
    // The stylesheet applies (the head row is a grid), and nothing was blocked.
    assert.equal(await page.$eval('.cb-head', (e) => browser$().getComputedStyle(e).display), 'grid');
    assert.equal((await page.$$eval('.cb-hist div', (els) => els.length)) > 0, true, 'the timeline is drawn');
    // Scrolling draws the rows further down (newest first: the 1,500th row down is event 499).
    await page.$eval('.cb-scroll', (e) => (e.scrollTop = 22 * 1500));
    await page.waitForFunction(() =>
      [...browser$().document.querySelectorAll('.cb-scroll .cb-row')].some((r: any) => r.dataset.row === '499'),
    );
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
  });

  it('inserts hostile values as text, sorts, filters, and posts row actions', async () => {
    await render(results(40));
    await page.waitForSelector('.cb-row');
    const texts = await rowTexts();
    assert.ok(
      texts.some((t) => t.includes(HOSTILE)),
      'the hostile host name shows as its text',
    );
    assert.equal(await page.evaluate(() => browser$().__pwned), undefined);
    assert.equal(await page.$$eval('.cb-out img', (els) => els.length), 0);

    // Unsorted, the table opens newest first, as the results panel does (the events came oldest first).
    const timeHead = page.locator('.cb-head button', { hasText: /^Time/ });
    assert.equal(await timeHead.getAttribute('aria-sort'), null);
    assert.match(texts[0], /2026-11-20T10:00:39/, `newest first before any sort: ${texts[0]}`);
    const times = texts.map((t) => t.match(/2026-11-20T[\d:.]+Z/)?.[0] ?? '');
    assert.deepEqual(times, [...times].sort().reverse(), 'the rows in view run from newest to older');
    // Sort by the event time: ascending on the first click, descending on the second.
    await timeHead.click();
    assert.match((await rowTexts())[0], /2026-11-20T10:00:00/, 'oldest first after sorting ascending');
    await timeHead.click();
    assert.equal(await timeHead.getAttribute('aria-sort'), 'descending');
    const first = (await rowTexts())[0];
    assert.match(first, /2026-11-20T10:00:39/, `newest first after sorting descending: ${first}`);

    // Filter: words and field:value.
    await page.fill('.cb-bar input', 'host-3');
    await page.waitForFunction(() =>
      /of 40 rows/.test(browser$().document.querySelector('.cb-bar .cb-note').textContent),
    );
    const filtered = await rowTexts();
    assert.equal(filtered.length, 4);
    assert.ok(filtered.every((t) => t.includes('host-3')));

    // A row's detail offers the row actions; they post pivots with the result's window.
    await page.click('.cb-scroll .cb-row');
    await page.click('.cb-detail button:text-is("Full event")');
    const posted = (await page.evaluate(() => browser$().__posted)) as Array<Record<string, unknown>>;
    assert.deepEqual(posted[0], {
      type: 'pivot',
      action: 'fullEvent',
      value: (await page.textContent('.cb-detail pre'))!.match(/"id": "(id-\d+)"/)![1],
      start: '2026-11-20T10:00:00Z',
      end: '2026-11-20T11:00:00Z',
    });
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
  });

  it('renders a statistics table with its chart, sortable, hostile groups as text', async () => {
    await render({
      kind: 'statistics',
      ranAt: '2026-11-20T11:00:05.000Z',
      durationMs: 80,
      query: 'q',
      window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' },
      eventsFetched: 47,
      searches: 1,
      partial: 'fetching the rest was not approved',
      timeZone: 'UTC',
      columns: [
        { name: 'principal.hostname', role: 'key', type: 'string' },
        { name: 'failures', role: 'outcome', type: 'number' },
      ],
      rows: [
        ['host-a', 30],
        [HOSTILE, 5],
        ['host-b', 12],
      ],
      totalRows: 3,
      keptRows: 3,
      warnings: [],
    });
    await page.waitForSelector('.cb-static-row');
    assert.match((await page.textContent('.cb-partial')) ?? '', /Partial table: fetching the rest was not approved/);
    const bars = await page.$$eval('.cb-chart div', (els) =>
      els.map((e) => [e.getAttribute('title'), (e as any).style.height]),
    );
    assert.deepEqual(bars, [
      ['host-a: 30', '100%'],
      [`${HOSTILE}: 5`, '17%'],
      ['host-b: 12', '40%'],
    ]);
    await page.click('.cb-head button:text-is("$failures")');
    const order = await page.$$eval('.cb-static-row', (els) => els.map((e) => e.lastElementChild?.textContent));
    assert.deepEqual(order, ['30', '12', '5'], 'a number column sorts largest first');
    assert.equal(await page.evaluate(() => browser$().__pwned), undefined);
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
  });

  /** The shown tick labels of the chart at `box` (visible, with their boxes) and the axis' own box. */
  async function ticksOf(box: string): Promise<{ ticks: Box[]; axis: { left: number; right: number } }> {
    return page.$eval(box, (b) => {
      const axis = b.querySelector('.cb-axis').getBoundingClientRect();
      const ticks = [...b.querySelectorAll('.cb-axis .tick')]
        .filter((t: any) => !t.hidden)
        .map((t: any) => {
          const r = t.getBoundingClientRect();
          return { label: t.textContent, left: r.left, right: r.right };
        });
      return { ticks, axis: { left: axis.left, right: axis.right } };
    });
  }

  function assertApartAndInside({ ticks, axis }: Awaited<ReturnType<typeof ticksOf>>, min: number): void {
    assert.ok(ticks.length >= min, `${ticks.length} labels: ${ticks.map((t) => t.label).join(', ')}`);
    for (let i = 1; i < ticks.length; i++)
      assert.ok(ticks[i].left >= ticks[i - 1].right, `"${ticks[i - 1].label}" and "${ticks[i].label}" overlap`);
    for (const t of ticks)
      assert.ok(t.left >= axis.left - 1 && t.right <= axis.right + 1, `${t.label} leaves the axis`);
  }

  for (const width of [400, 1100]) {
    it(`at ${width} px the timeline and the statistics chart have labelled axes, thinned to fit`, async () => {
      await page.setViewportSize({ width, height: 800 });
      // Events over the whole hour: the time axis reads 10:00 … 11:00.
      const spread = results(120) as { events: Array<{ udm: { metadata: { eventTimestamp: string } } }> };
      spread.events.forEach(
        (e, i) =>
          (e.udm.metadata.eventTimestamp = new Date(Date.parse('2026-11-20T10:00:00Z') + i * 30_000).toISOString()),
      );
      await render(spread);
      await page.waitForSelector('.cb-row');
      mkdirSync(join(ROOT, 'test-results', 'narrow'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-results', 'narrow', `notebook-results-${width}.png`) });
      const timeline = await ticksOf('.cb-chart-box');
      assertApartAndInside(timeline, 2);
      assert.equal(timeline.ticks[0].label, '10:00');
      if (width > 1000) assert.ok(timeline.ticks.length >= 6, 'a wide output keeps more labels');
      assert.equal(await page.textContent('.cb-chart-box .cb-max'), '2', 'the value scale shows the largest bar');
      assert.match(
        (await page.textContent('.cb-chart-box .cb-axis-title')) ?? '',
        /^Time \(UTC\) · bar height: events$/,
      );

      // A statistics table of 30 hosts with long names.
      await render({
        kind: 'statistics',
        ranAt: '2026-11-20T11:00:05.000Z',
        durationMs: 80,
        query: 'q',
        window: { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' },
        eventsFetched: 900,
        searches: 1,
        timeZone: 'UTC',
        columns: [
          { name: 'principal.hostname', role: 'key', type: 'string' },
          { name: 'logins', role: 'outcome', type: 'number' },
        ],
        rows: Array.from({ length: 30 }, (_, k) => [`workstation-${k}.corp.example`, 10 + k]),
        totalRows: 30,
        keptRows: 30,
        warnings: [],
      });
      await page.waitForSelector('.cb-static-row');
      await page.screenshot({ path: join(ROOT, 'test-results', 'narrow', `notebook-stats-${width}.png`) });
      const stats = await ticksOf('.cb-chart-box');
      assertApartAndInside(stats, 2);
      assert.match(stats.ticks[0].label, /^workstation-/);
      assert.match((await page.textContent('.cb-chart-box .cb-axis-title')) ?? '', /principal\.hostname · bar height/);
      assert.ok(Number((await page.textContent('.cb-chart-box .cb-max'))?.replace(/,/g, '')) >= 39);
      assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    });
  }

  it('says so for an output it cannot show', async () => {
    await render({ kind: 'something-else' });
    assert.match((await page.textContent('#out')) ?? '', /not a UDM result this version can show/);
  });
});
