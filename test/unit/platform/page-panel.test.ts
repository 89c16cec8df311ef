// The one webview panel lifecycle: what is posted before the page says it is ready reaches the page
// once and in order after it; a page that keeps early messages gets them at once, numbered, and
// takes each once; a queue policy drops what a newer message replaces; a panel VS Code restores is
// adopted like a new one and held by its OpenPanels until it closes; a page that never says it is
// ready is rendered again, once.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as PagePanelModule from '../../../src/platform/page-panel';
import type * as OpenPanelsModule from '../../../src/platform/open-panels';
import { fakeWebviewPanel, type FakeWebviewPanel } from '../../support/fake-webview-panel';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { PagePanel, PageMessageError } = require('../../../src/platform/page-panel') as typeof PagePanelModule;
const { OpenPanels } = require('../../../src/platform/open-panels') as typeof OpenPanelsModule;

type In = { type: 'ready' } | { type: 'click'; id: string };
type Out = { type: 'table' | 'note'; n: number };

function parse(raw: unknown): In {
  const m = raw as { type?: unknown; id?: unknown } | null;
  if (m?.type === 'ready') return { type: 'ready' };
  if (m?.type === 'click' && typeof m.id === 'string') return { type: 'click', id: m.id };
  throw new PageMessageError('not a message of the test page');
}

interface Logged {
  info: string[];
  warn: string[];
  onWarn?: () => void;
}

