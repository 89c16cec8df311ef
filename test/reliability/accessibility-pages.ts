// Every kind of page Cloudbench shows, for the accessibility tests: the HTML each panel renders (under
// the vscode fake, with webview URIs mapped onto the local server) and what brings the page into the
// state a user sees (the messages the extension posts, and a wait for the content). The notebook
// renderer has no panel: its page is a notebook output under a CSP as strict as the panels'.
import type { Page } from 'playwright-core';
import type * as SearchPanelModule from '../../src/features/search/panel';
import type * as StatisticsPanelModule from '../../src/features/statistics/panel';
import type * as RulesPanelModule from '../../src/features/rules/panel';
import type * as MetricsPanelModule from '../../src/features/models/metrics-panel';
import type * as KeysEditorModule from '../../src/features/keys/editor';
import { useFakeVscode } from '../unit/fakes/vscode';
import { ResultsHost } from './results-host';
import { ROOT, capturingWebview } from './webview-harness';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const browser$ = (): any => globalThis as any;

export interface PageKind {
  /** The page's name in test titles. */
  readonly name: string;
  /** The server path of its HTML. */
  readonly path: string;
  /** Its HTML for the server at `origin`. */
  html(origin: string): string;
  /** Before the page loads (after the fake VS Code API exists): hooks such as the rows host. */
  prepare?(page: Page): Promise<(page: Page) => Promise<void>>;
  /** Whether the page says "ready" before it takes messages (the panels do; the renderer does not). */
  readonly handshake: boolean;
}

/** The HTML a panel writes when `open` creates it. */
function panelHtml(origin: string, open: () => void): string {
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
  try {
    open();
  } finally {
    delete vscode.window.createWebviewPanel;
  }
  return html();
}

const post = (page: Page, messages: unknown[]): Promise<void> =>
  page.evaluate((list: unknown[]) => {
    for (const m of list) browser$().postMessage(m, '*');
  }, messages);

const START = Date.parse('2026-11-20T10:00:00Z');
function udmEvent(i: number): unknown {
  return {
    name: `events/${i}`,
    udm: {
      metadata: {
        id: `id-${i}`,
        eventTimestamp: new Date(START + i * 97_000).toISOString(),
        eventType: i % 3 ? 'USER_LOGIN' : 'NETWORK_DNS',
        productName: 'Sandbox',
      },
      principal: { hostname: `host-${i % 7}`, ip: [`10.20.1.${i % 50}`], user: { userid: `user-${i % 4}` } },
      target: { hostname: `srv-${i % 3}` },
      securityResult: [{ action: [i % 2 ? 'BLOCK' : 'ALLOW'], severity: 'MEDIUM' }],
    },
  };
}

/** The results panel (the query panel with its Monaco query bar, or the pivot panel without). */
function resultsKind(kind: 'query' | 'pivot'): PageKind {
  return {
    name: kind === 'query' ? 'results (with the query bar, an event open)' : 'pivot results',
    path: `/results-${kind}`,
    handshake: true,
    html: (origin) => {
      const { webview } = capturingWebview(origin);
      const { renderHtml } = require('../../src/features/search/panel') as typeof SearchPanelModule;
      return renderHtml(webview as never, vscode.Uri.file(ROOT), kind);
    },
    prepare: async (page) => {
      const host = await ResultsHost.attach(page);
      return async (p) => {
        const run = {
          runId: `run-${kind}`,
          kind: 'udm',
          title: 'metadata.event_type = "USER_LOGIN"',
          query: 'metadata.event_type = "USER_LOGIN"',
          startTime: '2026-11-20T10:00:00Z',
          endTime: '2026-11-21T10:00:00Z',
        };
        const rows = Array.from({ length: 240 }, (_, i) => udmEvent(i));
        await post(p, host.messages(run as never, rows, [], { moreDataAvailable: true }));
        await p.locator('#grid .row').first().waitFor();
        if (kind === 'query') {
          await p.locator('#query-host .monaco-editor').waitFor({ timeout: 30_000 });
          await p.locator('#grid .row').first().click();
          await p.locator('#detail').waitFor({ state: 'visible' });
        }
      };
    },
  };
}

