// Every kind of Cloudbench page in headless Chromium, checked by axe-core (WCAG 2.x A and AA rules)
// in each of VS Code's four default theme kinds: 0 serious or critical violations. The themes are
// the --vscode-* variables and body classes the real editor gives a webview (test/reliability/
// theme-colours.json, recorded and checked by the real-editor scenario "theme colours"), so
// contrast is measured on the colours a user sees.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { PAGE_KINDS } from './accessibility-pages';
import { ROOT, launchChromium, serveWebviewPages, vscodeApiScript } from './webview-harness';

const browser$ = (): any => globalThis as any;
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface Theme {
  label: string;
  bodyClasses: string[];
  variables: Record<string, string>;
}
const THEMES: Record<string, Theme> = JSON.parse(readFileSync(join(__dirname, 'theme-colours.json'), 'utf8'));

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[]; failureSummary: string }>;
}

/** Applies a theme the way VS Code does in a webview: variables on <html>, classes on <body>. */
function themeScript(theme: Theme): string {
  return `document.addEventListener('DOMContentLoaded', () => {
    const vars = ${JSON.stringify(theme.variables)};
    for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
    document.body.classList.add(...${JSON.stringify(theme.bodyClasses)});
    document.body.dataset.vscodeThemeKind = ${JSON.stringify(theme.bodyClasses[0])};
    // The webview lies on the editor: where a page draws no background of its own, the editor's shows.
    document.documentElement.style.background = 'var(--vscode-editor-background)';
  });`;
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> would be refused).
  await page.evaluate(AXE);
  const violations: Violation[] = await page.evaluate(async () => {
    const w = globalThis as any;
    const result = await w.axe.run(w.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n: any) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

function describeViolations(list: Violation[]): string {
  return list
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary.replace(/\n\s*/g, ' / ')}`).join('\n'),
    )
    .join('\n');
}

describe('reliability: accessibility of every page (axe-core, headless Chromium)', function () {
  this.timeout(120_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let browser: Browser;
  let pages: Record<string, string> = {};

  before(async () => {
    for (const bundle of ['results.js', 'stats.js', 'rule-test.js', 'metrics.js', 'keys.js', 'notebook-renderer.js'])
      assert.ok(existsSync(join(ROOT, 'dist/webview', bundle)), `dist/webview/${bundle} is missing: run npm run build`);
    server = await serveWebviewPages(() => pages);
    pages = Object.fromEntries(PAGE_KINDS.map((k) => [k.path, k.html(server.origin)]));
    browser = await launchChromium('a11y');
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('measures in the four theme kinds VS Code ships, with the colours a webview gets', () => {
    assert.deepEqual(Object.keys(THEMES).sort(), ['dark', 'hc-dark', 'hc-light', 'light']);
    for (const theme of Object.values(THEMES)) {
      assert.match(theme.variables['--vscode-foreground'] ?? '', /^#|^rgb/);
      assert.match(theme.variables['--vscode-editor-background'] ?? '', /^#|^rgb/);
    }
  });

  it('the check fails a page whose text does not contrast and whose button has no name', async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(
        '<!doctype html><html lang="en"><head><title>t</title></head><body style="background:#fff">' +
          '<p style="color:#eee">faint</p><button></button></body></html>',
      );
      const ids = (await seriousViolations(page)).map((v) => v.id).sort();
      assert.deepEqual(ids, ['button-name', 'color-contrast']);
    } finally {
      await page.close();
    }
  });

  for (const kind of PAGE_KINDS)
    for (const themeName of Object.keys(THEMES))
      it(`${kind.name} in ${THEMES[themeName].label}: 0 serious or critical violations`, async () => {
        const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        try {
          await page.addInitScript(vscodeApiScript({ extra: themeScript(THEMES[themeName]) }));
          const settle = await kind.prepare?.(page);
          await page.goto(`${server.origin}${kind.path}`);
          if (kind.handshake)
            await page.waitForFunction(() =>
              (browser$().__posted as Array<{ type: string }>).some((m) => m.type === 'ready'),
            );
          await settle?.(page);
          const violations = await seriousViolations(page);
          assert.equal(violations.length, 0, describeViolations(violations));
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      });
});
