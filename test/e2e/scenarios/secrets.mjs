// Secrets in the real editor: create a key from the palette and copy its key string, copy it again
// while the service fails, run a UDM search with a service-account file configured, then scan the
// profile (logs, settings, global and workspace storage) and the workspace folder: no key string,
// token or private key anywhere.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const name = 'secrets: create and copy a key, search with a service-account file, scan the profile';

// The key file lives outside the workspace (where a user keeps it); only its path goes into settings.
const keyDir = mkdtempSync(join(tmpdir(), 'cloudbench-e2e-sa-'));
const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const SA_FILE = join(keyDir, 'secops-service-account.json');
writeFileSync(
  SA_FILE,
  JSON.stringify({
    type: 'service_account',
    project_id: 'cloudbench-demo',
    private_key_id: 'e2e',
    private_key: privateKey,
    client_email: 'secops@cloudbench-demo.iam.gserviceaccount.com',
    client_id: '1',
  }),
);

export const workspaceSettings = {
  'cloudbench.secops.credentialsFile': SA_FILE,
  'cloudbench.credentialsFile': SA_FILE,
};

const KEY_PATH = '/v2/projects/cloudbench-demo/locations/global/keys/secret-e2e';
const SHAPES = [
  ['API key string', /AIza[0-9A-Za-z_-]{35}/],
  ['OAuth access token', /\bya29\.[0-9A-Za-z_.-]{8,}/],
  ['bearer credential', /\bbearer\s+(?!…\(redacted\))[A-Za-z0-9._~+/=-]{8,}/i],
  ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
];

function scan(dir, known, findings, skip) {
  if (!existsSync(dir)) return 0;
  let files = 0;
  const walk = (path) => {
    if (skip(path)) return;
    const st = statSync(path);
    if (st.isDirectory()) return readdirSync(path).forEach((e) => walk(join(path, e)));
    if (!st.isFile() || st.size > 64 * 1024 * 1024) return;
    files++;
    const text = readFileSync(path, 'latin1');
    for (const [what, re] of SHAPES) {
      const m = re.exec(text);
      if (m) findings.push(`${path}: ${what}: ${JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 50))}`);
    }
    for (const secret of known)
      if (text.includes(secret)) findings.push(`${path}: a known secret (${secret.slice(0, 6)}…)`);
  };
  walk(dir);
  return files;
}

function findFiles(dir, test, out = []) {
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) findFiles(p, test, out);
    else if (test(p)) out.push(p);
  }
  return out;
}

async function waitForLog(profile, pattern, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = findFiles(join(profile, 'logs'), (p) => /cloudbench/i.test(p) && p.endsWith('.log')).find((p) =>
      pattern.test(readFileSync(p, 'utf8')),
    );
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no Cloudbench log under ${profile}/logs matched ${pattern}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function run({ page, wb, sandbox, workspace, log }) {
  await wb.openContainer(page);
  const keys = await wb.focusView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor();

  const created = await wb.createReferrerKey(page, 'Secret e2e', 'secret-e2e', 'example.com/*');
  await wb.clickNotificationButton(page, created, 'Copy Key String');
  const copied = await wb.waitForNotification(page, /on the clipboard|clipboard|failed/i);
  log(`copy after create: ${copied.split('\n')[0]}`);
  const keyString = (await wb.sandboxRest(sandbox, 'GET', `${KEY_PATH}/keyString`)).json?.keyString;
  if (!keyString) throw new Error('the sandbox has no key string for secret-e2e');

  // The failure path: the key-string read fails on the server; the error is shown and logged.
  await wb.sandboxAdmin(sandbox, 'faults', {
    rules: [{ method: 'apikeys.keys.getKeyString', errorRate: 1, codes: ['INTERNAL'] }],
  });
  // VS Code shows a new toast only where the screen has room: the toasts so far (the copy, the
  // ignored workspace settings) are cleared first, as a user would close them.
  await wb.runCommand(page, 'Notifications: Clear All Notifications');
  const row = await wb.revealRow(keys, wb.exactRow(keys, 'Secret e2e'));
  await wb.contextMenu(page, row, 'Copy Key String', keys);
  await wb.waitForNotification(page, /INTERNAL|failed|could not/i);
  await wb.sandboxAdmin(sandbox, 'faults', { rules: [] });
  log('a failing copy was reported');

  // A search with the service-account file configured (the sandbox endpoint is loopback).
  await wb.runCommand(page, 'Cloudbench: New UDM Query');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.locator('.view-lines', { hasText: /metadata/ }).waitFor();
  await editor.locator('.view-lines').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('metadata.event_type = "USER_LOGIN"');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  await wb.webviewFrame(page).locator('#grid .row').first().waitFor({ timeout: 60_000 });
  log('search ran');

  // Wait until the extension's log file holds the failed copy (the channel writes asynchronously),
  // then scan the profile and the workspace.
  const home = dirname(dirname(workspace));
  const profile = join(home, 'user-data');
  const logFile = await waitForLog(profile, /getKeyString|key string/i);
  log(`extension log: ${logFile.slice(profile.length)}`);
  const known = [
    keyString,
    ...privateKey
      .split('\n')
      .filter((l) => l && !l.startsWith('-----'))
      .slice(0, 3),
  ];
  const findings = [];
  const files =
    scan(profile, known, findings, (p) =>
      /\/(CachedData|CachedExtensionVSIXs|Cache|Code Cache|GPUCache)(\/|$)/.test(p),
    ) + scan(workspace, known, findings, () => false);
  log(`scanned ${files} files`);
  if (files < 3) throw new Error(`only ${files} files scanned under ${profile}: the profile layout changed`);
  if (findings.length) throw new Error(`secrets found:\n${findings.slice(0, 20).join('\n')}`);
}
