// API keys: create a key from the palette, edit its referrers in the restriction editor with one
// invalid entry (error shown, nothing sent), fix and save, see the tree update; delete and undelete.
export const name = 'keys: create, edit restrictions, delete, undelete';

const KEY_PATH = '/v2/projects/cloudbench-demo/locations/global/keys/e2e-key';

async function serverReferrers(wb, sandbox) {
  const { status, json } = await wb.sandboxRest(sandbox, 'GET', KEY_PATH);
  if (status !== 200) throw new Error(`GET ${KEY_PATH} answered ${status}`);
  return json.restrictions?.browserKeyRestrictions?.allowedReferrers ?? [];
}

function sameList(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export async function run({ page, wb, sandbox, log, screenshot }) {
  await wb.openContainer(page);
  const keys = await wb.focusView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor();

  // Create, step by step through the palette command's prompts.
  const created = await wb.createReferrerKey(page, 'E2E key', 'e2e-key', 'example.com/*');
  await (await wb.revealRow(keys, wb.treeRow(keys, 'E2E key'))).filter({ hasText: '1 referrer' }).waitFor();
  sameList(await serverReferrers(wb, sandbox), ['example.com/*'], 'referrers after create');
  log('created e2e-key');

  // Edit restrictions in the webview form.
  await wb.clickNotificationButton(page, created, 'Edit Restrictions');
  const form = wb.webviewFrame(page);
  const referrers = form.locator('#referrers');
  await referrers.waitFor();
  const current = await referrers.inputValue();
  if (current.trim() !== 'example.com/*') throw new Error(`the form starts from "${current}", not the key's referrers`);
  await referrers.fill('example.com/*\nwww.exa*mple.com/');
  await form.locator('#referrers-errors', { hasText: 'Website referrers, line 2:' }).waitFor();
  await form.locator('#problems', { hasText: 'Website referrers, line 2:' }).waitFor();
  if (!(await form.locator('#save').isDisabled())) throw new Error('Save is enabled while an entry is invalid');
  await referrers.press('Control+s');
  await form.locator('#status', { hasText: 'nothing was sent' }).waitFor();
  sameList(await serverReferrers(wb, sandbox), ['example.com/*'], 'referrers after the refused save');
  await screenshot('invalid-referrer');
  log('invalid referrer refused without a request');

  await referrers.fill('example.com/*\n*.example.org/*');
  await form.locator('#referrers-errors').waitFor({ state: 'hidden' });
  await form.locator('#save:not([disabled])').click();
  await form.locator('#status', { hasText: 'Saved.' }).waitFor();
  sameList(await serverReferrers(wb, sandbox), ['example.com/*', '*.example.org/*'], 'referrers after save');
  await (await wb.revealRow(keys, wb.treeRow(keys, 'E2E key'))).filter({ hasText: '2 referrers' }).waitFor();
  log('restrictions saved; tree shows 2 referrers');

  // Delete (with a modal confirmation naming the key) and undelete.
  await wb.contextMenu(page, await wb.revealRow(keys, wb.exactRow(keys, 'E2E key')), 'Delete Key', keys);
  const dialog = await wb.modalDialog(page);
  await dialog.filter({ hasText: 'Delete API key "E2E key" (e2e-key)?' }).waitFor();
  await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();
  await wb.waitForNotification(page, /Deleted key "E2E key" \(e2e-key\)/);
  const deletedTime = (await wb.sandboxRest(sandbox, 'GET', KEY_PATH)).json?.deleteTime;
  if (!deletedTime) throw new Error('the key has no deleteTime after Delete');
  await wb.expandRow(keys, 'Deleted keys');
  const deletedRow = keys.locator('.monaco-list-row').filter({ hasText: 'E2E key' }).filter({ hasText: 'to undelete' });
  await wb.revealRow(keys, deletedRow);
  log('deleted; listed under Deleted keys');

  await wb.contextMenu(page, deletedRow.first(), 'Undelete Key', keys);
  await wb.waitForNotification(page, /Undeleted key "E2E key" \(e2e-key\)/);
  const restored = await wb.sandboxRest(sandbox, 'GET', KEY_PATH);
  if (restored.json?.deleteTime) throw new Error('the key is still deleted after Undelete');
  await (await wb.revealRow(keys, wb.treeRow(keys, 'E2E key'))).filter({ hasText: '2 referrers' }).waitFor();
  log('undeleted');
}
