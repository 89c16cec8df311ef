// UDM written by hand in the real editor: a space typed after `=` while the value list is open is
// kept and Enter takes the most documented value; `10 / 2` is not auto-closed into `10 / 2/`;
// Format Document formats a query with a `by 1h` window.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'udm: typing values, division and formatting a window';

const WINDOW_QUERY = 'principal.hostname != ""\nmatch:\nprincipal.hostname   by 1h\n';
// indented with the [udm] default tab size of 2 spaces: what `cloudbench format` writes too
const WINDOW_FORMATTED = 'principal.hostname != ""\nmatch:\n  principal.hostname by 1h\n';

export async function run({ page, wb, workspace, log }) {
  const queries = join(workspace, 'queries');
  const typed = join(queries, 'typed.udm');
  const windowFile = join(queries, 'window.udm');
  writeFileSync(typed, '');
  writeFileSync(windowFile, WINDOW_QUERY);
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  const suggest = page.locator('.editor-widget.suggest-widget');

  // 1. `metadata.event_type =` opens the value list; a space, then Enter.
  await wb.openFile(page, 'typed.udm');
  await page.locator('.statusbar-item', { hasText: /^UDM/i }).first().waitFor();
  await editor.locator('.view-lines').click();
  // The language server of a fresh window may still be starting: a trigger character typed before
  // its providers are registered opens nothing. Ctrl+Space in the empty file tells us it answers.
  await waitForCompletion(page, suggest, 'metadata');
  await page.keyboard.press('Escape');
  await suggest.waitFor({ state: 'hidden' });
  await page.keyboard.type('metadata.event_type =', { delay: 30 });
  await suggest.locator('.monaco-list-row', { hasText: 'USER_LOGIN' }).first().waitFor();
  const firstRow = (await suggest.locator('.monaco-list-row.focused').first().innerText()).split('\n')[0];
  await page.keyboard.type(' ');
  await suggest.locator('.monaco-list-row', { hasText: 'USER_LOGIN' }).first().waitFor();
  await page.keyboard.press('Enter');
  const line1 = await savedLine(page, typed, 0);
  if (line1 !== 'metadata.event_type = "USER_LOGIN"')
    throw new Error(`after "=", space and Enter the line is ${JSON.stringify(line1)} (focused row: ${firstRow})`);
  log(`"=", space, Enter: ${line1}`);

  // 2. `$ratio = 10 / 2` stays as typed.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('$ratio = 10 / 2', { delay: 30 });
  await page.keyboard.press('Escape');
  const line2 = await savedLine(page, typed, 1);
  if (line2 !== '$ratio = 10 / 2') throw new Error(`typing "$ratio = 10 / 2" gave ${JSON.stringify(line2)}`);
  log(`division typed: ${line2}`);

  // 3. Format Document on a query with a `by 1h` window.
  await wb.openFile(page, 'window.udm');
  // (the editor renders spaces as no-break spaces)
  await editor.locator('.view-lines', { hasText: /1h/ }).waitFor();
  await editor.locator('.view-lines').click();
  await wb.runCommand(page, 'Format Document');
  await page.keyboard.press('Control+S');
  const formatted = await waitFor(() => {
    const text = readFileSync(windowFile, 'utf8');
    return text === WINDOW_FORMATTED ? text : undefined;
  }, 'the formatted window.udm').catch(() => readFileSync(windowFile, 'utf8'));
  if (formatted !== WINDOW_FORMATTED) throw new Error(`after Format Document the file is ${JSON.stringify(formatted)}`);
  log('Format Document indented the match: body of a "by 1h" query');
}

/** Asks for completion until the list shows `label` (the server answers once it has started). */
async function waitForCompletion(page, suggest, label) {
  const end = Date.now() + 60_000;
  for (;;) {
    await page.keyboard.press('Control+Space');
    const shown = await suggest
      .locator('.monaco-list-row', { hasText: label })
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    if (shown) return;
    if (Date.now() > end) throw new Error(`Ctrl+Space never listed ${label}: the UDM language server did not answer`);
    await page.keyboard.press('Escape');
  }
}

/** Saves the active editor and returns the 0-based line of the file once the save has landed. */
async function savedLine(page, file, line) {
  await page.keyboard.press('Control+S');
  return waitFor(
    () => {
      const lines = readFileSync(file, 'utf8').split('\n');
      return lines.length > line && lines[line] !== '' ? lines[line] : undefined;
    },
    `line ${line + 1} of ${file}`,
  );
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
