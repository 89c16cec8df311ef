// What the extension posts to a results page that is still loading goes at once, numbered (the page
// keeps it and shows the first rows without waiting for the round trip of "ready"), and again once
// the page says it is ready, in case VS Code handed it over before the page could keep it; a new
// "results" replaces what came before it; once ready, messages go once and unnumbered.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as PanelModule from '../../../src/features/search/panel';
import { fakeWebviewPanel } from '../../support/fake-webview-panel';
import type { ToWebview } from '../../../src/core/secops/messages';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { ResultsPanel } = require('../../../src/features/search/panel') as typeof PanelModule;

const RUN = { runId: 'run-1', kind: 'udm' as const, title: 'q' };
const table = { count: 0, times: new Float64Array(0), columns: [], cells: new Uint8Array(0) };

describe('results panel: messages to a page that is still loading', () => {
  it('go at once numbered, again after "ready", and plain from then on', async () => {
    const fake = fakeWebviewPanel<{ type: string; seq?: number }>({ asSent: true });
    const panel = new ResultsPanel(
      'query',
      fake.webviewPanel,
      vscode.Uri.file('/ext'),
      () => undefined,
      () => undefined,
    );
    assert.match(
      fake.webviewPanel.webview.html,
      /takeEarlyMessages/,
      'the page keeps what comes before its script runs',
    );
    const running: ToWebview = { type: 'running', title: 'q' };
    const results: ToWebview = {
      type: 'results',
      run: RUN,
      columns: [],
      table,
      fields: [],
      moreDataAvailable: false,
    };
    const append: ToWebview = { type: 'append', runId: 'run-1', table };
    let delivered = 0;
    panel.post(running);
    panel.post(results, () => delivered++);
    panel.post(append);
    await Promise.resolve();
    assert.deepEqual(
      fake.posted.map((m) => [(m as { type: string }).type, (m as { seq?: number }).seq]),
      [
        ['running', 1],
        ['results', 2],
        ['append', 3],
      ],
    );
    assert.equal(delivered, 1);
    assert.equal(panel.isReady, false);

    fake.posted.length = 0;
    fake.fromPage({ type: 'ready' });
    await Promise.resolve();
    // "results" replaced the "running" before it; the rest go again with the same numbers.
    assert.deepEqual(
      fake.posted.map((m) => [(m as { type: string }).type, (m as { seq?: number }).seq]),
      [
        ['results', 2],
        ['append', 3],
      ],
    );
    assert.equal(delivered, 1, 'delivered is told once');
    assert.equal(panel.isReady, true);

    fake.posted.length = 0;
    panel.post(append);
    fake.fromPage({ type: 'ready' });
    await Promise.resolve();
    assert.deepEqual(fake.posted, [append], 'after "ready": once, as posted');
  });
});
