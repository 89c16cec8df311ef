// Models: browse to a version's evaluation slices, copy a model with progress, cancel an export, and
// meet the delete guard that names the endpoint a model is deployed to.
export const name = 'models: browse, copy, cancel export, delete guard';

const MODEL = 'churn-predictor'; // us-central1, version 3 deployed to endpoint churn-online

export async function run({ page, wb, sandbox, log, screenshot }) {
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');

  // Browse: location → model → version → evaluation → slice.
  await wb.expandRow(models, 'us-central1', MODEL);
  await wb.expandRow(models, MODEL, 'Version 3');
  await wb.expandRow(models, 'Version 3', 'evaluation-v3-holdout');
  await wb.expandRow(models, 'evaluation-v3-holdout', 'annotationSpec = churned');
  await wb.treeRow(models, 'annotationSpec = retained').waitFor();
  log('browsed to the slices of version 3');

  // Copy with progress: the sandbox keeps the operation running until its clock moves on.
  // The original, not the copy made below: both show the display name, but the description starts
  // with the model ID, which is churn-predictor only for the original.
  const modelRow = models
    .locator('.monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${MODEL}$`) }) })
    .filter({ has: page.locator('.label-description', { hasText: new RegExp(`^${MODEL}\\b`) }) })
    .first();
  await wb.contextMenu(page, modelRow, 'Copy Model to Location…', models);
  // The default version (4) comes first in the version pick.
  await wb.pickQuickItem(page, 'Version 4', `Copy model ${MODEL} (us-central1)`);
  const what = `version 4 of model ${MODEL} (us-central1)`;
  await wb.pickQuickItem(page, 'europe-west4', `Copy ${what} to location`);
  await wb.pickQuickItem(page, 'New model', `Copy ${what} to europe-west4`);
  await wb.answerInputBox(page, 'churn-copy-e2e', `Copy ${what} to europe-west4`);
  await wb.waitForNotification(page, `Copy ${what} to europe-west4`);
  const operations = await wb.expandView(page, 'Operations');
  await wb.treeRow(operations, `Copy ${what} to europe-west4`).waitFor();
  await wb.sandboxAdmin(sandbox, 'clock:advance', { seconds: 120 });
  await wb.waitForNotification(
    page,
    /Copied version 4 of model churn-predictor \(us-central1\) to model churn-predictor \(ID churn-copy-e2e, europe-west4\)/,
    { timeout: 60_000 },
  );
  // The command ends by opening the copy's details; the tree has been refreshed by then.
  await page.locator('.tabs-container .tab.active', { hasText: 'churn-copy-e2e.json' }).waitFor();
  // ...and by revealing the copy in the tree: its location expanded, the copy selected.
  await models
    .locator('.monaco-list-row.selected')
    .filter({ has: page.locator('.label-description', { hasText: /^churn-copy-e2e\b/ }) })
    .first()
    .waitFor({ timeout: 30_000 });
  log('copied with progress; the copy is revealed in the tree');
  // Back to a short tree, so the rows used next are in view without scrolling.
  await wb.viewAction(models, 'Collapse All');
  await wb.expandRow(models, 'cloudbench-demo', 'us-central1');
  await wb.expandRow(models, 'us-central1', MODEL);
  await page.keyboard.press('Escape');

  // Cancel an export from its progress notification.
  await wb.contextMenu(page, modelRow, 'Export Model…', models);
  await wb.pickQuickItem(page, 'tf-saved-model', `of model ${MODEL} (us-central1)`);
  await wb.answerInputBox(page, 'gs://cloudbench-e2e/exports/', 'Export destination');
  const exportTitle = `of model ${MODEL} (us-central1) as tf-saved-model`;
  await wb.waitForNotification(page, exportTitle);
  await wb.clickNotificationButton(page, exportTitle, 'Cancel');
  await wb.waitForNotification(page, new RegExp(`${wb.escapeRegExp(exportTitle)}: cancelled`), { timeout: 60_000 });
  log('export cancelled');

  // Delete guard: a deployed model is not deleted; the dialog names its endpoint.
  await wb.contextMenu(page, modelRow, 'Delete Model', models);
  const dialog = await wb.modalDialog(page);
  await dialog.filter({ hasText: `Model ${MODEL} (us-central1) cannot be deleted while it is deployed.` }).waitFor();
  await dialog.filter({ hasText: 'churn-online' }).waitFor();
  await screenshot('delete-guard');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  await wb.revealRow(models, modelRow);
}
