// Every panel kind restores through the one page lifecycle: a results panel, a pivot, a statistics
// panel and a Test Rule panel come back with their rows after Developer: Reload Window, twice in a
// row, each checked inside its own webview frame (not just its tab), and the reloads spend no
// udmSearch call on the sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'panels restore: results, pivot, statistics and Test Rule survive two reloads with their rows';

const QUERY = 'principal.hostname = /.*/';
const RULE = 'repeated_failed_logins';
const RESTORED = /Restored from the (run|test) at /;

async function udmSearches(sandbox) {
  const res = await fetch(`${sandbox.http}/sandbox/v1/state`);
  const state = await res.json();
  return state.calls?.['secops.udmSearch'] ?? 0;
}

const oneLine = (s) => s.replace(/\s+/g, ' ').trim();

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'hosts.udm'), `${QUERY}\n`);

  // 1. A statistics panel.
  await wb.openFile(page, 'logins-per-host.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const stats = await wb.findWebviewFrame(page, '#stats-summary', /^Computed by Cloudbench over/, { timeout: 90_000 });
  await stats.locator('.stats-row').first().waitFor();
  const statsRows = await stats.locator('.stats-row').count();
  const firstGroup = oneLine(await stats.locator('.stats-row').first().innerText());

  // 2. A results panel (cut at 10,000 events over 30 days).
  await wb.openFile(page, 'hosts.udm');
  await wb.runCommand(page, 'Cloudbench: Set Search Time Range…');
  await wb.pickQuickItem(page, 'Custom range', 'UDM Search Time Range');
  await wb.answerInputBox(page, '-30d', 'Custom time range: start');
  await wb.answerInputBox(page, 'now', 'Custom time range: end');
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+Enter');
  const results = await wb.findWebviewFrame(page, '#run-summary', /^10,000 rows/, { timeout: 90_000 });
  const firstRow = oneLine(await results.locator('#grid .row').first().innerText());
  await results.locator('#grid .row').first().locator('.cell').first().click();
  const hostLeaf = results.locator('#detail-tree [data-path$="principal.hostname"]').first();
  await hostLeaf.waitFor();
  const host = (await hostLeaf.locator('.str').first().innerText()).trim().replace(/^"|"$/g, '');

  // 3. A pivot from it.
  await hostLeaf.locator('button.pivot[data-pivot="assetEvents.hostname"]').click();
  const hostPattern = new RegExp(wb.escapeRegExp(host));
  const pivot = await wb.findWebviewFrame(page, '#run-title', hostPattern, { timeout: 60_000 });
  await pivot.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  const pivotSummary = (await pivot.locator('#run-summary').innerText()).split(' · ')[0];

  // 4. A Test Rule panel on a demo rule.
  await wb.runCommand(page, 'View: Focus First Editor Group');
  await wb.openFile(page, `${RULE}.yaral`);
  await wb.testRuleFromLens(page, 'Last 7 days');
  const ruleTest = await wb.findWebviewFrame(page, '#rt-summary', /detections? over .* spent/, { timeout: 90_000 });
  await ruleTest.locator('tr.rt-row').first().waitFor();
  const detections = await ruleTest.locator('tr.rt-row').count();
  const firstDetection = oneLine(await ruleTest.locator('tr.rt-row').first().innerText());
  await screenshot('before-reloads');

  const searchesBefore = await udmSearches(sandbox);
  const tabs = page.locator('.tabs-container .tab');
  const panels = [
    {
      kind: 'results',
      tab: tabs.filter({ hasText: /^UDM: / }).first(),
      check: async (frame) => {
        await frame.locator('#run-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
        await frame.locator('#run-summary', { hasText: /^10,000 rows/ }).waitFor({ timeout: 30_000 });
        await frame.locator('#grid .row').first().waitFor();
        const row = oneLine(await frame.locator('#grid .row').first().innerText());
        if (row !== firstRow) throw new Error(`first row was "${firstRow}", came back as "${row}"`);
        return `${await frame.locator('#grid .row').count()} rows painted`;
      },
    },
    {
      kind: 'pivot',
      tab: tabs.filter({ hasText: hostPattern }).first(),
      check: async (frame) => {
        await frame.locator('#run-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
        await frame.locator('#grid .row').first().waitFor();
        const summary = (await frame.locator('#run-summary').innerText()).split(' · ')[0];
        if (summary !== pivotSummary) throw new Error(`the pivot had ${pivotSummary}, came back with ${summary}`);
        return summary;
      },
    },
    {
      kind: 'statistics',
      tab: tabs.filter({ hasText: /^Statistics: / }).first(),
      check: async (frame) => {
        await frame.locator('#stats-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
        await frame.locator('.stats-row').first().waitFor();
        const count = await frame.locator('.stats-row').count();
        if (count !== statsRows) throw new Error(`the statistics table had ${statsRows} rows, came back with ${count}`);
        const first = oneLine(await frame.locator('.stats-row').first().innerText());
        if (first !== firstGroup) throw new Error(`first group was "${firstGroup}", came back as "${first}"`);
        return `${count} rows`;
      },
    },
    {
      kind: 'Test Rule',
      tab: tabs.filter({ hasText: /^Test Rule: / }).first(),
      check: async (frame) => {
        await frame.locator('#rt-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
        await frame.locator('tr.rt-row').first().waitFor();
        const count = await frame.locator('tr.rt-row').count();
        if (count !== detections) throw new Error(`Test Rule had ${detections} detections, came back with ${count}`);
        const first = oneLine(await frame.locator('tr.rt-row').first().innerText());
        if (first !== firstDetection)
          throw new Error(`first detection was "${firstDetection}", came back as "${first}"`);
        return `${count} detections`;
      },
    },
  ];

  for (const round of [1, 2]) {
    await wb.runCommand(page, 'Developer: Reload Window');
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await wb.activityItem(page).waitFor({ timeout: 60_000 });
    for (const { tab } of panels) await tab.waitFor({ timeout: 60_000 });
    const seen = [];
    for (const { kind, tab, check } of panels) {
      await tab.click();
      const frame = wb.webviewFrame(page);
      const what = await check(frame).catch(async (err) => {
        await screenshot(`reload-${round}-${kind.replace(/\s+/g, '-')}`);
        throw new Error(`after reload ${round}, the ${kind} panel: ${err.message}`);
      });
      seen.push(`${kind} ${what}`);
    }
    const searches = await udmSearches(sandbox);
    if (searches !== searchesBefore)
      throw new Error(`after reload ${round}, ${searches - searchesBefore} udmSearch calls were spent`);
    log(`reload ${round}: ${seen.join('; ')}; udmSearch calls still ${searches}`);
  }
  await screenshot('after-two-reloads');
}
