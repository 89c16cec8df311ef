// The results page in headless Chromium for browser tests: the HTML and CSP the extension renders
// (the pivot panel's page: the same table without the Monaco query bar) with the real bundle, a
// fresh page per test with the fake VS Code API and the extension's side of the rows (ResultsHost),
// opened and ready, and no page error or CSP violation left behind.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { useFakeVscode } from '../unit/fakes/vscode';
import {
  ROOT,
  capturingWebview,
  launchChromium,
  openReadyPage,
  serveWebviewPages,
  vscodeApiScript,
} from './webview-harness';
import { ResultsHost } from './results-host';
import type * as SearchPanelModule from '../../src/features/search/panel';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

export interface ResultsPages {
  readonly browser: Browser;
  readonly page: Page;
  readonly host: ResultsHost;
  readonly origin: string;
  /** The page's HTML as the extension renders it. */
  readonly html: string;
  /** Posts messages to the page as the extension does. */
  send(messages: unknown[]): Promise<void>;
}

/**
 * Sets up the results page for the tests of the enclosing describe. `morePages` serves other HTML
 * beside it (by path), made for the server's origin.
 */
export function useResultsPages(
  name: string,
  morePages: (origin: string) => Record<string, string> = () => ({}),
): ResultsPages {
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let pages: Record<string, string> = {};
  let browser: Browser;
  let page: Page;
  let host: ResultsHost;
  const pageErrors: string[] = [];

  before(async () => {
    assert.ok(
      existsSync(join(ROOT, 'dist/webview/results.js')),
      'dist/webview/results.js is missing: run npm run build',
    );
    server = await serveWebviewPages(() => pages);
    const { webview } = capturingWebview(server.origin);
    const { renderHtml } = require('../../src/features/search/panel') as typeof SearchPanelModule;
    pages = { '/': renderHtml(webview as never, vscode.Uri.file(ROOT), 'pivot'), ...morePages(server.origin) };
    browser = await launchChromium(name);
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    pageErrors.length = 0;
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript(vscodeApiScript({ violations: 'directive' }));
    host = await ResultsHost.attach(page);
    await openReadyPage(page, `${server.origin}/`);
  });

  afterEach(async () => {
    assert.deepEqual(await page.evaluate(() => (globalThis as any).__violations), []);
    assert.deepEqual(pageErrors, []);
    await page?.close();
  });

  return {
    get browser() {
      return browser;
    },
    get page() {
      return page;
    },
    get host() {
      return host;
    },
    get origin() {
      return server.origin;
    },
    get html() {
      return pages['/'];
    },
    send: (messages) =>
      page.evaluate((list: unknown[]) => {
        for (const m of list) (globalThis as any).postMessage(m, '*');
      }, messages),
  };
}
