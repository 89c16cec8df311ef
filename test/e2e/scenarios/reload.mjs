// Developer: Reload Window keeps the work: a results panel (a search cut at 10,000 events, with a
// quick filter), a pivot and a statistics panel come back with their rows and "Restored from the run
// at <time>", the sandbox counts no new udmSearch, the time range and the hourly budget count are the
// same, and the connection still works (Run Again spends one search and shows fresh rows).
import { readdirSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'reload: results, pivot and statistics panels come back with their rows, no search spent';

const QUERY = 'principal.hostname = /.*/';
const RESTORED = /Restored from the run at /;

async function statusText(page, id) {
  return (await page.locator(`.statusbar-item[id$="${id}"]`).first().innerText()).trim();
}

async function udmSearches(sandbox) {
  const res = await fetch(`${sandbox.http}/sandbox/v1/state`);
  const state = await res.json();
  return state.calls?.['secops.udmSearch'] ?? 0;
}

/** Runs kept on disk since `since` (the extension writes each once its rows reached the page). */
function keptRuns(profile, since) {
  const found = [];
  const walk = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < 6) walk(path, depth + 1);
      else if (e.isFile() && e.name.endsWith('.run.json') && statSync(path).mtimeMs >= since) found.push(path);
    }
  };
  walk(profile, 0);
  return found;
}

/** Resolves once `count` runs are kept (watching the profile's files, not polling on a timer). */
function untilKept(profile, since, count, timeout) {
  return new Promise((resolve, reject) => {
    const watcher = watch(profile, { recursive: true });
    const done = (err) => {
      clearTimeout(timer);
      watcher.close();
      if (err) reject(err);
      else resolve();
    };
    const check = () => keptRuns(profile, since).length >= count && done();
    const timer = setTimeout(
      () => done(new Error(`the panels' runs were not kept: ${keptRuns(profile, since).length} of ${count}`)),
      timeout,
    );
    watcher.on('change', check);
    watcher.on('error', done);
    check();
  });
}

