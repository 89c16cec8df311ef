// The statistics view (dist/webview/stats.js) in headless Chromium, on the HTML and CSP that
// StatisticsPanel generates under the vscode fake: the table, the header that says the figures were
// computed locally, the partial mark inside the table, the chart, sort, filter, drill-down and
// exports, with hostile group values inserted as text and no CSP violation.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type * as PanelModule from '../../src/features/statistics/panel';
import { useFakeVscode } from '../unit/fakes/vscode';
import {
  ROOT,
  capturingWebview,
  launchChromium,
  openReadyPage,
  serveWebviewPages,
  vscodeApiScript,
} from './webview-harness';

const browser$ = (): any => globalThis as any;
const BUNDLE = join(ROOT, 'dist/webview/stats.js');

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

function statsPageHtml(origin: string): string {
  const { webview, html } = capturingWebview(origin);
  vscode.window.createWebviewPanel = () => ({
    webview,
    onDidDispose: () => ({ dispose() {} }),
    reveal() {},
    dispose() {},
    title: '',
    iconPath: undefined,
    viewColumn: 1,
  });
  const { StatisticsPanelSlot } = require('../../src/features/statistics/panel') as typeof PanelModule;
  const panel = new StatisticsPanelSlot().show(vscode.Uri.file(ROOT), () => undefined);
  panel.dispose();
  return html();
}

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

function tableMessage(partial?: string): unknown {
  return {
    type: 'table',
    run: {
      runId: 'run-1',
      title: 'metadata.event_type = "USER_LOGIN" match: principal.hostname outcome: $logins = count(metadata.id)',
      startTime: '2026-11-24T10:00:00Z',
      endTime: '2026-11-25T10:00:00Z',
      eventsFetched: 47,
      searches: 3,
      groupsTotal: 3,
      timeZone: 'UTC',
      warnings: [],
      ...(partial ? { partial } : {}),
    },
    columns: [
      { name: 'principal.hostname', role: 'key', type: 'string' },
      { name: 'logins', role: 'outcome', type: 'number' },
    ],
    rowsJson: JSON.stringify([
      ['host-a', 30],
      [HOSTILE, 5],
      ['host-b', 12],
    ]),
  };
}