const statistics: PageKind = {
  name: 'statistics',
  path: '/statistics',
  handshake: true,
  html: (origin) =>
    panelHtml(origin, () => {
      const { StatisticsPanelSlot } = require('../../src/features/statistics/panel') as typeof StatisticsPanelModule;
      new StatisticsPanelSlot().show(vscode.Uri.file(ROOT), () => undefined).dispose();
    }),
  prepare: async () => async (page) => {
    await post(page, [
      {
        type: 'table',
        run: {
          runId: 'run-1',
          title: 'metadata.event_type = "USER_LOGIN" match: principal.hostname outcome: $logins = count(metadata.id)',
          startTime: '2026-11-24T10:00:00Z',
          endTime: '2026-11-25T10:00:00Z',
          eventsFetched: 47,
          searches: 3,
          groupsTotal: 4,
          timeZone: 'UTC',
          warnings: [],
          partial: 'fetching the rest was not approved',
        },
        columns: [
          { name: 'principal.hostname', role: 'key', type: 'string' },
          { name: 'logins', role: 'outcome', type: 'number' },
        ],
        rowsJson: JSON.stringify([
          ['host-a', 30],
          ['host-b', 12],
          ['host-c', 5],
          ['host-d', 1],
        ]),
      },
    ]);
    await page.waitForSelector('.stats-row');
    await page.waitForSelector('#stats-chart', { state: 'visible' });
  },
};

const ruleTest: PageKind = {
  name: 'Test Rule',
  path: '/rule-test',
  handshake: true,
  html: (origin) =>
    panelHtml(origin, () => {
      const { RuleTestPanel } = require('../../src/features/rules/panel') as typeof RulesPanelModule;
      RuleTestPanel.create(vscode.Uri.file(ROOT), 'repeated_failed_logins', () => undefined).dispose();
    }),
  prepare: async () => async (page) => {
    const detection = (hour: number, user: string, count: number): unknown => ({
      windowStart: Date.parse(`2026-11-25T${String(hour).padStart(2, '0')}:00:00Z`),
      windowEnd: Date.parse(`2026-11-26T${String(hour).padStart(2, '0')}:00:00Z`),
      match: [['user', user]],
      outcomes: [['failures', String(count)]],
      riskScore: 10 * count,
      variables: [
        {
          variable: 'e',
          count,
          events: [{ time: '2026-11-25T10:00:00Z', summary: `USER_LOGIN ${user} host-a` }],
        },
      ],
    });
    const detections = [detection(10, 'alice', 5), detection(12, 'bob', 6)];
    await post(page, [
      {
        type: 'result',
        run: {
          runId: 'run-1',
          ruleName: 'repeated_failed_logins',
          uri: 'file:///w/rules/repeated_failed_logins.yaral',
          startTime: '2026-11-20T00:00:00Z',
          endTime: '2026-11-27T00:00:00Z',
          searches: 1,
          eventsRead: 42,
          notes: ['$g is an entity (graph) variable: the Search API returns no entity data.'],
          detectionsTotal: detections.length,
          ranAt: '2026-11-27T04:00:00Z',
        },
        detections,
      },
    ]);
    const first = page.locator('[aria-expanded]').first();
    await first.waitFor();
    await first.click();
    await page.locator('[aria-expanded="true"]').first().waitFor();
  },
};

const SCHEMA = 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml';
const metrics: PageKind = {
  name: 'metrics (compare)',
  path: '/metrics',
  handshake: true,
  html: (origin) =>
    panelHtml(origin, () => {
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
    }),
  prepare: async () => async (page) => {
    const specs = [{ displayName: 'cat' }, { displayName: 'dog' }, { displayName: 'bird' }];
    const m = (rows: number[][]): unknown => ({
      auPrc: 0.9,
      logLoss: 0.3,
      confusionMatrix: { annotationSpecs: specs, rows },
    });
    await post(page, [
      {
        type: 'init',
        title: 'Metrics of pets',
        subject: {
          name: 'eval-a',
          label: 'evaluation A',
          schemaUri: SCHEMA,
          metrics: m([
            [80, 15, 5],
            [10, 1234, 6],
            [0, 3, 47],
          ]),
        },
        candidates: [{ name: 'eval-b', label: 'evaluation B' }],
        compare: {
          name: 'eval-b',
          label: 'evaluation B',
          schemaUri: SCHEMA,
          metrics: m([
            [90, 8, 2],
            [12, 1230, 8],
            [1, 1, 48],
          ]),
        },
      },
    ]);
    await page.waitForSelector('table');
  },
};

