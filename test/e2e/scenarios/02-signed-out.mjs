// Signed out (no endpoints, no credentials anywhere): the Models and API Keys views offer the fixes;
// Check Connection shows its one-screen report of what is wrong; "Choose Credentials File…" takes a
// key file through the editor's file dialog (the report then names that file and its account); and
// "Start Local Sandbox" brings the trees to life on the built-in sandbox.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const name = 'welcome: signed out, Check Connection, choose a key file, start the sandbox';
export const userSettings = {
  'cloudbench.endpoints.models': null,
  'cloudbench.endpoints.apiKeys': null,
  'cloudbench.endpoints.secops': null,
  'cloudbench.endpoints.resourceManager': null,
};

const SIGNED_OUT = 'Cloudbench is not signed in to Google Cloud.';
const ACCOUNT = 'e2e-reader@cloudbench-e2e.iam.gserviceaccount.com';

/** The text of the report the Check Connection command opened (a read-only document, updated on each run). */
async function reportText(page, pattern) {
  await page.locator('.tabs-container .tab.active', { hasText: 'Connection check.md' }).waitFor();
  const lines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  await lines.filter({ hasText: pattern }).waitFor({ timeout: 60_000 });
  // Monaco renders spaces as no-break spaces and wraps long lines: compare words, not layout.
  return (await lines.innerText()).replace(/\s+/g, ' ');
}