describe('reliability: the statistics view (headless Chromium)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let browser: Browser;
  let page: Page;
  let html = '';

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build (npm test does) first`);
    server = await serveWebviewPages(() => ({ '/': html }));
    html = statsPageHtml(server.origin);
    browser = await launchChromium('stats');
  });

  after(async () => {
    delete vscode.window.createWebviewPanel;
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.addInitScript(vscodeApiScript());
    await openReadyPage(page, `${server.origin}/`);
  });

  afterEach(async () => {
    await page?.close();
  });

  const send = (message: unknown): Promise<void> => page.evaluate((m) => browser$().postMessage(m, '*'), message);
  const posted = (): Promise<Array<Record<string, unknown>>> => page.evaluate(() => browser$().__posted);

  it('the page is locked down: scripts by nonce only, no inline styles', () => {
    assert.match(html, /default-src 'none'/);
    assert.match(html, /script-src 'nonce-[^']+'/);
    assert.doesNotMatch(html, /unsafe-inline/);
  });

  it('shows one row per group, says it was computed locally, charts it, inserts values as text', async () => {
    await send(tableMessage());
    await page.waitForSelector('.stats-row');
    assert.match(
      (await page.textContent('#stats-summary')) ?? '',
      /Computed by Cloudbench over 47 events fetched from the API \(3 searches\)/,
    );
    const heads = await page.$$eval('.stats-head-cell', (els) => els.map((e) => e.textContent));
    assert.deepEqual(heads, ['principal.hostname', '$logins']);
    const cells = await page.$$eval('.stats-row', (els) => els.map((e) => e.textContent));
    assert.equal(cells.length, 3);
    assert.ok(cells.includes(`${HOSTILE}5`), 'the hostile value shows as its text');
    assert.equal(await page.evaluate(() => browser$().__pwned), undefined);
    assert.equal(await page.isVisible('#stats-partial'), false, 'a complete table is not marked partial');
    assert.equal(await page.isVisible('#stats-chart'), true);
    const kinds = await page.$$eval('#stats-chart-kind option', (els) => els.map((e) => e.textContent));
    assert.deepEqual(kinds, ['Bars', 'Table only']);
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(ROOT, 'test-results', 'stats-view.png') });
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
  });

  it('marks a partial table inside the table, sorts, filters, drills down and exports', async () => {
    await send(tableMessage('computed over the first 10 events only: fetching the rest was not approved'));
    await page.waitForSelector('.stats-row');
    assert.equal(await page.isVisible('#stats-partial'), true);
    assert.match((await page.textContent('#stats-partial')) ?? '', /Partial table: computed over the first 10 events/);

    // numbers sort largest first on the first click
    await page.click('.stats-head-cell >> nth=1');
    const sorted = await page.$$eval('.stats-row', (els) =>
      [...els].sort((a, b) => a.offsetTop - b.offsetTop).map((e) => e.lastElementChild?.textContent),
    );
    assert.deepEqual(sorted, ['30', '12', '5']);

    await page.fill('#stats-filter', 'host-b');
    await page.waitForFunction(() => browser$().document.querySelectorAll('.stats-row').length === 1);
    assert.match((await page.textContent('#stats-count')) ?? '', /1 of 3 groups/);

    await page.click('.stats-row');
    await page.click('.stats-export >> text=CSV');
    await page.click('#stats-copy');
    const msgs = await posted();
    assert.deepEqual(
      msgs.find((m) => m.type === 'openGroup'),
      { type: 'openGroup', runId: 'run-1', row: 2 },
      'the row index is the table row, not the shown position',
    );
    assert.deepEqual(
      msgs.find((m) => m.type === 'export'),
      { type: 'export', runId: 'run-1', format: 'csv' },
    );
    const copy = msgs.find((m) => m.type === 'copy');
    assert.equal(copy?.text, 'principal.hostname,$logins\r\nhost-b,12\r\n', 'copy takes the shown rows');
  });

  it('the keyboard moves through the groups and Enter opens one; a narrow panel keeps headers over their columns', async () => {
    await page.setViewportSize({ width: 180, height: 700 });
    await send(tableMessage());
    await page.waitForSelector('.stats-row');
    await page.focus('#stats-body');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.locator('.stats-row[aria-selected="true"][data-row="1"]').waitFor();
    await page.keyboard.press('Enter');
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'openGroup'),
      [{ type: 'openGroup', runId: 'run-1', row: 1 }],
    );
    // The number column is past the panel's edge: scrolled to, its header comes along with its cells.
    await page.$eval('#stats-body', (e) => (e.scrollLeft = e.scrollWidth));
    await page.waitForFunction(() => browser$().document.querySelector('#stats-body').scrollLeft > 20);
    const lefts = await page.evaluate(() => {
      const d = browser$().document;
      const left = (e: any): number => Math.round(e.getBoundingClientRect().left);
      return {
        heads: [...d.querySelectorAll('.stats-head-cell')].map(left),
        cells: [...d.querySelector('.stats-row[data-pos="0"]').children].map(left),
      };
    });
    assert.deepEqual(lefts.heads, lefts.cells);
  });

  it('a table with nothing to chart shows only the table; a failed run shows the error', async () => {
    const message = tableMessage() as { columns: unknown[]; rowsJson: string };
    message.columns = [
      { name: 'principal.hostname', role: 'key', type: 'string' },
      { name: 'ips', role: 'outcome', type: 'array' },
    ];
    message.rowsJson = JSON.stringify([['h', ['10.0.0.1', '10.0.0.2']]]);
    await send(message);
    await page.waitForSelector('.stats-row');
    assert.equal(await page.isVisible('#stats-chart'), false);
    assert.match((await page.textContent('.stats-row')) ?? '', /10\.0\.0\.1, 10\.0\.0\.2/);
    await send({ type: 'failed', title: 'q', message: 'udmSearch failed: PERMISSION_DENIED', cancelled: false });
    assert.match((await page.textContent('#stats-summary')) ?? '', /PERMISSION_DENIED/);
  });
});
