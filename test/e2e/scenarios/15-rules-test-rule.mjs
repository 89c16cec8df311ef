// YARA-L rules in the real editor: a demo rule opens with its outline (document symbols), a
// placeholder completes, Test Rule from the CodeLens asks for the range and the searches and shows
// the detections, which must be those an independent computation (test/support/yaral-oracle.ts)
// finds over the events the sandbox returns for the same range; a rule with a misspelt field and an
// unknown variable in condition: shows its errors in Problems and is refused by Test Rule.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

export const name = 'rules: outline, placeholder completion, Test Rule detections, errors';

const RULE = 'repeated_failed_logins';

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  const { expectedDetections } = await tsImport('../../support/yaral-oracle.ts', import.meta.url);
  const rules = join(workspace, 'rules');
  const ruleText = readFileSync(join(rules, `${RULE}.yaral`), 'utf8');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();

  // 1. The rule opens as YARA-L, and its outline lists the rule, its sections and its variables.
  await wb.openFile(page, `${RULE}.yaral`);
  await editor.locator('.view-lines', { hasText: /USER_LOGIN/ }).waitFor();
  await page.keyboard.press('Control+Shift+O');
  const symbols = await wb.quickInput(page);
  for (const label of [RULE, 'events', 'condition'])
    await symbols.locator('.monaco-list-row', { hasText: label }).first().waitFor();
  await symbols.locator('.monaco-list-row', { hasText: '$e' }).first().waitFor();
  log(
    `outline: ${(await symbols.locator('.monaco-list-row').allInnerTexts()).map((t) => t.split('\n')[0]).join(' | ')}`,
  );
  await page.keyboard.press('Escape');

  // 2. A placeholder completes in outcome: (typed into the demo rule, which is then reverted).
  const riskLine = ruleText.split('\n').findIndex((l) => l.includes('$risk_score =')) + 1;
  if (riskLine < 1) throw new Error('the demo rule has no $risk_score line');
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(String(riskLine));
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('$who = array_distinct($us', { delay: 30 });
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  await suggest.locator('.monaco-list-row', { hasText: '$user' }).first().waitFor();
  await page.keyboard.press('Enter');
  await editor
    .locator('.view-line', { hasText: /array_distinct\(\$user(?!\w)/ })
    .first()
    .waitFor();
  log('placeholder $user completed in outcome:');
  await wb.runCommand(page, 'File: Revert File');
  await editor.locator('.view-line', { hasText: /\$who/ }).waitFor({ state: 'detached' });

  // 3. Test Rule from the CodeLens: the range, the consent, then the panel.
  await wb.openFile(page, `${RULE}.yaral`);
  const question = await wb.testRuleFromLens(page, 'Last 7 days');
  if (!/spends 1 udmSearch call \(one per event variable: \$e\)/.test(question))
    throw new Error(`the consent question says: ${question}`);
  const panel = await wb.findWebviewFrame(page, '#rt-summary', /detections? over .* spent/, {
    timeout: 90_000,
  });
  const summary = await panel.locator('#rt-summary').innerText();
  log(`Test Rule: ${summary}`);
  const range = /over (\S+) – (\S+):/.exec(summary);
  if (!range) throw new Error(`no range in "${summary}"`);
  const start = Date.parse(range[1]);
  const end = Date.parse(range[2]);

  // The oracle, over the events the sandbox returns for the same range.
  // Spaces as %20, not URLSearchParams' '+': Google (and the sandbox) refuse an unencoded '+'.
  const params = Object.entries({
    query: 'metadata.event_type = "USER_LOGIN"',
    'time_range.start_time': range[1],
    'time_range.end_time': range[2],
    limit: '10000',
  })
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  const answer = await wb.sandboxRest(sandbox, 'GET', `/v1/events:udmSearch?${params}`);
  if (answer.status !== 200) throw new Error(`udmSearch answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  const events = answer.json.events ?? [];
  const expected = expectedDetections(RULE, { events, lists: [] }, { start, end });
  if (expected.length === 0)
    throw new Error('the demo data gives this rule no detection: the check would prove nothing');

  const rows = panel.locator('tr.rt-row');
  if (expected.length > 0) await rows.first().waitFor();
  const shown = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    shown.push({
      windowStart: Number(await row.getAttribute('data-window-start')),
      windowEnd: Number(await row.getAttribute('data-window-end')),
      match: (await row.locator('.rt-match').innerText()).trim(),
      risk: (await row.locator('.rt-risk').innerText()).trim(),
      counts: (await row.locator('.rt-counts').innerText()).trim(),
    });
  }
  const want = expected.map((d) => ({
    windowStart: d.windowStart,
    windowEnd: d.windowEnd,
    match: `$user = ${d.match.$user}`,
    risk: String(d.outcomes.$risk_score),
    counts: `$e: ${d.events.$e.length}`,
  }));
  const key = (d) => `${d.windowStart} ${d.match}`;
  shown.sort((a, b) => key(a).localeCompare(key(b)));
  want.sort((a, b) => key(a).localeCompare(key(b)));
  if (JSON.stringify(shown) !== JSON.stringify(want))
    throw new Error(`the panel shows ${JSON.stringify(shown)}; the oracle expects ${JSON.stringify(want)}`);
  log(`${shown.length} detections, as the oracle computes over ${events.length} sign-ins`);
  await screenshot('test-rule-panel');

  // A detection expands into its events.
  await rows.first().click();
  await panel.locator('button.rt-event').first().waitFor();

  // 4. A mutated rule: a misspelt field and an unknown variable in condition: are errors in Problems,
  // and Test Rule refuses it, pointing there.
  const mutated = ruleText
    .replace('$e.metadata.event_type', '$e.metadata.evnt_type')
    .replace('#e >= 5', '#e >= 5 and $nobody');
  if (mutated === ruleText) throw new Error('the mutation changed nothing');
  // Saved over the demo rule on disk (the editor shows the file's new text), as a user's edit in
  // another tool would; the original comes back at the end.
  const rulePath = join(rules, `${RULE}.yaral`);
  // Back to the rule's own editor group: Quick Open would open a second tab beside the panel.
  await wb.runCommand(page, 'View: Focus First Editor Group');
  await wb.openFile(page, `${RULE}.yaral`);
  writeFileSync(rulePath, mutated);
  await editor.locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  const problems = page.locator('.markers-panel .monaco-list-row');
  await problems.filter({ hasText: 'evnt_type' }).first().waitFor();
  await problems.filter({ hasText: 'nobody' }).first().waitFor();
  log('the misspelt field and the unknown condition variable are in Problems');
  await wb.openFile(page, `${RULE}.yaral`);
  const mutatedLens = editor.locator('.codelens-decoration a', { hasText: 'Test Rule' }).first();
  await mutatedLens.waitFor();
  await mutatedLens.click();
  await wb.waitForNotification(page, new RegExp(`${RULE} has errors, so it cannot be tested`));
  writeFileSync(rulePath, ruleText);
  await editor.locator('.squiggly-error').first().waitFor({ state: 'detached' });
}
