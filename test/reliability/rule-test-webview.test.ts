// The Test Rule page (dist/webview/rule-test.js) in headless Chromium, on the HTML and CSP that
// RuleTestPanel generates under the vscode fake: the summary, a row per detection that expands with
// the mouse or the keyboard into its events, the messages it sends, the empty state, hostile values
// inserted as text, the result kept in the page's state and shown again after a reload, and no CSP
// violation.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type * as PanelModule from '../../src/features/rules/panel';
import { useFakeVscode } from '../unit/fakes/vscode';
import { ROOT, capturingWebview, launchChromium, serveWebviewPages } from './webview-harness';

const browser$ = (): any => globalThis as any;
const BUNDLE = join(ROOT, 'dist/webview/rule-test.js');

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

function pageHtml(origin: string): string {
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
  const { RuleTestPanel } = require('../../src/features/rules/panel') as typeof PanelModule;
  const panel = RuleTestPanel.create(vscode.Uri.file(ROOT), 'repeated_failed_logins', () => undefined);
  panel.dispose();
  return html();
}

const HOSTILE = '<img src=x onerror="window.__pwned=1">';

const RUN = {
  runId: 'run-1',
  ruleName: 'repeated_failed_logins',
  uri: 'file:///w/rules/repeated_failed_logins.yaral',
  startTime: '2026-11-20T00:00:00Z',
  endTime: '2026-11-27T00:00:00Z',
  searches: 1,
  eventsRead: 42,
  notes: ['$g is an entity (graph) variable: the Search API returns no entity data.'],
  detectionsTotal: 2,
  ranAt: '2026-11-27T04:00:00Z',
};

function resultMessage(detections: unknown[] = DETECTIONS, run: Record<string, unknown> = RUN): unknown {
  return { type: 'result', run: { ...run, detectionsTotal: detections.length }, detections };
}

const DETECTIONS = [
  {
    windowStart: Date.parse('2026-11-25T10:00:00Z'),
    windowEnd: Date.parse('2026-11-26T10:00:00Z'),
    match: [['user', 'alice']],
    outcomes: [
      ['failures', '5'],
      ['hosts', 'host-a, host-b'],
    ],
    riskScore: 50,
    variables: [
      {
        variable: 'e',
        count: 5,
        events: [
          { time: '2026-11-25T10:00:00Z', summary: 'USER_LOGIN host-a' },
          { time: '2026-11-25T11:00:00Z', summary: HOSTILE },
        ],
      },
    ],
  },
  {
    windowStart: Date.parse('2026-11-26T12:00:00Z'),
    windowEnd: Date.parse('2026-11-27T12:00:00Z'),
    match: [['user', HOSTILE]],
    outcomes: [['failures', '6']],
    riskScore: 60,
    variables: [{ variable: 'e', count: 6, events: [] }],
  },
];

