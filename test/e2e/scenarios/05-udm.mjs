// UDM language: open a .udm file, type `metadata.`, see field completions, and see a diagnostic on
// a misspelt field in the editor and the Problems view.
export const name = 'udm: completion and diagnostics';

export async function run({ page, wb, log }) {
  await wb.openFile(page, 'failed-logins.udm');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: /USER_LOGIN/ }).waitFor();
  // The language mode is UDM (status bar), so the language server is attached to this document.
  await page.locator('.statusbar-item', { hasText: /^UDM/i }).first().waitFor();

  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('metadata.');
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  await suggest.locator('.monaco-list-row', { hasText: 'event_type' }).first().waitFor();
  await suggest.locator('.monaco-list-row', { hasText: 'collected_timestamp' }).first().waitFor();
  log('field completions after "metadata."');
  await page.keyboard.press('Escape');
  await suggest.waitFor({ state: 'hidden' });

  await page.keyboard.type('evnt_type = "USER_LOGIN"');
  await page.keyboard.press('Escape');
  await editor.locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  const problems = page.locator('.markers-panel .monaco-list-row');
  await problems.filter({ hasText: "Unknown field 'evnt_type'" }).first().waitFor();
  log('diagnostic for the misspelt field');
}
