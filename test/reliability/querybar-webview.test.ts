// The results panel's query bar in headless Chromium, on the HTML and CSP the extension generates
// (ResultsPanel under the vscode fake) with the real bundles: the bar paints as a textarea, upgrades
// to Monaco only after the table's first paint, asks the extension for completions and diagnostics
// (answered here by the same handler the extension runs) and shows them, with no CSP violation.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseFromWebview } from '../../src/core/secops/messages';
import { answerQueryBar, isQueryBarRequest } from '../../src/core/secops/querybar-service';
import { useFakeVscode } from '../unit/fakes/vscode';
import { ROOT, capturingWebview, launchChromium, serveWebviewPages } from './webview-harness';
import { ResultsHost } from './results-host';
import type * as SearchPanelModule from '../../src/features/search/panel';

const browser$ = (): any => globalThis as any;
const QUERY = 'metadata.event_type = "NETWORK_DNS"\nprincipal.hostname = "host-1" OR principal.hostname = "host-2"';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

/** The query panel's HTML exactly as ResultsPanel renders it, with webview URIs mapped onto a local origin. */
function extensionHtml(origin: string): string {
  const { webview } = capturingWebview(origin);
  const { renderHtml } = require('../../src/features/search/panel') as typeof SearchPanelModule;
  return renderHtml(webview as never, vscode.Uri.file(ROOT), 'query');
}

