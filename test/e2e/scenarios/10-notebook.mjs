// UDM notebook: open the sample hunt, set a cell's limit and time range from its status bar, run all
// its cells, cancel a slow one, Run Above and Run Below, save, reload the window and find the kept
// results again without a search, then export a Markdown report with chart images.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'notebook: run a hunt, cancel, kept results after a window restart, export';

const FILE = 'hunts/password-guessing.udmnb';

async function outputFrame(wb, page, pattern, timeout = 60_000) {
  return wb.findWebviewFrame(page, '[data-testid="kept-note"]', pattern, { timeout });
}

async function waitForNotes(frame, count, timeout = 90_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const n = await frame.locator('[data-testid="kept-note"]').count();
    if (n >= count) return n;
    if (Date.now() > deadline) throw new Error(`expected ${count} kept results, saw ${n}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Saves the notebook until the file on disk satisfies `done` (runs finish in their own time). */
async function saveUntil(page, path, done, timeout = 90_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    await page.keyboard.press('Control+S');
    await new Promise((r) => setTimeout(r, 500));
    const nb = JSON.parse(readFileSync(path, 'utf8'));
    if (done(nb)) return nb;
    if (Date.now() > deadline)
      throw new Error(
        `the saved notebook never reached the expected state: ${JSON.stringify(nb.cells.map((c) => c.output?.kind ?? null))}`,
      );
  }
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  await wb.openFile(page, 'password-guessing.udmnb');
  const cells = page.locator('.notebook-editor .code-cell-row');
  await cells.first().waitFor({ timeout: 30_000 });
  const cellCount = await cells.count();
  if (cellCount !== 3) throw new Error(`the sample hunt shows ${cellCount} UDM cells, expected 3`);

  // The cell status bar shows each cell's time range and limit.
  const statusBar = cells.first().locator('.cell-statusbar-container');
  await statusBar.filter({ hasText: /Last 24 hours/ }).waitFor({ timeout: 30_000 });
  const status = await statusBar.innerText();
  if (!/events/.test(status)) throw new Error(`the first cell's status bar shows no limit: "${status}"`);

  // Both are edited there: the first cell gets its own event limit and time range.
  await statusBar.locator('.cell-status-item', { hasText: /events/ }).click();
  await wb.answerInputBox(page, '5', 'Cell Event Limit');
  await statusBar.filter({ hasText: /≤ 5 events/ }).waitFor({ timeout: 30_000 });
  await statusBar.locator('.cell-status-item', { hasText: /Last 24 hours/ }).click();
  await wb.pickQuickItem(page, 'Last 7 days', 'UDM Search Time Range');
  await statusBar.filter({ hasText: /Last 7 days/ }).waitFor({ timeout: 30_000 });
  log("the first cell's limit and time range were set from its status bar");

  // The language server checks UDM cells: an unknown field is marked, and undo clears it.
  const third = cells.nth(2);
  await third.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' principal.no_such_field = "x"');
  await third.locator('.squiggly-error').first().waitFor({ timeout: 30_000 });
  log('the language server marks an error in a notebook cell');
  const typed = third.locator('.view-lines', { hasText: /no_such_field/ });
  for (let i = 0; i < 40 && (await typed.count()) > 0; i++) await page.keyboard.press('Control+Z');
  await third.locator('.squiggly-error').first().waitFor({ state: 'detached', timeout: 30_000 });
  // Completion in a cell: the fields after `metadata.`; undone afterwards.
  const lines = third.locator('.view-line');
  const linesBefore = await lines.count();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('metadata.');
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  await suggest.locator('.monaco-list-row', { hasText: 'event_type' }).first().waitFor({ timeout: 30_000 });
  log('the language server completes fields in a notebook cell');
  await page.keyboard.press('Escape');
  for (let i = 0; i < 40 && (await lines.count()) > linesBefore; i++) await page.keyboard.press('Control+Z');
  if ((await lines.count()) !== linesBefore) throw new Error('undo did not remove the completion line');
  await page.keyboard.press('Escape');

  // Run All: three searches, three results (the file, once saved, is the proof for cells out of view).
  await wb.runCommand(page, 'Notebook: Run All');
  const frame = await outputFrame(wb, page, /events|No events matched/);
  await waitForNotes(frame, 2);
  const notes = await frame.locator('[data-testid="kept-note"]').allInnerTexts();
  log(`ran: ${notes.map((n) => n.split(' · ')[0]).join(' | ')}`);
  if ((await frame.locator('.cb-row').count()) === 0) throw new Error('no result rows rendered in the outputs');
  const headDisplay = await frame
    .locator('.cb-head')
    .first()
    .evaluate((e) => e.ownerDocument.defaultView.getComputedStyle(e).display);
  if (headDisplay !== 'grid') throw new Error(`the renderer's styles did not apply (head row: ${headDisplay})`);
  await screenshot('ran-all');

  // A row action from the output: the full event opens in an editor. (Bring the first cell and its
  // output into view first: the output frame is taller than the screen.)
  await wb.runCommand(page, 'Notebook: Focus First Cell');
  await frame.locator('.cb-row').first().click();
  await frame.locator('.cb-detail button', { hasText: 'Full event' }).click();
  await page
    .locator('.editor-instance .view-lines', { hasText: /"eventType":\s*"USER_LOGIN"/ })
    .first()
    .waitFor({ timeout: 30_000 });
  log('the row action opened the full event');
  await wb.openFile(page, 'password-guessing.udmnb');
  const path = join(workspace, FILE);
  const saved = await saveUntil(
    page,
    path,
    (nb) => nb.cells.filter((c) => c.output && c.output.kind !== 'error').length === 3,
  );
  log(
    `saved: ${saved.cells.map((c) => (c.output ? `${c.output.kind} ${c.output.keptRows}/${c.output.totalEvents ?? c.output.totalRows}` : '-')).join(', ')}`,
  );
  const first = saved.cells[1];
  if (first.limit !== 5 || first.timeRange?.preset !== '7d' || first.output.totalEvents > 5)
    throw new Error(
      `the first cell did not keep and use its own limit and time range: ${JSON.stringify({ limit: first.limit, timeRange: first.timeRange, events: first.output.totalEvents })}`,
    );
  const stats = saved.cells[3].output;
  if (stats.kind !== 'statistics' || stats.rows.length === 0 || stats.columns[1]?.name !== 'failures')
    throw new Error(`the count-by-host cell kept no statistics table: ${JSON.stringify(stats).slice(0, 300)}`);
  const counts = stats.rows.map((r) => r[1]);
  if (counts.some((n, i) => i > 0 && n > counts[i - 1]))
    throw new Error(`order: $failures desc not applied: ${counts}`);

  // Cancel: the sandbox answers slowly; start the first cell and stop it.
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [{ method: 'secops.udmSearch', latencyMs: 60_000 }] });
  await cells.first().locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+Enter');
  await cells
    .first()
    .locator('.codicon-notebook-state-executing, .codicon-loading, .codicon-modifier-spin')
    .first()
    .waitFor({ timeout: 30_000 });
  await wb.runCommand(page, 'Notebook: Stop Execution');
  await wb.findWebviewFrame(page, 'body', /Cancelled: the search was stopped/, { timeout: 30_000 });
  log('a running cell was cancelled and says so');
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });

  // Run Above from the second UDM cell runs the first again (and only it), so all three cells hold
  // results; Run Below from the second runs it and the third, not the first.
  const orders = (nb) => [1, 3, 4].map((i) => nb.cells[i].executionOrder);
  await cells.nth(1).locator('.monaco-editor .view-lines').click();
  await wb.runCommand(page, 'Notebook: Execute Above Cells');
  const above = await saveUntil(
    page,
    path,
    (nb) =>
      nb.cells.filter((c) => c.output && c.output.kind !== 'error').length === 3 && nb.cells[1].executionOrder > 3,
  );
  if (orders(above)[1] !== orders(saved)[1] || orders(above)[2] !== orders(saved)[2])
    throw new Error(`Run Above ran more than the cells above: ${orders(saved)} → ${orders(above)}`);
  // The second UDM cell is out of view (cells below tall outputs are not drawn): focus the last
  // cell, then the one above it.
  await wb.runCommand(page, 'Notebook: Focus Last Cell');
  await page.keyboard.press('ArrowUp');
  await wb.runCommand(page, 'Notebook: Execute Cell and Below');
  const below = await saveUntil(page, path, (nb) =>
    [3, 4].every((i) => nb.cells[i].executionOrder > orders(above)[0] && nb.cells[i].output?.kind !== 'error'),
  );
  if (orders(below)[0] !== orders(above)[0])
    throw new Error(`Run Below ran a cell above it: ${orders(above)} → ${orders(below)}`);
  log(`Run Above and Run Below ran only their cells: ${orders(saved)} → ${orders(above)} → ${orders(below)}`);

  // Reload: searches would now fail, so kept results on screen prove nothing was searched again.
  await wb.sandboxAdmin(sandbox, 'faults', {
    rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: ['INTERNAL'] }],
  });
  await wb.runCommand(page, 'Developer: Reload Window');
  await page.locator('.notebook-editor .code-cell-row').first().waitFor({ timeout: 60_000 });
  const reloaded = await outputFrame(wb, page, /events|No events matched/, 90_000);
  await waitForNotes(reloaded, 1);
  const body = await reloaded.locator('body').innerText();
  if (/INTERNAL/.test(body)) throw new Error('reopening the notebook ran a search');
  await screenshot('reloaded');
  log('after reload the kept results show without a search');
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });

  // Export a Markdown report next to the notebook.
  await wb.runCommand(page, 'Cloudbench: Export Notebook as Markdown…');
  await wb.quickInput(page);
  await page.locator('.quick-input-widget input.input').press('Enter');
  await wb.waitForNotification(page, /Exported the notebook to/);
  const report = join(workspace, 'hunts/password-guessing.md');
  if (!existsSync(report)) throw new Error('no Markdown report next to the notebook');
  const md = readFileSync(report, 'utf8');
  for (const part of [
    '# password-guessing',
    '## Query 1',
    '```udm',
    '| Time |',
    '| principal.hostname | \\$failures |',
  ])
    if (!md.includes(part)) throw new Error(`the report lacks "${part}"`);
  // Chart images beside the report: the timeline of each result and the statistics bars.
  const images = Array.from(md.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g), (m) => m[1]);
  if (
    !images.includes('password-guessing-charts/query-1.svg') ||
    !images.includes('password-guessing-charts/query-2.svg')
  )
    throw new Error(`the report links no chart images for queries 1 and 2: ${JSON.stringify(images)}`);
  for (const image of images) {
    const svg = readFileSync(join(workspace, 'hunts', image), 'utf8');
    if (!svg.startsWith('<svg ') || !/<rect [^>]*height="[1-9]/.test(svg))
      throw new Error(`${image} is not a chart with bars: ${svg.slice(0, 200)}`);
  }
  log(`exported ${md.split('\n').length} lines of Markdown and ${images.length} chart images`);

  // A new notebook from the command: an untitled UDM notebook with a note and a query cell.
  await wb.runCommand(page, 'Cloudbench: New UDM Notebook');
  await page.locator('.tabs-container .tab.active', { hasText: /Untitled/ }).waitFor({ timeout: 30_000 });
  const fresh = page.locator('.notebook-editor:visible .code-cell-row');
  await fresh.first().waitFor({ timeout: 30_000 });
  if ((await fresh.count()) !== 1) throw new Error('the new notebook has no single UDM cell');
  log('New UDM Notebook opened an untitled notebook');

  // Its time range from the notebook toolbar's command: the cell follows it; then the cell runs.
  const freshStatus = fresh.first().locator('.cell-statusbar-container');
  await wb.runCommand(page, 'Cloudbench: Set Notebook Time Range…');
  await wb.pickQuickItem(page, 'Last 7 days', 'UDM Search Time Range');
  await freshStatus.filter({ hasText: /Last 7 days/ }).waitFor({ timeout: 30_000 });
  await fresh.first().locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('Control+Enter');
  await fresh.first().locator('.codicon-notebook-state-success').waitFor({ timeout: 60_000 });
  log("the new notebook's time range came from its toolbar command and its cell ran");
}
