// What the headless-Chromium webview tests share: a loopback server that serves the pages the
// extension generated and the real bundles from dist/webview, and a Chromium launched the way this
// machine allows (no sandbox, no background networking, a throwaway profile).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumExecutable } from '../../scripts/chromium.mjs';

export const ROOT = resolve(__dirname, '../..');
export const CHROMIUM = chromiumExecutable();

const TYPES: Record<string, string> = { '.css': 'text/css', '.ttf': 'font/ttf', '.js': 'text/javascript' };

/** Serves `pages()[path]` as HTML and files under dist/webview; everything else is 404. */
export async function serveWebviewPages(
  pages: () => Record<string, string>,
  onRequest?: (path: string) => void,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    onRequest?.(path);
    const html = pages()[path];
    if (html !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const file = join(ROOT, path);
    if (!file.startsWith(join(ROOT, 'dist/webview')) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * Headless Chromium with a throwaway profile (`cloudbench-<name>-…` in the temp folder, removed when
 * the browser closes); a clear failure when there is no Chromium to launch.
 */
export async function launchChromium(name: string): Promise<Browser> {
  assert.ok(
    existsSync(CHROMIUM),
    `no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CLOUDBENCH_CHROMIUM`,
  );
  const userData = mkdtempSync(join(tmpdir(), `cloudbench-${name}-`));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS],
    env: { ...process.env, XDG_CONFIG_HOME: userData, XDG_CACHE_HOME: userData, HOME: userData },
  });
  browser.on('disconnected', () => rmSync(userData, { recursive: true, force: true }));
  return browser;
}

/** A stand-in webview that maps resource URIs onto `origin` and keeps the HTML the extension sets. */
export function capturingWebview(origin: string): { webview: Record<string, unknown>; html(): string } {
  let html = '';
  const webview = {
    cspSource: origin,
    asWebviewUri: (uri: { path: string }) => ({ toString: () => `${origin}${uri.path.slice(ROOT.length)}` }),
    onDidReceiveMessage: () => ({ dispose() {} }),
    postMessage: async () => true,
    set html(value: string) {
      html = value;
    },
    get html() {
      return html;
    },
  };
  return { webview, html: () => html };
}

/**
 * The script a page test adds before the page loads: `acquireVsCodeApi` records what the page posts
 * in `window.__posted` (its state neither kept nor restored), CSP violations go to
 * `window.__violations` ("directive blocked-URI", or the directive alone), and `extra` runs after.
 */
export function vscodeApiScript(
  options: { violations?: 'directive' | 'directive and URI'; extra?: string } = {},
): string {
  const violation =
    options.violations === 'directive' ? 'e.violatedDirective' : "e.violatedDirective + ' ' + e.blockedURI";
  return `
    window.__name = (f) => f;
    window.browser$ = () => window;
    window.__posted = [];
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(${violation}));
    window.acquireVsCodeApi = () => ({
      postMessage: (m) => window.__posted.push(m),
      getState: () => undefined,
      setState: () => undefined,
    });
    ${options.extra ?? ''}
  `;
}

/** Opens a page and waits until it said it is ready for messages, as the extension does. */
export async function openReadyPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() =>
    ((globalThis as unknown as { __posted: Array<{ type: string }> }).__posted ?? []).some((m) => m.type === 'ready'),
  );
}