function events(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `events/${i}`,
    udm: {
      metadata: { eventTimestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`, eventType: 'NETWORK_DNS' },
      principal: { hostname: `host-${i}` },
    },
  }));
}

describe('reliability: the Monaco query bar in the results webview (headless Chromium)', function () {
  this.timeout(120_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let origin: string;
  let html: string;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  const answered: string[] = [];

  before(async () => {
    for (const f of ['results.js', 'querybar.js', 'querybar.css'])
      assert.ok(existsSync(join(ROOT, 'dist/webview', f)), `dist/webview/${f} is missing: run npm run build first`);
    server = await serveWebviewPages(() => ({ '/': html }));
    origin = server.origin;
    html = extensionHtml(origin);
    browser = await launchChromium('querybar');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    pageErrors.length = 0;
    answered.length = 0;
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => process.env.CLOUDBENCH_DEBUG && console.error('page console:', m.text()));
    // The extension's side of the bar: check the request as ResultsPanel does, answer it with the
    // handler SearchController calls.
    await page.exposeFunction('__extension', (raw: unknown) => {
      const message = parseFromWebview(raw);
      if (!isQueryBarRequest(message)) return null;
      answered.push(message.type);
      return answerQueryBar(message);
    });
    await page.addInitScript(`
      window.__name = (f) => f;
      window.browser$ = () => window;
      window.__posted = [];
      window.__violations = [];
      window.__order = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      document.addEventListener('cloudbench:painted', () => window.__order.push('painted'));
      document.addEventListener('cloudbench:querybar-ready', () => window.__order.push('monaco'));
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n.tagName === 'SCRIPT' && /querybar/.test(n.src)) window.__order.push('querybar.js added');
      }).observe(document, { childList: true, subtree: true });
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => {
          window.__posted.push(m);
          if (typeof m.type === 'string' && m.type.startsWith('querybar.')) window.__extension(m).then((a) => a && window.postMessage(a, '*'));
        },
        getState: () => undefined,
        setState: () => undefined,
      });
    `);
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'));
  });

  afterEach(async () => {
    await page?.close();
  });

  async function postResults(rows: unknown[], query = QUERY): Promise<void> {
    // The results message as the controller builds it (a table of the rows).
    const [message] = new ResultsHost().messages(
      { runId: 'run-1', kind: 'udm', title: query.replace(/\s+/g, ' '), query },
      rows,
    );
    await page.evaluate((m) => browser$().postMessage(m, '*'), message as unknown);
  }

  async function monacoReady(): Promise<void> {
    await page.waitForSelector('#query-host[data-editor="monaco"] .monaco-editor .view-lines', { timeout: 60_000 });
  }

  async function typeInEditor(text: string): Promise<void> {
    await page.click('#query-host .monaco-editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type(text);
  }

  it('the query panel grants inline styles only to styles, scripts only by nonce', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? '';
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src')?.length, 1);
    assert.match(directives.get('script-src')![0], /^'nonce-/);
    assert.deepEqual(directives.get('style-src'), [origin, "'unsafe-inline'"]);
    assert.ok(!/worker-src|blob:|unsafe-eval/.test(csp), csp);
    assert.match(html, /data-querybar-script="[^"]+\/dist\/webview\/querybar\.js"/);
  });

  it('paints a plain textarea first and upgrades to Monaco only after the table has painted', async () => {
    assert.equal(await page.locator('#query-input').isVisible(), true);
    assert.equal(await page.locator('.monaco-editor').count(), 0, 'no Monaco before any results');
    await postResults(events(500));
    await monacoReady();
    const order = await page.evaluate(() => browser$().__order as string[]);
    assert.deepEqual(order, ['painted', 'querybar.js added', 'monaco']);
    assert.equal(await page.locator('#query-input').isVisible(), false, 'the textarea gives way to the editor');
    const text = await page.evaluate(() =>
      browser$()
        .document.querySelector('#query-host .view-lines')
        .innerText.replace(/\u00a0/g, ' '),
    );
    assert.equal(text.trim(), QUERY);
    // Coloured by the UDM tokenizer: field paths, strings and keywords each get their own token colour.
    // Monaco tokenizes in idle time after the first render, line by line, so wait for a token of
    // each line: the string on the first and the keyword on the second.
    await page
      .waitForFunction(
        () => {
          const texts = Array.from(
            browser$().document.querySelectorAll('#query-host .view-line span span') as ArrayLike<any>,
            (s: any) => String(s.textContent).trim(),
          );
          return texts.includes('"NETWORK_DNS"') && texts.includes('OR');
        },
        undefined,
        { timeout: 10_000 },
      )
      .catch(() => undefined);
    const classes = await page.evaluate(() => {
      const spans = Array.from<any>(browser$().document.querySelectorAll('#query-host .view-line span span'));
      const of = (test: (t: string) => boolean) => spans.find((s) => test(s.textContent.trim()))?.className;
      return {
        field: of((t) => t.startsWith('metadata.event_type')),
        str: of((t) => t === '"NETWORK_DNS"'),
        keyword: of((t) => t === 'OR'),
      };
    });
    assert.ok(classes.field && classes.str && classes.keyword, JSON.stringify(classes));
    assert.equal(new Set([classes.field, classes.str, classes.keyword]).size, 3, JSON.stringify(classes));
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it('typing "metadata." asks the extension for completions and shows them', async () => {
    await postResults(events(10), 'principal.hostname = "host-1"');
    await monacoReady();
    await typeInEditor('\nmetadata.');
    await page.waitForSelector('.suggest-widget.visible .monaco-list-row', { timeout: 30_000 });
    // The '.' trigger character asks again with the whole text and the cursor after the dot.
    await page.waitForFunction(() =>
      (browser$().__posted as any[]).some((m) => m.type === 'querybar.complete' && m.text.endsWith('metadata.')),
    );
    const request = await page.evaluate(() =>
      (browser$().__posted as any[]).find((m) => m.type === 'querybar.complete' && m.text.endsWith('metadata.')),
    );
    assert.equal(request.text, 'principal.hostname = "host-1"\nmetadata.');
    assert.deepEqual(request.position, { line: 1, character: 9 });
    await page.waitForFunction(() =>
      /event_type/.test(browser$().document.querySelector('.suggest-widget').textContent),
    );
    await page.keyboard.type('event_ty');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      /metadata\.event_type/.test(browser$().document.getElementById('query-input').value),
    );
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it("a misspelt field gets an error marker from the extension's diagnostics, and Ctrl+Enter runs the edited text", async () => {
    await postResults(events(10), 'principal.hostname = "host-1"');
    await monacoReady();
    await typeInEditor('\nmetadata.event_typo = "NETWORK_DNS"');
    await page.waitForSelector('#query-host .squiggly-error', { timeout: 30_000 });
    assert.ok(answered.includes('querybar.validate'));
    // Close any suggestion list, then point at the misspelt word as a user would.
    await page.keyboard.press('Escape');
    const box = (await page.locator('#query-host .squiggly-error').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2);
    await page.waitForFunction(
      () => /Did you mean 'event_type'/.test(browser$().document.body.textContent ?? ''),
      undefined,
      { timeout: 30_000 },
    );
    await page.click('#query-host .monaco-editor .view-lines');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => (browser$().__posted as any[]).some((m) => m.type === 'runQuery'));
    const run = await page.evaluate(() => (browser$().__posted as any[]).find((m) => m.type === 'runQuery'));
    assert.equal(run.query, 'principal.hostname = "host-1"\nmetadata.event_typo = "NETWORK_DNS"');
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it('follows the VS Code theme kind from the body class, also when the user switches themes', async () => {
    await page.evaluate(() => browser$().document.body.classList.add('vscode-high-contrast'));
    await postResults(events(3));
    await monacoReady();
    await page.waitForSelector('#query-host .monaco-editor.hc-black');
    await page.evaluate(() => {
      const body = browser$().document.body;
      body.classList.remove('vscode-high-contrast');
      body.classList.add('vscode-light');
    });
    await page.waitForSelector('#query-host .monaco-editor.vs:not(.hc-black)');
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
  });

  it('a new run puts its query into the bar, but not over text the user is typing', async () => {
    await postResults(events(3), 'principal.hostname = "host-1"');
    await monacoReady();
    await postResults(events(3), 'target.hostname = "site-2"');
    await page.waitForFunction(
      () => browser$().document.getElementById('query-input').value === 'target.hostname = "site-2"',
    );
    await typeInEditor(' AND network.sent_bytes > 10');
    await postResults(events(3), 'metadata.event_type = "USER_LOGIN"');
    await page.waitForFunction(
      () => browser$().document.getElementById('run-title').textContent === 'metadata.event_type = "USER_LOGIN"',
    );
    assert.equal(
      await page.evaluate(() => browser$().document.getElementById('query-input').value),
      'target.hostname = "site-2" AND network.sent_bytes > 10',
    );
  });

  it('before Monaco arrives, the textarea already runs with the Run button', async () => {
    await page.fill('#query-input', 'metadata.event_type = "USER_LOGIN"');
    await page.click('#query-run');
    const run = await page.evaluate(() => (browser$().__posted as any[]).find((m) => m.type === 'runQuery'));
    assert.equal(run?.query, 'metadata.event_type = "USER_LOGIN"');
  });
});
