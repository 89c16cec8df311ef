// settings-change: an ordinary settings change keeps Cloudbench on the sandbox. The page size is
// changed in the Settings editor (typed into its number box, as a person would), the Models and API
// Keys views keep their rows and never say "not signed in"; after Developer: Reload Window the
// connection is still there. While the extension starts (a fresh load and the reload), the views
// show their loading state, never "not signed in".
/* global window, document, MutationObserver */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'settings-change: a settings change and a reload keep the sandbox connection';

const SIGNED_OUT = 'is not signed in to Google Cloud';

/**
 * Records, from the first paint of every load of the page, whether the Cloudbench views ever showed
 * the signed-out text or the loading text (a MutationObserver over the whole workbench).
 */
function recordViewStates() {
  const seen = { signedOut: [], loading: 0 };
  window.__cloudbenchSeen = seen;
  const check = () => {
    const container = document.querySelector('[id="workbench.view.extension.cloudbench"]');
    if (!container) return;
    const text = container.innerText;
    if (text.includes('is not signed in to Google Cloud')) seen.signedOut.push(Date.now());
    if (/Connecting to Google Cloud…|Checking the connection…/.test(text)) seen.loading++;
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
}

async function seenStates(page) {
  return page.evaluate(() => window.__cloudbenchSeen ?? { signedOut: [], loading: 0 });
}

async function expectRows(page, wb) {
  const keys = await wb.expandView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor({ timeout: 60_000 });
  const models = await wb.expandView(page, 'Models');
  await wb
    .treeRow(models, /us-central1/)
    .first()
    .waitFor({ timeout: 60_000 });
  return { keys, models };
}

async function expectNeverSignedOut(page, when) {
  const seen = await seenStates(page);
  if (seen.signedOut.length) throw new Error(`the views said "${SIGNED_OUT}" ${when}`);
  return seen;
}

export async function run({ page, wb, log, userDataDir }) {
  await page.addInitScript(recordViewStates);
  // A fresh load with the observer in place: the extension starts while it watches.
  await page.reload();
  await wb.activityItem(page).waitFor({ timeout: 60_000 });
  await wb.openContainer(page);
  await expectRows(page, wb);
  const start = await expectNeverSignedOut(page, 'while the extension started');
  if (!start.loading) throw new Error('the views never showed their loading state while the extension started');
  log(`start: rows shown, never signed out (loading state seen ${start.loading} time(s))`);

  // The Settings editor, as a person uses it: search the setting, type the new value.
  await wb.runCommand(page, 'Preferences: Open User Settings');
  const search = page.locator('.settings-editor .suggest-input-container .monaco-editor textarea').first();
  await search.waitFor();
  await search.fill('cloudbench.pageSize');
  const item = page.locator('.settings-editor .setting-item-contents').filter({ hasText: 'Page Size' }).first();
  await item.waitFor();
  const box = item.locator('input.setting-control-number, input[type="number"], input').first();
  await box.fill('40');
  await box.press('Tab');
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  // The editor writes the file a moment after the edit: wait for the file, then for the event it causes.
  await waitForFile(settingsFile, (text) => /"cloudbench\.pageSize":\s*40/.test(text));
  log('cloudbench.pageSize is 40 in User/settings.json');
  await page.keyboard.press('Control+W');

  await wb.openContainer(page);
  // The change event reaches the extension host; the trees reload with the new page size and keep
  // their rows. A signed-out flash in between fails the test through the observer.
  await expectRows(page, wb);
  await wb.runCommand(page, 'Cloudbench: Check Connection');
  const report = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await report.filter({ hasText: /services\s+answered/ }).waitFor({ timeout: 60_000 });
  const text = (await report.innerText()).replace(/\s+/g, ' ');
  if (!/3 of 3 services answered/.test(text))
    throw new Error(`Check Connection after the change: ${text.slice(0, 600)}`);
  if (/[\w-]+\.googleapis\.com/.test(text))
    throw new Error(`Check Connection names a Google host after the change: ${text}`);
  await expectNeverSignedOut(page, 'after cloudbench.pageSize changed');
  log('after the change: rows kept, Check Connection answers from the sandbox');

  // Developer: Reload Window reloads the page; the observer is installed again by the init script.
  // The report is an unsaved editor: the page asks before unloading, and the user says leave.
  page.on('dialog', (dialog) => void dialog.accept().catch(() => {}));
  const reloaded = page.waitForEvent('load', { timeout: 60_000 });
  reloaded.catch(() => {});
  await reloadWindow(page);
  await reloaded;
  await wb.activityItem(page).waitFor({ timeout: 60_000 });
  // The status bar names the sandbox once the extension runs again.
  await page.locator('.statusbar-item', { hasText: 'Sandbox: cloudbench-demo' }).waitFor({ timeout: 60_000 });
  const container = page.locator(wb.CONTAINER_SELECTOR);
  // The restored layout may keep the side bar hidden; the activity item shows it.
  for (let attempt = 0; attempt < 5 && !(await container.isVisible()); attempt++) {
    await wb.activityItem(page).click();
    await container.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => {});
  }
  await expectRows(page, wb);
  const after = await expectNeverSignedOut(page, 'after Developer: Reload Window');
  if (!after.loading) throw new Error('the views never showed their loading state after the reload');
  log(`after the reload: rows shown, never signed out (loading state seen ${after.loading} time(s))`);
}

/**
 * Developer: Reload Window from the palette, run with Enter once it is the focused row: a click can
 * land on the editor behind the palette while the report editor settles.
 */
async function reloadWindow(page) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>Developer: Reload Window');
  await page.locator('.quick-input-widget .monaco-list-row.focused[aria-label^="Developer: Reload Window"]').waitFor();
  await input.press('Enter');
}

async function waitForFile(file, test) {
  const { watch } = await import('node:fs');
  const ok = () => {
    try {
      return test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  };
  if (ok()) return;
  await new Promise((resolve, reject) => {
    const watcher = watch(join(file, '..'), () => {
      if (ok()) {
        watcher.close();
        clearTimeout(timer);
        resolve();
      }
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${file} never matched`));
    }, 30_000);
  });
}
