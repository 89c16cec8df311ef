// Without a project the Models view shows its welcome content, and its button runs the project picker.
export const name = 'welcome: no project set';
export const workspaceSettings = { 'cloudbench.project': '' };

export async function run({ page, wb }) {
  await wb.openContainer(page);
  const models = await wb.expandView(page, 'Models');
  const welcome = models.locator('.welcome-view-content');
  await welcome.filter({ hasText: 'Pick the Google Cloud project to browse.' }).waitFor();
  await welcome.locator('a.monaco-button', { hasText: 'Select Project' }).click();
  await wb.quickInput(page);
}
