// Key audit: Audit Keys on the demo project shows the CIS findings as a report and on the API Keys
// rows; a key without an API restriction is fixed from its row (Fix Audit Finding → Edit
// Restrictions) and its finding goes, from the row and from the report.
export const name = 'keys-audit: audit the demo keys, findings on rows and in the report, fix one';

const INGEST_PATH = '/v2/projects/cloudbench-demo/locations/global/keys/ipv6-ingest';
const REPORT_TAB = 'key-audit-cloudbench-demo.md';

/** The report document's text (a read-only Markdown document), once it shows `pattern`. */
async function reportText(page, pattern) {
  const group = page.locator('.editor-group-container').filter({
    has: page.locator('.tab.active', { hasText: REPORT_TAB }),
  });
  const lines = group.locator('.monaco-editor .view-lines').first();
  await lines.filter({ hasText: pattern }).waitFor({ timeout: 60_000 });
  return (await lines.innerText()).replace(/\s+/g, ' ');
}

async function showReport(page) {
  await page.locator('.tabs-container .tab', { hasText: REPORT_TAB }).first().click();
}

export async function run({ page, wb, sandbox, log, screenshot }) {
  await wb.openContainer(page);
  const keys = await wb.focusView(page, 'API Keys');
  await wb.treeRow(keys, 'Maps JavaScript (website)').waitFor();
  const ingest = wb.treeRow(keys, 'Ingest workers (IPv6)');
  if ((await (await wb.revealRow(keys, ingest)).innerText()).includes('audit finding'))
    throw new Error('a row shows audit findings before any audit ran');

  await wb.runCommand(page, 'Cloudbench: Audit Keys (CIS 1.12-1.15)…');
  await wb.answerInputBox(page, '90', 'Audit Keys');
  const summary = await wb.waitForNotification(page, /Key audit: \d+ keys of \d+ in cloudbench-demo have \d+ findings/);
  const [, flagged, total, findings] = /(\d+) keys of (\d+) in cloudbench-demo have (\d+) findings/.exec(summary);
  if (Number(total) !== 15) throw new Error(`the audit counted ${total} active demo keys, not 15: ${summary}`);
  log(`audit: ${flagged} of ${total} keys with ${findings} findings`);

  await page.locator('.tabs-container .tab', { hasText: REPORT_TAB }).first().waitFor();
  // The summary table at the top of the report: every check found on at least one demo key.
  const report = await reportText(page, 'Not rotated');
  for (const [cis, check] of [
    ['1.13', 'No application restriction'],
    ['1.13', 'Application restriction allows any site or host'],
    ['1.14', 'No API restriction'],
    ['1.14', 'API restriction allows every API'],
    ['1.15', 'Not rotated'],
  ]) {
    if (!new RegExp(`\\| ${cis.replace('.', '\\.')} \\| ${check} \\| [1-9]`).test(report))
      throw new Error(`the report's summary has no "${check}" finding: ${report.slice(0, 800)}`);
  }
  if (!report.includes(`${flagged} keys with ${findings} findings`))
    throw new Error(`the report's counts differ from the notification's: ${report.slice(0, 400)}`);
  await screenshot('audit-report');

  // Decorations: a flagged row says so, a clean one does not.
  const flaggedRow = await wb.revealRow(keys, ingest);
  await flaggedRow.filter({ hasText: '1 audit finding' }).waitFor();
  const partner = await wb.revealRow(keys, wb.treeRow(keys, 'Partner portal'));
  if ((await partner.innerText()).includes('audit finding'))
    throw new Error('the clean key "Partner portal" is flagged');
  await screenshot('audit-rows');
  log('rows: "Ingest workers (IPv6)" flagged, "Partner portal" clean');

  // The fix, from the row: Fix Audit Finding → No API restriction → the restriction editor.
  await wb.contextMenu(page, ingest, 'Fix Audit Finding…', keys);
  await wb.pickQuickItem(page, 'No API restriction', 'Audit findings of');
  const form = wb.webviewFrame(page);
  await form.locator('#api-restricted').check();
  await form.locator('#api-targets').fill('pubsub.googleapis.com');
  await form.locator('#save:not([disabled])').click();
  await form.locator('#status', { hasText: 'Saved.' }).waitFor();
  const saved = await wb.sandboxRest(sandbox, 'GET', INGEST_PATH);
  const services = (saved.json?.restrictions?.apiTargets ?? []).map((t) => t.service);
  if (JSON.stringify(services) !== '["pubsub.googleapis.com"]')
    throw new Error(`the key's API targets on the server are ${JSON.stringify(services)}`);
  log('API restriction saved through Edit Restrictions');

  const fixedRow = await wb.revealRow(keys, ingest);
  await fixedRow.filter({ hasText: 'pubsub.googleapis.com' }).waitFor();
  if ((await fixedRow.innerText()).includes('audit finding'))
    throw new Error(`the fixed row still shows a finding: ${await fixedRow.innerText()}`);
  await showReport(page);
  await reportText(page, `${Number(flagged) - 1} keys with ${Number(findings) - 1} findings`);
  await screenshot('finding-fixed');
  log(`fixed: the row and the report lost the finding (${Number(findings) - 1} left)`);
}
