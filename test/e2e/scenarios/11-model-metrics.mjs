// Models: open an evaluation's metrics panel (headline metrics, PR/ROC curves, confusion matrix),
// and compare it with another version's evaluation.
export const name = 'models: metrics panel and compare';

const MODEL = 'churn-predictor'; // us-central1; version 3 has evaluation-v3-holdout

export async function run({ page, wb, log, screenshot }) {
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');

  await wb.expandRow(models, 'us-central1', MODEL);
  await wb.expandRow(models, MODEL, 'Version 3');
  await wb.expandRow(models, 'Version 3', 'evaluation-v3-holdout');
  const evaluation = models.locator('.monaco-list-row').filter({ hasText: 'evaluation-v3-holdout' }).first();
  await evaluation.waitFor();
  // The row says its headline metrics.
  await evaluation.filter({ hasText: /auPRC 0\.\d+ · auROC 0\.\d+ · log loss 0\.\d+/ }).waitFor();
  log('evaluation row shows its headline metrics');

  await wb.contextMenu(page, evaluation, 'Show Metrics', models);
  await page.locator('.tabs-container .tab', { hasText: `Metrics: ${MODEL} v3 · evaluation-v3-holdout` }).waitFor();
  const panel = wb.webviewFrame(page);
  await panel.locator('h1', { hasText: `Metrics: ${MODEL} v3 · evaluation-v3-holdout` }).waitFor();
  await panel.locator('dt', { hasText: 'Area under the PR curve (auPRC)' }).waitFor();
  await panel
    .locator('dd[data-metric="auRoc"]')
    .filter({ hasText: /^0\.\d+$/ })
    .waitFor();
  await panel.locator('canvas#pr-chart').waitFor();
  await panel.locator('canvas#roc-chart').waitFor();
  await panel.locator('table#matrix-subject td.cell .count').first().waitFor();
  await panel
    .locator('#threshold-values', { hasText: /^Threshold 0\.5: precision 0\.\d+, recall 0\.\d+, F1 0\.\d+$/ })
    .waitFor();
  await screenshot('metrics-panel');
  log('metrics panel shows headline metrics, curves and the confusion matrix');

  // Compare with another evaluation: the headline becomes a side-by-side table.
  const select = panel.locator('select#compare');
  const other = await select
    .locator('option', { hasText: /^Version 4 · / })
    .first()
    .getAttribute('value');
  await select.selectOption(other);
  await panel.locator('table.compare th', { hasText: /^Difference/ }).waitFor();
  await panel.locator('.comparing', { hasText: /^Comparing evaluation-v3-holdout with Version 4 · / }).waitFor();
  await screenshot('metrics-compare');
  log('compared with version 4');
}
