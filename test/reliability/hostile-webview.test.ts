// Hostile event data in the real results webview (dist/webview/results.js) in headless Chromium, on
// the HTML and CSP the extension itself generates (ResultsPanel under the vscode fake): no injected
// script runs, no element grows wider than the viewport, links leave only as an openLink request,
// and the extension opens only http(s) links, only after a modal confirmation.
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
import { freshProductModules } from './scripted-config';
import { ResultsHost } from './results-host';
import type { ColumnSpec } from '../../src/core/secops/results/fields';
import type * as SearchPanelModule from '../../src/features/search/panel';
import type * as KeysEditorModule from '../../src/features/keys/editor';
import type * as SearchControllerModule from '../../src/features/search/controller';

/** Browser globals inside page.evaluate callbacks (this tsconfig has no DOM lib); the page defines its own copy. */
const browser$ = (): any => globalThis as any;
const BUNDLE = join(ROOT, 'dist/webview/results.js');
const MB = 1 << 20;

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

interface CapturedPanel {
  html: string;
  options: { enableScripts?: boolean; localResourceRoots?: Array<{ path: string }> };
}

/**
 * The HTML a panel writes when `open` creates it, exactly as the extension generates it, with
 * webview URIs mapped onto a local origin.
 */
function capturePanel(origin: string, open: () => void): CapturedPanel {
  const { webview, html } = capturingWebview(origin);
  let options: CapturedPanel['options'] = {};
  vscode.window.createWebviewPanel = (_type: string, _title: string, _column: unknown, o: CapturedPanel['options']) => {
    options = o;
    return {
      webview,
      onDidDispose: () => ({ dispose() {} }),
      reveal() {},
      dispose() {},
      title: '',
      iconPath: undefined,
      viewColumn: 1,
    };
  };
  open();
  return { html: html(), options };
}

/** The query panel's page, as ResultsPanel writes it. */
function extensionHtml(origin: string): CapturedPanel {
  return capturePanel(origin, () => {
    const { ResultsPanels } = require('../../src/features/search/panel') as typeof SearchPanelModule;
    new ResultsPanels().show('query', vscode.Uri.file(ROOT), () => undefined).dispose();
  });
}

const HOSTILE_NAME = '</title><script>window.__pwned="title"</script><img src=x onerror="window.__pwned=\'name\'">';
const HOSTILE_KEY = {
  name: 'projects/p/locations/global/keys/hostile',
  displayName: HOSTILE_NAME,
  etag: 'W/"1"',
  restrictions: {
    browserKeyRestrictions: {
      allowedReferrers: [
        '<img src=x onerror="window.__pwned=\'ref\'">',
        'javascript:window.__pwned=1',
        '\u202eexample.com/*',
      ],
    },
    apiTargets: [{ service: '<script>window.__pwned="svc"</script>', methods: ['"><svg onload=window.__pwned=2>'] }],
  },
};

/** The restriction editor's HTML as RestrictionEditor writes it for a key with a hostile display name. */
function restrictionEditorHtml(origin: string): CapturedPanel {
  return capturePanel(origin, () => {
    const { RestrictionEditors } = require('../../src/features/keys/editor') as typeof KeysEditorModule;
    const editors = new RestrictionEditors(vscode.Uri.file(ROOT), {
      client: () => {
        throw new Error('no calls');
      },
      runOperation: () => {
        throw new Error('no calls');
      },
      keyChanged() {},
    } as never);
    editors.show(HOSTILE_KEY).dispose();
  });
}

function deepJson(depth: number): unknown {
  let value: unknown = { leaf: '<img src=x onerror="window.__pwned=\'deep\'">' };
  for (let i = 0; i < depth; i++) value = { [`level${i}`]: value, n: [i] };
  return value;
}

const PAYLOADS = [
  '<img src=x onerror="window.__pwned=\'img\'">',
  '<script>window.__pwned="script"</script>',
  '"><svg onload="window.__pwned=\'svg\'">',
  '<iframe srcdoc="<script>parent.__pwned=\'iframe\'</script>"></iframe>',
  "javascript:window.__pwned='js'",
  '{{constructor.constructor("window.__pwned=\'template\'")()}}',
  '<a href="javascript:window.__pwned=\'href\'">click</a>',
  '\u202egnp.exe',
];

