// The results page (headless Chromium, the real bundle and CSP) while an answer arrives: the rows
// show in the order they came under "Arriving… N events so far", export waits for the whole answer,
// and the end puts them newest first from a permutation (the filter and the detail then answer by
// the new positions); a partial answer stays shown and says why; a malformed order is refused.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { ResultsHost } from './results-host';
import { useResultsPages } from './results-page';

const browser$ = (): any => globalThis as any;

const START = Date.parse('2026-01-01T00:00:00Z');
/** Event `i` of `n`, at a scrambled minute (a prime stride) so that arrival order is not time order. */
function event(i: number, n: number): unknown {
  return {
    name: `events/${i}`,
    udm: {
      metadata: {
        eventTimestamp: new Date(START + ((i * 7919) % n) * 60_000).toISOString(),
        eventType: 'NETWORK_DNS',
      },
      principal: { hostname: `host-${i}` },
    },
  };
}
const batches = (n: number, size: number): unknown[][] =>
  Array.from({ length: Math.ceil(n / size) }, (_, b) =>
    Array.from({ length: Math.min(size, n - b * size) }, (_, k) => event(b * size + k, n)),
  );

const RUN = {
  runId: 'run-a',
  kind: 'udm' as const,
  title: 'principal.hostname = /.*/',
  query: 'principal.hostname = /.*/',
  startTime: '2026-01-01T00:00:00Z',
  endTime: '2026-01-02T00:00:00Z',
};

