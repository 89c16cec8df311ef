// Reference lists: see the lists in their view, create a regex list whose bad line is flagged and
// refused on save, fix and save it, run a query that uses the list, edit the list and see the same
// query return more events; Go to Definition from %name opens the list; `%` completes the lists of
// the kind the words before it ask for, in the editor and in the results panel's query bar.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'reference lists: create, validate, save, query';

const LIST = 'e2e_watch_hosts';

async function serverList(wb, sandbox) {
  return wb.sandboxRest(sandbox, 'GET', `/v2/lists/${LIST}`);
}

function rowsIn(summary) {
  const m = /^([\d,]+) rows?/.exec(summary.trim());
  if (!m) throw new Error(`the results summary gives no row count: "${summary}"`);
  return Number(m[1].replace(/,/g, ''));
}

/** Replaces the whole text of the active editor (insertText: no auto-closing of brackets). */
async function setEditorText(page, editor, lines) {
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  for (const [i, line] of lines.entries()) {
    if (i > 0) await page.keyboard.press('Enter');
    await page.keyboard.insertText(line);
  }
}

async function save(page) {
  await page.keyboard.press('Control+S');
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'queries', 'watched-hosts.udm'), `principal.hostname in regex %${LIST}\n`);

  // The view lists the demo lists with their type and size.
  await wb.openContainer(page);
  const pane = await wb.focusView(page, 'Reference Lists');
  const threat = await wb.revealRow(pane, wb.exactRow(pane, 'threat_ip_ranges'));
  await threat.filter({ hasText: /CIDR ranges · 3 entries/ }).waitFor();
  log('view: threat_ip_ranges shown as CIDR ranges with 3 entries');

  // Create a regex list: name, description, type, then an editor.
  await wb.runCommand(page, 'Cloudbench: Create Reference List…');
  await wb.answerInputBox(page, LIST, 'Create Reference List (1/3)');
  await wb.answerInputBox(page, 'Hosts watched by the e2e test', 'Create Reference List (2/3)');
  await wb.pickQuickItem(page, 'Regular expressions', 'Create Reference List (3/3)');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${LIST}"]`).waitFor();
  const editor = page.locator('.editor-instance .monaco-editor').first();

  // A bad regex line: flagged as you type, and the save is refused with nothing sent.
  await setEditorText(page, editor, ['// database servers', '^srv-db-.*', '*.srv-web']);
  await editor.locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  await page
    .locator('.markers-panel .monaco-list-row')
    .filter({ hasText: /Not a valid RE2 regular expression.*missing argument to repetition operator/ })
    .first()
    .waitFor();
  await screenshot('bad-regex');
  await save(page);
  // The save every route shares: Cloudbench's words in the editor's save-error notification (which
  // the editor closes once the list saves), no error class name; the edit stays in the dirty editor.
  const refusal = await wb.waitForNotification(page, /Not saved: 1 line is not valid/);
  if (/SaveRefusedError|Error:/.test(refusal)) throw new Error(`the refusal shows an error class: ${refusal}`);
  await page.locator(`.tabs-container .tab.dirty[data-resource-name="${LIST}"]`).waitFor();
  const refused = await serverList(wb, sandbox);
  if (refused.status !== 404) throw new Error(`the refused save created the list anyway (${refused.status})`);
  log('bad regex flagged; save refused; nothing created on the server');

  // Fixed: saving creates the list, comments kept.
  await editor.locator('.view-lines').click();
  await setEditorText(page, editor, ['// database servers', '^srv-db-.*']);
  await editor.locator('.squiggly-error').first().waitFor({ state: 'hidden' });
  await save(page);
  await page.locator(`.tabs-container .tab.active.dirty[data-resource-name="${LIST}"]`).waitFor({ state: 'hidden' });
  if ((await page.locator('.notification-toast', { hasText: 'Not saved' }).count()) > 0)
    throw new Error('the refusal is still on screen after the list saved');
  const created = await serverList(wb, sandbox);
  if (created.status !== 200 || JSON.stringify(created.json.lines) !== '["// database servers","^srv-db-.*"]')
    throw new Error(`after the save the server holds ${JSON.stringify(created.json)}`);
  await (
    await wb.revealRow(pane, wb.exactRow(pane, LIST))
  )
    .filter({ hasText: /Regular expressions · 1 entry/ })
    .waitFor();
  log('list created; the view shows it with 1 entry');

  // A query that uses the list.
  await wb.openFile(page, 'watched-hosts.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const first = wb.webviewFrame(page).locator('#run-summary', { hasText: /rows?/ });
  await first.waitFor({ timeout: 60_000 });
  const before = rowsIn(await first.innerText());
  if (before === 0) throw new Error('the query found no events for ^srv-db-.*');
  log(`query with the list: ${before} rows`);

  // Go to Definition from %name opens the list.
  const queryEditor = page.locator('.editor-instance .monaco-editor').first();
  await queryEditor.locator('.view-lines span', { hasText: LIST }).last().click();
  await page.keyboard.press('F12');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${LIST}"]`).waitFor();
  log('Go to Definition on %name opened the list');

  // Edit the list and run the same query again: more events.
  const listEditor = page.locator('.editor-instance .monaco-editor').first();
  await listEditor.locator('.view-lines', { hasText: 'srv-db' }).waitFor();
  await setEditorText(page, listEditor, ['// database and web servers', '^srv-db-.*', '^srv-web-.*']);
  await save(page);
  await page.locator(`.tabs-container .tab.active.dirty[data-resource-name="${LIST}"]`).waitFor({ state: 'hidden' });
  const edited = await serverList(wb, sandbox);
  if (!edited.json?.lines?.includes('^srv-web-.*'))
    throw new Error(`the edit did not reach the server: ${JSON.stringify(edited.json)}`);
  await wb.openFile(page, 'watched-hosts.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const again = await wb.findWebviewFrame(page, '#run-summary', new RegExp(`^(?!${before} rows)[\\d,]+ rows?`), {
    timeout: 60_000,
  });
  const after = rowsIn(await again.locator('#run-summary').innerText());
  if (after <= before)
    throw new Error(`after adding ^srv-web-.* the query found ${after} rows, not more than ${before}`);
  await screenshot('query-after-edit');
  log(`after the edit: ${after} rows (was ${before})`);

  // `%` completes the known lists, the one created here included; an unknown name is flagged.
  await wb.openFile(page, 'watched-hosts.udm');
  const query = page.locator('.editor-instance .monaco-editor').first();
  await query.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  // After `in regex` only regex lists: the new one, not the string list critical_servers.
  await page.keyboard.type('target.hostname in regex %');
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  await suggest.locator('.monaco-list-row', { hasText: LIST }).first().waitFor();
  await suggest.locator('.monaco-list-row', { hasText: 'bad_process_paths' }).first().waitFor();
  const strings = await suggest.locator('.monaco-list-row', { hasText: 'critical_servers' }).count();
  if (strings) throw new Error('`in regex %` offered the string list critical_servers');
  await page.keyboard.press('Escape');
  await page.keyboard.type('no_such_list');
  await query.locator('.squiggly-warning, .squiggly-error').first().waitFor();
  log('`in regex %` completes the regex lists (the new one included); an unknown list name is flagged');

  // The results panel's query bar completes and checks %lists in the page, from the lists the
  // extension sends it when the bar loads and on every change: the list created here, with the size
  // it has after the edit, and an unknown name is flagged. Last: it leaves the focus in the panel.
  await again.locator('#query-host[data-editor="monaco"]').waitFor({ timeout: 60_000 });
  await again.locator('#query-host .view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('target.hostname in regex %');
  const barSuggest = again.locator('.suggest-widget');
  await barSuggest
    .locator('.monaco-list-row', { hasText: LIST })
    .filter({ hasText: /2 entries/ })
    .first()
    .waitFor();
  if (await barSuggest.locator('.monaco-list-row', { hasText: 'critical_servers' }).count())
    throw new Error('the query bar offered the string list critical_servers after `in regex %`');
  await page.keyboard.press('Escape');
  await page.keyboard.type('no_such_list');
  await again.locator('#query-host .squiggly-error').first().waitFor();
  await screenshot('query-bar-lists');
  log('query bar: % completes the lists with their current size; an unknown list name is an error');
}