function makePanel(
  fake: FakeWebviewPanel<Out>,
  options: { early?: boolean; readyWithinMs?: number; replaces?: boolean; closed?: () => void } = {},
  handlers: PagePanelModule.PageHandlers<In> = {},
) {
  const logged: Logged = { info: [], warn: [] };
  const log = {
    info: (m: string) => logged.info.push(m),
    warn: (m: string) => {
      logged.warn.push(m);
      logged.onWarn?.();
    },
  };
  const panel = new PagePanel<In, Out>(
    fake.webviewPanel,
    vscode.Uri.file('/ext'),
    {
      page: { bundle: 'test', title: 'Test' },
      what: 'the test page',
      parse,
      malformed: PageMessageError,
      log,
      ...(options.early ? { early: true } : {}),
      ...(options.replaces ? { replacesQueued: (m: Out) => m.type === 'table' } : {}),
      readyWithinMs: options.readyWithinMs ?? 60_000,
    },
    handlers,
    options.closed,
  );
  return { panel, logged };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PagePanel', () => {
  const open: Array<{ dispose(): void }> = [];
  afterEach(() => {
    for (const p of open.splice(0)) p.dispose();
  });

  it('delivers what was posted before "ready" once, in order, after it; then posts at once', async () => {
    const fake = fakeWebviewPanel<Out>();
    const { panel } = makePanel(fake);
    open.push(panel);
    let delivered = 0;
    panel.post({ type: 'note', n: 1 });
    panel.post({ type: 'table', n: 2 }, () => delivered++);
    panel.post({ type: 'note', n: 3 });
    await settle();
    assert.equal(fake.posted.length, 0, 'nothing reaches a page that has not said it is ready');
    assert.equal(delivered, 0);
    fake.fromPage({ type: 'ready' });
    await settle();
    assert.deepEqual(
      fake.posted.map((m) => m.n),
      [1, 2, 3],
    );
    assert.equal(delivered, 1);
    fake.fromPage({ type: 'ready' });
    panel.post({ type: 'note', n: 4 });
    await settle();
    assert.deepEqual(
      fake.posted.map((m) => m.n),
      [1, 2, 3, 4],
      'a second "ready" sends nothing twice',
    );
  });

  it('posts at once numbered for a page that keeps early messages, again after "ready", each taken once', async () => {
    const sent = fakeWebviewPanel<Out & { seq?: number }>({ asSent: true });
    const { panel } = makePanel(sent, { early: true });
    open.push(panel);
    panel.post({ type: 'note', n: 1 });
    panel.post({ type: 'note', n: 2 });
    await settle();
    assert.deepEqual(
      sent.posted.map((m) => [m.n, m.seq]),
      [
        [1, 1],
        [2, 2],
      ],
    );
    sent.fromPage({ type: 'ready' });
    panel.post({ type: 'note', n: 3 });
    await settle();
    assert.deepEqual(
      sent.posted.map((m) => [m.n, m.seq]),
      [
        [1, 1],
        [2, 2],
        [1, 1],
        [2, 2],
        [3, undefined],
      ],
    );

    // The same conversation as a page that takes each number once sees it.
    const taken = fakeWebviewPanel<Out>();
    const second = makePanel(taken, { early: true }).panel;
    open.push(second);
    second.post({ type: 'note', n: 1 });
    second.post({ type: 'note', n: 2 });
    taken.fromPage({ type: 'ready' });
    second.post({ type: 'note', n: 3 });
    await settle();
    assert.deepEqual(
      taken.posted.map((m) => m.n),
      [1, 2, 3],
    );
  });

  it('drops the queued messages a newer one replaces (the policy hook)', async () => {
    const fake = fakeWebviewPanel<Out>();
    const { panel } = makePanel(fake, { replaces: true });
    open.push(panel);
    panel.post({ type: 'table', n: 1 });
    panel.post({ type: 'note', n: 2 });
    panel.post({ type: 'table', n: 3 });
    panel.post({ type: 'note', n: 4 });
    fake.fromPage({ type: 'ready' });
    await settle();
    assert.deepEqual(
      fake.posted.map((m) => m.n),
      [3, 4],
    );
  });

  it('checks messages on arrival: a malformed one is logged and reaches no handler', () => {
    const fake = fakeWebviewPanel<Out>();
    const seen: In[] = [];
    const { panel, logged } = makePanel(fake, {}, { onMessage: (m) => seen.push(m) });
    open.push(panel);
    fake.fromPage({ type: 'click', id: 7 });
    fake.fromPage({ type: 'click', id: 'row-1' });
    assert.deepEqual(seen, [{ type: 'click', id: 'row-1' }]);
    assert.equal(logged.warn.length, 1);
    assert.match(logged.warn[0], /malformed message from the test page: not a message of the test page/);
  });

  it('adopts a restored panel into its OpenPanels and leaves it when the panel closes', async () => {
    const panels = new OpenPanels<PagePanelModule.PagePanel<In, Out>>();
    const restored = fakeWebviewPanel<Out>({ ready: true });
    let readies = 0;
    const adopted = panels.add(
      'statistics',
      (closed) => makePanel(restored, { closed }, { onReady: () => readies++ }).panel,
    );
    assert.equal(panels.get('statistics'), adopted);
    assert.match(restored.webviewPanel.webview.html, /<title>Test<\/title>/, 'the restored panel is rendered again');
    adopted.post({ type: 'table', n: 40 });
    await settle();
    assert.equal(readies, 1);
    assert.deepEqual(
      restored.posted.map((m) => m.n),
      [40],
    );
    let disposedEvent = 0;
    open.push(adopted.onDidDispose(() => disposedEvent++));
    restored.close();
    assert.equal(panels.get('statistics'), undefined, 'a closed panel is no longer held');
    assert.equal(disposedEvent, 1);
    adopted.post({ type: 'table', n: 41 });
    await settle();
    assert.equal(restored.posted.length, 1, 'nothing is posted to a closed panel');
  });

  it('renders a page that never says it is ready again, once, and delivers once it does', async () => {
    const fake = fakeWebviewPanel<Out>();
    const htmls: string[] = [];
    let html = '';
    Object.defineProperty(fake.webviewPanel.webview, 'html', {
      get: () => html,
      set: (v: string) => {
        html = v;
        htmls.push(v);
      },
    });
    const rerendered = new Promise<void>((resolve) => {
      const made = makePanel(fake, { readyWithinMs: 20 });
      open.push(made.panel);
      made.logged.onWarn = resolve;
      made.panel.post({ type: 'table', n: 1 });
      (fake as unknown as { made: typeof made }).made = made;
    });
    await rerendered;
    const { panel, logged } = (fake as unknown as { made: ReturnType<typeof makePanel> }).made;
    assert.equal(panel.renders, 2);
    assert.equal(htmls.length, 2);
    assert.notEqual(htmls[0], htmls[1], 'each render has its own nonce');
    assert.match(logged.warn[0], /the test page did not say it was ready within 0\.02 s; rendering it again once/);
    // Still silent for many times the limit: no third render.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(panel.renders, 2);
    assert.equal(logged.warn.length, 1);
    fake.fromPage({ type: 'ready' });
    await settle();
    assert.deepEqual(
      fake.posted.map((m) => m.n),
      [1],
    );
  });
});
