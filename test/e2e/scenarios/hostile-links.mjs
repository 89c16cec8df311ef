// A key whose display name is Markdown link syntax pointing at a command (someone with access to
// the project can name a key so): deleting it puts the name in a modal question and in a
// notification, which VS Code would render with a link that runs the command. The name must read
// as its own characters there, with no link element anywhere in the dialog or the notification.
// The functions handed to locator.evaluate run in the workbench page.
export const name = 'hostile-links: a key named with command-link syntax shows as plain text in notifications';

const NAME = '[Show key](command:workbench.action.terminal.new)';
const KEY_ID = 'hostile-link';
const KEY_PATH = `/v2/projects/cloudbench-demo/locations/global/keys/${KEY_ID}`;

/** What a reader sees: the text without the zero-width breaks that keep VS Code from linking it. */
const readable = (text) => text.replaceAll('\u200b', '').replace(/\s+/g, ' ').trim();

async function linksIn(locator) {
  return locator.evaluate((el) => [...el.querySelectorAll('a, [role="link"], .monaco-link')].map((a) => a.outerHTML));
}

export async function run({ page, wb, sandbox, log, screenshot }) {
  if (NAME.length > 63) throw new Error('the name must fit the 63-character display name limit');
  const created = await wb.sandboxRest(
    sandbox,
    'POST',
    `/v2/projects/cloudbench-demo/locations/global/keys?keyId=${KEY_ID}`,
    {
      displayName: NAME,
    },
  );
  if (created.status !== 200) throw new Error(`creating the key answered ${created.status}`);
  const stored = await wb.sandboxRest(sandbox, 'GET', KEY_PATH);
  if (stored.json?.displayName !== NAME)
    throw new Error(`the key is named ${JSON.stringify(stored.json?.displayName)}`);

  await wb.openContainer(page);
  const keys = await wb.focusView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor();
  const row = keys.locator('.monaco-list-row').filter({ hasText: 'command:workbench.action.terminal.new' }).first();
  await wb.revealRow(keys, row);
  log('the key is in the tree');

  await wb.contextMenu(page, row, 'Delete Key', keys);
  const dialog = await wb.modalDialog(page);
  await dialog.filter({ hasText: 'Delete API key' }).waitFor();
  const question = readable(await dialog.locator('.dialog-message-text').innerText());
  if (question !== `Delete API key "${NAME}" (${KEY_ID})?`)
    throw new Error(`the question reads ${JSON.stringify(question)}`);
  const dialogLinks = await linksIn(dialog.locator('.dialog-message-container, .dialog-message').first());
  if (dialogLinks.length) throw new Error(`the question has links: ${dialogLinks.join(' ')}`);
  log('the modal question names the key as plain text');
  await dialog.locator('.monaco-button', { hasText: /^Delete$/ }).click();

  const toast = page
    .locator('.notification-toast')
    .filter({ has: page.locator('.notification-list-item-message', { hasText: /Deleted key/ }) })
    .first();
  const message = toast.locator('.notification-list-item-message');
  await message.waitFor({ timeout: 30_000 });
  const text = readable(await message.innerText());
  const expected = `Deleted key "${NAME}" (${KEY_ID}). It can be undeleted from "Deleted keys" for 30 days.`;
  if (text !== expected)
    throw new Error(`the notification reads ${JSON.stringify(text)}, not ${JSON.stringify(expected)}`);
  // VS Code puts the links it finds in a message inside the message element (the toolbar has its own).
  const links = await linksIn(message);
  if (links.length) throw new Error(`the notification has link elements: ${links.join(' ')}`);
  await screenshot('plain-name-in-notification');

  const deleted = await wb.sandboxRest(sandbox, 'GET', KEY_PATH);
  if (!deleted.json?.deleteTime) throw new Error('the key was not deleted');
  // Nothing ran: no terminal was opened by a click-through.
  const terminals = await page.locator('.terminal-tabs-entry, .xterm').count();
  if (terminals) throw new Error('a terminal is open');
  log('the notification names the key as plain text, with no link element');
}
