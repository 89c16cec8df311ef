// The results, statistics and metrics pages in headless Chromium at 400 px (a panel beside the
// editor) and at 1,400 px: no two axis labels overlap (the timeline's labels are elements; the
// charts' are drawn on a canvas, whose label boxes Chart.js reports in `data-axis-labels`), labels
// are thinned rather than dropped altogether at full width, the statistics plot keeps its height,
// and no note is clipped or covered (the limit banner, "The chart leaves out N categories…").
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type * as StatsPanelModule from '../../src/features/statistics/panel';
import type * as MetricsPanelModule from '../../src/features/models/metrics-panel';
import type * as SearchPanelModule from '../../src/features/search/panel';
import type * as RuleTestPanelModule from '../../src/features/rules/panel';
import { useFakeVscode } from '../unit/fakes/vscode';
import { ResultsHost } from './results-host';
import {
  ROOT,
  capturingWebview,
  launchChromium,
  openReadyPage,
  serveWebviewPages,
  vscodeApiScript,
} from './webview-harness';

// Functions handed to page.$eval run in the page, with its DOM.
declare const document: any;
declare const getComputedStyle: any;
type HTMLElement = any;
type HTMLCanvasElement = any;

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const SHOTS = join(ROOT, 'test-results', 'narrow');

function fakePanel(webview: unknown): unknown {
  return {
    webview,
    onDidDispose: () => ({ dispose() {} }),
    reveal() {},
    dispose() {},
    title: '',
    iconPath: undefined,
    viewColumn: 1,
  };
}

function pageHtml(origin: string): Record<string, string> {
  const results = capturingWebview(origin);
  const { renderHtml } = require('../../src/features/search/panel') as typeof SearchPanelModule;
  const stats = capturingWebview(origin);
  vscode.window.createWebviewPanel = () => fakePanel(stats.webview);
  const { StatisticsPanelSlot } = require('../../src/features/statistics/panel') as typeof StatsPanelModule;
  new StatisticsPanelSlot().show(vscode.Uri.file(ROOT), () => undefined).dispose();
  const metrics = capturingWebview(origin);
  vscode.window.createWebviewPanel = () => fakePanel(metrics.webview);
  const { MetricsPanels } = require('../../src/features/models/metrics-panel') as typeof MetricsPanelModule;
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
  const ruleTest = capturingWebview(origin);
  vscode.window.createWebviewPanel = () => fakePanel(ruleTest.webview);
  const { RuleTestPanel } = require('../../src/features/rules/panel') as typeof RuleTestPanelModule;
  RuleTestPanel.create(vscode.Uri.file(ROOT), 'repeated_failed_logins', () => undefined).dispose();
  delete vscode.window.createWebviewPanel;
  return {
    '/results': renderHtml(results.webview as never, vscode.Uri.file(ROOT), 'pivot'),
    '/stats': stats.html(),
    '/metrics': metrics.html(),
    '/rule-test': ruleTest.html(),
  };
}

// ---- the data ----------------------------------------------------------------------------------

const START = Date.parse('2026-11-28T00:00:00Z');
const HOUR = 3_600_000;

/** Events every 20 minutes over three and a half days: the timeline labels read "11-30 03h". */
function events(): unknown[] {
  return Array.from({ length: 252 }, (_, i) => ({
    name: `events/${i}`,
    udm: {
      metadata: { eventTimestamp: new Date(START + i * 20 * 60_000).toISOString(), eventType: 'NETWORK_DNS' },
      principal: { hostname: `host-${i % 7}` },
    },
  }));
}

const DESCRIPTION =
  'Login attempt blocked by the conditional access policy of the finance group after repeated failures from an unmanaged device';
const CANCELLED =
  'Cancelled after 1,076 events had arrived: the rows shown are only part of the answer. Run again for all of it.';

const RESULTS_RUN = {
  runId: 'run-1',
  kind: 'udm',
  title: 'metadata.event_type = "NETWORK_DNS"',
  query: 'metadata.event_type = "NETWORK_DNS"',
  startTime: '2026-11-28T00:00:00Z',
  endTime: '2026-12-01T12:00:00Z',
  covered: { start: '2026-11-30T00:00:00Z', end: '2026-12-01T12:00:00Z' },
  restSearches: 4,
};

