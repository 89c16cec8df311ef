// The metrics panel (dist/webview/metrics.js) in headless Chromium, on the HTML and CSP that
// MetricsPanel generates under the vscode fake: every confusion-matrix cell says its count and its
// share of the row as text inside a real table, the text contrasts with the cell's shade in a dark
// and a light theme, and in compare mode both matrices stand side by side with their difference.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type * as PanelModule from '../../src/features/models/metrics-panel';
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
const BUNDLE = join(ROOT, 'dist/webview/metrics.js');
const SCHEMA = 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;

function metricsPageHtml(origin: string): string {
  const { webview, html } = capturingWebview(origin);
  vscode.window.createWebviewPanel = () => ({
    webview,
    onDidDispose: () => ({ dispose() {} }),
    reveal() {},
    dispose() {},
    title: '',
  });
  const { MetricsPanels } = require('../../src/features/models/metrics-panel') as typeof PanelModule;
  const panels = new MetricsPanels(vscode.Uri.file(ROOT));
  panels.show({
    subject: { name: 'eval-a', label: 'A', schemaUri: SCHEMA, metrics: {} },
    modelName: 'projects/p/locations/l/models/m',
    versionId: '1',
    title: 'metrics',
    candidates: () => Promise.resolve([]),
    load: () => Promise.reject(new Error('not used')),
  });
  panels.closeAll();
  return html();
}

const CLASSES = [{ displayName: 'cat' }, { displayName: 'dog' }, { displayName: '<b>bird</b>' }];
function metrics(rows: number[][]): unknown {
  return { auPrc: 0.9, logLoss: 0.3, confusionMatrix: { annotationSpecs: CLASSES, rows } };
}
const A_ROWS = [
  [80, 15, 5],
  [10, 1234, 6],
  [0, 3, 47],
];
const B_ROWS = [
  [90, 8, 2],
  [12, 1230, 8],
  [1, 1, 48],
];

function init(compare: boolean): unknown {
  return {
    type: 'init',
    title: 'Metrics of pets',
    subject: { name: 'eval-a', label: 'evaluation A', schemaUri: SCHEMA, metrics: metrics(A_ROWS) },
    candidates: [{ name: 'eval-b', label: 'evaluation B' }],
    compare: compare
      ? { name: 'eval-b', label: 'evaluation B', schemaUri: SCHEMA, metrics: metrics(B_ROWS) }
      : undefined,
  };
}

interface Cell {
  text: string;
  headers: string[];
  background: string;
  color: string;
}

