// The hourly udmSearch budget in the real editor: repeated Ctrl+Enter on a running query spends one
// search; while the server answers 429 the run waits behind one notification (no error toasts) and
// the status bar says no search is left, as the server does; once the server takes calls again the
// same run finishes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'search: repeated runs spend one search, a 429 storm waits quietly';

const QUERY = 'metadata.event_type = "USER_LOGIN"';

/** Texts of the notification toasts on screen now. */
async function toasts(page) {
  return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
}

async function budgetText(page) {
  return (await page.locator('.statusbar-item[id$="cloudbench.search.budget"]').first().innerText()).trim();
}

async function waitForBudget(page, pattern) {
  await page
    .locator('.statusbar-item[id$="cloudbench.search.budget"]', { hasText: pattern })
    .first()
    .waitFor({ timeout: 30_000 });
}

const ERROR_TOAST = /quota exceeded|RESOURCE_EXHAUSTED|429|failed|error/i;

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'logins.udm'), `${QUERY}\n`);
  await wb.openFile(page, 'logins.udm');
  await waitForBudget(page, /360\/360/);

  // 1. The server is slow; five presses while the search runs.
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [{ method: 'secops.udmSearch', latencyMs: 4000 }] });
  await wb.focusActiveEditor(page);
  for (let i = 0; i < 5; i++) await page.keyboard.press('Control+Enter');
  await page.locator('.notification-toast', { hasText: 'Running UDM search' }).first().waitFor({ timeout: 30_000 });
  const running = (await toasts(page)).filter((t) => /Running UDM search/.test(t));
  if (running.length !== 1) throw new Error(`expected one running search, saw ${running.length}: ${running}`);
  if (await page.locator('.monaco-dialog-box').isVisible())
    throw new Error('pressing Ctrl+Enter again on the running query asked a question instead of revealing it');
  const results = wb.webviewFrame(page);
  await results.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  await waitForBudget(page, /359\/360/);
  log(`five presses during one run: ${await budgetText(page)} left (one search spent)`);

  // 2. A 429 storm: every udmSearch is refused.
  await wb.sandboxAdmin(sandbox, 'faults', {
    rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: [429] }],
  });
  await wb.focusActiveEditor(page);
  for (let i = 0; i < 5; i++) await page.keyboard.press('Control+Enter');
  await wb.waitForNotification(page, /Waiting for quota, retrying in \d+ s/, { timeout: 60_000 });
  // The server refused: the status bar says so instead of a local count.
  await waitForBudget(page, /\b0\/360/);
  const during = await toasts(page);
  const waiting = during.filter((t) => /Running UDM search|Waiting for quota/.test(t));
  if (waiting.length !== 1) throw new Error(`expected one waiting notification, saw ${waiting.length}: ${during}`);
  const errors = during.filter((t) => ERROR_TOAST.test(t) && !/Waiting for quota/.test(t));
  if (errors.length) throw new Error(`error toasts during the 429 storm: ${errors.join(' | ')}`);
  await screenshot('waiting-for-quota');
  log(`under 429: one notification ("${waiting[0].replace(/\s+/g, ' ')}"), status bar ${await budgetText(page)}`);

  // 3. The server takes calls again: the waiting run goes through by itself, still without error toasts.
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });
  await results.locator('#run-summary', { hasText: /^[\d,]+ rows?/ }).waitFor({ timeout: 90_000 });
  const after = (await toasts(page)).filter((t) => ERROR_TOAST.test(t) && !/Waiting for quota/.test(t));
  if (after.length) throw new Error(`error toasts after the storm: ${after.join(' | ')}`);
  log(`after the storm: ${(await results.locator('#run-summary').innerText()).split('\n')[0]}`);
}
