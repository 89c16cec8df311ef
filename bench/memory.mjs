#!/usr/bin/env node
// npm run bench -- memory: the extension host's memory through a day of hunting, in the real editor
// (code-server + headless Chromium, the packaged extension, the sandbox's demo data).
//
// 20 runs of a 10,000-event search in one results panel, a statistics run, a pivot and a notebook
// cell; then every editor is closed. At each step the extension host is asked, through its own V8
// inspector (opened with SIGUSR1, the way `node --inspect` opens it), to collect garbage twice; the
// figure is what is left: the JS heap in use plus memory outside it (typed arrays, buffers).
//
// It exits 1 when the figures break their bounds: one open 10,000-event panel costs at most 60 MB,
// and after 20 searches and closing everything the extension host is within 40 MB of where it was
// after the first search (a closed panel whose events stay reachable breaks that).
//
// CLOUDBENCH_VSIX=FILE skips packaging; CLOUDBENCH_MEMORY_RUNS sets the number of searches (20);
// CLOUDBENCH_MEMORY_SNAPSHOT=FILE writes a heap snapshot of the extension host after the searches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import * as wb from '../test/e2e/lib/workbench.mjs';
import { installExitHooks, stopAll } from '../test/e2e/lib/processes.mjs';
import {
  cloudbenchLog,
  extensionHostPid,
  figure,
  load,
  logEntries,
  rssMb,
  sampleRss,
  setThirtyDays,
  startEditorOnSandbox,
} from './_editor-lib.mjs';

const QUERY = 'principal.hostname = /.*/';
const RUNS = Number(process.env.CLOUDBENCH_MEMORY_RUNS ?? 20);
const PANEL_BOUND_MB = 60;
const AFTER_CLOSING_BOUND_MB = 40;
const STATS_QUERY = `metadata.event_type = "USER_LOGIN"
match:
  principal.hostname
outcome:
  $logins = count(metadata.id)
order:
  $logins desc
`;
const NOTEBOOK = {
  format: 'cloudbench-udm-notebook',
  version: 1,
  timeRange: { kind: 'preset', preset: '7d' },
  cells: [{ kind: 'udm', source: ['metadata.event_type = "NETWORK_DNS"'] }],
};

