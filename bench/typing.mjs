#!/usr/bin/env node
// npm run bench -- typing: key press to screen while typing in the real editor (code-server +
// headless Chromium, the packaged extension, the e2e harness), p50 and p90:
//   - a 2,000-line .udm search, typing at its end and in its middle (line 1,000);
//   - a small .udm search;
//   - a 2,000-line .yaral rule (the same language server), at its end (the condition: line) and in
//     its middle (a statement of events:).
// Beside each figure: CPU per key press of the language server, the extension host and the browser
// (the machine is shared, and CPU time does not count the waiting for a core), measured from the
// first key until the editor has settled after the last one (diagnostics, colours, outline).
//
// CLOUDBENCH_VSIX=FILE skips packaging; CLOUDBENCH_TYPING_KEYS sets the keys typed per place (120).
// The requests behind these figures, method by method, are replayed over the wire by
// `npm run bench -- udm` (bench/_typing-replay.ts).
/* global document, window, MutationObserver */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { cpuMs, figure, load, percentile, startEditorOnSandbox } from './_editor-lib.mjs';
import * as wb from '../test/e2e/lib/workbench.mjs';
import { installExitHooks, stopAll } from '../test/e2e/lib/processes.mjs';

const KEYS = Number(process.env.CLOUDBENCH_TYPING_KEYS ?? 120);
/** The first key presses of a place warm the editor up (suggest widget, fonts): not counted. */
const WARM_UP = 5;
const LINES = 2000;

const TYPED_SEARCH = ' or target.ip = "10.1.2.3" and metadata.event_type = "USER_LOGIN"';
/** Line 1,000 of the search ends with `or`: what is typed there continues the disjunction. */
const TYPED_DISJUNCT = ' target.ip = "10.1.2.3" or metadata.event_type = "USER_LOGIN" or';
const TYPED_STATEMENT = ' or $e1.target.ip = "10.1.2.3" and $e1.metadata.event_type = "USER_LOGIN"';
const TYPED_CONDITION = ' and #e1 > 2 and #e2 > 3 and $o1 > 0';

/** Records key press (the event's own time stamp) to the next frame that shows the change. */
function recordTyping() {
  const rec = { pending: [], latencies: [] };
  window.__benchTyping = rec;
  document.addEventListener(
    'keydown',
    (e) => {
      if (e.key.length === 1) rec.pending.push(e.timeStamp);
    },
    true,
  );
  const lines = document.querySelector('.editor-group-container.active .monaco-editor .view-lines');
  new MutationObserver(() => {
    if (!rec.pending.length) return;
    const pressed = rec.pending.splice(0);
    // The editor writes its lines inside the frame it renders; the next task runs after that paint.
    setTimeout(() => {
      const t = performance.now();
      for (const p of pressed) rec.latencies.push(t - p);
    }, 0);
  }).observe(lines, { childList: true, characterData: true, subtree: true });
}

/** Puts the cursor at the end of 1-based `line` (Go to Line), or at the end of the file. */
async function placeCursor(page, line) {
  if (line === undefined) {
    await page.keyboard.press('Control+End');
  } else {
    await page.keyboard.press('Control+G');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill(`:${line}`);
    await page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden' });
  }
  await page.keyboard.press('End');
}

/** Types `keys` characters of `typed` (Enter after each copy) at `line` of `file`. */
async function typingRun(page, { file, line, typed, keys, cpu }) {
  await wb.openFile(page, file);
  await placeCursor(page, line);
  // Let the editor finish with the file as opened (colours, outline, diagnostics) before timing.
  await page.waitForTimeout(2000);
  await page.evaluate(recordTyping);
  const before = cpu();
  for (let i = 0; i < keys; i += typed.length) {
    await page.keyboard.type(typed.slice(0, Math.min(typed.length, keys - i)), { delay: 80 });
    // A value list left open would take the Enter.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  }
  await page.waitForFunction(() => window.__benchTyping.pending.length === 0);
  const latencies = (await page.evaluate(() => window.__benchTyping.latencies)).slice(WARM_UP);
  // What the last key press set off (diagnostics, colours, outline, lenses) belongs to the typing.
  await page.waitForTimeout(2000);
  const after = cpu();
  // Leave the file as it was, so nothing asks to be saved.
  await wb.runCommand(page, 'File: Revert File');
  const per = (k) => (after[k] - before[k]) / keys;
  return { latencies, server: per('server'), extHost: per('extHost'), browser: per('browser') };
}

function report(label, run) {
  figure(`editor typing p50 ${label} ms`, percentile(run.latencies, 50));
  figure(`editor typing p90 ${label} ms`, percentile(run.latencies, 90));
  console.log(
    `  CPU per key press (until settled): language server ${run.server.toFixed(1)} ms, extension host ${run.extHost.toFixed(1)} ms, browser ${run.browser.toFixed(1)} ms; max ${Math.round(Math.max(...run.latencies))} ms over ${run.latencies.length} keys`,
  );
}

async function main() {
  const { ruleText } = await tsImport('./_yaral-lib.ts', import.meta.url);
  const { bigQuery } = await tsImport('./_typing-replay.ts', import.meta.url);
  const home = mkdtempSync(join(tmpdir(), 'cloudbench-bench-typing-'));
  let browser;
  installExitHooks(async () => {
    await browser?.close().catch(() => {});
  });
  try {
    const started = await startEditorOnSandbox(home);
    const { server, workspace } = started;
    browser = started.browser;
    writeFileSync(join(workspace, 'big.udm'), bigQuery(LINES));
    writeFileSync(
      join(workspace, 'small.udm'),
      'metadata.event_type = "USER_LOGIN"\nand principal.hostname = "host-1"\n',
    );
    const rule = ruleText(LINES);
    writeFileSync(join(workspace, 'big.yaral'), `${rule}\n`);
    const ruleLines = rule.split('\n');
    const conditionLine = ruleLines.length - 1; // 1-based: the line before the closing brace

    const page = await wb.newPage(browser, server.url);
    await wb.openWorkbench(page, server.url, workspace);
    const cpu = () => ({
      extHost: cpuMs(server.handle.pid, /extensionHost/),
      server: cpuMs(server.handle.pid, /dist\/server\.js/),
      // Playwright starts Chromium as a child of this process.
      browser: cpuMs(process.pid, /chrom/i),
    });
    const common = { keys: KEYS, cpu };
    // The small file first: it starts the language server, so the big ones do not pay for that.
    const small = await typingRun(page, { ...common, file: 'small.udm', typed: TYPED_SEARCH });
    const loads = [load()];
    const end = await typingRun(page, { ...common, file: 'big.udm', typed: TYPED_SEARCH });
    loads.push(load());
    const middle = await typingRun(page, { ...common, file: 'big.udm', line: LINES / 2, typed: TYPED_DISJUNCT });
    loads.push(load());
    const ruleEnd = await typingRun(page, {
      ...common,
      file: 'big.yaral',
      line: conditionLine,
      typed: TYPED_CONDITION,
    });
    loads.push(load());
    const ruleMiddle = await typingRun(page, { ...common, file: 'big.yaral', line: LINES / 2, typed: TYPED_STATEMENT });
    loads.push(load());
    console.log(`load average (1, 5, 15 min) after each place: ${loads.join(' | ')}`);
    report('2k lines', end);
    report('2k lines middle', middle);
    report('small file', small);
    report('2k-line rule', ruleEnd);
    report('2k-line rule middle', ruleMiddle);
    await page.context().close();
  } finally {
    await browser?.close().catch(() => {});
    await stopAll();
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
