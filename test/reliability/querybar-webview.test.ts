// The results panel's query bar in headless Chromium, on the HTML and CSP the extension generates
// (ResultsPanel under the vscode fake) with the real bundles: the bar paints as a textarea, upgrades
// to Monaco only after the table's first paint, completes and checks in the page with the UDM
// language service (the same answers as QueryBarService gives here), asks the extension for the
// reference lists and follows each update, refuses a malformed one, with no CSP violation.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { QueryBarService, type QueryBarLists } from '../../src/core/secops/querybar-service';
import type { KnownReferenceList } from '../../src/udm/reference-lists';
import { useFakeVscode } from '../unit/fakes/vscode';
import { ROOT, capturingWebview, launchChromium, serveWebviewPages } from './webview-harness';
import { ResultsHost } from './results-host';
import type * as SearchPanelModule from '../../src/features/search/panel';

const browser$ = (): any => globalThis as any;
const QUERY = 'metadata.event_type = "NETWORK_DNS"\nprincipal.hostname = "host-1" OR principal.hostname = "host-2"';
const KNOWN: KnownReferenceList[] = [
  { name: 'bad_hosts', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 2, preview: ['evil-01', 'evil-02'] },
  { name: 'vip_cidrs', contentType: 'CIDR', size: 1, preview: ['10.0.0.0/8'] },
];

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
  const warnings: string[] = [];

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
    warnings.length = 0;
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
      if (process.env.CLOUDBENCH_DEBUG) console.error('page console:', m.text());
    });
    await page.addInitScript(`
      window.__name = (f) => f;
      window.browser$ = () => window;
      window.__posted = [];
      window.__violations = [];
      window.__order = [];
      window.__lists = {};
      // Monaco keeps more than one hover element; the one showing holds the text.
      window.squiggleClasses = () => Array.from(document.querySelectorAll('#query-host [class*="squiggly-"]'), (e) => e.className.match(/squiggly-\\w+/)[0]).join(',');
      window.hoverText = () => Array.from(document.querySelectorAll('.monaco-hover'), (e) => e.textContent).join('\\n');
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
      document.addEventListener('cloudbench:painted', () => window.__order.push('painted'));
      document.addEventListener('cloudbench:querybar-ready', () => window.__order.push('monaco'));
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) if (n.tagName === 'SCRIPT' && /querybar/.test(n.src)) window.__order.push('querybar.js added');
      }).observe(document, { childList: true, subtree: true });
      window.acquireVsCodeApi = () => ({
        postMessage: (m) => {
          window.__posted.push(m);
          // The extension's side: the lists it holds, sent when the bar asks (window.__lists, set by a test).
          if (m.type === 'querybar.watchLists' && window.__lists) setTimeout(() => window.postMessage({ type: 'querybar.lists', ...window.__lists }, '*'));
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

  /** The suggest widget's rows on screen: their labels, and how many items the whole list has. */
  async function suggestions(): Promise<{ labels: string[]; total: number }> {
    await page.waitForSelector('.suggest-widget .monaco-list-row', { timeout: 30_000 });
    return page.evaluate(() => {
      const rows = Array.from<any>(browser$().document.querySelectorAll('.suggest-widget .monaco-list-row'));
      return {
        labels: rows.map((r) => String(r.querySelector('.label-name')?.textContent ?? '')),
        total: Number(rows[0]?.getAttribute('aria-setsize')),
      };
    });
  }

  /** What the squiggles under the bar's text are: one class per marker. */
  async function squiggles(): Promise<string[]> {
    return page.evaluate(() => (browser$().squiggleClasses() as string).split(',').filter(Boolean));
  }

  /** Waits until the markers are these (checks run a moment after typing stops). */
  async function squigglesBecome(expected: string[]): Promise<void> {
    await page
      .waitForFunction((e) => browser$().squiggleClasses() === e, expected.join(','), { timeout: 30_000 })
      .catch(async () => assert.deepEqual(await squiggles(), expected));
  }

  /** Points at the first error squiggle as a user would, until its hover shows `text`. */
  async function hoverShows(text: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const target = page.locator('#query-host .squiggly-error').first();
      // The text lies over the squiggle: point at its place, as the user's mouse does.
      await target.hover({ force: true, timeout: 5_000 }).catch(() => undefined);
      const box = await target.boundingBox();
      if (box) await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height / 2);
      const shown = await page
        .waitForFunction((t) => (browser$().hoverText() as string).includes(t), text, { timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
      if (shown) return;
      if (attempt === 6)
        throw new Error(`no hover shows ${text}: ${await page.evaluate(() => browser$().hoverText())}`);
    }
  }

  it('typing "metadata." shows the fields the language service completes, computed in the page', async () => {
    await postResults(events(10), 'principal.hostname = "host-1"');
    await monacoReady();
    await typeInEditor('\nmetadata.');
    await page.waitForFunction(() =>
      /event_type/.test(browser$().document.querySelector('.suggest-widget')?.textContent ?? ''),
    );
    const text = 'principal.hostname = "host-1"\nmetadata.';
    const expected = new QueryBarService().completions(text, { line: 1, character: 9 });
    const shown = await suggestions();
    assert.equal(shown.total, expected.length, 'the widget lists every item the language service gives');
    assert.ok(shown.labels.length >= 5, JSON.stringify(shown));
    for (const label of shown.labels)
      assert.ok(
        expected.some((i) => i.label === label),
        `${label} is not one of the service's items`,
      );
    // Nothing went to the extension for it: the page asked only for the reference lists.
    const asked = await page.evaluate(() =>
      (browser$().__posted as Array<{ type: string }>).map((m) => m.type).filter((t) => t.startsWith('querybar.')),
    );
    assert.deepEqual(asked, ['querybar.watchLists']);
    await page.keyboard.type('event_ty');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      /metadata\.event_type/.test(browser$().document.getElementById('query-input').value),
    );
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it("a misspelt field gets the language service's error marker and message, and Ctrl+Enter runs the edited text", async () => {
    await postResults(events(10), 'principal.hostname = "host-1"');
    await monacoReady();
    await typeInEditor('\nmetadata.event_typo = "NETWORK_DNS"');
    const diagnostics = new QueryBarService().diagnostics(
      'principal.hostname = "host-1"\nmetadata.event_typo = "NETWORK_DNS"',
    );
    assert.equal(diagnostics.length, 1);
    await squigglesBecome(['squiggly-error']);
    // Close any suggestion list, then point at the misspelt word as a user would.
    await page.keyboard.press('Escape');
    const message = typeof diagnostics[0].message === 'string' ? diagnostics[0].message : diagnostics[0].message.value;
    assert.match(message, /Did you mean 'event_type'/);
    await hoverShows(message);
    await page.click('#query-host .monaco-editor .view-lines');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => (browser$().__posted as any[]).some((m) => m.type === 'runQuery'));
    const run = await page.evaluate(() => (browser$().__posted as any[]).find((m) => m.type === 'runQuery'));
    assert.equal(run.query, 'principal.hostname = "host-1"\nmetadata.event_typo = "NETWORK_DNS"');
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it('completes and checks %lists from the lists the extension sends, follows updates, and refuses a malformed one', async () => {
    await page.evaluate((lists) => (browser$().__lists = lists), { knownLists: KNOWN } as QueryBarLists as never);
    await postResults(events(3), 'principal.hostname = "host-1"');
    await monacoReady();
    await page.waitForFunction(() =>
      (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'querybar.watchLists'),
    );
    // "%" completes the lists the extension sent, with their details.
    await typeInEditor(' AND principal.hostname in %');
    await page.waitForFunction(() =>
      /bad_hosts/.test(browser$().document.querySelector('.suggest-widget')?.textContent ?? ''),
    );
    const text = 'principal.hostname = "host-1" AND principal.hostname in %';
    const expected = new QueryBarService({ knownLists: KNOWN }).completions(text, { line: 0, character: text.length });
    const shown = await suggestions();
    assert.equal(shown.total, expected.length);
    assert.deepEqual(
      shown.labels.filter((l) => l.startsWith('%')).sort(),
      expected
        .map((i) => i.label)
        .filter((l) => l.startsWith('%'))
        .sort(),
    );
    assert.ok(shown.labels.includes('%bad_hosts'), JSON.stringify(shown.labels));
    await page.keyboard.press('Escape');
    // An unknown name is an error: the extension listed the lists and has no such one.
    await page.keyboard.type('bad_host');
    await page.keyboard.press('Escape');
    await squigglesBecome(['squiggly-error']);
    // The lists could not be loaded this time: the same name is only a warning.
    const post = (m: unknown): Promise<unknown> => page.evaluate((msg) => browser$().postMessage(msg, '*'), m as never);
    await post({ type: 'querybar.lists', knownLists: KNOWN, listsUnavailable: 'UNAVAILABLE: connect ECONNREFUSED' });
    await squigglesBecome(['squiggly-warning']);
    // A hostile update is refused whole: the bar keeps the lists it had.
    await post({
      type: 'querybar.lists',
      knownLists: [
        ...KNOWN,
        { name: 'bad_host"><img src=x onerror=alert(1)>', contentType: 'CIDR', size: 1, preview: [] },
      ],
    });
    await post({
      type: 'querybar.lists',
      knownLists: [{ name: 'bad_host', contentType: 'HTML', size: 1, preview: [] }],
    });
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    assert.equal(warnings.filter((w) => /ignored a malformed message/.test(w)).length, 2, warnings.join('\n'));
    assert.deepEqual(await squiggles(), ['squiggly-warning']);
    // The Reference Lists view learns of the list: the name is fine now.
    await post({
      type: 'querybar.lists',
      knownLists: [...KNOWN, { name: 'bad_host', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['x'] }],
    });
    await squigglesBecome([]);
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    assert.deepEqual(pageErrors, []);
  });

  it('lists that arrive before the editor has loaded are the ones it starts with', async () => {
    // Here the extension's answer to the bar's own request is held back: only the early lists count.
    await page.evaluate(() => (browser$().__lists = null));
    await page.evaluate(() =>
      browser$().postMessage(
        { type: 'querybar.lists', knownLists: [{ name: 'early', contentType: 'CIDR', size: 0, preview: [] }] },
        '*',
      ),
    );
    await postResults(events(3), 'principal.ip in cidr %early AND principal.ip in cidr %late');
    await monacoReady();
    await squigglesBecome(['squiggly-error']);
    await hoverShows('Unknown reference list %late');
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

  it('while a query started from the editor runs, the bar shows that query, not the one before', async () => {
    await postResults(events(3), 'principal.hostname = "host-1"');
    await monacoReady();
    // Run Query on a .udm file: the panel hears "running" with the query long before any row comes.
    const started = 'metadata.event_type = "USER_LOGIN"\nsecurity_result.action = "BLOCK"';
    await page.evaluate(
      (q) => browser$().postMessage({ type: 'running', title: q.replace(/\s+/g, ' '), query: q }, '*'),
      started,
    );
    await page.locator('#run-summary', { hasText: /^Running…/ }).waitFor();
    await page.waitForFunction((q) => browser$().document.getElementById('query-input').value === q, started);
    await page.waitForFunction(() =>
      /security_result\.action/.test(browser$().document.querySelector('#query-host .view-lines').textContent),
    );
    assert.doesNotMatch((await page.textContent('#query-host .view-lines')) ?? '', /host-1/);
    // A progress message of the same run ("waiting for the quota") leaves text the user typed since.
    await typeInEditor(' AND principal.ip = "10.1.2.3"');
    await page.evaluate(
      (q) => browser$().postMessage({ type: 'running', title: 'q', message: 'waiting', query: q }, '*'),
      started,
    );
    await page.locator('#run-summary', { hasText: /^Running… waiting/ }).waitFor();
    assert.equal(
      await page.evaluate(() => browser$().document.getElementById('query-input').value),
      `${started} AND principal.ip = "10.1.2.3"`,
    );
  });

  it('typing a comment, a call and a string leaves no stray closing text: what auto-closes is typed over', async () => {
    await postResults(events(3), 'principal.hostname = "host-1"');
    await monacoReady();
    await typeInEditor('\nx = 1 /* c */');
    await page.keyboard.press('Escape');
    await page.keyboard.type('\n$r = (1 + 2) "b"');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => /"b"/.test(browser$().document.getElementById('query-input').value));
    assert.equal(
      await page.evaluate(() => browser$().document.getElementById('query-input').value),
      'principal.hostname = "host-1"\nx = 1 /* c */\n$r = (1 + 2) "b"',
    );
  });

  it('before Monaco arrives, the textarea already runs with the Run button', async () => {
    await page.fill('#query-input', 'metadata.event_type = "USER_LOGIN"');
    await page.click('#query-run');
    const run = await page.evaluate(() => (browser$().__posted as any[]).find((m) => m.type === 'runQuery'));
    assert.equal(run?.query, 'metadata.event_type = "USER_LOGIN"');
  });
});
