// The Rule Coverage view in the real editor: the demo rules' ATT&CK tactics and techniques as a tree,
// a rule opened at its meta line from it, and the view following the disk: a new rule adds its
// tactic, a test file beside it marks it tested, deleting both takes them away.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const name = 'rule coverage: ATT&CK tactics, techniques and rules of the demo';

const PROBE = 'e2e_coverage_probe';

export async function run({ page, wb, workspace, log, screenshot }) {
  const rules = join(workspace, 'rules');
  await wb.openContainer(page);
  const pane = await wb.focusView(page, 'Rule Coverage');
  // Room for the tree: the Search view folds away too.
  const search = wb.viewPane(page, 'Search').locator('.pane-header');
  if ((await search.getAttribute('aria-expanded')) === 'true') await search.click();

  // The demo's tactics in the matrix's order, with their techniques.
  const c2 = await wb.revealRow(pane, wb.exactRow(pane, 'Command and Control'));
  await c2.filter({ hasText: /TA0011 · 4 techniques/ }).waitFor();
  await (
    await wb.revealRow(pane, wb.exactRow(pane, 'Credential Access'))
  )
    .filter({ hasText: /TA0006 · 1 technique/ })
    .waitFor();
  log('tactics: Credential Access (TA0006, 1 technique), Command and Control (TA0011, 4 techniques)');

  // Technique → rules; the rule opens at its first ATT&CK meta line.
  await wb.expandRow(pane, 'T1071.004', 'suspicious_domain_lookups');
  const dns = await wb.revealRow(pane, wb.exactRow(pane, 'T1071.004'));
  await dns.filter({ hasText: /Application Layer Protocol: DNS · 3 rules/ }).waitFor();
  await wb.expandRow(pane, 'T1110.001', 'repeated_failed_logins');
  await screenshot('coverage-tree');
  await (await wb.revealRow(pane, wb.exactRow(pane, 'repeated_failed_logins'))).click();
  await page.locator('.tabs-container .tab.active[data-resource-name="repeated_failed_logins.yaral"]').waitFor();
  await page
    .locator('.statusbar-item', { hasText: /Ln 8, Col 1/ })
    .first()
    .waitFor();
  log('repeated_failed_logins opened at line 8 (mitre_attack_tactic)');

  // A new rule on disk: its tactic appears; a test file beside it marks it tested.
  writeFileSync(
    join(rules, `${PROBE}.yaral`),
    `rule ${PROBE} {\n\n  meta:\n    author = "e2e"\n    tactic = "TA0008"\n    technique = "T1021.001"\n\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n\n  condition:\n    $e\n}\n`,
  );
  await wb.expandRow(pane, 'Lateral Movement', 'T1021.001');
  await wb.expandRow(pane, 'T1021.001', PROBE);
  await (await wb.revealRow(pane, wb.exactRow(pane, PROBE))).filter({ hasText: /no tests/ }).waitFor();
  writeFileSync(join(rules, `${PROBE}.test.yaml`), 'cases: []\n');
  await (await wb.revealRow(pane, wb.exactRow(pane, PROBE))).filter({ hasText: /tested · rules/ }).waitFor();
  await screenshot('coverage-new-rule-tested');
  log('a new rule added Lateral Movement / T1021.001; its test file marked it tested');

  rmSync(join(rules, `${PROBE}.test.yaml`));
  rmSync(join(rules, `${PROBE}.yaral`));
  await wb.exactRow(pane, 'Lateral Movement').waitFor({ state: 'detached' });
  log('deleting the rule took Lateral Movement away');
}
