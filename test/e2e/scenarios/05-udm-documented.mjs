// UDM language against Google's documentation, in the real editor: one documented search example per
// function family opens without an error (the same document first carries a Rules-only example, so
// the check is seen to be live), a statistics query with a rule window gets a diagnostic that says
// what to write instead and none once corrected, and Enter after a value starts a new line (in a .udm
// file and in the results panel's query bar).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'udm: documented examples, statistics diagnostics and Enter';

// One documented example per function family, as the functions and syntax reference pages give them.
const EXAMPLES = [
  ['arrays', 'arrays.concat(["test1", "test2"], ["test3"]) = ["test1", "test2", "test3"]'],
  // The functions page's sample lacks the closing quote of the bytes literal; it is added here.
  [
    'bytes',
    `bytes.to_base64(b'000000006f8ec5586d026f9ddac56e9f2fe15b8a0000000001000000cd000000') = "AAAAAG+OxVhtAm+d2sVuny/hW4oAAAAAAQAAAM0AAAA="`,
  ],
  ['cast', 'cast.as_bool("TRUE") = true'],
  ['group', '$ip = group(principal.ip, about.ip, target.ip)'],
  ['math', '300 < math.abs(metadata.event_timestamp.seconds - 1643687343)'],
  ['net', 'net.ip_in_range_cidr($e.principal.ip, "192.0.2.0/24")'],
  ['re', 're.regex($e.principal.hostname, "google")'],
  ['strings', '"test@google.com" = strings.to_lower($e.network.email.to)'],
  ['timestamp', 'timestamp.as_unix_seconds("2024-02-22 10:43:00", "America/New_York") = 1708616580'],
  ['window', 'window.range([1, 2, 3, 4], false) = [1.000000, 4.000000]'],
];
// hash.* is Rules-only: written in a search it is an error that says so.
const RULES_ONLY = 'hash.sha256("") = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"';
const RULES_ONLY_MESSAGE = /hash\.sha256 is available in detection rules, not in search/;

const STATS = [
  'metadata.event_type = "USER_LOGIN"',
  'match:',
  '  principal.hostname over 5m',
  'outcome:',
  '  $logins = count(metadata.id)',
  'order:',
  '  $logins desc',
  '',
].join('\n');
const STATS_LINE = 2; // 0-based line of the rule window
const STATS_MESSAGE = /'over 5m' is a detection rule's sliding window, not valid in search; use 'by 5m'/;

const VALUE_LINE = 'principal.hostname = "lt-ana-01"';

