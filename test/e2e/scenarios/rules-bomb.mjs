// A rule whose placeholders multiply, tested in the real editor: seven placeholders bound to one
// repeated field over events with 16 addresses each. The engine computes in its worker, so the
// editor keeps answering while it runs; Cancel in the progress toast ends the worker and the panel
// says the test was cancelled, and the CodeLens answers again at once.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'rules-bomb: a rule whose placeholders multiply is cancelled, the editor stays responsive';

const MARK = 'RULE_BOMB_E2E';
const RULE = 'placeholder_bomb';
const PLACEHOLDERS = Array.from({ length: 7 }, (_, i) => `$p${i + 1}`);
const RULE_TEXT = [
  `rule ${RULE} {`,
  '  meta:',
  '    description = "seven placeholders bound to one repeated field"',
  '  events:',
  `    $e.metadata.product_name = "${MARK}"`,
  ...PLACEHOLDERS.map((p) => `    $e.principal.ip = ${p}`),
  '  match:',
  `    ${PLACEHOLDERS.join(', ')} over 1h`,
  '  condition:',
  '    $e',
  '}',
  '',
].join('\n');

function events(now) {
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return Array.from({ length: 40 }, (_, i) => ({
    metadata: { eventTimestamp: iso(now - (i + 1) * 60_000), eventType: 'NETWORK_CONNECTION', productName: MARK },
    principal: { hostname: `bomb-${i}`, ip: Array.from({ length: 16 }, (_, j) => `10.7.${i % 4}.${j + 1}`) },
  }));
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  const sandboxNow = Date.parse((await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json()).now);
  await wb.sandboxAdmin(sandbox, 'events:ingest', { events: events(Math.min(Date.now(), sandboxNow)) });
  const file = join(workspace, 'rules', `${RULE}.yaral`);
  writeFileSync(file, RULE_TEXT);
  try {
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await wb.openFile(page, `${RULE}.yaral`);
    await wb.testRuleFromLens(page, 'Last 24 hours');

    // The engine is computing: the panel says so, and the progress toast offers Cancel.
    const panel = await wb.findWebviewFrame(page, '#rt-summary', /computing the detections/, { timeout: 90_000 });
    log(`Test Rule: ${await panel.locator('#rt-summary').innerText()}`);
    await wb.clickNotificationButton(page, /computing the detections/, 'Cancel');
    const cancelledAt = Date.now();
    await panel.locator('#rt-summary', { hasText: /Cancelled/ }).waitFor({ timeout: 10_000 });
    const cancelMs = Date.now() - cancelledAt;
    log(`cancelled: "${await panel.locator('#rt-summary').innerText()}" ${cancelMs} ms after Cancel`);
    if (cancelMs > 1_000) throw new Error(`the panel said cancelled ${cancelMs} ms after Cancel, not within a second`);
    await screenshot('rules-bomb-cancelled');

    // The extension host answers at once: the CodeLens's command asks for the range again.
    await wb.runCommand(page, 'View: Focus First Editor Group');
    await wb.openFile(page, `${RULE}.yaral`);
    const again = Date.now();
    await editor.locator('.codelens-decoration a', { hasText: 'Test Rule' }).first().click();
    await wb.pickQuickItem(page, 'Last 24 hours', 'UDM Search Time Range');
    const consent = await wb.modalDialog(page);
    log(`the editor answered the next Test Rule in ${Date.now() - again} ms`);
    await consent.locator('.monaco-button', { hasText: 'Cancel' }).click();
  } finally {
    rmSync(file, { force: true });
  }
}