const KEY = {
  name: 'projects/p/locations/global/keys/k1',
  displayName: 'Browser key',
  etag: 'W/"1"',
  restrictions: {
    browserKeyRestrictions: { allowedReferrers: ['https://example.com/*'] },
    apiTargets: [{ service: 'translate.googleapis.com', methods: ['Translate*'] }],
  },
};
const keyEditor: PageKind = {
  name: 'key restrictions editor',
  path: '/keys',
  handshake: true,
  html: (origin) =>
    panelHtml(origin, () => {
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
      editors.show(KEY).dispose();
    }),
  prepare: async () => async (page) => {
    const { toEditorKey } = require('../../src/features/keys/editor') as typeof KeysEditorModule;
    await post(page, [{ type: 'init', key: toEditorKey(KEY) }]);
    await page.waitForFunction(() => browser$().document.getElementById('app')?.getAttribute('aria-busy') !== 'true');
  },
};

const NONCE = 'bm90ZWJvb2stcmVuZGVyZXI';
function notebookKind(kind: 'results' | 'statistics'): PageKind {
  return {
    name: `notebook ${kind} output`,
    path: `/notebook-${kind}`,
    handshake: false,
    // VS Code gives a notebook's output webview the editor's background; the renderer draws on it.
    html: (origin) => `<!doctype html>
<html lang="en"><head><title>Notebook output</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${NONCE}' ${origin}; style-src ${origin}; img-src ${origin}">
</head><body><div id="out"></div>
<script type="module" nonce="${NONCE}">
import { activate } from '${origin}/dist/webview/notebook-renderer.js';
const renderer = activate({ postMessage: (m) => window.__posted.push(m) });
window.__render = (data) =>
  renderer.renderOutputItem({ id: 'o1', mime: 'application/vnd.cloudbench.udm-results+json', json: () => data }, document.getElementById('out'));
window.__ready = true;
</script></body></html>`,
    prepare: async () => async (page) => {
      await page.waitForFunction(() => browser$().__ready === true);
      const window = { start: '2026-11-20T10:00:00Z', end: '2026-11-20T11:00:00Z' };
      const data =
        kind === 'results'
          ? {
              kind: 'results',
              ranAt: '2026-11-20T11:00:05.000Z',
              durationMs: 120,
              query: 'metadata.event_type = "USER_LOGIN"',
              window,
              totalEvents: 140,
              moreDataAvailable: false,
              keptRows: 40,
              events: Array.from({ length: 40 }, (_, i) => udmEvent(i)),
            }
          : {
              kind: 'statistics',
              ranAt: '2026-11-20T11:00:05.000Z',
              durationMs: 80,
              query: 'q',
              window,
              eventsFetched: 47,
              searches: 1,
              timeZone: 'UTC',
              columns: [
                { name: 'principal.hostname', role: 'key', type: 'string' },
                { name: 'failures', role: 'outcome', type: 'number' },
              ],
              rows: [
                ['host-a', 30],
                ['host-b', 12],
                ['host-c', 5],
              ],
              totalRows: 3,
              keptRows: 3,
              warnings: [],
            };
      await page.evaluate((d) => browser$().__render(d), data);
      await page.waitForSelector(kind === 'results' ? '.cb-row' : '.cb-static-row');
    },
  };
}

export const PAGE_KINDS: readonly PageKind[] = [
  resultsKind('query'),
  resultsKind('pivot'),
  statistics,
  ruleTest,
  metrics,
  keyEditor,
  notebookKind('results'),
  notebookKind('statistics'),
];
