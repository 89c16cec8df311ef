// A query run through the real SearchController and client against the sandbox, its body slowed or
// cut by the sandbox's body faults: rows reach the page while the answer is still arriving, a cancel
// midway stops the download and leaves the rows that came marked as part of the answer, and a body
// that breaks off after the first rows is said plainly with Run Again and never fetched again on
// its own (its events would come twice).
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { ResolvedWindow } from '../../../src/core/secops/timerange';
import { freshProductModules, scriptConfiguration } from '../../reliability/scripted-config';
import { fakeWebviewPanel } from '../../support/fake-webview-panel';
import { admin, iso } from '../../support/sandbox-admin';
import { sandboxEventId, searchControllerForTests } from '../../support/search-controller';

const vscode = require('vscode') as Record<string, any>;

interface Posted {
  type: string;
  [k: string]: any;
}

describe('query runs while the answer arrives (sandbox body faults)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let undo: () => void;
  let window: ResolvedWindow;
  let controller: any;
  let posted: Posted[] = [];
  let onPost: ((m: Posted) => void) | undefined;
  let cancel: (() => void) | undefined;
  const errors: Array<{ text: string; items: string[] }> = [];
  let searches = 0;
  const EVENTS = 400;

  before(async () => {
    sb = await startSandbox({ seed: 'empty' });
    const now = Math.floor(sb.clock.now() / 1000) * 1000;
    // About 400 bytes each: the body is a few of the sandbox's 64 KB pieces.
    const events = Array.from({ length: EVENTS }, (_, i) => ({
      udm: {
        metadata: {
          id: sandboxEventId(i),
          eventTimestamp: iso(now - (EVENTS - i) * 1000),
          eventType: 'NETWORK_DNS',
          description: 'x'.repeat(250),
        },
        principal: { hostname: `host-${i}` },
      },
    }));
    await admin(sb, 'events:ingest', { events });
    window = { startMs: now - 3_600_000, endMs: now, start: iso(now - 3_600_000), end: iso(now) };
    undo = scriptConfiguration({
      project: 'cloudbench-demo',
      'endpoints.secops': sb.http,
      'search.defaultLimit': 10_000,
      'requests.maxRetries': 2,
      'requests.initialBackoffMs': 50,
    });
    freshProductModules();
    vscode.window.withProgress = async (_o: unknown, task: (p: unknown, t: unknown) => Promise<unknown>) =>
      task(
        { report: () => undefined },
        {
          isCancellationRequested: false,
          onCancellationRequested: (handler: () => void) => {
            cancel = handler;
            return { dispose: () => (cancel = undefined) };
          },
        },
      );
    vscode.window.showErrorMessage = async (text: string, ...items: string[]) => {
      errors.push({ text, items });
      return undefined;
    };
    // The page says it is ready as soon as it loads, and that it painted each run's first rows.
    vscode.window.createWebviewPanel = () =>
      fakeWebviewPanel<Posted>({
        ready: true,
        painted: true,
        onPost: (m) => {
          posted.push(m);
          onPost?.(m);
        },
      }).webviewPanel;
    controller = searchControllerForTests(
      () => window,
      () => searches++,
    );
  });

  after(async () => {
    controller?.dispose();
    undo?.();
    await sb?.close();
  });

  beforeEach(async () => {
    await admin(sb, 'faults', []);
    posted = [];
    onPost = undefined;
    errors.length = 0;
    searches = 0;
  });

  /** Resolves at the first message posted that `match` accepts. */
  const when = (match: (m: Posted) => boolean): Promise<Posted> =>
    new Promise((resolve) => {
      const seen = posted.find(match);
      if (seen) return resolve(seen);
      onPost = (m) => match(m) && resolve(m);
    });

  it('shows the first rows while the body is still arriving, then all of them newest first', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', bodyChunkDelayMs: 300 }]);
    let done = false;
    const run = controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 10_000).then((r: unknown) => {
      done = true;
      return r;
    });
    const first = await when((m) => m.type === 'results');
    assert.equal(first.arriving, true);
    assert.ok(first.table.count > 0 && first.table.count < EVENTS, `${first.table.count} rows first`);
    assert.equal(done, false, 'the answer was still arriving');
    const record = await run;
    const arrived = await when((m) => m.type === 'arrived');
    assert.equal(arrived.count, EVENTS);
    assert.equal(arrived.partial, undefined);
    const times = record.rows.map((r: any) => Date.parse(r.udm.metadata.eventTimestamp));
    assert.deepEqual(
      times,
      [...times].sort((a: number, b: number) => b - a),
    );
    assert.equal(searches, 1);
  });

  it('a cancel while the answer arrives stops the download and keeps the rows that came, marked partial', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', bodyChunkDelayMs: 5_000 }]);
    const run = controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 10_000);
    const first = await when((m) => m.type === 'results');
    const started = Date.now();
    cancel!();
    await assert.rejects(run, (err: Error) => err.name === 'CancelledError');
    assert.ok(Date.now() - started < 4_000, 'the cancel did not wait for the body');
    const arrived = await when((m) => m.type === 'arrived');
    assert.equal(arrived.count, first.table.count);
    assert.equal(arrived.partial.cancelled, true);
    assert.match(arrived.partial.message, new RegExp(`^Cancelled after ${first.table.count} events had arrived`));
    assert.equal(controller.runningQuery, undefined);
    assert.deepEqual(errors, []);
  });

  it('a body that breaks off after the first rows is an error with Run Again, never fetched again on its own', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', bodyResetAfterBytes: 70_000 }]);
    const record = await controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 10_000);
    assert.equal(record, undefined);
    assert.equal(searches, 1, 'not retried: the events that came would come twice');
    const arrived = await when((m) => m.type === 'arrived');
    assert.equal(arrived.partial.cancelled, false);
    assert.match(arrived.partial.message, /broke off after \d+ events.*Run the search again/);
    assert.equal(errors.length, 1);
    assert.match(errors[0].text, /^UDM search: The UDM search answer broke off after \d+ events/);
    assert.deepEqual(errors[0].items, ['Run Again']);
  });

  it('a body cut before its first event is retried like any lost answer, then fails clearly, nothing left running', async () => {
    await admin(sb, 'faults', [{ method: 'secops.udmSearch', bodyResetAfterBytes: 30 }]);
    const warnings: string[] = [];
    vscode.window.showWarningMessage = async (text: string) => {
      warnings.push(text);
      return undefined;
    };
    assert.equal(await controller.runQuery('metadata.event_type = "NETWORK_DNS"', window, 10_000), undefined);
    const failed = await when((m) => m.type === 'failed');
    // requests.maxRetries is 2: nothing had been shown, so the client asked again (within one call).
    assert.match(failed.message, /tried 3 times/);
    assert.equal(posted.filter((m) => m.type === 'results').length, 0);
    assert.equal(warnings.length, 1);
    assert.equal(controller.runningQuery, undefined);
  });
});