export async function run({ page, wb, workspace, log, screenshot }) {
  // A service-account key file the user was given (signed by a key made here; never sent anywhere
  // reachable: Google's token endpoint is out of reach from this machine).
  const keyDir = join(workspace, 'keys');
  mkdirSync(keyDir, { recursive: true });
  const keyFile = join(keyDir, 'reader.json');
  const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: 'service_account',
      project_id: 'cloudbench-e2e',
      private_key_id: 'e2e1',
      private_key: privateKey,
      client_email: ACCOUNT,
      client_id: '1',
      token_uri: 'https://oauth2.googleapis.com/token',
    }),
  );

  await wb.openContainer(page);
  const models = await wb.expandView(page, 'Models');
  const welcome = models.locator('.welcome-view-content').filter({ hasText: SIGNED_OUT });
  await welcome.waitFor({ timeout: 60_000 });
  for (const button of ['Choose Credentials File…', 'Use Application Default Credentials', 'Start Local Sandbox'])
    await welcome.locator('a.monaco-button', { hasText: button }).waitFor();
  await welcome.filter({ hasText: 'gcloud auth application-default login' }).waitFor();
  const keys = await wb.expandView(page, 'API Keys');
  await keys.locator('.welcome-view-content').filter({ hasText: SIGNED_OUT }).waitFor();
  await screenshot('signed-out');
  log('signed-out welcome views offer the fixes');

  // Check Connection from the welcome view: one screen saying what is wrong and what to do.
  await welcome.locator('a', { hasText: /^Check Connection$/ }).click();
  let report = await reportText(page, /Result:\s0\sof\s3\sservices\sanswered/);
  for (const expected of [
    '# Cloudbench connection check',
    'Project: `cloudbench-demo`',
    '## Vertex AI Model Registry: FAILED',
    '`aiplatform.googleapis.com:443`',
    'No Google Cloud credentials were found',
    'gcloud auth application-default login',
  ])
    if (!report.includes(expected)) throw new Error(`the report lacks "${expected}":\n${report}`);
  if (/ya29\.|PRIVATE KEY/.test(report)) throw new Error('the report holds token or key material');
  // Only credentials that were found are listed: none here, so no metadata server either.
  if (!report.includes('| Credentials | none found ('))
    throw new Error(`the report does not say no credentials were found:\n${report}`);
  if (report.includes('metadata server (attached service account)'))
    throw new Error(`the report lists a metadata server that gave no token:\n${report}`);
  await screenshot('report-signed-out');
  log('Check Connection explains the signed-out state');

  // Choose Credentials File…: the editor's own file dialog; the setting keeps only the path.
  await wb.openContainer(page);
  await welcome.locator('a.monaco-button', { hasText: 'Choose Credentials File…' }).click();
  const dialog = await wb.quickInput(page, 'Choose a service-account key file');
  const input = dialog.locator('input.input');
  // The dialog follows what is typed once it has read the folder: go into the folder first, then
  // name the file and accept (again, should the dialog still have been catching up). It writes its
  // starting folder into the box once it has read it, so what was typed before that is typed again.
  await dialog.locator('.monaco-list-row').first().waitFor();
  const readerRow = dialog.locator('.monaco-list-row', { hasText: 'reader.json' });
  for (let attempt = 1; attempt <= 5; attempt++) {
    await input.fill(`${keyDir}/`);
    if (
      await readerRow.waitFor({ timeout: 5_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    log(`the key file dialog did not list ${keyDir} yet (its box read ${JSON.stringify(await input.inputValue())})`);
  }
  await readerRow.waitFor();
  for (let attempt = 1; attempt <= 5 && (await dialog.isVisible()); attempt++) {
    await input.fill(keyFile);
    await dialog.locator('.monaco-button', { hasText: 'Use Key File' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 3_000 }).catch(() => {});
  }
  await dialog.waitFor({ state: 'hidden' });
  // The setting keeps the file's path, never its contents (machine-scoped settings of a remote
  // window land in the remote machine settings).
  const profile = join(dirname(dirname(workspace)), 'user-data');
  const settingsFiles = ['User/settings.json', 'Machine/settings.json'].map((f) => join(profile, f));
  for (const deadline = Date.now() + 30_000; ;) {
    const texts = settingsFiles.filter(existsSync).map((f) => readFileSync(f, 'utf8'));
    if (texts.some((t) => t.includes('PRIVATE KEY'))) throw new Error('the key file was copied into the settings');
    if (texts.some((t) => JSON.parse(t)['cloudbench.credentialsFile'] === keyFile)) break;
    if (Date.now() > deadline) throw new Error(`cloudbench.credentialsFile was not set:\n${texts.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  // The extension host hears of the change a moment after the file is written: check until it has.
  const named = new RegExp(ACCOUNT.replace(/\./g, '\\.'));
  for (let attempt = 1; ; attempt++) {
    await wb.runCommand(page, 'Cloudbench: Check Connection');
    report = await reportText(page, /Result:\s0\sof\s3/);
    if (named.test(report) || attempt === 5) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const expected of ['service-account key, from the file in cloudbench.credentialsFile', 'reader.json', ACCOUNT])
    if (!report.includes(expected)) throw new Error(`the report lacks "${expected}":\n${report}`);
  if (report.includes('PRIVATE KEY')) throw new Error('the report holds key material');
  await screenshot('report-key-file');
  log('the chosen key file is used and named');

  // Start Local Sandbox from the welcome view: the trees load from the sandbox.
  // With a key file whose sign-in is refused, the view names that state instead of "not signed in".
  await wb.openContainer(page);
  await models.locator('.welcome-view-content a.monaco-button', { hasText: 'Start Local Sandbox' }).first().click();
  await wb.waitForNotification(page, /Cloudbench is using the local sandbox/, { timeout: 90_000 });
  await wb.treeRow(models, 'us-central1').waitFor({ timeout: 60_000 });
  await models.locator('.welcome-view-content').waitFor({ state: 'hidden' });
  log('the sandbox started and the Models view lists its locations');
  await wb.runCommand(page, 'Cloudbench: Stop Local Sandbox');
  await wb.waitForNotification(page, /The local sandbox stopped/);

  // The key file was read, checked and used: its key is nowhere in the profile (logs, settings,
  // storage, backups of the reports) nor in the workspace outside the file itself.
  const leaks = [
    ...filesWithKey(profile, privateKey, (p) =>
      /\/(CachedData|CachedExtensionVSIXs|Cache|Code Cache|GPUCache)(\/|$)/.test(p),
    ),
    ...filesWithKey(workspace, privateKey, (p) => p === keyFile),
  ];
  if (leaks.length) throw new Error(`the private key was found in:\n${leaks.join('\n')}`);
  if (!readdirSync(join(profile, 'logs')).length) throw new Error('no logs in the profile: the layout changed');
}

/** Files under `dir` (caches skipped) holding a private key or a line of the given key's body. */
function filesWithKey(dir, privateKey, skip) {
  const body = privateKey
    .split('\n')
    .filter((l) => l && !l.startsWith('-----'))
    .slice(0, 3);
  const hits = [];
  const walk = (path) => {
    if (!existsSync(path) || skip(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) return readdirSync(path).forEach((e) => walk(join(path, e)));
    if (!st.isFile() || st.size > 64 * 1024 * 1024) return;
    const text = readFileSync(path, 'latin1');
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text) || body.some((l) => text.includes(l))) hits.push(path);
  };
  walk(dir);
  return hits;
}