/** A Chrome DevTools Protocol session with the extension host's V8 inspector. */
async function inspect(pid) {
  process.kill(pid, 'SIGUSR1');
  let targets;
  for (let i = 0; i < 100 && !targets; i++) {
    targets = await fetch('http://127.0.0.1:9229/json/list')
      .then((r) => r.json())
      .catch(() => undefined);
    if (!targets) await new Promise((r) => setTimeout(r, 100));
  }
  const url = targets?.[0]?.webSocketDebuggerUrl;
  if (!url) throw new Error('the extension host did not open its inspector on 127.0.0.1:9229');
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`could not connect to ${url}`));
  });
  let next = 1;
  const waiting = new Map();
  ws.onmessage = (event) => {
    const msg = JSON.parse(String(event.data));
    const w = msg.id && waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(`${msg.error.message}`));
    else w.resolve(msg.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  return {
    /** MB in use after two full collections: JS heap plus memory outside it (typed arrays, buffers). */
    async settledMb() {
      await send('HeapProfiler.collectGarbage');
      await new Promise((r) => setTimeout(r, 500));
      await send('HeapProfiler.collectGarbage');
      const { result } = await send('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      const m = JSON.parse(result.value);
      return { total: (m.heapUsed + m.external) / 2 ** 20, heap: m.heapUsed / 2 ** 20, rss: m.rss / 2 ** 20 };
    },
    /** Writes a heap snapshot of the extension host to `file` (for finding what holds memory). */
    async snapshot(file) {
      const chunks = [];
      const onChunk = (event) => {
        const msg = JSON.parse(String(event.data));
        if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(msg.params.chunk);
      };
      ws.addEventListener('message', onChunk);
      await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      ws.removeEventListener('message', onChunk);
      writeFileSync(file, chunks.join(''));
    },
    close: () => ws.close(),
  };
}

/** Waits until Cloudbench's log has `count` more lines matching `pattern` than `before`. */
async function waitForLog(userDataDir, before, pattern, count = 1, timeout = 120_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const n = logEntries(cloudbenchLog(userDataDir)).filter((e) => pattern.test(e.text)).length;
    if (n >= before + count) return n;
    if (Date.now() > deadline) throw new Error(`no log line ${pattern} within ${timeout} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const logCount = (userDataDir, pattern) =>
  logEntries(cloudbenchLog(userDataDir)).filter((e) => pattern.test(e.text)).length;

async function main() {
  const home = mkdtempSync(join(tmpdir(), 'cloudbench-bench-memory-'));
  let browser;
  let inspector;
  installExitHooks(async () => {
    await browser?.close().catch(() => {});
  });
  const problems = [];
  try {
    const started = await startEditorOnSandbox(home);
    const { server, userDataDir, workspace } = started;
    browser = started.browser;
    writeFileSync(join(workspace, 'hunt.udm'), `${QUERY}\n`);
    writeFileSync(join(workspace, 'logins.udm'), STATS_QUERY);
    writeFileSync(join(workspace, 'dns.udmnb'), JSON.stringify(NOTEBOOK, null, 2));

    const page = await wb.newPage(browser, server.url);
    await wb.openWorkbench(page, server.url, workspace);
    await wb.openFile(page, 'hunt.udm');
    await setThirtyDays(page);
    await wb.openFile(page, 'hunt.udm');
    // The language server and the search feature are up once the file shows its CodeLens.
    await page
      .locator('.codelens-decoration', { hasText: /Run Query/ })
      .first()
      .waitFor({ timeout: 60_000 });

    const hostPid = extensionHostPid(server.handle.pid);
    inspector = await inspect(hostPid);
    const atStart = await inspector.settledMb();
    const rssAtStart = rssMb(hostPid);
    const rss = sampleRss(hostPid);

    const shown = /udmSearch: \d+ events shown/;
    const search = async () => {
      const before = logCount(userDataDir, shown);
      await wb.focusActiveEditor(page);
      await page.keyboard.press('Control+Enter');
      await waitForLog(userDataDir, before, shown);
      // The rest of the rows follows the page's first paint.
      await waitForLog(userDataDir, logCount(userDataDir, /rest of the rows: /) - 1, /rest of the rows: /);
    };
    await search();
    const results = await wb.findWebviewFrame(page, '#run-summary', /^10,000 rows/, { timeout: 90_000 });
    const afterFirst = await inspector.settledMb();
    const trail = [afterFirst];
    for (let i = 1; i < RUNS; i++) {
      await wb.openFile(page, 'hunt.udm');
      await search();
      if ((i + 1) % 5 === 0) trail.push(await inspector.settledMb());
    }
    const afterSearches = await inspector.settledMb();
    const rssDuring = rss.stop();
    // CLOUDBENCH_MEMORY_SNAPSHOT=FILE: a heap snapshot at this point, to see what a search leaves.
    if (process.env.CLOUDBENCH_MEMORY_SNAPSHOT) await inspector.snapshot(process.env.CLOUDBENCH_MEMORY_SNAPSHOT);

    // A pivot from the first row's host, a statistics run and a notebook cell.
    await results.locator('#grid .row').first().locator('.cell').first().click();
    const hostLeaf = results.locator('#detail-tree [data-path$="principal.hostname"]').first();
    await hostLeaf.waitFor();
    await hostLeaf.locator('button.pivot[data-pivot="assetEvents.hostname"]').click();
    const host = (await hostLeaf.locator('.str').first().innerText()).trim().replace(/^"|"$/g, '');
    const pivot = await wb.findWebviewFrame(page, '#run-title', new RegExp(wb.escapeRegExp(host)), { timeout: 60_000 });
    await pivot.locator('#grid .row').first().waitFor({ timeout: 60_000 });

    await wb.openFile(page, 'logins.udm');
    await wb.runCommand(page, 'Cloudbench: Run UDM Query');
    await wb.findWebviewFrame(page, '#stats-summary', /Computed by Cloudbench over/, { timeout: 90_000 });

    await wb.openFile(page, 'dns.udmnb');
    const cell = page.locator('.notebook-editor .code-cell-row').first();
    await cell.waitFor({ timeout: 30_000 });
    await wb.runCommand(page, 'Notebook: Run All');
    await page
      .locator(
        '.notebook-editor .cell-statusbar-container .codicon-check, .notebook-editor .cell-statusbar-container .codicon-notebook-state-success',
      )
      .first()
      .waitFor({ timeout: 90_000 });
    const everythingOpen = await inspector.settledMb();

    // Close everything; a notebook with new outputs asks to be saved: do not save.
    await wb.runCommand(page, 'View: Revert and Close Editor').catch(() => {});
    await wb.runCommand(page, 'View: Close All Editors');
    const dontSave = page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
    if (await dontSave.isVisible().catch(() => false)) await dontSave.click();
    await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached', timeout: 30_000 });
    // Let disposal run (panels are disposed after their page goes).
    await page.waitForTimeout(2000);
    const afterClosing = await inspector.settledMb();
    const rssAfterClosing = rssMb(hostPid);

    const perPanel = afterFirst.total - atStart.total;
    const grownAfterClosing = afterClosing.total - afterFirst.total;
    console.log(`load average (1, 5, 15 min): ${load()}`);
    figure('memory ext host after start MB', atStart.total, 'MB');
    figure('memory ext host per open 10k panel MB', perPanel, 'MB');
    figure(`memory ext host after ${RUNS} searches MB`, afterSearches.total, 'MB');
    figure('memory ext host with a pivot, statistics and a notebook open MB', everythingOpen.total, 'MB');
    figure('memory ext host after closing all MB', afterClosing.total, 'MB');
    // What a user sees in Process Explorer: the extension host's own resident set (shared by every extension).
    figure('memory ext host RSS after start MB', rssAtStart, 'MB');
    figure(`memory ext host RSS peak over ${RUNS} searches MB`, rssDuring.peak, 'MB');
    figure('memory ext host RSS peak over start MB', rssDuring.peak - rssAtStart, 'MB');
    figure('memory ext host RSS after closing all MB', rssAfterClosing, 'MB');
    console.log(
      `  after the first and every 5 searches (JS heap + outside it): ${trail.map((t) => `${t.heap.toFixed(1)} + ${(t.total - t.heap).toFixed(1)}`).join(', ')} MB`,
    );
    console.log(
      `  JS heap / RSS: start ${atStart.heap.toFixed(1)} / ${atStart.rss.toFixed(0)}, after closing ${afterClosing.heap.toFixed(1)} / ${afterClosing.rss.toFixed(0)} MB`,
    );
    if (perPanel > PANEL_BOUND_MB)
      problems.push(`one open 10k panel costs ${perPanel.toFixed(1)} MB (bound ${PANEL_BOUND_MB} MB)`);
    if (grownAfterClosing > AFTER_CLOSING_BOUND_MB)
      problems.push(
        `after ${RUNS} searches and closing everything the extension host holds ${grownAfterClosing.toFixed(1)} MB more than after the first search (bound ${AFTER_CLOSING_BOUND_MB} MB): closed panels' events stay reachable`,
      );
    await page.context().close();
  } finally {
    inspector?.close();
    await browser?.close().catch(() => {});
    await stopAll();
    rmSync(home, { recursive: true, force: true });
  }
  if (problems.length) {
    for (const p of problems) console.error(`memory: ${p}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
