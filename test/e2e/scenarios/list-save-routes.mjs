// Reference lists: every way of saving (Save All, the editor's Retry, File > Save, Ctrl+S) goes
// through the same check, so a line someone else added on the server is never lost: each route
// shows both versions and asks, a refused save stays dirty, the merged edit saves without a
// question, no blank line reaches the server, and no refusal is left on screen once saved.
export const name = 'reference lists: list-save-routes never overwrite a server change';

const LIST = 'threat_ip_ranges';
const THEIRS = '10.99.0.0/16';
const MINE = '10.31.0.0/16';

async function serverLines(wb, sandbox) {
  const res = await wb.sandboxRest(sandbox, 'GET', `/v2/lists/${LIST}`);
  if (res.status !== 200) throw new Error(`GET ${LIST} answered ${res.status}`);
  return res.json.lines;
}

async function expectTheirsKept(wb, sandbox, route) {
  const lines = await serverLines(wb, sandbox);
  if (!lines.includes(THEIRS)) throw new Error(`${route} overwrote the server's ${THEIRS}: ${JSON.stringify(lines)}`);
  if (lines.includes(MINE)) throw new Error(`${route} saved ${MINE} without asking: ${JSON.stringify(lines)}`);
}

/** The conflict question: it must come (the route did not save silently); answers with `button`. */
async function answerConflict(page, wb, sandbox, route, button) {
  const dialog = page.locator('.monaco-dialog-box');
  const asked = await dialog.waitFor({ state: 'visible', timeout: 30_000 }).then(
    () => true,
    () => false,
  );
  if (!asked) {
    await expectTheirsKept(wb, sandbox, route);
    throw new Error(`${route} neither asked about the server's change nor saved`);
  }
  // What the question says is checked at the end: first, whether any route loses the server's line.
  const text = await dialog.innerText();
  if (!/changed on the server since you opened it/.test(text) || !text.includes(`added there: ${THEIRS}`))
    wording.push(`${route}: the question does not say what changed on the server: ${text}`);
  if (/on the left|on the right/.test(text))
    wording.push(`${route}: the question depends on a side-by-side diff: ${text}`);
  // The comparison is on screen, titled by what is where.
  const titled = page.locator('.tabs-container .tab', { hasText: 'Server (changed by someone else) ↔ Yours' });
  if ((await titled.count()) === 0)
    wording.push(`${route}: no comparison titled "Server (changed by someone else) ↔ Yours"`);
  await dialog.locator('.monaco-button', { hasText: button }).first().click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Wording problems found on the way, reported once the server's line was checked on every route. */
const wording = [];

async function expectRefusalToast(page, wb, pattern) {
  const text = await wb.waitForNotification(page, pattern);
  if (/SaveRefusedError|Error:/.test(text)) wording.push(`the refusal shows an error class: ${text}`);
  return text;
}

async function openList(page, wb) {
  await wb.runCommand(page, 'Cloudbench: Open Reference List…');
  await wb.pickQuickItem(page, LIST, 'Open Reference List');
  await page.locator(`.tabs-container .tab.active[data-resource-name="${LIST}"]`).waitFor();
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: '/' }).first().waitFor();
  return editor;
}

export async function run({ page, wb, sandbox, log, screenshot }) {
  wording.length = 0;
  await wb.openContainer(page);
  const original = await serverLines(wb, sandbox);
  const editor = await openList(page, wb);

  // My edit: a range typed on the document's last line. Meanwhile a colleague adds theirs.
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText(MINE);
  await page.locator(`.tabs-container .tab.dirty[data-resource-name="${LIST}"]`).first().waitFor();
  const patched = await wb.sandboxRest(sandbox, 'PATCH', '/v2/lists?update_mask=list.lines', {
    name: LIST,
    lines: [...original, THEIRS],
  });
  if (patched.status !== 200) throw new Error(`the colleague's change failed: ${patched.status}`);
  log(`server gained ${THEIRS}; the editor holds ${MINE}`);

  // File > Save All: both versions, the question; Merge First refuses the save.
  await wb.runCommand(page, 'File: Save All Files');
  await answerConflict(page, wb, sandbox, 'Save All', 'Merge First');
  const refused = /Failed to save 'threat_ip_ranges'/;
  await expectRefusalToast(page, wb, refused);
  await expectTheirsKept(wb, sandbox, 'Save All');
  await screenshot('save-all-refused');
  log('Save All: compared, asked, Merge First refused the save');

  // The editor's Retry is the same save: asked again, never saved at once.
  await wb.clickNotificationButton(page, refused, 'Retry');
  await answerConflict(page, wb, sandbox, 'Retry', 'Cancel');
  await expectRefusalToast(page, wb, /Your edit is still in the editor/);
  await expectTheirsKept(wb, sandbox, 'Retry');
  log('Retry: asked again; cancelled; the server keeps its line');

  // File > Save: the same again.
  await openList(page, wb);
  await wb.runCommand(page, 'File: Save');
  await answerConflict(page, wb, sandbox, 'File > Save', 'Merge First');
  await expectTheirsKept(wb, sandbox, 'File > Save');
  await page.locator(`.tabs-container .tab.dirty[data-resource-name="${LIST}"]`).first().waitFor();
  log('File > Save: asked again; the document stays dirty');

  // Merged by hand, then Ctrl+S: saved without another question, both lines kept, no blank line.
  const merged = await openList(page, wb);
  await merged.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.insertText(THEIRS);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Control+S');
  await page.locator(`.tabs-container .tab.dirty[data-resource-name="${LIST}"]`).first().waitFor({ state: 'hidden' });
  const saved = await serverLines(wb, sandbox);
  if (!saved.includes(THEIRS) || !saved.includes(MINE))
    throw new Error(`the merged save lost a line: ${JSON.stringify(saved)}`);
  if (saved.some((l) => l.trim() === '')) throw new Error(`a blank line reached the server: ${JSON.stringify(saved)}`);
  if (await page.locator('.monaco-dialog-box').isVisible()) throw new Error('the merged save asked again');
  const stale = await page
    .locator('.notification-toast .notification-list-item-message')
    .filter({ hasText: /Not saved/ })
    .count();
  if (stale > 0) throw new Error(`${stale} "Not saved" notification(s) still on screen after the save`);
  await screenshot('merged-saved');
  log(`merged edit saved by Ctrl+S: ${JSON.stringify(saved)}; no refusal left on screen`);

  // An invalid line through File > Save: Cloudbench's words, nothing sent, the edit kept.
  await merged.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('not-a-range');
  await wb.runCommand(page, 'File: Save');
  await expectRefusalToast(page, wb, /Not saved: 1 line is not valid for a list of cidr ranges/);
  await page.locator(`.tabs-container .tab.dirty[data-resource-name="${LIST}"]`).first().waitFor();
  const after = await serverLines(wb, sandbox);
  if (JSON.stringify(after) !== JSON.stringify(saved))
    throw new Error(`the invalid save changed the list: ${JSON.stringify(after)}`);
  log('File > Save with an invalid line: refused in Cloudbench words, the document stays dirty');
  if (wording.length) throw new Error(wording.join('\n'));
}
