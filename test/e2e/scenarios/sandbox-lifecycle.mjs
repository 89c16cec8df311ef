// sandbox-lifecycle: from a signed-out editor (no endpoints anywhere), "Start Local Sandbox" starts
// the extension's own sandbox, points the settings at it (the machine-scoped endpoints in the remote
// machine's settings, where this remote window reads them) and the status bar says the sandbox is in
// use; "Stop Local Sandbox" stops it and puts every setting back as it was, without a warning about
// settings that disappeared (Cloudbench removed them itself). A sandbox that dies on its own puts the
// settings back too, and "Start Again" applies them anew.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const name =
  'sandbox-lifecycle: Start Local Sandbox, the status bar, Stop Local Sandbox restores the settings, a crash too';
export const userSettings = {
  'cloudbench.endpoints.models': null,
  'cloudbench.endpoints.apiKeys': null,
  'cloudbench.endpoints.secops': null,
  'cloudbench.endpoints.resourceManager': null,
};

const SIGNED_OUT = 'Cloudbench is not signed in to Google Cloud.';
const ENDPOINTS = [
  'cloudbench.endpoints.models',
  'cloudbench.endpoints.apiKeys',
  'cloudbench.endpoints.secops',
  'cloudbench.endpoints.resourceManager',
];

function readSettings(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8') || '{}') : {};
}

/** Waits until `test` holds for the two settings files, re-reading them whenever the directory changes. */
async function waitForSettings(userDataDir, test, what) {
  const { watch } = await import('node:fs');
  const files = { user: join(userDataDir, 'User/settings.json'), machine: join(userDataDir, 'Machine/settings.json') };
  const read = () => ({ user: readSettings(files.user), machine: readSettings(files.machine) });
  const ok = () => {
    try {
      return test(read());
    } catch {
      return false;
    }
  };
  if (ok()) return read();
  await new Promise((resolve, reject) => {
    const watchers = [join(userDataDir, 'User'), join(userDataDir, 'Machine')]
      .filter((d) => existsSync(d))
      .map((dir) =>
        watch(dir, () => {
          if (!ok()) return;
          for (const w of watchers) w.close();
          clearTimeout(timer);
          resolve();
        }),
      );
    const timer = setTimeout(() => {
      for (const w of watchers) w.close();
      reject(new Error(`${what}: the settings files never matched; now ${JSON.stringify(read())}`));
    }, 30_000);
  });
  return read();
}

export async function run({ page, wb, log, userDataDir }) {
  const before = await waitForSettings(userDataDir, () => true, 'start');
  for (const key of ENDPOINTS)
    if (key in before.user || key in before.machine) throw new Error(`${key} is set before the scenario`);

  await wb.openContainer(page);
  const models = await wb.expandView(page, 'Models');
  await models.locator('.welcome-view-content').filter({ hasText: SIGNED_OUT }).waitFor({ timeout: 60_000 });
  const status = page.locator('.statusbar-item', { hasText: 'Sandbox:' });
  if (await status.count()) throw new Error('the status bar names the sandbox before it started');
  log('signed out, no sandbox in the status bar');

  await wb.runCommand(page, 'Cloudbench: Start Local Sandbox');
  await wb.waitForNotification(page, /Cloudbench is using the local sandbox/, { timeout: 60_000 });
  await status.first().waitFor();
  const keys = await wb.focusView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor({ timeout: 60_000 });
  const started = await waitForSettings(
    userDataDir,
    ({ machine }) => ENDPOINTS.every((k) => /127\.0\.0\.1:\d+/.test(String(machine[k] ?? ''))),
    'after Start Local Sandbox',
  );
  for (const key of ENDPOINTS)
    if (key in started.user) throw new Error(`${key} was written to User settings, where a remote window ignores it`);
  log(`sandbox in use: status bar says so, endpoints in Machine/settings.json (${started.machine[ENDPOINTS[0]]})`);

  await wb.runCommand(page, 'Cloudbench: Stop Local Sandbox');
  await wb.waitForNotification(page, /The local sandbox stopped; your previous settings are back/);
  const stopped = await waitForSettings(
    userDataDir,
    ({ user, machine }) => ENDPOINTS.every((k) => !(k in user) && !(k in machine)),
    'after Stop Local Sandbox',
  );
  if (stopped.user['cloudbench.project'] !== before.user['cloudbench.project'])
    throw new Error(
      `cloudbench.project is ${stopped.user['cloudbench.project']}, was ${before.user['cloudbench.project']}`,
    );
  await status.first().waitFor({ state: 'detached' });
  await wb.focusView(page, 'Models');
  await models.locator('.welcome-view-content').filter({ hasText: SIGNED_OUT }).waitFor({ timeout: 60_000 });
  const warned = await page
    .locator('.notification-toast .notification-list-item-message', { hasText: /no longer set/ })
    .count();
  if (warned) throw new Error('Stop Local Sandbox warned about settings it removed itself');
  log('stopped: endpoints removed again, project as before, status bar plain, views signed out');

  // The extension's sandbox dies on its own (killed from outside): the settings go back, and
  // "Start Again" starts a new one and points the settings at it again.
  await wb.runCommand(page, 'Cloudbench: Start Local Sandbox');
  await wb.waitForNotification(page, /Cloudbench is using the local sandbox/, { timeout: 60_000 });
  const first = await waitForSettings(
    userDataDir,
    ({ machine }) => /127\.0\.0\.1:\d+/.test(String(machine[ENDPOINTS[0]] ?? '')),
    'second start',
  );
  killListener(Number(String(first.machine[ENDPOINTS[0]]).split(':').pop()));
  await wb.waitForNotification(page, /The local sandbox stopped unexpectedly/);
  await waitForSettings(
    userDataDir,
    ({ user, machine }) => ENDPOINTS.every((k) => !(k in user) && !(k in machine)),
    'after the sandbox died',
  );
  log('a sandbox that died put the settings back');
  await wb.clickNotificationButton(page, /The local sandbox stopped unexpectedly/, 'Start Again');
  const again = await waitForSettings(
    userDataDir,
    ({ machine }) =>
      /127\.0\.0\.1:\d+/.test(String(machine[ENDPOINTS[0]] ?? '')) &&
      machine[ENDPOINTS[0]] !== first.machine[ENDPOINTS[0]],
    'after Start Again',
  );
  await status.first().waitFor();
  log(`Start Again: settings point at the new sandbox (${again.machine[ENDPOINTS[0]]})`);
  await wb.runCommand(page, 'Cloudbench: Stop Local Sandbox');
  await waitForSettings(
    userDataDir,
    ({ user, machine }) => ENDPOINTS.every((k) => !(k in user) && !(k in machine)),
    'after the last Stop',
  );
}

/** Kills the process listening on 127.0.0.1:port (the extension's sandbox child). */
function killListener(port) {
  const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = Number(/pid=(\d+)/.exec(out)?.[1]);
  if (!pid) throw new Error(`no process listens on port ${port}: ${out}`);
  process.kill(pid, 'SIGKILL');
}