describe('reliability: the metrics panel confusion matrix (headless Chromium)', function () {
  this.timeout(60_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let browser: Browser;
  let page: Page;
  let html = '';

  before(async () => {
    assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run npm run build (npm test does) first`);
    server = await serveWebviewPages(() => ({ '/': html }));
    html = metricsPageHtml(server.origin);
    browser = await launchChromium('metrics');
  });

  after(async () => {
    delete vscode.window.createWebviewPanel;
    await browser?.close();
    await server?.close();
  });

  const open = async (themeCss: string): Promise<void> => {
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.addInitScript(
      vscodeApiScript({
        extra: `document.addEventListener('DOMContentLoaded', () => {
          for (const [k, v] of Object.entries(${themeCss})) document.body.style.setProperty(k, v);
        });`,
      }),
    );
    await openReadyPage(page, `${server.origin}/`);
  };

  afterEach(async () => {
    await page?.close();
  });

  const send = (message: unknown): Promise<void> => page.evaluate((m) => browser$().postMessage(m, '*'), message);

  /** Every count cell of one table, with the headers a screen reader announces for it. */
  const cells = (tableId: string): Promise<Cell[]> =>
    page.evaluate((id) => {
      const w = browser$();
      const table = w.document.getElementById(id);
      const heads: string[] = [...table.tHead.rows[0].cells].map((c: any) => c.textContent ?? '');
      return [...table.tBodies[0].rows].flatMap((row: any) =>
        [...row.cells]
          .filter((c: any) => c.classList.contains('cell'))
          .map((c: any) => ({
            text: c.textContent ?? '',
            headers: [row.cells[0].textContent ?? '', heads[c.cellIndex] ?? ''],
            background: w.getComputedStyle(c).backgroundColor,
            color: w.getComputedStyle(c).color,
          })),
      );
    }, tableId);

  const parse = (rgb: string): number[] => (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const contrast = (a: string, b: string): number => {
    const lum = (c: number[]): number =>
      c
        .map((v) => v / 255)
        .map((s) => (s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
        .reduce((acc, s, i) => acc + s * [0.2126, 0.7152, 0.0722][i], 0);
    const [x, y] = [lum(parse(a)), lum(parse(b))].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };

  for (const [name, themeCss] of [
    [
      'dark',
      `{'--vscode-foreground':'#cccccc','--vscode-editor-background':'#1e1e1e','--vscode-charts-blue':'#3794ff'}`,
    ],
    [
      'light',
      `{'--vscode-foreground':'#3b3b3b','--vscode-editor-background':'#ffffff','--vscode-charts-blue':'#1a85ff'}`,
    ],
  ] as const) {
    it(`every cell says its count and its row share, in a table, readable in a ${name} theme`, async () => {
      await open(themeCss);
      await send(init(false));
      await page.locator('#matrix-subject').waitFor();
      const got = await cells('matrix-subject');
      assert.equal(got.length, 9);
      // Row "dog": 10 + 1234 + 6 = 1250; 1234 is 98.7% of it.
      const dogDog = got.find((c) => c.headers[0] === 'True dog' && c.headers[1] === 'Predicted dog')!;
      assert.match(dogDog.text, /^1,234\s*98\.7%\s*of true dog$/);
      const catBird = got.find((c) => c.headers[0] === 'True cat' && c.headers[1] === 'Predicted <b>bird</b>')!;
      assert.match(catBird.text, /^5\s*5\.0%/);
      for (const cell of got) {
        assert.ok(
          contrast(cell.color, cell.background) >= 4.5,
          `${cell.headers.join(' / ')}: contrast ${contrast(cell.color, cell.background).toFixed(2)} of ${cell.color} on ${cell.background}`,
        );
      }
      assert.equal(await page.locator('#matrix-subject caption').textContent(), 'Confusion matrix of evaluation A');
      assert.equal(await page.locator('#matrix-subject b').count(), 0, 'class names are text, never HTML');
      assert.deepEqual(await page.evaluate(() => browser$().__violations), []);
    });
  }

  it('compare mode shows both matrices side by side and their difference', async () => {
    await open(`{}`);
    await send(init(true));
    await page.locator('#matrix-difference').waitFor();
    const a = await cells('matrix-subject');
    const b = await cells('matrix-compare');
    const diff = await cells('matrix-difference');
    assert.equal(a.length, 9);
    assert.equal(b.length, 9);
    assert.match(b[0].text, /^90\s*90\.0%/);
    // cat→cat: 90 − 80 = +10 items; 90.0% − 80.0% = +10.0 percentage points.
    assert.match(diff[0].text, /^\+10\s*\+10\.0 pp$/);
    // cat→dog: 8 − 15 = −7.
    assert.match(diff[1].text, /^−7\s*−7\.0 pp$/);
    const [boxA, boxB] = await Promise.all([
      page.locator('#matrix-subject').boundingBox(),
      page.locator('#matrix-compare').boundingBox(),
    ]);
    assert.ok(
      boxA && boxB && boxB.x > boxA.x + boxA.width - 1 && Math.abs(boxB.y - boxA.y) < 40,
      `side by side: ${JSON.stringify([boxA, boxB])}`,
    );
    assert.match((await page.locator('#matrix-difference caption').textContent()) ?? '', /evaluation B − evaluation A/);
  });
});
