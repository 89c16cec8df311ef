// The hourly udmSearch budget in the real editor: repeated Ctrl+Enter on a running query spends one
// search (a 429 storm is the quota-storm scenario).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'search: repeated runs of a running query spend one search';

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

export async function run({ page, wb, sandbox, workspace, log }) {
  writeFileSync(join(workspace, 'logins.udm'), `${QUERY}\n`);
  await wb.openFile(page, 'logins.udm');
  // The count is kept across windows (and these scenarios share a profile): read it, do not assume it.
  await waitForBudget(page, /\d+\/360/);
  const before = Number((await budgetText(page)).match(/(\d+)\/360/)[1]);

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
  await waitForBudget(page, new RegExp(`\\b${before - 1}/360`));
  log(`five presses during one run: ${await budgetText(page)} left (one search spent)`);
}