describe('reliability: the results page while an answer arrives (headless Chromium)', function () {
  this.timeout(120_000);
  const fixture = useResultsPages('results-arrival');
  let page: Page;
  let host: ResultsHost;
  beforeEach(() => {
    page = fixture.page;
    host = fixture.host;
  });

  const send = (messages: unknown[]): Promise<void> =>
    page.evaluate((list: unknown[]) => {
      for (const m of list) browser$().postMessage(m, '*');
    }, messages);
  const summary = (): Promise<string> => page.locator('#run-summary').innerText();
  /** Waits until the table's first row is the event on `hostname` (it fails the test if it never is). */
  const firstRow = (hostname: string): Promise<void> =>
    page
      .locator('#grid .row')
      .first()
      .filter({ hasText: new RegExp(`${hostname}(?!\\d)`) })
      .waitFor({ timeout: 10_000 });

  it('shows rows in arrival order while they arrive, then newest first once complete', async () => {
    const n = 1200;
    const messages = host.arriving(RUN, batches(n, 300));
    await send(messages.slice(0, 3));
    await page.locator('#run-summary', { hasText: 'Arriving… 900 events so far, in arrival order' }).waitFor();
    // The first event that came heads the table (the grid paints in the frame after the summary).
    await firstRow('host-0');
    assert.equal(await page.locator('#export-csv').isDisabled(), true, 'export waits for the whole answer');
    assert.match((await page.locator('#export-csv').getAttribute('title')) ?? '', /still arriving/);
    assert.doesNotMatch(await summary(), /^[\d,]+ rows/, 'no "N rows" until the answer is complete');

    await send(messages.slice(3));
    await page.locator('#run-summary', { hasText: 'Arriving… 1,200 events so far' }).waitFor();
    await send([host.arrived(RUN)]);
    await page.locator('#run-summary', { hasText: /^1,200 rows/ }).waitFor();
    // The newest event: minute n-1, which event i has when i * 7919 % n === n - 1.
    const newest = [...Array(n).keys()].find((i) => (i * 7919) % n === n - 1);
    await firstRow(`host-${newest}`);
    assert.equal(await page.locator('#export-csv').isDisabled(), false);

    // The filter and the detail pane answer by the final positions.
    await page.locator('#filter').fill(`host-${newest}`);
    await page.locator('#count', { hasText: /^1 of 1,200 rows$/ }).waitFor();
    await page.locator('#grid .row').first().locator('.cell').first().click();
    await page.locator('#detail-tree [data-path$="principal.hostname"]', { hasText: `host-${newest}` }).waitFor();
  });

  it("a pivot from a detail opened while the rows arrived leaves out the row's old number once they are ordered", async () => {
    const messages = host.arriving(RUN, batches(600, 200));
    await send(messages);
    await page.locator('#run-summary', { hasText: 'Arriving… 600 events' }).waitFor();
    await page.locator('#grid .row').first().locator('.cell').first().click();
    await page.locator('#detail-tree [data-path$="principal.hostname"]', { hasText: 'host-0' }).waitFor();
    const pivots = (): Promise<Array<{ type: string; row?: number; value?: string }>> =>
      page.evaluate(() => (browser$().__posted as Array<{ type: string }>).filter((m) => m.type === 'pivot'));
    await page.locator('#detail-tree button.pivot').first().click();
    const before = await pivots();
    assert.equal(before.length, 1);
    assert.equal(before[0].row, 0, 'in arrival order the row number names the event shown');

    await send([host.arrived(RUN)]);
    await page.locator('#run-summary', { hasText: /^600 rows/ }).waitFor();
    const button = page.locator('#detail-tree button.pivot').first();
    if (await button.isVisible()) {
      await button.click();
      const after = await pivots();
      assert.equal(after.length, 2);
      assert.equal('row' in after[1], false, 'row 0 is another event now');
      assert.equal(after[1].value, before[0].value, 'the pivot itself goes by its value');
    } else {
      assert.equal(await page.locator('#detail').isVisible(), false, 'the detail pane closed with the new order');
    }
  });

  it('a partial answer stays shown, newest first, and says why; a broken one as an error', async () => {
    await send(host.arriving(RUN, batches(400, 100)));
    await page.locator('#run-summary', { hasText: 'Arriving… 400 events' }).waitFor();
    const message = 'The UDM search answer broke off after 400 events (other side closed). Run the search again.';
    await send([host.arrived(RUN, { partial: { cancelled: false, message } })]);
    await page.locator('#run-summary', { hasText: message }).waitFor();
    assert.equal(await page.locator('#run-summary').getAttribute('class'), 'error');
    await page
      .locator('#grid .row')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => assert.fail('the rows that came stay'));
    await page.locator('#count', { hasText: /^400 rows$/ }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('#fetch-rest').isVisible(), false);
    assert.equal(await page.locator('#rerun').isVisible(), true, 'Run again is offered');

    await send(host.arriving({ ...RUN, runId: 'run-b' }, batches(50, 50)));
    await page.locator('#run-summary', { hasText: 'Arriving… 50 events' }).waitFor();
    const cancelled = 'Cancelled after 50 events had arrived: the rows shown are only part of the answer.';
    await send([host.arrived({ ...RUN, runId: 'run-b' }, { partial: { cancelled: true, message: cancelled } })]);
    await page.locator('#run-summary', { hasText: cancelled }).waitFor();
    assert.notEqual(await page.locator('#run-summary').getAttribute('class'), 'error');
  });

  it('refuses an order that is not a permutation of the rows, and one for another run', async () => {
    await send(host.arriving(RUN, batches(30, 30)));
    await page.locator('#run-summary', { hasText: 'Arriving… 30 events' }).waitFor();
    await page.evaluate(() => {
      const w = browser$();
      const order = (values: number[]): unknown => w.Uint32Array.from(values);
      const dup = Array.from({ length: 30 }, (_, i) => (i === 1 ? 0 : i));
      w.postMessage({ type: 'arrived', runId: 'run-a', count: 30, order: order(dup), moreDataAvailable: false }, '*');
      w.postMessage(
        { type: 'arrived', runId: 'run-a', count: 30, order: order([1, 2]), moreDataAvailable: false },
        '*',
      );
      w.postMessage({ type: 'arrived', runId: 'run-a', count: 30, order: [0, 1], moreDataAvailable: false }, '*');
      w.postMessage({ type: 'arrived', runId: 'other', count: 30, moreDataAvailable: false }, '*');
    });
    // The page still waits for the end; a true order after the refused ones puts the rows in place.
    await send([host.arrived(RUN)]);
    await page.locator('#run-summary', { hasText: /^30 rows/ }).waitFor();
    // The grid paints the new order in the frame after the summary: the newest event heads it then.
    const newest = [...Array(30).keys()].find((i) => (i * 7919) % 30 === 29);
    await firstRow(`host-${newest}`);
    const hosts = (await page.locator('#grid .row').allInnerTexts()).map((t) => /host-\d+/.exec(t)?.[0]);
    assert.ok(hosts.length >= 10, `${hosts.length} rows shown`);
    assert.equal(new Set(hosts).size, hosts.length, 'no row twice');
    assert.equal(hosts[0], `host-${newest}`);
  });
});
