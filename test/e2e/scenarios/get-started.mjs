/* global document */
// The Get Started walkthrough in the real editor: with its progress reset, it opens from "Welcome:
// Open Walkthrough..." with every step open; each step is then done the way a user does it (open
// the Cloudbench views, a model evaluation's metrics, a key's restrictions, a UDM query, a
// statistical query, Test Rule) and the walkthrough shows that step checked, without the user
// ticking anything. `node test/e2e/run.mjs --screenshots` runs this scenario to take the README's
// screenshots of each area.
export const name = 'get-started: the walkthrough checks each step as the user does it';
// Every area of the extension, each followed by a look at the walkthrough.
export const timeoutMs = 420_000;

const WALKTHROUGH = 'Get Started with Cloudbench';
const STEPS = ['connect', 'models', 'keys', 'search', 'statistics', 'rules'];

/** Opens (or brings back) the walkthrough page and returns it. */
async function openWalkthrough(page, wb) {
  await wb.runCommand(page, 'Welcome: Open Walkthrough...');
  await wb.pickQuickItem(page, WALKTHROUGH);
  const walkthrough = page.locator('.gettingStartedContainer');
  await walkthrough.locator('h2.category-title', { hasText: WALKTHROUGH }).first().waitFor();
  return walkthrough;
}

/** The checked state of each step, as the walkthrough's check boxes say it (aria-checked). */
async function checkedSteps(walkthrough) {
  const boxes = walkthrough.locator('.getting-started-step [data-done-step-id]');
  await boxes.first().waitFor();
  const states = await boxes.evaluateAll((nodes) =>
    nodes.map((n) => [n.getAttribute('data-done-step-id'), n.getAttribute('aria-checked') === 'true']),
  );
  return Object.fromEntries(states.map(([id, done]) => [id.slice(id.lastIndexOf('#') + 1), done]));
}

/** Opens the walkthrough and waits until exactly the steps `done` are checked. */
async function expectChecked(page, wb, log, done) {
  const walkthrough = await openWalkthrough(page, wb);
  await walkthrough.locator('.getting-started-step [data-done-step-id]').first().waitFor();
  const matches = await page
    .waitForFunction(
      ({ steps, wanted }) => {
        const boxes = [
          ...document.querySelectorAll('.gettingStartedContainer .getting-started-step [data-done-step-id]'),
        ];
        const checked = new Map(
          boxes.map((n) => {
            const id = n.getAttribute('data-done-step-id');
            return [id.slice(id.lastIndexOf('#') + 1), n.getAttribute('aria-checked') === 'true'];
          }),
        );
        return steps.every((s) => checked.get(s) === wanted.includes(s));
      },
      { steps: STEPS, wanted: done },
      { timeout: 30_000 },
    )
    .then(
      () => true,
      () => false,
    );
  const states = await checkedSteps(walkthrough);
  if (!matches)
    throw new Error(
      `expected ${done.join(', ') || 'no step'} checked, the walkthrough shows ${JSON.stringify(states)}`,
    );
  log(`checked: ${STEPS.filter((s) => states[s]).join(', ') || 'none'}`);
  return walkthrough;
}

export async function run({ page, wb, log, readmeScreenshot }) {
  // A fresh start: earlier scenarios in this profile ran the same commands.
  await wb.runCommand(page, 'Developer: Reset Welcome Page Walkthrough Progress');
  await page.reload();
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await wb.activityItem(page).waitFor({ timeout: 60_000 });

  const ids = Object.keys(await checkedSteps(await openWalkthrough(page, wb)));
  if (ids.join() !== STEPS.join()) throw new Error(`the walkthrough lists the steps ${ids.join(', ')}`);

  // 1. Connect: Cloudbench signs in by itself with this profile's credentials (they reach the
  // sandbox) once it starts; the step checks itself then, and no other step is checked.
  await wb.openContainer(page);
  await wb.treeRow(wb.viewPane(page, 'Models'), 'us-central1').waitFor({ timeout: 60_000 });
  await expectChecked(page, wb, log, ['connect']);
  await readmeScreenshot('walkthrough');

  // 2. A model evaluation's metrics.
  const models = await wb.focusView(page, 'Models');
  await wb.expandRow(models, 'us-central1', 'churn-predictor');
  await wb.expandRow(models, 'churn-predictor', 'Version 3');
  await wb.expandRow(models, 'Version 3', 'evaluation-v3-holdout');
  const evaluation = models.locator('.monaco-list-row').filter({ hasText: 'evaluation-v3-holdout' }).first();
  await wb.contextMenu(page, evaluation, 'Show Metrics', models);
  await wb.webviewFrame(page).locator('table#matrix-subject td.cell .count').first().waitFor();
  await readmeScreenshot('models');
  await expectChecked(page, wb, log, ['connect', 'models']);

  // 3. A key's restrictions.
  const keys = await wb.focusView(page, 'API Keys');
  const key = wb.treeRow(keys, 'Maps JavaScript (website)');
  await key.waitFor();
  await wb.contextMenu(page, key, 'Edit Restrictions…', keys);
  await wb.webviewFrame(page).locator('#referrers').waitFor();
  await readmeScreenshot('keys');
  await expectChecked(page, wb, log, ['connect', 'models', 'keys']);

  // 4. A UDM search.
  await wb.openFile(page, 'failed-logins.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const results = await wb.findWebviewFrame(page, '#run-summary', /\d/, { timeout: 90_000 });
  await results.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  await results.locator('#grid .row .cell').first().click();
  await results.locator('#detail-tree').waitFor();
  await readmeScreenshot('search');
  await expectChecked(page, wb, log, ['connect', 'models', 'keys', 'search']);

  // 5. A statistical search.
  await wb.openFile(page, 'logins-per-host.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');
  const stats = await wb.findWebviewFrame(page, '#stats-summary', /Computed by Cloudbench/, { timeout: 90_000 });
  await stats.locator('.stats-row').first().waitFor();
  await readmeScreenshot('statistics');
  await expectChecked(page, wb, log, ['connect', 'models', 'keys', 'search', 'statistics']);

  // 6. Test Rule, as the walkthrough's button runs it: the command on the open rule. (A CodeLens
  // click reaches the editor as VS Code's internal delegation command, which onCommand never sees.)
  await wb.openFile(page, 'repeated_failed_logins.yaral');
  await wb.runCommand(page, 'Cloudbench: Test Rule…');
  await wb.pickQuickItem(page, 'Last 7 days', 'UDM Search Time Range');
  const dialog = await wb.modalDialog(page);
  await dialog.locator('.monaco-button', { hasText: 'Run Test' }).click();
  const ruleTest = await wb.findWebviewFrame(page, '#rt-summary', /detections? over .* spent/, { timeout: 90_000 });
  await ruleTest.locator('tr.rt-row').first().click();
  await readmeScreenshot('rules');
  await expectChecked(page, wb, log, STEPS);
}
