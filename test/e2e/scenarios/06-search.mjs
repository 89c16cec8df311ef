// SecOps search: write a query, run it, see rows, open a detail, export CSV into the workspace, and
// pivot from the event's host to that asset's events.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'search: run, detail, export CSV, pivot';

export async function run({ page, wb, workspace, log, screenshot }) {
  await wb.runCommand(page, 'Cloudbench: New UDM Query');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: /metadata/ }).waitFor();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('metadata.event_type = "USER_LOGIN"');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');

  const results = wb.webviewFrame(page);
  const rows = results.locator('#grid .row');
  await rows.first().waitFor({ timeout: 60_000 });
  const summary = await results.locator('#run-summary').innerText();
  if (!/\d/.test(summary)) throw new Error(`the results summary gives no count: "${summary}"`);
  log(`results: ${summary.split('\n')[0]}`);

  // Detail of the first row.
  await rows.first().locator('.cell').first().click();
  const detail = results.locator('#detail-tree');
  await detail.waitFor();
  await detail.locator('[data-path$="metadata.eventType"]', { hasText: 'USER_LOGIN' }).waitFor();
  await screenshot('detail');

  // Export CSV: the save dialog proposes a file in the workspace; accept it.
  await results.locator('#export-csv').click();
  await wb.quickInput(page, 'Export');
  await page.locator('.quick-input-widget input.input').press('Enter');
  await wb.waitForNotification(page, /Exported [\d,]+ rows to udm-results-.*\.csv/);
  const csv = readdirSync(workspace).find((f) => /^udm-results-.*\.csv$/.test(f));
  if (!csv || !existsSync(join(workspace, csv))) throw new Error(`no CSV export in ${workspace}`);
  const lines = readFileSync(join(workspace, csv), 'utf8').trim().split(/\r?\n/);
  if (lines.length < 2) throw new Error(`${csv} has ${lines.length} lines`);
  log(`exported ${lines.length - 1} rows to ${csv}`);

  // Pivot from the host of the event to that asset's events (a further results panel).
  const hostLeaf = detail.locator('[data-path$="principal.hostname"]').first();
  const host = (await hostLeaf.locator('.str').first().innerText()).trim();
  await hostLeaf.locator('button.pivot[data-pivot="assetEvents.hostname"]').click();
  const pivoted = await wb.findWebviewFrame(page, '#run-title', new RegExp(wb.escapeRegExp(host)), { timeout: 60_000 });
  await pivoted.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  log(
    `pivoted: ${await pivoted.locator('#run-title').innerText()} — ${await pivoted.locator('#run-summary').innerText()}`,
  );
}
