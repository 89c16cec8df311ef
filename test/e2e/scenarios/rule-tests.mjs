// Rule tests in the real editor: the Test Explorer lists the demo rules' cases and runs them green
// on its own; a changed expectation fails with VS Code's expected/actual difference on the case's
// line; "Save as Test Case" from the Test Rule panel writes a case (events file and expectation)
// that then passes, in the editor and with `cloudbench test`; after Developer: Reload Window the
// Test Explorer lists and runs every case again, the saved one among them, green without a click.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const name = "rule-tests: Test Explorer, a failing case's diff, Save as Test Case";

const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));
const SAVED = 'kept from the e2e hunt';

export async function run({ page, wb, workspace, log, screenshot }) {
  const rules = join(workspace, 'rules');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const rows = page.locator('.test-explorer .monaco-list-row');

  // 1. The Test Explorer lists every demo rule with its cases, all run and green without a click.
  await wb.runCommand(page, 'Testing: Focus on Test Explorer View');
  const ruleNames = [
    'c2_connection',
    'critical_server_ioc_lookup',
    'ioc_lookup_then_web_request',
    'repeated_failed_logins',
    'suspicious_domain_lookups',
  ];
  for (const rule of ruleNames)
    await rows
      .filter({ has: page.locator('.label', { hasText: new RegExp(`^${rule}`) }) })
      .first()
      .waitFor();
  const passedAll = await waitFor(async () => {
    const labels = await rows.evaluateAll((r) => r.map((x) => x.getAttribute('aria-label') ?? ''));
    const mine = labels.filter((l) => /\.test\.yaml/.test(l));
    return mine.length === ruleNames.length && mine.every((l) => /\(Passed\)/.test(l)) ? mine : undefined;
  }, 'every rule passed in the Test Explorer');
  const cases = ruleNames.map(
    (r) => (readFileSync(join(rules, `${r}.test.yaml`), 'utf8').match(/^\s*- name:/gm) ?? []).length,
  );
  const total = cases.reduce((a, b) => a + b, 0);
  await page
    .locator('.test-explorer', { hasText: `${total}/${total}` })
    .first()
    .waitFor();
  log(`${passedAll.length} rules, ${total}/${total} cases passed on first start`);

  // 2. A changed expectation: Run Test above the case fails with the expected/actual difference.
  const c2File = join(rules, 'c2_connection.test.yaml');
  const c2 = readFileSync(c2File, 'utf8');
  const changed = c2.replace('riskScore: 90', 'riskScore: 91');
  if (changed === c2) throw new Error('the c2_connection test file has no "riskScore: 90" to change');
  writeFileSync(c2File, changed);
  await wb.openFile(page, 'c2_connection.test.yaml');
  await editor.locator('.view-lines', { hasText: /riskScore:\s91/ }).waitFor();
  const runTest = editor.locator('.codelens-decoration a', { hasText: 'Run Test' }).first();
  await runTest.waitFor();
  await runTest.click();
  // The case fails in the Test Explorer and on its line; clicking the message there opens the
  // difference in a peek under the case's line.
  await page.locator('.test-explorer .monaco-list-row[aria-label*="(Failed)"]').first().waitFor({ timeout: 30_000 });
  const peek = page.locator('.editor-group-container.active .peekview-widget');
  await waitFor(async () => {
    if (await peek.isVisible()) return true;
    await editor.locator('.test-error-content-widget').first().click();
    return (await peek
      .waitFor({ timeout: 3_000 })
      .then(() => true)
      .catch(() => false))
      ? true
      : undefined;
  }, 'the failure peek');
  await peek
    .locator('.view-lines', { hasText: /riskScore:\s91/ })
    .first()
    .waitFor();
  await peek
    .locator('.view-lines', { hasText: /riskScore:\s90/ })
    .first()
    .waitFor();
  const peekTitle = (await peek.locator('.peekview-title').innerText()).replace(/\s+/g, ' ');
  log(`peek: ${peekTitle}`);
  // The peek opens under the failing case: its line is the first case's `- name:` line.
  const caseLine = changed.split('\n').findIndex((l) => /^\s*- name:/.test(l)) + 1;
  const peekAfter = await peek.evaluate((el) => {
    const zone = el.closest('.zone-widget') ?? el;
    return zone.getBoundingClientRect().top;
  });
  const lineTop = await editor
    .locator('.margin-view-overlays .line-numbers', { hasText: new RegExp(`^${caseLine}$`) })
    .first()
    .evaluate((el) => el.getBoundingClientRect().top);
  if (!(peekAfter > lineTop && peekAfter - lineTop < 60))
    throw new Error(`the peek is at ${peekAfter}px, the case's line ${caseLine} at ${lineTop}px`);
  log(`changed expectation: the peek under line ${caseLine} shows riskScore 91 expected, 90 actual`);
  await screenshot('failing-case-diff');
  await page.keyboard.press('Escape');
  writeFileSync(c2File, c2);

  // 3. Save as Test Case from the Test Rule panel: a detection of repeated_failed_logins kept.
  const RULE = 'repeated_failed_logins';
  await wb.openFile(page, `${RULE}.yaral`);
  await wb.testRuleFromLens(page, 'Last 7 days');
  const panel = await wb.findWebviewFrame(page, '#rt-summary', /detections? over .* spent/, { timeout: 90_000 });
  const first = panel.locator('tr.rt-row').first();
  await first.click();
  const match = (await first.locator('.rt-match').innerText()).trim();
  await panel.locator('button.rt-save-case').first().click();
  await wb.answerInputBox(page, SAVED, 'Save as Test Case');
  await wb.pickQuickItem(page, 'Replace names and addresses', 'Save as Test Case');
  const testFile = join(rules, `${RULE}.test.yaml`);
  const saved = await waitFor(() => {
    const text = readFileSync(testFile, 'utf8');
    return text.includes(SAVED) ? text : undefined;
  }, `the case in ${RULE}.test.yaml`);
  const eventsRel = /name: kept from the e2e hunt\n\s+events: (\S+)/.exec(saved)?.[1];
  if (!eventsRel || !existsSync(join(rules, eventsRel)))
    throw new Error(`no events file for the saved case: ${eventsRel}`);
  const stored = readFileSync(join(rules, eventsRel), 'utf8').trim().split('\n');
  const userId = /= (\S+)/.exec(match)?.[1];
  if (userId && stored.some((l) => l.includes(userId))) throw new Error(`the saved events still name ${userId}`);
  if (!stored.every((l) => /"eventTimestamp":"2026-01-(0[5-9]|1[01])T/.test(l)))
    throw new Error('the saved events are not moved to the base week of 2026-01-05');
  await page.locator('.editor-group-container.active .tab.active', { hasText: `${RULE}.test.yaml` }).waitFor();
  log(`saved "${SAVED}" for ${match}: ${stored.length} events in ${eventsRel}, redacted and moved to 2026-01-05`);

  // The new case passes: from its CodeLens in the editor, and with `cloudbench test`.
  const savedLens = page
    .locator('.editor-group-container.active .monaco-editor .codelens-decoration a', { hasText: 'Run Test' })
    .last();
  await savedLens.waitFor();
  await savedLens.click();
  await wb.runCommand(page, 'Testing: Focus on Test Explorer View');
  const ruleRow = rows.filter({ has: page.locator('.label', { hasText: new RegExp(`^${RULE}`) }) }).first();
  if ((await ruleRow.getAttribute('aria-expanded')) !== 'true') await ruleRow.locator('.monaco-tl-twistie').click();
  const savedRow = rows.filter({ has: page.locator('.label', { hasText: SAVED }) }).first();
  await savedRow.waitFor();
  await waitFor(
    async () => (/\(Passed\)/.test((await savedRow.getAttribute('aria-label')) ?? '') ? true : undefined),
    'the saved case passed',
  );
  const cli = spawnSync(process.execPath, [CLI, 'test', testFile], { encoding: 'utf8', cwd: workspace });
  if (cli.status !== 0) throw new Error(`cloudbench test exited ${cli.status}: ${cli.stdout}${cli.stderr}`);
  log(`the saved case passes in the Test Explorer and with cloudbench test: ${cli.stdout.trim().split('\n').pop()}`);
  await screenshot('saved-case-passed');

  // 4. After Developer: Reload Window every case runs again on its own, the saved one among them: a
  // changed expectation written while the window reloads fails (remembered results would pass).
  writeFileSync(c2File, changed);
  await wb.runCommand(page, 'Developer: Reload Window');
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await wb.activityItem(page).waitFor({ timeout: 60_000 });
  await wb.runCommand(page, 'Testing: Focus on Test Explorer View');
  await page
    .locator('.test-explorer', { hasText: `${total}/${total + 1}` })
    .first()
    .waitFor({ timeout: 90_000 });
  await rows
    .filter({ has: page.locator('.label', { hasText: /^c2_connection/ }) })
    .and(page.locator('[aria-label*="(Failed)"]'))
    .first()
    .waitFor({ timeout: 30_000 });
  log(`after a window reload: ${total}/${total + 1} cases passed without a click, c2_connection's changed case failed`);
  writeFileSync(c2File, c2);
}

async function waitFor(probe, what, timeout = 60_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
