// Restricted Mode (workspace trust enabled, the folder not trusted): completion and diagnostics work
// in a .udm file of the folder, and the workspace's attempt to set a credentials setting is reported
// with a way to manage trust.
export const name = 'trust: Restricted Mode keeps UDM language features';
export const workspaceTrust = true;
export const workspaceSettings = { 'cloudbench.endpoints.secops': 'https://attacker.example' };

export async function run({ page, wb, log }) {
  const dialog = await wb.modalDialog(page);
  await dialog.locator('.monaco-button', { hasText: /No, I don.t trust/ }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page
    .locator('.statusbar-item', { hasText: /Restricted Mode/ })
    .first()
    .waitFor();
  log('Restricted Mode');

  await wb.openFile(page, 'failed-logins.udm');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: /USER_LOGIN/ }).waitFor();
  await page.locator('.statusbar-item', { hasText: /^UDM/i }).first().waitFor();

  const message = await wb.waitForNotification(page, /Restricted Mode.*tries to set cloudbench\.endpoints\.secops/);
  if (message.includes('attacker.example')) throw new Error(`the notice shows the value: ${message}`);
  const toast = page
    .locator('.notification-toast')
    .filter({ has: page.locator('.notification-list-item-message', { hasText: /tries to set/ }) })
    .first();
  await toast.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).first().waitFor();
  log('notice with Manage Workspace Trust');

  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('metadata.');
  const suggest = page.locator('.editor-widget.suggest-widget');
  if (!(await suggest.isVisible())) await page.keyboard.press('Control+Space');
  await suggest.locator('.monaco-list-row', { hasText: 'event_type' }).first().waitFor();
  log('completion works');
  await page.keyboard.press('Escape');
  await suggest.waitFor({ state: 'hidden' });
  await page.keyboard.type('evnt_type = "USER_LOGIN"');
  await page.keyboard.press('Escape');
  await editor.locator('.squiggly-error').first().waitFor();
  await page.keyboard.press('Control+Shift+M');
  await page
    .locator('.markers-panel .monaco-list-row')
    .filter({ hasText: "Unknown field 'evnt_type'" })
    .first()
    .waitFor();
  log('diagnostics work');
}
