// Statistical search in the real editor: a match:/outcome: query run with "Run UDM Query" opens the
// statistics view with one row per host, the header saying the figures were computed locally, a
// bar chart, and a drill-down from a group to its events.
export const name = 'stats: match/outcome query shows a table and a chart, a group opens its events';

export async function run({ page, wb, log, screenshot }) {
  await wb.openFile(page, 'logins-per-host.udm');
  await wb.runCommand(page, 'Cloudbench: Run UDM Query');

  const stats = await wb.findWebviewFrame(
    page,
    '#stats-summary',
    /Computed by Cloudbench over [\d,]+ events fetched from the API \(\d+ search/,
    { timeout: 90_000 },
  );
  const summary = await stats.locator('#stats-summary').innerText();
  log(`statistics: ${summary}`);

  const heads = await stats.locator('.stats-head-cell').allInnerTexts();
  if (heads.join('|') !== 'principal.hostname|$logins|$users') throw new Error(`columns: ${heads.join(', ')}`);
  const rows = stats.locator('.stats-row');
  await rows.first().waitFor();
  const count = await rows.count();
  if (count < 2) throw new Error(`expected a row per host, got ${count}`);
  const cells = async (i) => (await rows.nth(i).locator('.stats-cell').allInnerTexts()).map((t) => t.trim());
  const first = await cells(0);
  const second = await cells(1);
  if (!(Number(first[1]) >= Number(second[1]))) throw new Error(`order: $logins desc broken: ${first} / ${second}`);
  if (!(await stats.locator('#stats-chart').isVisible())) throw new Error('no chart for a one-key table');
  if (await stats.locator('#stats-partial').isVisible()) throw new Error('a complete table is marked partial');
  await screenshot('stats-table-and-chart');

  // Drill-down: the events behind the first host, in the events panel.
  await rows.first().click();
  const events = await wb.findWebviewFrame(
    page,
    '#run-title',
    new RegExp(`Events of principal\\.hostname = ${wb.escapeRegExp(first[0])}`),
    { timeout: 60_000 },
  );
  await events.locator('#grid .row').first().waitFor({ timeout: 60_000 });
  const eventSummary = await events.locator('#run-summary').innerText();
  if (!eventSummary.replace(/,/g, '').includes(first[1]))
    throw new Error(`the group has ${first[1]} events; the events panel says "${eventSummary}"`);
  log(`drill-down: ${eventSummary}`);
}