/** Hourly counts of 40 hosts over three days: a time series with more series than the chart draws. */
function statsTable(): unknown {
  const rows: unknown[][] = [];
  for (let h = 0; h < 72; h++)
    for (let k = 0; k < 40; k++)
      rows.push([(START + h * HOUR) / 1000, `workstation-${k}.corp.example`, (h * 7 + k) % 23]);
  return {
    type: 'table',
    run: {
      runId: 'run-1',
      title: 'metadata.event_type = "USER_LOGIN" match: principal.hostname by 1h outcome: $logins = count(metadata.id)',
      startTime: '2026-11-28T00:00:00Z',
      endTime: '2026-12-01T00:00:00Z',
      eventsFetched: 12_345,
      searches: 3,
      groupsTotal: rows.length,
      timeZone: 'UTC',
      warnings: [],
    },
    columns: [
      { name: 'time_bucket', role: 'bucket', type: 'timestamp' },
      { name: 'principal.hostname', role: 'key', type: 'string' },
      { name: 'logins', role: 'outcome', type: 'number' },
    ],
    rowsJson: JSON.stringify(rows),
  };
}

const SCHEMA = 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml';

function metricsInit(): unknown {
  const confidenceMetrics = Array.from({ length: 21 }, (_, i) => {
    const t = i / 20;
    return { confidenceThreshold: t, recall: 1 - t * t, precision: 0.5 + t / 2.2, falsePositiveRate: (1 - t) ** 2 };
  });
  const classes = [{ displayName: 'cat' }, { displayName: 'dog' }, { displayName: 'bird' }];
  const rows = [
    [80, 15, 5],
    [10, 1234, 6],
    [0, 3, 47],
  ];
  return {
    type: 'init',
    title: 'Metrics of pets',
    subject: {
      name: 'eval-a',
      label: 'evaluation A',
      schemaUri: SCHEMA,
      metrics: { auPrc: 0.9, logLoss: 0.3, confidenceMetrics, confusionMatrix: { annotationSpecs: classes, rows } },
    },
    candidates: [],
  };
}

/** A Test Rule result with long match values, several outcomes, a note and a cut run's banner. */
function ruleTestResult(): unknown {
  const detection = (k: number): unknown => ({
    windowStart: Date.parse('2026-11-25T10:00:00Z') + k * HOUR,
    windowEnd: Date.parse('2026-11-26T10:00:00Z') + k * HOUR,
    match: [
      ['user', `alice.wonderland-${k}@corp.example`],
      ['host', `workstation-${k}.eu-west.corp.example`],
    ],
    outcomes: [
      ['failures', String(5 + k)],
      ['hosts', 'host-a.corp.example, host-b.corp.example, host-c.corp.example'],
      ['first_seen', '2026-11-25T10:00:00Z'],
    ],
    riskScore: 50 + k,
    variables: [
      {
        variable: 'e',
        count: 12_345,
        events: [
          { time: '2026-11-25T10:00:00Z', summary: 'USER_LOGIN alice.wonderland@corp.example on host-a (BLOCK)' },
        ],
      },
    ],
  });
  return {
    type: 'result',
    run: {
      runId: 'run-1',
      ruleName: 'repeated_failed_logins',
      uri: 'file:///w/rules/repeated_failed_logins.yaral',
      startTime: '2026-11-20T00:00:00Z',
      endTime: '2026-11-27T00:00:00Z',
      searches: 3,
      eventsRead: 12_345,
      notes: [
        '$g is an entity (graph) variable: the Search API returns no entity data, so conditions on it are not tested here.',
      ],
      cut: {
        reason: 'time-limit',
        message: 'Stopped after 60 s with 12,345 events read; the detections cover only part of the range.',
      },
      detectionsTotal: 3,
      ranAt: '2026-11-27T04:00:00Z',
    },
    detections: [0, 1, 2].map(detection),
  };
}

// ---- what is measured ----------------------------------------------------------------------------

