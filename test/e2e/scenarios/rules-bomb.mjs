// A rule whose placeholders multiply, tested in the real editor: seven placeholders bound to one
// repeated field over events with 16 addresses each. The engine computes in its worker, so the
// editor keeps answering while it runs; Cancel in the progress toast ends the worker and the panel
// says the test was cancelled, and the CodeLens answers again at once. Left to run, the engine's work
// limit ends the test with a "Cut short" banner that says where it stopped; the hostile host names of
// the events (an icon syntax and a right-to-left override) read as the results table shows them.
// A test file of such cases beside the rule, run from the Test Explorer, computes in its own worker:
// Test Rule's question comes up while they run, and each case ends as an error that says it was cut.
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
  '    $e.principal.hostname = $h',
  '  match:',
  `    ${PLACEHOLDERS.join(', ')} over 1h`,
  '  outcome:',
  '    $host = array_distinct($h)',
  '  condition:',
  '    $e',
  '}',
  '',
].join('\n');

/** Test cases over the rule: each runs until the engine's work limit stops it. */
function bombCases(count) {
  const ips = Array.from({ length: 16 }, (_, j) => `'10.7.0.${j + 1}'`).join(', ');
  const one = (i) =>
    `  - name: bomb case ${i}\n    events:\n      - udm: { metadata: { eventTimestamp: '2026-11-01T09:${String(i).padStart(2, '0')}:00Z', eventType: NETWORK_CONNECTION, productName: ${MARK} }, principal: { hostname: h${i}, ip: [${ips}] } }\n    expect: { fires: false }\n`;
  return `cases:\n${Array.from({ length: count }, (_, i) => one(i)).join('')}`;
}

function events(now) {
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return Array.from({ length: 40 }, (_, i) => ({
    metadata: { eventTimestamp: iso(now - (i + 1) * 60_000), eventType: 'NETWORK_CONNECTION', productName: MARK },
    principal: {
      hostname: `$(warning) \u202eexe.gnp-${i}`,
      ip: Array.from({ length: 16 }, (_, j) => `10.7.${i % 4}.${j + 1}`),
    },
  }));
}

export async function run({ page, wb, sandbox, workspace, log, screenshot }) {
  const sandboxNow = Date.parse((await (await fetch(`${sandbox.http}/sandbox/v1/state`)).json()).now);
  await wb.sandboxAdmin(sandbox, 'events:ingest', { events: events(Math.min(Date.now(), sandboxNow)) });
  const file = join(workspace, 'rules', `${RULE}.yaral`);
  const testFile = join(workspace, 'rules', `${RULE}.test.yaml`);
  writeFileSync(file, RULE_TEXT);
  writeFileSync(testFile, bombCases(12));
  try {
    const editor = page.locator('.editor-group-container.active .monaco-editor').first();
    await wb.openFile(page, `${RULE}.yaral`);
    // The Test Explorer lists the cases, then runs them all; the editor answers Test Rule meanwhile.
    await wb.runCommand(page, 'Testing: Focus on Test Explorer View');
    const bombRow = page
      .locator('.test-explorer .monaco-list-row')
      .filter({ has: page.locator('.label', { hasText: new RegExp(`^${RULE}`) }) })
      .first();
    await bombRow.waitFor({ timeout: 60_000 });
    await wb.runCommand(page, 'Test: Run All Tests');
    await wb.openFile(page, `${RULE}.yaral`);
    const asked = Date.now();
    await wb.testRuleFromLens(page, 'Last 24 hours');
    const answeredMs = Date.now() - asked;
    log(`Test Rule's questions answered in ${answeredMs} ms while 12 bomb cases ran`);
    if (answeredMs > 10_000)
      throw new Error(`Test Rule took ${answeredMs} ms to ask while the rule's test cases ran: the host was held`);

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

    // Left to run, the work limit ends it: the banner says where it stopped and what is shown.
    const started = Date.now();
    await consent.locator('.monaco-button', { hasText: 'Run Test' }).click();
    const done = await wb.findWebviewFrame(page, '#rt-cut', /^Cut short: The join stopped/, {
      timeout: 90_000,
    });
    log(`cut after ${Date.now() - started} ms: "${await done.locator('#rt-cut').innerText()}"`);
    const summary = await done.locator('#rt-summary').innerText();
    if (!/detections/.test(summary)) throw new Error(`the cut run's summary names no detections: ${summary}`);
    // The host names read as text with a marker for the override, never as an icon or reversed.
    const outcome = await done.locator('tr.rt-row .rt-outcomes-cell').first().innerText();
    log(`first detection's outcomes: ${JSON.stringify(outcome)}`);
    if (!outcome.includes('$(warning) \u2039U+202E\u203aexe.gnp-'))
      throw new Error(`the outcome does not show the override as a marker: ${JSON.stringify(outcome)}`);
    if (outcome.includes('\u202e')) throw new Error('the outcome carries the override character itself');
    await screenshot('rules-bomb-cut');

    // The test cases ended as errors that say the engine stopped early.
    await wb.runCommand(page, 'Testing: Focus on Test Explorer View');
    await page
      .locator('.test-explorer .monaco-list-row[aria-label*="placeholder_bomb"][aria-label*="(Errored)"]')
      .first()
      .waitFor({ timeout: 120_000 });
    log(`the rule's test cases: ${await bombRow.getAttribute('aria-label')}`);
  } finally {
    rmSync(file, { force: true });
    rmSync(testFile, { force: true });
  }
}