export async function run({ page, wb, sandbox, workspace, profile, log, screenshot }) {
  const started = Date.now() - 1000;
  // Written first, so the editor's file index has it by the time it is opened.
  writeFileSync(join(workspace, 'hosts.udm'), `${QUERY}\n`);

  // 1. A statistics panel (over the default time range: one search).
  await wb.openFile(page, 'logins-per-host.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  let stats = await wb.findWebviewFrame(page, '#stats-summary', /^Computed by Cloudbench over/, { timeout: 90_000 });
  await stats.locator('.stats-row').first().waitFor();
  const statsRows = await stats.locator('.stats-row').count();
  const firstGroup = (await stats.locator('.stats-row').first().innerText()).replace(/\s+/g, ' ').trim();

  // 2. A search cut at 10,000 events over 30 days, with a quick filter.
  await wb.openFile(page, 'hosts.udm');
  await wb.runCommand(page, 'Cloudbench: Set Search Time Range…');
  await wb.pickQuickItem(page, 'Custom range', 'UDM Search Time Range');
  await wb.answerInputBox(page, '-30d', 'Custom time range: start');
  await wb.answerInputBox(page, 'now', 'Custom time range: end');
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+Enter');
  let results = await wb.findWebviewFrame(page, '#run-summary', /^10,000 rows/, { timeout: 90_000 });
  const rows = results.locator('#grid .row');
  await rows.first().locator('.cell').first().click();
  const hostLeaf = results.locator('#detail-tree [data-path$="principal.hostname"]').first();
  await hostLeaf.waitFor();
  const host = (await hostLeaf.locator('.str').first().innerText()).trim().replace(/^"|"$/g, '');
  const filter = `principal.hostname:${host}`;
  await results.locator('#filter').fill(filter);
  await results.locator('#count', { hasText: /^[\d,]+ of 10,000 rows$/ }).waitFor();
  const filteredCount = await results.locator('#count').innerText();
  // Sorted by the second column, descending (two clicks), and scrolled down a little.
  const sortHeader = results.locator('#grid-header [data-column]').nth(1);
  const sortColumn = await sortHeader.getAttribute('data-column');
  await sortHeader.click();
  await sortHeader.click();
  await results.locator('#grid-header [aria-sort="descending"]').waitFor();
  await results.locator('#viewport').evaluate((el) => {
    el.scrollTop = 110;
  });

  // 3. A pivot from it, in its own tab.
  await hostLeaf.locator('button.pivot[data-pivot="assetEvents.hostname"]').click();
  const hostPattern = new RegExp(wb.escapeRegExp(host));
  let pivot = await wb.findWebviewFrame(page, '#run-title', hostPattern, { timeout: 60_000 });
  await pivot.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  const pivotSummary = (await pivot.locator('#run-summary').innerText()).split(' · ')[0];

  // The three runs are on disk before the window goes.
  await untilKept(profile, started, 3, 60_000);
  await wb.focusActiveEditor(page);
  const budgetBefore = await statusText(page, 'cloudbench.search.budget');
  const rangeBefore = await statusText(page, 'cloudbench.search.timeRange');
  const searchesBefore = await udmSearches(sandbox);
  await screenshot('before-reload');

  // 4. Reload.
  await wb.runCommand(page, 'Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await wb.activityItem(page).waitFor({ timeout: 60_000 });
  const tabs = page.locator('.tabs-container .tab');
  const panels = [
    ['results', tabs.filter({ hasText: /^UDM: / }).first()],
    ['pivot', tabs.filter({ hasText: hostPattern }).first()],
    ['statistics', tabs.filter({ hasText: /^Statistics: / }).first()],
  ];
  for (const [, tab] of panels) await tab.waitFor({ timeout: 60_000 });

  await panels[0][1].click();
  results = wb.webviewFrame(page);
  await results.locator('#run-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
  // The first rows paint first, the rest follows.
  await results
    .locator('#run-summary', { hasText: /^10,000 rows/ })
    .waitFor({ timeout: 30_000 })
    .catch(async () => {
      throw new Error(`the results panel came back as "${await results.locator('#run-summary').innerText()}"`);
    });
  const resultsSummary = await results.locator('#run-summary').innerText();
  if ((await results.locator('#filter').inputValue()) !== filter) throw new Error('the quick filter was not kept');
  await results.locator('#count', { hasText: filteredCount }).waitFor();
  await results.locator('#grid .row').first().waitFor();
  const sorted = results.locator('#grid-header [aria-sort="descending"]');
  await sorted.waitFor({ timeout: 10_000 }).catch(() => {
    throw new Error('the sort was not kept');
  });
  if ((await sorted.getAttribute('data-column')) !== sortColumn) throw new Error('another column came back sorted');
  const scrollTop = await results.locator('#viewport').evaluate((el) => el.scrollTop);
  if (scrollTop !== 110) throw new Error(`scrolled to 110 before the reload, ${scrollTop} after`);
  await results.locator('#rerun', { hasText: 'Run Again' }).waitFor();

  await panels[1][1].click();
  pivot = wb.webviewFrame(page);
  await pivot.locator('#run-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
  const pivotAfter = (await pivot.locator('#run-summary').innerText()).split(' · ')[0];
  if (pivotAfter !== pivotSummary) throw new Error(`the pivot had ${pivotSummary}, came back with ${pivotAfter}`);
  await pivot.locator('#grid .row').first().waitFor();

  await panels[2][1].click();
  stats = wb.webviewFrame(page);
  await stats.locator('#stats-summary', { hasText: RESTORED }).waitFor({ timeout: 60_000 });
  await stats.locator('.stats-row').first().waitFor();
  if ((await stats.locator('.stats-row').count()) !== statsRows)
    throw new Error(
      `the statistics table had ${statsRows} rows, came back with ${await stats.locator('.stats-row').count()}`,
    );
  const firstAfter = (await stats.locator('.stats-row').first().innerText()).replace(/\s+/g, ' ').trim();
  if (firstAfter !== firstGroup) throw new Error(`first group was "${firstGroup}", came back as "${firstAfter}"`);
  await stats.locator('#stats-rerun').waitFor({ state: 'visible' });
  await screenshot('after-reload');

  const searchesAfter = await udmSearches(sandbox);
  if (searchesAfter !== searchesBefore)
    throw new Error(`the reload spent ${searchesAfter - searchesBefore} udmSearch calls`);

  // The time range and the hourly count are those of before (shown while a .udm editor is visible:
  // hosts.udm came back in the first group).
  await page
    .locator('.statusbar-item[id$="cloudbench.search.budget"]', { hasText: budgetBefore })
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async () => {
      throw new Error(
        `budget ${budgetBefore} before the reload, ${await statusText(page, 'cloudbench.search.budget')} after`,
      );
    });
  const rangeAfter = await statusText(page, 'cloudbench.search.timeRange');
  if (rangeAfter !== rangeBefore) throw new Error(`time range ${rangeBefore} before the reload, ${rangeAfter} after`);

  // Still connected: Run Again spends one search and shows fresh rows.
  await panels[0][1].click();
  results = wb.webviewFrame(page);
  await results.locator('#rerun').click();
  await results
    .locator('#run-summary', { hasText: /^10,000 rows/ })
    .filter({ hasNotText: RESTORED })
    .waitFor({
      timeout: 90_000,
    });
  if ((await udmSearches(sandbox)) !== searchesBefore + 1)
    throw new Error('Run Again did not spend exactly one search');
  log(
    `after reload: results "${resultsSummary.split('\n')[0]}", pivot ${pivotAfter}, statistics ${statsRows} rows; udmSearch calls ${searchesBefore} → ${searchesAfter}; budget ${budgetBefore}; range ${rangeAfter}`,
  );
}
