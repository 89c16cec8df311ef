// operation-rebuild: a copy keeps being followed across a settings change that rebuilds the Model
// Registry client (cloudbench.quotaProject, machine-scoped, so written to the remote machine's
// settings where this remote window reads it) and across a sandbox restart (the editor reaches the
// sandbox through a relay that is stopped, so connections are refused, and started again on the
// same port, the sandbox keeping its data). The copy ends "done" in the toast and in the Operations
// view, never "failed: … client is closed" nor failed for the refused connection.
import { startRelay } from '../lib/relay.mjs';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const name =
  'operation-rebuild: a copy followed across a settings change that rebuilds the client and a sandbox restart ends done';
// Declared so that the runner puts the profile's user and machine settings back afterwards.
export const userSettings = {};

const MODEL = 'churn-predictor';
const WHAT = `version 4 of model ${MODEL} (us-central1)`;
const TITLE = `Copy ${WHAT} to europe-west4`;

function findLogs(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) findLogs(p, out);
    else if (/cloudbench/i.test(p) && p.endsWith('.log')) out.push(p);
  }
  return out;
}

/** Waits until the Cloudbench log says `pattern` (the extension heard the settings change). */
async function waitForLog(userDataDir, pattern, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (findLogs(join(userDataDir, 'logs')).some((p) => pattern.test(readFileSync(p, 'utf8')))) return;
    if (Date.now() > deadline) throw new Error(`the Cloudbench log never said ${pattern}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** How many times the Cloudbench logs say `pattern` (global). */
function countLog(userDataDir, pattern) {
  return findLogs(join(userDataDir, 'logs')).reduce(
    (n, p) => n + (readFileSync(p, 'utf8').match(pattern)?.length ?? 0),
    0,
  );
}

/** Waits until the logs say `pattern` `atLeast` times, calling `check` (which throws) meanwhile. */
async function waitForCount(userDataDir, pattern, atLeast, what, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (countLog(userDataDir, pattern) < atLeast) {
    await check();
    if (Date.now() > deadline) throw new Error(`the Cloudbench log never said ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const RETRIED = /: reading \S+ failed \(.*\); trying again \(\d+\)/g;
const FAILED_TOAST = /failed|client is closed/;

async function expectNoFailure(page, row, when) {
  const failed = await page
    .locator('.notification-toast .notification-list-item-message', { hasText: FAILED_TOAST })
    .count();
  if (failed) throw new Error(`a failure toast was shown ${when}`);
  const text = `${await row.getAttribute('aria-label', { timeout: 10_000 })} ${await row.textContent({ timeout: 10_000 })}`;
  if (/failed|lost track|unknown|no longer followed/i.test(text))
    throw new Error(`the Operations row said "${text}" ${when}`);
}

function setMachineSetting(userDataDir, key, value) {
  const file = join(userDataDir, 'Machine/settings.json');
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8') || '{}') : {};
  settings[key] = value;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

export async function run({ page, wb, sandbox, log, userDataDir }) {
  // The editor reaches the sandbox's gRPC port through a relay that can go away and come back.
  const relay = await startRelay(sandbox.grpc);
  try {
    await copyAcrossRebuildAndRestart({ page, wb, sandbox, log, userDataDir, relay });
  } finally {
    await relay.stop();
  }
}

async function copyAcrossRebuildAndRestart({ page, wb, sandbox, log, userDataDir, relay }) {
  setMachineSetting(userDataDir, 'cloudbench.endpoints.models', relay.address);
  // A fresh extension host that reads the relay's address from the start.
  await page.reload();
  await wb.activityItem(page).waitFor({ timeout: 60_000 });
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');
  await wb.expandRow(models, 'us-central1', MODEL);
  const modelRow = models
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${MODEL}$`) }) })
    .filter({ has: page.locator('.label-description', { hasText: new RegExp(`^${MODEL}\\b`) }) })
    .first();
  await wb.contextMenu(page, modelRow, 'Copy Model to Location…', models);
  // The default version (4) comes first in the version pick; then where, then a new model.
  await wb.pickQuickItem(page, 'Version 4', `Copy model ${MODEL} (us-central1)`);
  await wb.pickQuickItem(page, 'europe-west4', `Copy ${WHAT} to location`);
  await wb.pickQuickItem(page, 'New model', TITLE);
  await wb.answerInputBox(page, 'rebuild-copy-e2e', TITLE);
  await wb.waitForNotification(page, TITLE);
  const operations = await wb.expandView(page, 'Operations');
  const row = wb.treeRow(operations, TITLE);
  await row.waitFor();
  log(`copy started through the relay at ${relay.address}; the Operations row is running`);

  // A setting the clients depend on: the connection is rebuilt and the old client closed.
  setMachineSetting(userDataDir, 'cloudbench.quotaProject', 'rebuild-quota-e2e');
  await waitForLog(userDataDir, /settings changed: .*quotaProject/);
  log('cloudbench.quotaProject changed; the extension rebuilt its connection');

  // The sandbox "dies": its port refuses connections. The follower keeps asking, twice at least.
  const before = countLog(userDataDir, RETRIED);
  await relay.stop();
  const outage = 'while the sandbox port refused connections';
  await waitForCount(userDataDir, RETRIED, before + 2, 'that it tried the refused read again', () =>
    expectNoFailure(page, row, outage),
  );
  await expectNoFailure(page, row, outage);
  log(`relay stopped: ${countLog(userDataDir, RETRIED) - before} refused reads tried again, nothing said failed`);

  // The sandbox is back on the same port, its data kept; the copy ends on the server.
  await relay.start();
  await wb.sandboxAdmin(sandbox, 'clock:advance', { seconds: 120 });
  await wb.waitForNotification(
    page,
    /Copied version 4 of model churn-predictor \(us-central1\) to model .*rebuild-copy-e2e/,
    {
      timeout: 90_000,
    },
  );
  await wb.expandView(page, 'Operations');
  await row.locator('.label-description', { hasText: /^done\b/ }).waitFor({ timeout: 30_000 });
  const failed = await page
    .locator('.notification-toast .notification-list-item-message', { hasText: FAILED_TOAST })
    .count();
  if (failed) throw new Error('a failure toast was shown for a copy that finished');
  log('the copy ended done in the toast and in the Operations view');
}