interface Box {
  label: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Pairs of boxes that overlap (touching is no overlap). */
function overlaps(boxes: Box[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        out.push(`"${a.label}" and "${b.label}"`);
    }
  return out;
}

/** The drawn tick labels of every chart on the page, by canvas and axis. */
async function chartLabels(page: Page): Promise<Map<string, Box[]>> {
  const reports = await page.$$eval('canvas[data-axis-labels]', (canvases) =>
    canvases.map((c) => ({ id: c.id, boxes: JSON.parse((c as HTMLCanvasElement).dataset.axisLabels ?? '[]') })),
  );
  const byAxis = new Map<string, Box[]>();
  for (const { id, boxes } of reports)
    for (const b of boxes as Array<Box & { axis: string }>)
      byAxis.set(`${id} ${b.axis}`, [...(byAxis.get(`${id} ${b.axis}`) ?? []), b]);
  return byAxis;
}

/**
 * The text of each element matching `selector` as a box (the union of its text's line boxes), with
 * the number of lines it takes, and where that text leaves its own cell (a neighbour would cover it).
 */
async function textBoxes(page: Page, selector: string): Promise<Array<Box & { lines: number; outside: boolean }>> {
  return page.$$eval(selector, (els) =>
    els
      // Shown text only: not a header kept for screen readers alone (a 1 px box).
      .filter(
        (e) =>
          (e as HTMLElement).offsetParent !== null &&
          e.getBoundingClientRect().width > 1 &&
          (e.textContent ?? '').trim() !== '',
      )
      .map((e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const r = range.getBoundingClientRect();
        const cell = e.getBoundingClientRect();
        const tops = new Set([...range.getClientRects()].map((x: any) => Math.round(x.top)));
        return {
          label: (e.textContent ?? '').slice(0, 40),
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          lines: tops.size,
          outside: r.left < cell.left - 1 || r.right > cell.right + 1 || r.bottom > cell.bottom + 1,
        };
      }),
  );
}

/**
 * Where a note is clipped: its text overflows its own box, it reaches past the page's right edge,
 * or an element after it (the table header) starts above its bottom.
 */
async function clipped(page: Page, selector: string, below: string): Promise<string[]> {
  return page.$eval(
    selector,
    (note, belowSelector) => {
      const problems: string[] = [];
      const box = note.getBoundingClientRect();
      if (note.scrollHeight > note.clientHeight + 1)
        problems.push(`overflows its height (${note.scrollHeight} > ${note.clientHeight})`);
      if (note.scrollWidth > note.clientWidth + 1)
        problems.push(`overflows its width (${note.scrollWidth} > ${note.clientWidth})`);
      if (box.right > document.documentElement.clientWidth + 1) problems.push(`ends past the page at ${box.right}`);
      const next = document.querySelector(belowSelector);
      if (next && next.getBoundingClientRect().top < box.bottom - 1)
        problems.push(
          `${belowSelector} starts at ${next.getBoundingClientRect().top}, above the note's bottom ${box.bottom}`,
        );
      return problems;
    },
    below,
  );
}

describe('reliability: panels at 400 px and 1,400 px (headless Chromium)', function () {
  this.timeout(120_000);
  let server: Awaited<ReturnType<typeof serveWebviewPages>>;
  let pages: Record<string, string> = {};
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    for (const f of ['results.js', 'stats.js', 'metrics.js', 'rule-test.js'])
      assert.ok(existsSync(join(ROOT, 'dist/webview', f)), `dist/webview/${f} is missing: run npm run build`);
    server = await serveWebviewPages(() => pages);
    pages = pageHtml(server.origin);
    browser = await launchChromium('narrow');
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async () => {
    assert.deepEqual(pageErrors, []);
    await page?.close();
  });

  /** Opens a page; `host` answers its rows.* requests (the detail pane's event) as the extension does. */
  async function open(path: string, width: number, withHost = false): Promise<ResultsHost | undefined> {
    pageErrors.length = 0;
    page = await browser.newPage({ viewport: { width, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.addInitScript(vscodeApiScript());
    const host = withHost ? await ResultsHost.attach(page) : undefined;
    await openReadyPage(page, `${server.origin}${path}`);
    return host;
  }

  const send = (messages: unknown[]): Promise<void> =>
    page.evaluate((list: unknown[]) => {
      for (const m of list) (globalThis as any).postMessage(m, '*');
    }, messages);

  for (const width of [400, 1400]) {
    it(`results at ${width} px: timeline labels apart and inside the axis, the limit banner wraps as sentences`, async () => {
      await open('/results', width);
      const host = await ResultsHost.attach(page);
      await send(host.messages(RESULTS_RUN as never, events(), [], { moreDataAvailable: true }));
      await page.locator('#histogram-wrap.visible').waitFor();
      await page.locator('#banner.visible').waitFor();
      await page.screenshot({ path: join(SHOTS, `results-${width}.png`) });
      const ticks = await page.$$eval('#histogram-axis .tick', (els) =>
        els
          .filter((e) => (e as HTMLElement).offsetParent !== null)
          .map((e) => {
            const r = e.getBoundingClientRect();
            return { label: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          }),
      );
      assert.ok(
        ticks.length >= (width === 400 ? 2 : 5),
        `${ticks.length} labels: ${ticks.map((t) => t.label).join(', ')}`,
      );
      assert.deepEqual(overlaps(ticks), []);
      const axis = await page.$eval('#histogram-axis', (e) => e.getBoundingClientRect().toJSON());
      for (const t of ticks)
        assert.ok(t.left >= axis.left - 1 && t.right <= axis.right + 1, `${t.label} leaves the axis`);
      // The banner's text keeps a readable measure: a few lines, not a column of single words.
      const banner = await page.$eval('#banner-text', (e) => {
        const range = document.createRange();
        range.selectNodeContents(e);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return { width: e.getBoundingClientRect().width, lines: tops.size };
      });
      assert.ok(banner.width >= Math.min(width - 40, 300), `banner text ${banner.width} px wide`);
      assert.ok(banner.lines <= (width === 400 ? 8 : 3), `banner text in ${banner.lines} lines`);
      assert.deepEqual(await clipped(page, '#banner-text', '#histogram-wrap'), []);
    });

    it(`results at ${width} px: a cancel notice reads whole, detail values wrap between words`, async () => {
      const host = (await open('/results', width, true))!;
      const described = events().map((e, i) => {
        const udm = (e as { udm: Record<string, any> }).udm;
        udm.metadata.description = DESCRIPTION;
        udm.target = { file: { sha256: `${'e3b0c44298fc1c149afbf4c8996fb924'.repeat(2)}${i}` } };
        return e;
      });
      await send(host.messages(RESULTS_RUN as never, described, [], { moreDataAvailable: false }));
      await page.locator('#grid .row').first().waitFor();
      // The user cancelled while the answer arrived: the rows shown are only part of it.
      await send([
        {
          type: 'arrived',
          runId: 'run-1',
          count: described.length,
          moreDataAvailable: false,
          partial: { cancelled: true, message: CANCELLED },
        },
      ]);
      await page.locator('#run-summary', { hasText: /^Cancelled after/ }).waitFor();
      assert.equal(await page.textContent('#run-summary'), CANCELLED);
      assert.deepEqual(await clipped(page, '#run-summary', '.toolbar'), []);
      await page.locator('#grid .row').first().click();
      await page.locator('#detail-tree [data-path="udm.target.file.sha256"]').waitFor({ state: 'attached' });
      await page.$$eval('#detail details', (all) => all.forEach((d) => (d.open = true)));
      await page.screenshot({ path: join(SHOTS, `results-detail-${width}.png`) });
      const wrapping = await page.evaluate((description: string) => {
        const leaves = [...document.querySelectorAll('#detail .tree .leaf')] as HTMLElement[];
        const prose = leaves.find((l) => l.textContent?.includes(description))?.querySelector('.str');
        const hash = leaves.find((l) => /sha256/.test(l.textContent ?? ''));
        const node = prose?.firstChild;
        if (!node || !hash) return { missing: true };
        // Each word of the value on one line: the value wraps only between words.
        const split: string[] = [];
        const text = node.textContent ?? '';
        const range = document.createRange();
        for (const m of text.matchAll(/\S+/g)) {
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          if (new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size > 1) split.push(m[0]);
        }
        range.selectNodeContents(node);
        const lines = new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size;
        const pane = document.querySelector('#detail');
        return {
          split,
          lines,
          hashFits: hash.getBoundingClientRect().right <= pane.getBoundingClientRect().right + 1,
          paneScrolls: pane.scrollWidth > pane.clientWidth + 1,
        };
      }, DESCRIPTION);
      assert.equal(wrapping.missing, undefined, 'the detail shows the description and the hash');
      assert.deepEqual(wrapping.split, [], 'words broken across lines');
      assert.ok((wrapping.lines ?? 0) > 1, 'the description wraps in the pane');
      // A token longer than the pane (a hash) still breaks inside, rather than run off the pane.
      assert.equal(wrapping.hashFits, true);
      assert.equal(wrapping.paneScrolls, false);
    });

    it(`statistics at ${width} px: a time series with a plot of its own, labels apart, the note whole`, async () => {
      await open('/stats', width);
      await send([statsTable()]);
      await page.locator('.stats-row').first().waitFor();
      await page.waitForFunction(() => !!document.querySelector('#stats-chart')?.getAttribute('data-axis-labels'));
      await page.screenshot({ path: join(SHOTS, `stats-${width}.png`) });
      const labels = await chartLabels(page);
      assert.ok((labels.get('stats-chart x')?.length ?? 0) >= 2, [...labels.keys()].join(', '));
      assert.ok((labels.get('stats-chart y')?.length ?? 0) >= 2, 'the value axis is labelled');
      for (const [axis, boxes] of labels) assert.deepEqual(overlaps(boxes), [], axis);
      const plot = await page.$eval('#stats-chart', (c) => c.getBoundingClientRect().height);
      assert.ok(plot >= 180, `the chart is ${plot} px tall`);
      assert.match((await page.textContent('#stats-chart-note')) ?? '', /The chart leaves out 30 categories or series/);
      assert.deepEqual(await clipped(page, '#stats-chart-note', '#stats-table'), []);
      // The last column stays reachable: the table scrolls sideways when it is wider than the panel.
      const reach = await page.$eval('#stats-body', (b) => ({
        scroll: b.scrollWidth,
        client: b.clientWidth,
        overflow: getComputedStyle(b).overflowX,
      }));
      assert.ok(reach.scroll <= reach.client || /auto|scroll/.test(reach.overflow), JSON.stringify(reach));
    });

    it(`Test Rule at ${width} px: headers and cells apart and readable, notes whole, nothing off-screen`, async () => {
      await open('/rule-test', width);
      await send([ruleTestResult()]);
      await page.locator('tr.rt-row').first().waitFor();
      await page.locator('tr.rt-row').first().click();
      await page.locator('button.rt-event').first().waitFor();
      await page.screenshot({ path: join(SHOTS, `rule-test-${width}.png`), fullPage: true });
      // The page never scrolls sideways: every column, the banner and Run Again are on screen.
      const page$ = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      assert.ok(page$.scroll <= page$.client + 1, `the page is ${page$.scroll} px wide in ${page$.client}`);
      for (const selector of ['#rt-table th', '#rt-rerun', 'table.rt-events th', 'button.rt-open-all']) {
        const boxes = await page.$$eval(selector, (els) => els.map((e) => e.getBoundingClientRect().toJSON()));
        assert.ok(boxes.length > 0, selector);
        for (const b of boxes) assert.ok(b.left >= -1 && b.right <= width + 1, `${selector} at ${b.left}–${b.right}`);
      }
      // No two labels overlap, no cell's text leaves its cell, and a value reads in a few lines
      // (not one word or a few letters a line).
      // At 400 px each row is a block whose cells carry their names, the headers are for screen readers.
      const narrow = width === 400;
      for (const [selector, least] of [
        ['#rt-table thead th', narrow ? 0 : 6],
        ['tr.rt-row:first-child td', 6],
        ['.rt-outcomes dt, .rt-outcomes dd', 6],
        ['table.rt-events th, table.rt-events td', narrow ? 5 : 8],
      ] as const) {
        const boxes = await textBoxes(page, selector);
        assert.ok(boxes.length >= least, `${selector}: ${boxes.length} labels`);
        assert.deepEqual(overlaps(boxes), [], selector);
        assert.deepEqual(
          boxes.filter((b) => b.outside).map((b) => b.label),
          [],
          `${selector}: text leaves its cell`,
        );
        for (const b of boxes)
          assert.ok(b.lines <= (width === 400 ? 4 : 2), `${selector} "${b.label}" takes ${b.lines} lines`);
      }
      for (const note of ['#rt-cut', '#rt-summary', '#rt-notes li'])
        assert.deepEqual(await clipped(page, note, 'main'), [], note);
      assert.match((await page.textContent('#rt-cut')) ?? '', /the detections cover only part of the range\.$/);
      if (narrow) {
        // Each stacked cell says what it is.
        const named = await page.$$eval(
          'tr.rt-row:first-child td.rt-match, tr.rt-row:first-child td.rt-counts',
          (tds) => tds.map((td) => getComputedStyle(td, '::before').content),
        );
        assert.deepEqual(named, ['"Match: "', '"Events: "']);
      }
    });

    it(`metrics at ${width} px: curve axes labelled apart`, async () => {
      await open('/metrics', width);
      await send([metricsInit()]);
      await page.waitForFunction(() => document.querySelectorAll('canvas[data-axis-labels]').length >= 2);
      await page.screenshot({ path: join(SHOTS, `metrics-${width}.png`), fullPage: true });
      const labels = await chartLabels(page);
      assert.ok(labels.size >= 4, [...labels.keys()].join(', '));
      for (const [axis, boxes] of labels) {
        assert.ok(boxes.length >= 2, `${axis}: ${boxes.length} labels`);
        assert.deepEqual(overlaps(boxes), [], axis);
      }
    });
  }
});
