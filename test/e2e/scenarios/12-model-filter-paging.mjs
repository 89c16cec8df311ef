// Models: Filter Models finds the models whose name contains the text typed (`churn` finds
// churn-predictor), and a location with more models than one page (us-east1, 120 models, 50 a
// page) shows "Load more…" until its last page is loaded.
export const name = 'models: substring filter and paging';

/** Clicks a row once no hover of a neighbouring row (left by the scrolling) lies over it. */
async function clickRow(page, wb, pane, row) {
  const target = await wb.revealRow(pane, row);
  await page.mouse.move(0, 0);
  await page.locator('.context-view .hover-contents').waitFor({ state: 'hidden' });
  await target.click();
}

export async function run({ page, wb, log, screenshot }) {
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');

  // Paging: the first page is the 50 newest models; "Load more…" fetches the next 50.
  await wb.expandRow(models, 'us-east1', 'churn-sweep-001');
  const loadMore = wb.exactRow(models, 'Load more…');
  await (await wb.revealRow(models, loadMore)).waitFor();
  await wb.revealRow(models, wb.exactRow(models, 'ranker-ablation-010'));
  await screenshot('paging-first-page');
  await clickRow(page, wb, models, loadMore);
  await wb.revealRow(models, wb.exactRow(models, 'anomaly-trial-020'));
  log('"Load more…" loaded the second page of us-east1');
  await clickRow(page, wb, models, loadMore);
  await wb.revealRow(models, wb.exactRow(models, 'price-sweep-020'));
  // All 120 are in: no "Load more…" after the last page.
  await loadMore.waitFor({ state: 'detached' });
  log('the last page has no "Load more…"');

  // Substring filter: part of a name, any case, across every page of each location.
  await wb.viewAction(models, 'Collapse All');
  await wb.viewAction(models, 'Filter Models');
  await wb.answerInputBox(page, 'CHURN', 'Filter Models');
  await wb.expandRow(models, 'cloudbench-demo', 'us-central1');
  await wb.expandRow(models, 'us-central1', 'churn-predictor');
  const usCentral = wb.exactRow(models, 'us-central1');
  await usCentral.filter({ hasText: 'name contains "CHURN"' }).waitFor();
  // Only matching models are listed: the fraud model of the same location is not.
  await wb.exactRow(models, 'fraud-detector').waitFor({ state: 'detached' });
  await screenshot('filter-churn');
  log('"CHURN" finds churn-predictor');
  // In the big location every page is searched: all 20 churn sweeps, nothing else.
  await wb.expandRow(models, 'us-east1', 'churn-sweep-020');
  await wb.exactRow(models, 'ctr-sweep-001').waitFor({ state: 'detached' });
  log('the filter finds churn-sweep-001..020 in us-east1');

  await wb.viewAction(models, 'Clear Models Filter');
  await usCentral.filter({ hasText: 'name contains' }).waitFor({ state: 'detached' });
}
