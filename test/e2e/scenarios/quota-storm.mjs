// A 429 storm in the real editor: with every udmSearch answered 429, one Ctrl+Enter retries within
// requests.maxRetries and the total-wait bound while the status bar and the panel say "throttled
// until", then ends in ONE message that says what happened and how long it tried, with Retry; the
// hourly count is what it was (a 429 says "slow down", not "the hour is spent"). Once the service
// takes calls again, Retry runs the search.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'quota-storm: every udmSearch answered 429 ends after bounded retries in one message';

const QUERY = 'metadata.event_type = "USER_LOGIN"';
const GAVE_UP = /UDM search: .*Cloudbench tried \d+ times over \d+ s and stopped/;
const ERROR_TOAST = /quota exceeded|RESOURCE_EXHAUSTED|429|failed|error/i;

async function budgetText(page) {
  return (await page.locator('.statusbar-item[id$="cloudbench.search.budget"]').first().innerText()).trim();
}

async function udmSearches(sandbox) {
  const state = await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json();
  return state.calls?.['secops.udmSearch'] ?? 0;
}

async function toasts(page) {
  return page.locator('.notification-toast .notification-list-item-message').allInnerTexts();
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  writeFileSync(join(workspace, 'logins.udm'), `${QUERY}\n`);
  await wb.openFile(page, 'logins.udm');
  const budgetItem = page.locator('.statusbar-item[id$="cloudbench.search.budget"]').first();
  await budgetItem.filter({ hasText: /\d+\/360/ }).waitFor();
  const before = (await budgetText(page)).match(/(\d+)\/360/)[1];

  await wb.sandboxAdmin(sandbox, 'faults', { rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: [429] }] });
  const started = Date.now();
  await wb.focusActiveEditor(page);
  await page.keyboard.press('Control+Enter');

  // While it retries: throttled, in the status bar and in the panel, with the count unchanged.
  await page
    .locator('.statusbar-item[id$="cloudbench.search.budget"]', { hasText: /throttled until/ })
    .first()
    .waitFor({ timeout: 30_000 });
  const during = await budgetText(page);
  if (!during.includes(`${before}/360`)) throw new Error(`a 429 changed the hourly count: ${before}/360 → ${during}`);
  const results = await wb.findWebviewFrame(page, '#run-summary', /Throttled by the service until/, {
    timeout: 30_000,
  });
  await screenshot('throttled');

  // It ends by itself, in one message with Retry.
  const message = await wb.waitForNotification(page, GAVE_UP, { timeout: 90_000 });
  const took = Date.now() - started;
  const shown = await toasts(page);
  const gaveUp = shown.filter((t) => GAVE_UP.test(t));
  if (gaveUp.length !== 1) throw new Error(`expected one message, saw ${gaveUp.length}: ${shown.join(' | ')}`);
  const others = shown.filter((t) => !GAVE_UP.test(t) && ERROR_TOAST.test(t));
  if (others.length) throw new Error(`more messages about the failure: ${others.join(' | ')}`);
  await page
    .locator('.notification-toast', { hasText: 'Running UDM search' })
    .waitFor({ state: 'detached', timeout: 10_000 });
  await results.locator('#run-summary', { hasText: /^Failed: .*Cloudbench tried \d+ times/ }).waitFor();
  const calls = await udmSearches(sandbox);
  // requests.maxRetries is 4 by default: five attempts at most.
  if (calls < 2 || calls > 5) throw new Error(`the run made ${calls} udmSearch calls (bounded retries allow 2 to 5)`);
  await budgetItem.filter({ hasText: `${before}/360` }).waitFor();
  await screenshot('gave-up');
  log(`429 storm: ended after ${calls} calls in ${(took / 1000).toFixed(1)} s: "${message.replace(/\s+/g, ' ')}"`);

  // The service takes calls again: Retry runs the search and spends one.
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });
  await wb.clickNotificationButton(page, GAVE_UP, 'Retry');
  await results.locator('#run-summary', { hasText: /^[\d,]+ rows?/ }).waitFor({ timeout: 90_000 });
  await budgetItem.filter({ hasText: `${Number(before) - 1}/360` }).waitFor();
  log(
    `Retry after the storm: ${(await results.locator('#run-summary').innerText()).split('\n')[0]}; ${await budgetText(page)}`,
  );
}
