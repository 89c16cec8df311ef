// Reference lists in a YARA-L rule opened first in a fresh window (no query, no Reference Lists
// view before it): `%` completes the sandbox's lists, after `in cidr` only the CIDR ones, with their
// type and description; an unknown `%nope` is an error in Problems and a squiggle; hover on a
// `%list` shows its type, size and description; F12 on it opens the list.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'rules-lists: % completion, unknown list, hover and F12 in a rule opened first';

const RULE = 'suspicious_domain_lookups';

/** The sandbox's demo lists (src/emulator/events-data/demo-catalog.ts) by content type. */
const CIDR_LISTS = ['corp_networks', 'server_networks', 'threat_ip_ranges'];
const STRING_LISTS = ['suspicious_domains', 'admin_users', 'critical_servers'];

/** Puts the cursor at the end of the first line holding `text` (Go to Line, then End). */
async function cursorAfterLine(page, wb, editor, lines, text) {
  const line = lines.findIndex((l) => l.includes(text)) + 1;
  if (line < 1) throw new Error(`the demo rule has no line with ${text}`);
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+G');
  await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.keyboard.press('End');
  await editor.locator('.view-lines').waitFor();
}

export async function run({ page, wb, workspace, log, screenshot }) {
  const lines = readFileSync(join(workspace, 'rules', `${RULE}.yaral`), 'utf8').split('\n');
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();

  // 1. The rule is the first document of the window.
  await wb.openFile(page, `${RULE}.yaral`);
  await editor.locator('.view-lines', { hasText: /NETWORK_DNS/ }).waitFor();

  // 2. `%` after `in cidr` offers the CIDR lists, each with its type and description, and no other.
  await cursorAfterLine(page, wb, editor, lines, 'in %suspicious_domains');
  await page.keyboard.press('Enter');
  await page.keyboard.type('$e.principal.ip in cidr %', { delay: 30 });
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  for (const list of CIDR_LISTS) await suggest.locator('.monaco-list-row', { hasText: list }).first().waitFor();
  await suggest
    .locator('.monaco-list-row', { hasText: 'threat_ip_ranges' })
    .filter({ hasText: /CIDR list: Address ranges of known command-and-control/ })
    .first()
    .waitFor();
  const rows = await suggest.locator('.monaco-list-row').allInnerTexts();
  const wrong = rows.filter((r) => STRING_LISTS.some((s) => r.includes(s)) || r.includes('bad_process_paths'));
  if (wrong.length) throw new Error(`\`in cidr %\` offered lists of another type: ${wrong.join(' | ')}`);
  await screenshot('cidr-completion');
  log(`in cidr %: ${rows.map((r) => r.split('\n')[0]).join(', ')}`);
  await page.keyboard.press('Escape');

  // 3. An unknown list: an error (the lists are known), in Problems and as a squiggle.
  await page.keyboard.type('nope');
  await editor.locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  const problem = page
    .locator('.markers-panel .monaco-list-row')
    .filter({ hasText: /Unknown reference list %nope/ })
    .first();
  await problem.waitFor();
  if (!(await problem.locator('.codicon-error').count()))
    throw new Error(`%nope is not an error: ${await problem.innerText()}`);
  await screenshot('unknown-list');
  log('%nope: "Unknown reference list" error in Problems and a squiggle');

  // 4. Hover on the rule's own %suspicious_domains: its type, size and description.
  await wb.focusActiveEditor(page);
  const listWord = editor
    .locator('.view-line', { hasText: /in\s%suspicious_domains/ })
    .locator('span', { hasText: 'suspicious_domains' });
  await listWord.last().click();
  await wb.runCommand(page, 'Show or Focus Hover');
  const hover = page.locator('.monaco-hover-content', { hasText: /%suspicious_domains/ }).first();
  await hover.filter({ hasText: /string reference list, \d+ entries/ }).waitFor();
  await hover.filter({ hasText: /Domains the security team watches/ }).waitFor();
  log(`hover: ${(await hover.innerText()).split('\n').slice(0, 2).join(' / ')}`);
  await page.keyboard.press('Escape');

  // 5. F12 on %suspicious_domains opens the list.
  await listWord.last().click();
  await page.keyboard.press('F12');
  await page.locator('.tabs-container .tab.active[data-resource-name="suspicious_domains"]').waitFor();
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().waitFor();
  await screenshot('list-opened');
  log('F12 on %suspicious_domains opened the list');
}