describe('reliability: the Test Rule page (headless Chromium)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let browser: Browser;
  let page: Page;
  let html = '';
  let kept: unknown;

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build (npm test does) first`);
    server = await serveWebviewPages(() => ({ '/': html }));
    html = pageHtml(server.origin);
    browser = await launchChromium('rule-test');
  });

  after(async () => {
    delete vscode.window.createWebviewPanel;
    await browser?.close();
    await server?.close();
  });

  async function openPage(state?: unknown): Promise<void> {
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.exposeFunction('__keep', (s: unknown) => {
      kept = s;
    });
    await page.addInitScript(`
      window.browser$ = () => window;
      window.__posted = [];
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      const state = ${JSON.stringify(state ?? null)};
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => window.__posted.push(m),
        getState: () => state ?? undefined,
        setState: (s) => window.__keep(s),
      });
    `);
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'));
  }

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

  it('shows the summary and a row per detection; values are text; rows expand into events that open', async () => {
    kept = undefined;
    await openPage();
    await send(resultMessage());
    await page.waitForSelector('tr.rt-row');
    assert.equal(
      await page.textContent('#rt-summary'),
      '2 detections over 2026-11-20T00:00:00Z – 2026-11-27T00:00:00Z: 1 search spent, 42 events read.',
    );
    assert.match((await page.textContent('#rt-notes')) ?? '', /entity \(graph\) variable/);
    const cells = await page.$$eval('tr.rt-row', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    );
    assert.deepEqual(cells[0], [
      '1',
      '[2026-11-25 10:00:00Z,\n 2026-11-26 10:00:00Z)',
      '$user = alice',
      '$failures = 5, $hosts = host-a, host-b',
      '50',
      '$e: 5',
    ]);
    assert.equal(cells[1][2], `$user = ${HOSTILE}`);
    assert.equal(await page.isVisible('#rt-empty'), false);

    // Keyboard: focus the first row, Enter expands it, ArrowDown moves to the next row.
    await page.focus('tr.rt-row >> nth=0');
    await page.keyboard.press('Enter');
    await page.waitForSelector('button.rt-event');
    assert.equal(await page.getAttribute('tr.rt-row >> nth=0', 'aria-expanded'), 'true');
    const events = await page.$$eval('table.rt-events tbody tr:not(.rt-more)', (rows) =>
      rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    );
    assert.deepEqual(events, [
      ['$e', '2026-11-25T10:00:00Z', 'USER_LOGIN host-a'],
      ['$e', '2026-11-25T11:00:00Z', HOSTILE],
    ]);
    assert.match((await page.textContent('.rt-more')) ?? '', /and 3 more/);
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => browser$().document.activeElement?.querySelector('td')?.textContent), '2');

    await page.click('button.rt-event >> nth=1');
    await page.click('button.rt-open-all');
    await page.click('#rt-rerun');
    const msgs = await posted();
    assert.deepEqual(
      msgs.find((m) => m.type === 'openEvent'),
      { type: 'openEvent', runId: 'run-1', detection: 0, variable: 'e', index: 1 },
    );
    assert.deepEqual(
      msgs.find((m) => m.type === 'openEvents'),
      { type: 'openEvents', runId: 'run-1', detection: 0 },
    );
    assert.deepEqual(
      msgs.find((m) => m.type === 'rerun'),
      { type: 'rerun', runId: 'run-1' },
    );
    assert.equal(await page.evaluate(() => browser$().__pwned), undefined);
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.equal((kept as { run: { runId: string } } | undefined)?.run.runId, 'run-1', 'the result is kept');
  });

  it('says "No detections in this range"; a failure shows as an error; a malformed message changes nothing', async () => {
    await openPage();
    await send(resultMessage([]));
    await page.waitForSelector('#rt-empty:not([hidden])');
    assert.equal(await page.textContent('#rt-empty'), 'No detections in this range.');
    assert.equal(await page.isVisible('#rt-table'), false);
    await send({ type: 'result', run: { ...RUN, searches: 'many' }, detections: DETECTIONS });
    await send({ type: 'failed', ruleName: 'r', message: 'udmSearch failed: PERMISSION_DENIED', cancelled: false });
    await page.waitForSelector('#rt-summary.error');
    assert.match((await page.textContent('#rt-summary')) ?? '', /PERMISSION_DENIED/);
    assert.equal(await page.isVisible('#rt-table'), false, 'the malformed result was not shown');
  });

  it('shows bidi and control characters as markers, the way the results table does', async () => {
    await openPage();
    // An override makes "exe.gnp" read as "png.exe"; the icon syntax must stay text too.
    const spoofed = '$(warning) \u202eexe.gnp';
    const detection = {
      ...DETECTIONS[0],
      match: [['file', spoofed]],
      outcomes: [['note', 'line one\nline\u0007two\u200b']],
      variables: [{ variable: 'e', count: 1, events: [{ time: '2026-11-25T10:00:00Z', summary: spoofed }] }],
    };
    await send(resultMessage([detection], { ...RUN, notes: [`checked ${spoofed}`] }));
    await page.waitForSelector('tr.rt-row');
    // The oracle: the results page's own words for these characters, U+XXXX between single guillemets.
    const marked = '$(warning) \u2039U+202E\u203Aexe.gnp';
    assert.equal(await page.textContent('td.rt-match'), `$file = ${marked}`);
    assert.equal(
      await page.textContent('td.rt-outcomes-cell'),
      '$note = line one line\u2039U+0007\u203Atwo\u2039U+200B\u203A',
    );
    assert.equal(await page.textContent('#rt-notes li'), `checked ${marked}`);
    await page.click('tr.rt-row');
    await page.waitForSelector('button.rt-event');
    assert.equal(await page.textContent('button.rt-event'), marked);
    const text = await page.evaluate(() => browser$().document.body.textContent as string);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069\u0007\u200b]/, 'no raw bidi or control character');
  });

  it('lists a detection’s events in a table with a column for the event variable', async () => {
    await openPage();
    const detection = {
      ...DETECTIONS[0],
      variables: [
        { variable: 'login', count: 2, events: [{ time: '2026-11-25T10:00:00Z', summary: 'USER_LOGIN host-a' }] },
        { variable: 'proc', count: 1, events: [{ time: '2026-11-25T10:05:00Z', summary: 'PROCESS_LAUNCH host-a' }] },
      ],
    };
    await send(resultMessage([detection]));
    await page.click('tr.rt-row');
    await page.waitForSelector('table.rt-events');
    assert.deepEqual(await page.$$eval('table.rt-events th', (th) => th.map((x) => x.textContent)), [
      'Variable',
      'Time',
      'Event',
    ]);
    const rows = await page.$$eval('table.rt-events tbody tr', (trs) =>
      trs.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)),
    );
    assert.deepEqual(rows, [
      ['$login', '2026-11-25T10:00:00Z', 'USER_LOGIN host-a'],
      ['$login', '… and 1 more (Open Events in a Table lists them all)'],
      ['$proc', '2026-11-25T10:05:00Z', 'PROCESS_LAUNCH host-a'],
    ]);
    await page.click('button.rt-event >> nth=1');
    assert.deepEqual(
      (await posted()).find((m) => m.type === 'openEvent'),
      { type: 'openEvent', runId: 'run-1', detection: 0, variable: 'proc', index: 0 },
    );
  });

  it('a cut run says so above the result, with the engine’s message, not among the notes', async () => {
    await openPage();
    const message = 'Stopped after 30 s: computing the detections took too long, so no detections are shown.';
    await send(resultMessage([], { ...RUN, cut: { reason: 'time-limit', message } }));
    await page.waitForSelector('#rt-cut:not([hidden])');
    assert.equal(await page.textContent('#rt-cut'), `Cut short: ${message}`);
    assert.equal(await page.getAttribute('#rt-cut', 'role'), 'alert');
    assert.match((await page.textContent('#rt-summary')) ?? '', /^0 detections \(cut short\) over/);
    assert.doesNotMatch((await page.textContent('#rt-notes')) ?? '', /Stopped after/);
    // The banner comes before the summary and is set apart from the text around it.
    const order = await page.evaluate(() =>
      [...browser$().document.querySelectorAll('header > *')].map((e: { id: string }) => e.id).filter(Boolean),
    );
    assert.ok(order.indexOf('rt-cut') < order.indexOf('rt-summary'), order.join(','));
    assert.notEqual(await page.$eval('#rt-cut', (e) => browser$().getComputedStyle(e).borderTopStyle), 'none', 'boxed');
    // The next run without a cut hides the banner.
    await send(resultMessage());
    await page.waitForSelector('#rt-cut', { state: 'hidden' });
  });

  it('at 700 px (1,400 px with the editor beside it) every column is on screen, long values wrap', async () => {
    await openPage();
    await page.setViewportSize({ width: 700, height: 700 });
    const long = 'x'.repeat(180);
    const detection = {
      ...DETECTIONS[0],
      match: [
        ['user', `${long}@example.com`],
        ['host', 'workstation-with-a-very-long-name.corp.example.com'],
      ],
      outcomes: [['hosts', Array.from({ length: 20 }, (_, i) => `host-${i}.corp.example.com`).join(',')]],
    };
    await send(resultMessage([detection, ...DETECTIONS]));
    await page.waitForSelector('tr.rt-row');
    const edges = await page.$$eval('#rt-table th', (ths) =>
      ths.map((th) => [th.textContent, Math.round(th.getBoundingClientRect().right)] as const),
    );
    const width = await page.evaluate(() => browser$().innerWidth as number);
    for (const [name, right] of edges) assert.ok(right <= width, `${name} ends at ${right} px, past ${width} px`);
    assert.ok(
      await page.evaluate(() => browser$().document.documentElement.scrollWidth <= browser$().innerWidth),
      'no horizontal scrolling',
    );
  });

  it('after a reload shows the result it kept, marked restored, without asking the extension', async () => {
    await openPage({ run: RUN, detections: DETECTIONS });
    await page.waitForSelector('tr.rt-row');
    assert.equal(await page.$$eval('tr.rt-row', (r) => r.length), 2);
    assert.match((await page.textContent('#rt-summary')) ?? '', /^Restored from the test at .*2 detections/);
    assert.equal(await page.isVisible('#rt-rerun'), true);
  });
});
