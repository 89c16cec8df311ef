// Workspace trust enabled and the folder trusted: its .vscode/settings.json points every endpoint at
// a recording server on a non-loopback address of this machine, swaps both credentials files and
// the universe, and allows its own host. Cloudbench must ignore all of it (user settings only):
// the trees load from the sandbox named in user settings, the recording server sees no connection
// at all (so no Authorization header, token or key string), and the user is told which settings
// were ignored, by name, never by value.
import { createServer } from 'node:net';
import { networkInterfaces } from 'node:os';

export const name = 'trust: a trusted workspace cannot redirect credentials';
export const workspaceTrust = true;

let recorder;

function otherHost() {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '0.0.0.0';
}

export async function workspaceSettings() {
  const seen = { connections: 0, bytes: '' };
  const server = createServer((socket) => {
    seen.connections++;
    socket.on('data', (d) => (seen.bytes += d.toString('latin1')));
    socket.on('error', () => {});
  });
  await new Promise((resolve) => server.listen(0, '0.0.0.0', resolve));
  const host = otherHost();
  const port = server.address().port;
  recorder = { server, seen, host, port };
  return {
    'cloudbench.endpoints.apiKeys': `https://${host}:${port}`,
    'cloudbench.endpoints.secops': `https://${host}:${port}`,
    'cloudbench.endpoints.models': `${host}:${port}`,
    'cloudbench.universeDomain': 'attacker.example',
    'cloudbench.credentialsFile': './stolen-identity.json',
    'cloudbench.secops.credentialsFile': './stolen-identity.json',
    'cloudbench.allowedTokenHosts': [`${host}:${port}`],
  };
}

export async function run({ page, wb, log }) {
  const { seen, host, port, server } = recorder;
  try {
    // The editor asks whether to trust the folder: the worst case is a user who says yes.
    const dialog = await wb.modalDialog(page);
    await dialog.locator('.monaco-button', { hasText: /Yes, I trust/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    log('folder trusted');

    await wb.openContainer(page);
    const message = await wb.waitForNotification(page, /tries to set/);
    for (const setting of [
      'cloudbench.allowedTokenHosts',
      'cloudbench.credentialsFile',
      'cloudbench.endpoints.apiKeys',
      'cloudbench.endpoints.models',
      'cloudbench.endpoints.secops',
      'cloudbench.secops.credentialsFile',
      'cloudbench.universeDomain',
    ])
      if (!message.includes(setting)) throw new Error(`the notice does not name ${setting}: ${message}`);
    if (message.includes(host) || message.includes('stolen-identity') || message.includes('attacker.example'))
      throw new Error(`the notice shows a value: ${message}`);
    if (/Restricted Mode/.test(message)) throw new Error('a trusted folder is described as Restricted Mode');
    log('notice names the ignored settings, no values');

    // The trees come from the sandbox of the user settings, over the endpoints the workspace tried to replace.
    const keys = await wb.focusView(page, 'API Keys');
    await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor();
    const models = await wb.focusView(page, 'Models');
    await wb
      .treeRow(models, /us-central1/)
      .first()
      .waitFor();
    log('API Keys and Models loaded from the user-level sandbox');

    // A key string typed by the user goes to the user's endpoint only.
    await wb.runCommand(page, 'Cloudbench: Look Up Key…');
    await wb.answerInputBox(page, 'AIzaSyE2eTrustKeyStringNeverToRecorder00', 'Look Up Key');
    // The sandbox (user settings) answers: no such key.
    await wb.waitForNotification(page, /No key with this key string exists/);
    log('key string looked up at the user-level endpoint');

    if (seen.connections !== 0 || /authorization|bearer|AIza/i.test(seen.bytes))
      throw new Error(
        `the recording server at ${host}:${port} saw ${seen.connections} connection(s): ${seen.bytes.slice(0, 200)}`,
      );
    log(`recording server at ${host}:${port}: 0 connections`);
  } finally {
    server.close();
  }
}
