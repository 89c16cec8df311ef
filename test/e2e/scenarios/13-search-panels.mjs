// A search cut at 10,000 events in the real editor: "Fetch the rest" asks before it spends anything,
// the quick filter finds rows by `principal.hostname:x`, a pivot opens its own tab, and both panels
// come back after a window reload without searching again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'search: fetch the rest asks, filter by short path, panels survive a window restart';

const QUERY = 'principal.hostname = /.*/';

async function budgetText(page) {
  return (await page.locator('.statusbar-item[id$="cloudbench.search.budget"]').first().innerText()).trim();
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'hosts.udm'), `${QUERY}\n`);
  await wb.openFile(page, 'hosts.udm');
  await wb.runCommand(page, 'Cloudbench: Set Search Time Range…');
  await wb.pickQuickItem(page, 'Custom range', 'UDM Search Time Range');
  await wb.answerInputBox(page, '-30d', 'Custom time range: start');
  await wb.answerInputBox(page, 'now', 'Custom time range: end');
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+Enter');

  const results = await wb.findWebviewFrame(page, '#run-summary', /^10,000 rows/, { timeout: 90_000 });
  await results.locator('#fetch-rest').waitFor({ state: 'visible' });
  const spentBefore = await budgetText(page);

  // 1. Fetch the rest asks first, with its cost; declining spends nothing.
  await results.locator('#fetch-rest').click();
  const dialog = await wb.modalDialog(page);
  const question = (await dialog.innerText()).replace(/\s+/g, ' ');
  if (!/Fetching the rest will spend about \d+ UDM search/.test(question) || !/remain this hour/.test(question))
    throw new Error(`the question does not give the cost and what is left: "${question}"`);
  await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  await results.locator('#fetch-rest').waitFor({ state: 'visible' });
  if ((await budgetText(page)) !== spentBefore)
    throw new Error(
      `declining "Fetch the rest" spent searches: ${spentBefore} before, ${await budgetText(page)} after`,
    );
  log(`fetch the rest asked first: "${question.slice(0, 140)}…"`);

  // 2. The quick filter by a UDM path without "udm.".
  const rows = results.locator('#grid .row');
  await rows.first().locator('.cell').first().click();
  const detail = results.locator('#detail-tree');
  const hostLeaf = detail.locator('[data-path$="principal.hostname"]').first();
  await hostLeaf.waitFor();
  const host = (await hostLeaf.locator('.str').first().innerText()).trim().replace(/^"|"$/g, '');
  await results.locator('#filter').fill(`principal.hostname:${host}`);
  await results.locator('#count', { hasText: /^[\d,]+ of 10,000 rows$/ }).waitFor();
  const count = await results.locator('#count').innerText();
  if (/^0 of/.test(count)) throw new Error(`principal.hostname:${host} found no rows (${count})`);
  log(`filter principal.hostname:${host}: ${count}`);

  // 3. A pivot opens its own tab, titled by what it pivots on.
  await hostLeaf.locator('button.pivot[data-pivot="assetEvents.hostname"]').click();
  const hostPattern = new RegExp(wb.escapeRegExp(host));
  const pivoted = await wb.findWebviewFrame(page, '#run-title', hostPattern, { timeout: 60_000 });
  await pivoted.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  const tabs = page.locator('.tabs-container .tab');
  await tabs
    .filter({ hasText: /^UDM: / })
    .first()
    .waitFor();
  await tabs.filter({ hasText: hostPattern }).first().waitFor();
  await screenshot('before-reload');

  // 4. Reload: both panels come back with what they showed, without searching again (a search now
  // fails, so an error in either panel would mean it ran one).
  await wb.sandboxAdmin(sandbox, 'faults', {
    rules: [{ method: 'secops.*', errorRate: 1, codes: ['INTERNAL'] }],
  });
  await wb.runCommand(page, 'Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await tabs
    .filter({ hasText: /^UDM: / })
    .first()
    .waitFor({ timeout: 60_000 });
  await tabs.filter({ hasText: hostPattern }).first().waitFor({ timeout: 60_000 });
  // The visible panel restores its query and title; the other one does when brought forward.
  const restored = [];
  for (const tab of [tabs.filter({ hasText: /^UDM: / }).first(), tabs.filter({ hasText: hostPattern }).first()]) {
    await tab.click();
    const frame = wb.webviewFrame(page);
    await frame.locator('#run-title').filter({ hasText: /\S/ }).waitFor({ timeout: 60_000 });
    const title = await frame.locator('#run-title').innerText();
    const summary = await frame.locator('#run-summary').innerText();
    if (/Failed|INTERNAL/.test(summary)) throw new Error(`a restored panel ran a search: "${summary}"`);
    restored.push(`${title} (${summary.split('\n')[0]})`);
  }
  if (!restored[0].includes(QUERY)) throw new Error(`the results panel came back without its query: ${restored[0]}`);
  if (!hostPattern.test(restored[1])) throw new Error(`the pivot panel came back without its host: ${restored[1]}`);
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });
  await screenshot('after-reload');
  log(`after reload: ${restored.join(' · ')}`);
}