/**
 * Where a row of hostileRows() sits in the table, which opens newest first: the deep row (02:00),
 * then the huge one (01:00), then the payloads from the last (00:07) to the first (00:00).
 */
const POS = { deep: 0, huge: 1, payload: (i: number): number => 2 + (PAYLOADS.length - 1 - i) };

function hostileRows(): unknown[] {
  const rows: unknown[] = PAYLOADS.map((payload, i) => ({
    name: `events/${i}`,
    udm: {
      metadata: { eventTimestamp: `2026-01-01T00:0${i}:00Z`, eventType: 'NETWORK_HTTP', description: payload },
      principal: { hostname: payload, ip: ['10.0.0.1'] },
      target: { hostname: `host-${i}`, url: payload },
      securityResult: [{ action: 'ALLOW', summary: payload }],
    },
  }));
  rows.push({
    name: 'events/huge',
    udm: {
      metadata: { eventTimestamp: '2026-01-01T01:00:00Z', eventType: 'GENERIC_EVENT' },
      principal: { hostname: 'W'.repeat(MB) },
      target: { url: 'https://example.com/report?q=1' },
    },
  });
  rows.push({
    name: 'events/deep',
    udm: {
      metadata: { eventTimestamp: '2026-01-01T02:00:00Z', eventType: 'GENERIC_EVENT' },
      additional: deepJson(400),
    },
  });
  return rows;
}

