// The packaged extension comes up in a real workbench: its container, its three views, a palette
// command, and no activation error.
export const name = 'smoke: container, views, palette command';

export async function run({ page, wb }) {
  const container = await wb.openContainer(page);
  for (const view of ['Models', 'API Keys', 'Operations']) {
    await wb.viewPane(page, view).locator('.pane-header').waitFor({ state: 'visible' });
  }
  // The Operations view is empty on a fresh start and explains itself through its welcome content.
  const operations = await wb.expandView(page, 'Operations');
  await operations.locator('.welcome-view-content', { hasText: 'Long-running operations you start' }).waitFor();

  // A palette command runs: Show Logs reveals the Cloudbench log channel with the activation line.
  await wb.runCommand(page, 'Cloudbench: Show Logs');
  const output = page.locator('.part.panel .view-lines');
  await output.filter({ hasText: /\[activate\]\s+activated\s+in\s+[\d.]+\s+ms/ }).waitFor();

  if (await page.locator('.notification-toast', { hasText: 'Cloudbench could not start' }).count()) {
    throw new Error('an activation error was reported');
  }
  await container.waitFor({ state: 'visible' });
}
