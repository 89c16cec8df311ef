// views-recover: the window starts while the sandbox's ports refuse connections (the editor reaches
// them through relays that are stopped). The Models and API Keys views say "Connecting…" instead of
// staying blank, and once the ports answer again both views fill by themselves: no Refresh click.
import { startRelay } from '../lib/relay.mjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const name = 'views recover: Connecting… while the sandbox is down, rows by themselves once it is back';
// Declared so that the runner puts the profile's user and machine settings back afterwards.
export const userSettings = {};

function setMachineSettings(userDataDir, values) {
  const file = join(userDataDir, 'Machine/settings.json');
  const settings = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8') || '{}') : {};
  Object.assign(settings, values);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** Polls the pane's message line until it reads `pattern` (the tree view's own message element). */
async function seeMessage(pane, pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set();
  for (;;) {
    const texts = await pane
      .locator('.message')
      .allTextContents()
      .catch(() => []);
    for (const t of texts) if (t.trim()) seen.add(t.trim());
    if (texts.some((t) => pattern.test(t))) return;
    if (Date.now() > deadline)
      throw new Error(`the view never said ${pattern} (saw: ${[...seen].join(' | ') || 'nothing'})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function run({ page, wb, sandbox, log, userDataDir }) {
  const grpc = await startRelay(sandbox.grpc);
  const http = await startRelay(sandbox.http.replace(/^https?:\/\//, '').replace(/\/.*$/, ''));
  try {
    setMachineSettings(userDataDir, {
      'cloudbench.endpoints.models': grpc.address,
      'cloudbench.endpoints.apiKeys': `http://${http.address}`,
    });
    // The sandbox "is down": both ports refuse connections before the window starts.
    await grpc.stop();
    await http.stop();
    await page.reload();
    await wb.activityItem(page).waitFor({ timeout: 60_000 });
    await wb.openContainer(page);
    const models = await wb.expandView(page, 'Models');
    const keys = await wb.expandView(page, 'API Keys');
    await Promise.all([seeMessage(models, /^Connecting…/, 30_000), seeMessage(keys, /^Connecting…/, 30_000)]);
    log('with the sandbox down, Models and API Keys say "Connecting…"');
    const rowsWhileDown = await models.locator('.monaco-list-row', { hasText: 'us-central1' }).count();
    if (rowsWhileDown) throw new Error('the Models view listed locations while its port refused connections');

    // The sandbox comes back on the same ports: the views fill without a click.
    await grpc.start();
    await http.start();
    await wb.treeRow(models, 'us-central1').waitFor({ timeout: 90_000 });
    await keys.locator('.monaco-list-row').first().waitFor({ timeout: 90_000 });
    const firstKey = (await keys.locator('.monaco-list-row').first().textContent())?.trim();
    log(`once the ports answered: Models lists us-central1 and API Keys lists "${firstKey}", no Refresh clicked`);
  } finally {
    await grpc.stop();
    await http.stop();
  }
}