describe('reliability: hostile data in the results webview (headless Chromium)', function () {
  this.timeout(90_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let host: ResultsHost;
  let panel: CapturedPanel;
  let keysPanel: CapturedPanel;
  const dialogs: string[] = [];
  const requests: string[] = [];

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build (npm test does) first`);
    server = await serveWebviewPages(() => ({ '/': panel.html, '/keys': keysPanel.html }));
    origin = server.origin;
    panel = extensionHtml(origin);
    keysPanel = restrictionEditorHtml(origin);
    browser = await launchChromium('hostile');
  });

  after(async () => {
    // The fake is shared by every test file of the run: take back what this file put into it.
    delete vscode.window.createWebviewPanel;
    delete vscode.env;
    await browser?.close();
    await server?.close();
  });

  beforeEach(async () => {
    dialogs.length = 0;
    requests.length = 0;
    page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => console.error('page error:', e.message));
    page.on('console', (m) => process.env.CLOUDBENCH_DEBUG && console.error('page console:', m.text()));
    // What a VS Code webview provides before any page script runs; CSP does not apply to it.
    // Given as text: functions compiled by tsx carry helper calls (__name) that the page lacks.
    await page.addInitScript(vscodeApiScript());
    // The extension's answers (the whole event for the detail pane) come from the same code in Node.
    host = await ResultsHost.attach(page);
    await openReadyPage(page, `${origin}/`);
  });

  afterEach(async () => {
    await page?.close();
  });

  async function postResults(
    rows: unknown[],
    extra: { title?: string; uri?: string[]; columns?: ColumnSpec[] } = {},
  ): Promise<void> {
    const [message] = host.messages(
      {
        runId: 'run-1',
        kind: 'udm',
        title: extra.title ?? 'principal.hostname = "x"',
        ...(extra.uri ? { uri: extra.uri } : {}),
      },
      rows,
      [],
      extra.columns ? { columns: extra.columns } : {},
    );
    const painted = page.evaluate(
      () =>
        new Promise<number>((r) =>
          browser$().document.addEventListener('cloudbench:painted', (e: any) => r(e.detail.rows), { once: true }),
        ),
    );
    await page.evaluate((m) => browser$().postMessage(m, '*'), message as unknown);
    assert.equal(await painted, rows.length);
  }

  /** The detail pane's tree of the row just clicked (the event comes from the extension). */
  async function detailTree(): Promise<void> {
    await page.locator('#detail-tree').waitFor({ state: 'attached' });
  }

  async function pageState(): Promise<{
    pwned: unknown;
    handlers: string[];
    injected: number;
    violations: string[];
    widest: number;
    scrollWidth: number;
    innerWidth: number;
    gridHeight: number;
    innerHeight: number;
  }> {
    return page.evaluate(() => {
      const w = browser$();
      const document = w.document;
      const handlers: string[] = [];
      let widest = 0;
      for (const node of Array.from<any>(document.querySelectorAll('*'))) {
        for (const attr of Array.from<any>(node.attributes))
          if (/^on/i.test(attr.name) || (/javascript:/i.test(attr.value) && attr.name === 'href'))
            handlers.push(`${node.tagName}.${attr.name}`);
        const rect = node.getBoundingClientRect();
        if (
          rect.width > widest &&
          w.getComputedStyle(node).display !== 'none' &&
          node.closest('#detail:not(.visible)') === null
        )
          widest = rect.width;
      }
      return {
        pwned: w.__pwned,
        handlers,
        injected: document.querySelectorAll(
          'body img, body iframe, body svg[onload], body object, body embed, body script:not([nonce])',
        ).length,
        violations: w.__violations as string[],
        widest,
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: w.innerWidth,
        gridHeight: document.getElementById('grid').getBoundingClientRect().height,
        innerHeight: w.innerHeight,
      };
    });
  }

  it('the generated HTML has a locked-down CSP, a nonce on each script, and resource roots limited to dist/webview and media', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(panel.html)?.[1];
    assert.ok(csp, 'a CSP meta tag');
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...sources]) => [name, sources]),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    const scriptSrc = directives.get('script-src') ?? [];
    assert.equal(scriptSrc.length, 1, `script-src: ${scriptSrc.join(' ')}`);
    assert.match(scriptSrc[0], /^'nonce-[A-Za-z0-9+/=]{16,}'$/);
    for (const [name, sources] of directives) {
      // The query bar's Monaco editor writes <style> elements and style attributes: inline styles
      // only, never scripts (test/reliability/querybar-webview.test.ts checks the bar itself).
      for (const s of sources)
        assert.ok(
          !/unsafe-inline|unsafe-eval|^\*$|^https?:$|^data:$|^blob:$/.test(s) ||
            (name === 'style-src' && s === "'unsafe-inline'"),
          `${name} allows ${s}`,
        );
    }
    const nonce = scriptSrc[0].slice("'nonce-".length, -1);
    const scripts = [...panel.html.matchAll(/<script\b([^>]*)>/g)];
    // The first keeps the messages that come while the page loads; the last is the bundle.
    assert.equal(scripts.length, 2);
    for (const [, attributes] of scripts)
      assert.ok(attributes.includes(`nonce="${nonce}"`), 'each script carries the nonce');
    assert.ok(!/\son[a-z]+=/i.test(panel.html), 'no inline event handlers');
    assert.equal(panel.options.enableScripts, true);
    const roots = (panel.options.localResourceRoots ?? []).map((u) => u.path.slice(ROOT.length)).sort();
    assert.deepEqual(roots, ['/dist/webview', '/media']);
  });

  it('the CSP is live: a script element inserted the way an injection would is blocked and reported', async () => {
    await page.evaluate(() => {
      const document = browser$().document;
      const s = document.createElement('script');
      s.textContent = 'window.__pwned = "inline"';
      document.body.append(s);
    });
    await page.waitForFunction(() => (browser$().__violations as string[]).length > 0);
    const state = await pageState();
    assert.equal(state.pwned, undefined);
    assert.ok(
      state.violations.some((v) => v.startsWith('script-src')),
      state.violations.join('; '),
    );
  });

  it('HTML, script, svg, iframe, javascript: and template payloads in every column and the title render as text; nothing runs', async () => {
    await postResults(hostileRows(), {
      title: PAYLOADS[0],
      uri: ["javascript:window.__pwned='console'"],
      columns: [
        { id: 'udm.principal.hostname', label: '<b onmouseover="window.__pwned=1">Host</b>' },
        { id: 'udm.target.url', label: 'URL' },
        { id: 'udm.metadata.description', label: 'Description' },
        { id: 'udm.securityResult.summary', label: 'Summary' },
      ],
    });
    // Hover and open every row's detail: tooltips and the tree are where lazily inserted text lives.
    const rowCount = await page.locator('#spacer .row').count();
    assert.ok(rowCount >= PAYLOADS.length);
    for (let i = 0; i < PAYLOADS.length; i++) {
      const row = page.locator(`#spacer .row[data-pos="${POS.payload(i)}"]`);
      await row.locator('.cell').first().hover();
      await row.click();
      await detailTree();
    }
    const state = await pageState();
    assert.equal(state.pwned, undefined, 'an injected payload ran');
    assert.deepEqual(dialogs, []);
    assert.deepEqual(state.handlers, [], 'no element carries an event-handler attribute');
    assert.equal(state.injected, 0, 'no element was created from event data');
    assert.deepEqual(state.violations, [], 'nothing even tried to load or run');
    assert.deepEqual(
      requests.filter(
        (u) =>
          !/\/(|dist\/webview\/(results|querybar)\.(js|css)|dist\/webview\/codicon-\w+\.ttf)$/.test(
            new URL(u).pathname,
          ),
      ),
      [],
      'no request beyond the page and its bundles',
    );
    const title = await page.locator('#run-title').textContent();
    assert.equal(title, PAYLOADS[0]);
    assert.ok(
      await page
        .locator('#grid-header')
        .textContent()
        .then((t) => t?.includes('<b onmouseover')),
      'the hostile label shows as text',
    );
    assert.equal(await page.locator('#open-console').isVisible(), false, 'a javascript: console link is not offered');
  });

  it('an RTL override is shown as a visible marker, not applied', async () => {
    await postResults(hostileRows());
    const texts = await page.locator(`#spacer .row[data-pos="${POS.payload(7)}"] .cell`).allTextContents();
    const joined = texts.join(' | ');
    assert.ok(!joined.includes('\u202e'), `raw U+202E reached the page: ${joined}`);
    assert.match(joined, /U\+202E/);
  });

  it('a 1 MB string and 400-deep JSON keep the layout: nothing wider than the viewport, grid height bounded, the detail opens', async () => {
    const rows = hostileRows();
    await postResults(rows);
    let state = await pageState();
    assert.ok(
      state.scrollWidth <= state.innerWidth + 1,
      `page scrolls sideways: ${state.scrollWidth} > ${state.innerWidth}`,
    );
    assert.ok(state.gridHeight <= state.innerHeight, `grid ${state.gridHeight}px in a ${state.innerHeight}px window`);
    const cellTexts = await page.locator(`#spacer .row[data-pos="${POS.huge}"] .cell`).allTextContents();
    assert.ok(
      cellTexts.every((t) => t.length < 400),
      `a cell holds ${Math.max(...cellTexts.map((t) => t.length))} characters`,
    );
    for (const pos of [POS.huge, POS.deep]) {
      const started = Date.now();
      await page.locator(`#spacer .row[data-pos="${pos}"]`).click();
      await page.locator('#detail.visible').waitFor();
      await detailTree();
      assert.ok(Date.now() - started < 5_000, `detail of row ${pos} took ${Date.now() - started} ms`);
      state = await pageState();
      assert.ok(state.scrollWidth <= state.innerWidth + 1, `row ${pos}: page scrolls sideways (${state.scrollWidth})`);
      const detailWidth = await page.locator('#detail').evaluate((n: any) => n.getBoundingClientRect().width);
      assert.ok(detailWidth <= state.innerWidth, `detail ${detailWidth}px`);
      const longest = await page
        .locator('#detail .str')
        .evaluateAll((nodes: any[]) => Math.max(0, ...nodes.map((n) => String(n.textContent ?? '').length)));
      assert.ok(longest < 5_000, `a detail value holds ${longest} characters`);
      assert.equal(state.pwned, undefined);
    }
    assert.deepEqual((await pageState()).violations, []);
  });

  it('links leave the page only as an openLink request: https offered, javascript: not, nothing navigates', async () => {
    await postResults(hostileRows(), { uri: ['https://console.example.com/search?q=1'] });
    await page.locator(`#spacer .row[data-pos="${POS.huge}"]`).click();
    await detailTree();
    const openButtons = page.locator('#detail [data-action="open-link"]');
    assert.equal(await openButtons.count(), 1, 'one Open link button, for the https url');
    await openButtons.first().click();
    await page.locator(`#spacer .row[data-pos="${POS.payload(4)}"]`).click();
    await detailTree();
    assert.equal(await page.locator('#detail [data-action="open-link"]').count(), 0, 'no Open link for javascript:');
    await page.locator('#open-console').click();
    const posted = await page.evaluate(() =>
      (browser$().__posted as Array<{ type: string; url?: string }>).filter((m) => m.type === 'openLink'),
    );
    assert.deepEqual(posted, [
      { type: 'openLink', url: 'https://example.com/report?q=1' },
      { type: 'openLink', url: 'https://console.example.com/search?q=1' },
    ]);
    assert.equal(new URL(page.url()).pathname, '/', 'the page did not navigate');
  });

  it('the restriction editor: a hostile display name, referrers and API targets render as text; its CSP is locked down', async () => {
    assert.ok(existsSync(join(ROOT, 'dist/webview/keys.js')), 'dist/webview/keys.js is missing: run npm run build');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(keysPanel.html)?.[1] ?? '';
    assert.match(csp, /^default-src 'none';/);
    assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]{16,}'(;|$)/);
    assert.ok(!/unsafe-|\*/.test(csp), csp);
    assert.equal(
      [...keysPanel.html.matchAll(/<script\b/g)].length,
      1,
      'only the bundle script; the display name in <title> is escaped',
    );
    assert.deepEqual((keysPanel.options.localResourceRoots ?? []).map((u) => u.path.slice(ROOT.length)).sort(), [
      '/dist/webview',
      '/media',
    ]);

    await page.goto(`${origin}/keys`);
    await page.waitForFunction(() => (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'));
    const { toEditorKey } = require('../../src/features/keys/editor') as typeof KeysEditorModule;
    await page.evaluate(
      (key) => browser$().postMessage({ type: 'init', key }, '*'),
      toEditorKey(HOSTILE_KEY) as unknown,
    );
    await page.waitForFunction(() => browser$().document.getElementById('app')?.getAttribute('aria-busy') !== 'true');
    const details = await page.evaluate(() => {
      const w = browser$();
      const d = w.document;
      const values = Array.from(d.querySelectorAll('textarea, input') as ArrayLike<any>)
        .map((n: any) => String(n.value))
        .join('\n');
      const handlers = Array.from<any>(d.querySelectorAll('*')).flatMap((n) =>
        Array.from<any>(n.attributes)
          .filter((a) => /^on/i.test(a.name))
          .map((a) => `${n.tagName}.${a.name}`),
      );
      return {
        handlers,
        pwned: w.__pwned,
        title: d.title,
        values,
        text: d.body.innerText as string,
        violations: w.__violations as string[],
        injected: d.querySelectorAll('body img, body svg, body iframe, body script:not([nonce])').length,
        scrollWidth: d.documentElement.scrollWidth,
        innerWidth: w.innerWidth,
      };
    });
    assert.equal(details.pwned, undefined, 'an injected payload ran');
    assert.deepEqual(dialogs, []);
    assert.equal(details.injected, 0, 'no element was created from key data');
    assert.deepEqual(details.violations, []);
    assert.ok(details.title.includes('</title><script>'), `the page title shows the name as text: ${details.title}`);
    assert.ok(
      details.values.includes('<img src=x onerror') || details.text.includes('<img src=x onerror'),
      'the hostile referrer is shown as text',
    );
    assert.ok(details.scrollWidth <= details.innerWidth + 1, 'the form does not scroll sideways');
    assert.deepEqual(details.handlers, [], 'no element carries an event-handler attribute');
  });

  it('the restriction editor: a malformed Android line is a problem naming the field and the line, never trimmed', async () => {
    await page.goto(`${origin}/keys`);
    await page.waitForFunction(() => (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'));
    const { toEditorKey } = require('../../src/features/keys/editor') as typeof KeysEditorModule;
    await page.evaluate(
      (key) => browser$().postMessage({ type: 'init', key }, '*'),
      toEditorKey(HOSTILE_KEY) as unknown,
    );
    await page.waitForFunction(() => browser$().document.getElementById('app')?.getAttribute('aria-busy') !== 'true');
    const state = await page.evaluate(() => {
      const d = browser$().document;
      const radio = d.querySelector('input[name="app"][value="android"]');
      radio.checked = true;
      radio.dispatchEvent(new (browser$().Event)('change', { bubbles: true }));
      const box = d.getElementById('android-apps');
      box.value = 'com.example.app DA:39:A3:EE:5E:6B:4B:0D:32:55:BF:EF:95:60:18:90:AF:D8:07:09\n\nnot a package';
      box.dispatchEvent(new (browser$().Event)('input', { bubbles: true }));
      return {
        problems: Array.from<any>(d.querySelectorAll('#problems li')).map((li) => String(li.textContent)),
        saveDisabled: Boolean(d.getElementById('save').disabled),
      };
    });
    assert.ok(
      state.problems.some((p) => p.startsWith('Android apps, line 3: "not a package" has 3 parts')),
      JSON.stringify(state.problems),
    );
    assert.ok(state.saveDisabled, 'nothing can be saved while a line is unreadable');
  });

  it("the restriction editor saves the chosen list as that kind's restriction", async () => {
    const { toEditorKey } = require('../../src/features/keys/editor') as typeof KeysEditorModule;
    const kinds: Array<[string, string, string, unknown]> = [
      ['browser', 'referrers', 'example.com/*', { browserKeyRestrictions: { allowedReferrers: ['example.com/*'] } }],
      ['server', 'ips', '104.133.8.78', { serverKeyRestrictions: { allowedIps: ['104.133.8.78'] } }],
      ['ios', 'bundle-ids', 'com.example.app', { iosKeyRestrictions: { allowedBundleIds: ['com.example.app'] } }],
    ];
    for (const [kind, boxId, line, expected] of kinds) {
      await page.goto(`${origin}/keys`);
      await page.waitForFunction(() =>
        (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'),
      );
      await page.evaluate(
        (key) => browser$().postMessage({ type: 'init', key }, '*'),
        toEditorKey(HOSTILE_KEY) as unknown,
      );
      await page.waitForFunction(() => browser$().document.getElementById('app')?.getAttribute('aria-busy') !== 'true');
      const saved = await page.evaluate(
        ([k, id, text]) => {
          const d = browser$().document;
          const radio = d.querySelector(`input[name="app"][value="${k}"]`);
          radio.checked = true;
          radio.dispatchEvent(new (browser$().Event)('change', { bubbles: true }));
          const box = d.getElementById(id);
          box.value = text;
          box.dispatchEvent(new (browser$().Event)('input', { bubbles: true }));
          const api = d.getElementById('api-restricted');
          api.checked = false;
          api.dispatchEvent(new (browser$().Event)('change', { bubbles: true }));
          d.getElementById('save').click();
          return (browser$().__posted as Array<{ type: string }>).filter((m) => m.type === 'save');
        },
        [kind, boxId, line],
      );
      assert.deepEqual(saved, [{ type: 'save', restrictions: expected, etag: 'W/"1"' }], kind);
    }
  });

  it('the extension opens only http(s) links, only after a modal confirmation naming the link', async () => {
    const opened: string[] = [];
    const asked: Array<{ text: string; modal: boolean }> = [];
    const warned: string[] = [];
    let answer: string | undefined = 'Open';
    vscode.env = {
      openExternal: async (uri: { toString(): string }) => {
        opened.push(uri.toString());
        return true;
      },
    };
    const window = vscode.window as Record<string, unknown>;
    const saved = { info: window.showInformationMessage, warn: window.showWarningMessage };
    window.showInformationMessage = async (text: string, options: { modal?: boolean }) => {
      asked.push({ text, modal: options?.modal === true });
      return answer;
    };
    window.showWarningMessage = async (text: string) => {
      warned.push(text);
      return undefined;
    };
    try {
      freshProductModules();
      const { SearchController } = require('../../src/features/search/controller') as typeof SearchControllerModule;
      const openLink = SearchController.prototype.openLink;
      for (const bad of [
        'javascript:alert(1)',
        ' JavaScript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'file:///etc/passwd',
        'vbscript:msgbox',
        'command:workbench.action.terminal.new',
        'vscode://settings',
        'https://',
      ]) {
        await openLink.call({}, bad);
      }
      assert.deepEqual(opened, [], 'nothing but http(s) opens');
      assert.equal(asked.length, 0, 'refused links are not even offered');
      assert.equal(warned.length, 8);
      answer = undefined;
      await openLink.call({}, 'https://example.com/a');
      assert.deepEqual(opened, [], 'a dismissed confirmation opens nothing');
      answer = 'Open';
      await openLink.call({}, 'https://example.com/b');
      assert.equal(opened.length, 1);
      assert.match(opened[0], /example\.com\/b/);
      assert.ok(
        asked.every((a) => a.modal),
        'the confirmation is modal',
      );
      // The link reads as itself (safeText breaks its scheme with an invisible space so it is not a link).
      assert.ok(
        asked[1].text.replaceAll('\u200b', '').includes('https://example.com/b'),
        'the confirmation names the link',
      );
    } finally {
      window.showInformationMessage = saved.info;
      window.showWarningMessage = saved.warn;
    }
  });
});
