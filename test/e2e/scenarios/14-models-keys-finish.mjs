// Models and API keys say exactly what they mean: Select Project… lists the projects the
// credentials can see (recent first, filtered as you type, a typed ID checked before use), the
// confusion matrix has counts in its cells, rows and hovers say each fact once and name endpoints
// by their display names, and the Create API Key step uses the platforms' plain names.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const name = 'models-keys-finish: project picker, matrix counts, row, tooltip and message texts';
// Declared so that the runner puts the profile's user and machine settings back afterwards.
export const userSettings = {};

const PICKER = 'Select Google Cloud Project';

async function openPicker(page, wb) {
  await wb.runCommand(page, 'Cloudbench: Select Project…');
  const widget = await wb.quickInput(page, PICKER);
  // The first page of projects has arrived once a listed (not recent) project shows.
  await widget.locator('.monaco-list-row', { hasText: 'Fraud Analytics' }).waitFor();
  return widget;
}

function pickRow(widget, text) {
  return widget.locator('.monaco-list-row', { hasText: text }).first();
}

/**
 * The text of the hover that a tree row shows when the pointer rests on it. The workbench shows a
 * hover only after the pointer moves onto the row, so each try moves it away first.
 */
async function hoverText(page, row, pattern) {
  const hover = page.locator('.monaco-hover, .workbench-hover').filter({ hasText: pattern }).first();
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await row.locator('.label-name').hover();
    try {
      await hover.waitFor({ timeout: 10_000 });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  const text = await hover.innerText();
  await page.mouse.move(0, 0);
  return text;
}

/**
 * Machine-scoped settings of a remote window (code-server) belong in the remote machine settings:
 * the sandbox endpoints are copied there, as a user of a remote window would keep them, so they
 * hold when the picker writes cloudbench.project.
 */
function endpointsInMachineSettings(workspace) {
  const profile = join(dirname(dirname(workspace)), 'user-data');
  const user = JSON.parse(readFileSync(join(profile, 'User/settings.json'), 'utf8'));
  const machineFile = join(profile, 'Machine/settings.json');
  const machine = existsSync(machineFile) ? JSON.parse(readFileSync(machineFile, 'utf8')) : {};
  for (const [key, value] of Object.entries(user)) if (key.startsWith('cloudbench.endpoints.')) machine[key] = value;
  mkdirSync(dirname(machineFile), { recursive: true });
  writeFileSync(machineFile, JSON.stringify(machine, null, 2));
}

export async function run({ page, wb, workspace, log, screenshot }) {
  endpointsInMachineSettings(workspace);
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');
  await wb.exactRow(models, 'cloudbench-demo').waitFor();

  // From the list, filtered by display name; a project pending deletion is not offered.
  let picker = await openPicker(page, wb);
  if (await pickRow(picker, 'Vision Pilot 2023').count()) throw new Error('a project pending deletion is listed');
  await picker.locator('input.input').fill('Cloudbench Staging');
  await pickRow(picker, 'Cloudbench Staging').click();
  await wb.exactRow(models, 'cloudbench-staging').waitFor();
  log('picked Cloudbench Staging from the list');

  // Recently used first; a typed ID the list does not show is checked before it is used.
  picker = await openPicker(page, wb);
  const first = picker.locator('.monaco-list-row').first();
  await first.filter({ hasText: 'Cloudbench Staging' }).waitFor();
  await first.filter({ hasText: 'Recently used' }).waitFor();
  const input = picker.locator('input.input');
  await input.fill('no-such-project-42');
  await pickRow(picker, 'Use project "no-such-project-42"').waitFor();
  await input.press('Enter');
  await pickRow(picker, /does not exist, or these credentials cannot see it \(PERMISSION_DENIED\)/).waitFor();
  await screenshot('project-refused');
  await input.fill('vision-pilot-2023');
  await pickRow(picker, 'Use project "vision-pilot-2023"').waitFor();
  await input.press('Enter');
  await wb.exactRow(models, 'vision-pilot-2023').waitFor();
  log('a typed unknown project is refused; a typed existing one is used');

  // Back to the demo project, found by its number.
  picker = await openPicker(page, wb);
  await picker.locator('input.input').fill('123456789012');
  await pickRow(picker, 'Cloudbench Demo').click();
  await wb.exactRow(models, 'cloudbench-demo').waitFor();
  log('picked Cloudbench Demo by its project number');

  // Rows and hovers: deployment named by endpoint, the default alias once.
  await wb.expandRow(models, 'us-central1', 'fraud-detector');
  const fraud = await wb.revealRow(models, wb.exactRow(models, 'fraud-detector'));
  await fraud.filter({ hasText: 'deployed on fraud-realtime' }).waitFor();
  const fraudTip = await hoverText(page, fraud, /Deployed:/);
  if (!/version 4 on fraud-realtime \(endpoint \d+\)/.test(fraudTip) || /Deployed at/.test(fraudTip))
    throw new Error(`fraud-detector's hover does not name its endpoint: ${fraudTip}`);
  const churn = await wb.revealRow(models, wb.exactRow(models, 'churn-predictor'));
  await churn.filter({ hasText: 'deployed on churn-online' }).waitFor();
  // The pattern names this row's endpoint: the previous row's hover may still be showing.
  const churnTip = await hoverText(page, churn, /Deployed:[^]*churn-online/);
  if (!/version 3 on churn-online \(endpoint \d+\)/.test(churnTip))
    throw new Error(`churn-predictor's hover has no deployment line: ${churnTip}`);
  await wb.expandRow(models, 'churn-predictor', 'Version 4');
  const defaultVersion = await wb.revealRow(models, wb.exactRow(models, 'Version 4'));
  const description = await defaultVersion.locator('.label-description').innerText();
  if ((description.match(/default/g) ?? []).length !== 1 || description.includes('★'))
    throw new Error(`the default version says "default" more than once: ${description}`);
  log(`rows and hovers: "${description}"`);

  // Counts in the confusion matrix.
  await wb.expandRow(models, 'churn-predictor', 'Version 3');
  await wb.expandRow(models, 'Version 3', 'evaluation-v3-holdout');
  const evaluation = await wb.revealRow(models, wb.treeRow(models, 'evaluation-v3-holdout'));
  await wb.contextMenu(page, evaluation, 'Show Metrics', models);
  const panel = wb.webviewFrame(page);
  const cell = panel.locator('table#matrix-subject td.cell').first();
  await cell
    .locator('.count')
    .filter({ hasText: /^[\d,]+$/ })
    .waitFor();
  await cell
    .locator('.share')
    .filter({ hasText: /^\d+\.\d%$/ })
    .waitFor();
  const counts = await panel.locator('table#matrix-subject td.cell .count').allInnerTexts();
  if (counts.length !== 4 || counts.some((c) => !/^[\d,]+$/.test(c)))
    throw new Error(`the 2×2 matrix does not show a count in every cell: ${JSON.stringify(counts)}`);
  await screenshot('matrix-counts');
  log(`confusion matrix counts: ${counts.join(', ')}`);

  // The Create API Key step names the platforms plainly.
  await wb.runCommand(page, 'Cloudbench: Create API Key…');
  await wb.answerInputBox(page, 'Label check', 'Create API Key (1/5)');
  await wb.answerInputBox(page, 'label-check-e2e', 'Create API Key (2/5)');
  await wb.pickQuickItem(page, 'Standard key', 'Create API Key (3/5)');
  const step = await wb.quickInput(page, 'Create API Key (4/5): application restriction');
  const labels = await step.locator('.monaco-list-row .label-name').allInnerTexts();
  for (const wanted of ['Android apps', 'iOS apps'])
    if (!labels.includes(wanted)) throw new Error(`no "${wanted}" among ${JSON.stringify(labels)}`);
  if (labels.some((l) => /platform [AB]/.test(l))) throw new Error(`invented labels: ${JSON.stringify(labels)}`);
  await page.keyboard.press('Escape');
  log('Create API Key offers "Android apps" and "iOS apps"');
}