export async function run({ page, wb, workspace, log }) {
  const queries = join(workspace, 'queries');
  const documented = [...EXAMPLES.map(([family, example]) => `// ${family}\n${example}`), RULES_ONLY, ''].join('\n');
  writeFileSync(join(queries, 'documented-examples.udm'), documented);
  writeFileSync(join(queries, 'statistics-window.udm'), STATS);
  writeFileSync(join(queries, 'enter-after-value.udm'), '');

  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const errorSquiggles = editor.locator('.squiggly-error');
  const problems = page.locator('.markers-panel .monaco-list-row');

  // 1. Documented examples. The server publishes a document's diagnostics as one set: once the
  //    Rules-only line's error is shown, exactly one error squiggle means every example is clean.
  await wb.openFile(page, 'documented-examples.udm');
  await page.locator('.statusbar-item', { hasText: /^UDM/i }).first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  await problems.filter({ hasText: RULES_ONLY_MESSAGE }).first().waitFor();
  await errorSquiggles.first().waitFor();
  const first = await errorSquiggles.count();
  if (first !== 1) {
    const rows = await problems.allInnerTexts();
    throw new Error(`expected only the Rules-only error, got ${first} error squiggles; Problems: ${rows.join(' | ')}`);
  }
  log(`Rules-only hash.sha256 flagged; ${EXAMPLES.length} documented examples without an error`);

  // Remove the Rules-only line: the server's next set for the document has no error at all.
  await gotoLine(page, editor, EXAMPLES.length * 2);
  await page.keyboard.press('Shift+End');
  await page.keyboard.press('Delete');
  await problems.filter({ hasText: RULES_ONLY_MESSAGE }).first().waitFor({ state: 'detached' });
  await problems.filter({ hasText: 'documented-examples.udm' }).first().waitFor({ state: 'detached' });
  await expectNoErrors(errorSquiggles, problems, 'documented-examples.udm');
  log(`after removing it: no error in ${EXAMPLES.map(([f]) => f).join(', ')}`);

  // 2. A statistics query with a rule window gets a diagnostic saying what to write; corrected, none.
  await wb.openFile(page, 'statistics-window.udm');
  const windowProblem = problems.filter({ hasText: STATS_MESSAGE }).first();
  await windowProblem.waitFor();
  await errorSquiggles.first().waitFor();
  log(`statistics: ${(await windowProblem.innerText()).split('\n')[0]}`);
  await gotoLine(page, editor, STATS_LINE);
  await page.keyboard.press('End');
  for (let i = 0; i < 'over 5m'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
  // Pasted, so the correction is one edit: no half-typed word gets a diagnostic of its own.
  await paste(page, 'by 5m');
  await windowProblem.waitFor({ state: 'detached' });
  await problems.filter({ hasText: 'statistics-window.udm' }).first().waitFor({ state: 'detached' });
  await expectNoErrors(errorSquiggles, problems, 'statistics-window.udm');
  log('statistics: "by 5m" has no error');

  // 3. Enter right after a value's closing quote starts a new line; nothing is inserted after the value.
  await wb.openFile(page, 'enter-after-value.udm');
  await editor.locator('.view-lines').click();
  // At a person's pace: a completion list that the closing quote opens would be there for Enter.
  await typeValueThenEnter(page, page.locator('.editor-widget.suggest-widget'));
  await page.keyboard.type('metadata.event_type = "USER_LOGIN"');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+S');
  const file = join(queries, 'enter-after-value.udm');
  const saved = await waitFor(() => {
    const text = readFileSync(file, 'utf8');
    return text.length > 0 ? text : undefined;
  }, 'the saved enter-after-value.udm');
  const lines = saved.split('\n');
  if (lines[0] !== VALUE_LINE || lines[1] !== 'metadata.event_type = "USER_LOGIN"' || lines.length !== 2)
    throw new Error(`after Enter the document is ${JSON.stringify(saved)}`);
  log('Enter after "lt-ana-01" started a new line');

  // 4. The same in the results panel's query bar (Monaco, where a closing quote asks for completions).
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const results = await wb.findWebviewFrame(page, '#run-title', /./, { timeout: 60_000 });
  await results.locator('#query-host[data-editor="monaco"]').waitFor();
  const bar = results.locator('#query-input');
  await waitForAsync(async () => ((await bar.inputValue()) === saved ? true : undefined), 'the query in the bar');
  await results.locator('#query-host .view-lines').click();
  await page.keyboard.press('Control+A');
  await typeValueThenEnter(page, results.locator('.suggest-widget'));
  await page.keyboard.type('metadata.event_type = "USER_LOGIN"');
  await page.keyboard.press('Escape');
  const expected = `${VALUE_LINE}\nmetadata.event_type = "USER_LOGIN"`;
  const barText = await waitForAsync(async () => {
    const value = await bar.inputValue();
    return value.endsWith('"USER_LOGIN"') ? value : undefined;
  }, 'the second line in the query bar').catch(async () => bar.inputValue());
  if (barText !== expected) throw new Error(`after Enter the query bar holds ${JSON.stringify(barText)}`);
  log('query bar: Enter after "lt-ana-01" started a new line');
}

/**
 * Types the value line as a person does and presses Enter after the pause a person makes: a
 * completion list opened by the closing quote (the list shows within a few milliseconds when the
 * server offers one) has shown by then.
 */
async function typeValueThenEnter(page, suggestWidget) {
  await page.keyboard.type(VALUE_LINE, { delay: 40 });
  await suggestWidget.waitFor({ state: 'visible', timeout: 400 }).catch(() => {});
  await page.keyboard.press('Enter');
}

async function paste(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
}

/** Puts the cursor at the start of a 0-based line of the focused editor. */
async function gotoLine(page, editor, line) {
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
}

async function expectNoErrors(errorSquiggles, problems, fileName) {
  const squiggles = await errorSquiggles.count();
  const rows = await problems.filter({ hasText: fileName }).count();
  if (squiggles !== 0 || rows !== 0) {
    const all = await problems.allInnerTexts();
    throw new Error(`${fileName}: ${squiggles} error squiggles; Problems: ${all.join(' | ')}`);
  }
}

async function waitForAsync(probe, what, timeout = 10_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function waitFor(probe, what, timeout = 10_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
