// Models through their life: edit a model's labels (checked as typed, a control character refused),
// copy version 2 as a new version of a model in another location, see an operation started outside
// the window (with Google's official client, through the sandbox's API) in the Operations view,
// and undeploy a version after reading its endpoint's traffic split.
import { createRequire } from 'node:module';

export const name = 'models-lifecycle: edit labels, copy a version into a model, operations from elsewhere, undeploy';

const require = createRequire(import.meta.url);
const US = 'projects/cloudbench-demo/locations/us-central1';
const EU = 'projects/cloudbench-demo/locations/europe-west4';

/** Google's official aiplatform client pointed at the sandbox (reference/real-editor-testing.md). */
function officialClient(sandbox) {
  const grpc = require('@grpc/grpc-js');
  const { v1beta1 } = require('@google-cloud/aiplatform');
  const { googleAuthLibrary } = require('google-gax');
  const [host, port] = sandbox.grpc.split(':');
  return new v1beta1.ModelServiceClient({
    apiEndpoint: host,
    port: Number(port),
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new googleAuthLibrary.OAuth2Client(),
    'grpc.callInvocationTransformer': (p) => {
      p.metadata.set('authorization', 'Bearer e2e');
      return p;
    },
  });
}

export async function run({ page, wb, sandbox, log, screenshot }) {
  await wb.openContainer(page);
  const models = await wb.focusView(page, 'Models');
  await wb.expandRow(models, 'us-central1', 'churn-predictor');
  const churn = wb.exactRow(models, 'churn-predictor');

  // Edit Model…: Enter keeps the display name and description; the labels are checked as typed.
  await wb.contextMenu(page, churn, 'Edit Model…', models);
  await wb.answerInputBox(page, 'churn-predictor', 'display name');
  await wb.answerInputBox(page, '', 'description');
  const widget = await wb.quickInput(page, 'labels');
  const input = widget.locator('input.input');
  await input.fill('Env=prod');
  await wb
    .inputValidation(page)
    .filter({ hasText: /"E" \(U\+0045\)/ })
    .waitFor();
  await input.fill('env=pr\u0007od');
  await wb
    .inputValidation(page)
    .filter({ hasText: /U\+0007/ })
    .waitFor();
  await screenshot('labels-refused');
  await input.fill('env=prod, team=growth');
  await input.press('Enter');
  await wb.waitForNotification(
    page,
    /Model churn-predictor \(us-central1\): updated description, labels\.|updated labels\./,
  );
  log('edited the labels; bad input refused as typed');

  // Copy version 2 as a new version of a model in europe-west4.
  await wb.contextMenu(page, churn, 'Copy Model to Location…', models);
  await wb.pickQuickItem(page, 'Version 2', 'Copy model churn-predictor (us-central1)');
  const what = 'version 2 of model churn-predictor (us-central1)';
  await wb.pickQuickItem(page, 'europe-west4', `Copy ${what} to location`);
  await wb.pickQuickItem(page, 'New version of an existing model', `Copy ${what} to europe-west4`);
  await wb.pickQuickItem(page, 'xgb-credit-scoring', `Copy ${what} to europe-west4`);
  await wb.waitForNotification(page, `Copy ${what} to europe-west4 as a new version of xgb-credit-scoring`);
  await wb.sandboxAdmin(sandbox, 'clock:advance', { seconds: 120 });
  await wb.waitForNotification(
    page,
    /Copied version 2 of model churn-predictor \(us-central1\) to model .*, version \d+\./,
    {
      timeout: 60_000,
    },
  );
  log('copied version 2 into xgb-credit-scoring (europe-west4)');

  // An operation started outside the window shows in the Operations view.
  const client = officialClient(sandbox);
  // Model IDs are not display names: find fraud-detector's resource name as any API user would.
  const [usModels] = await client.listModels({ parent: US });
  const fraud = usModels.find((m) => m.displayName === 'fraud-detector');
  if (!fraud) throw new Error('the sandbox lists no fraud-detector model in us-central1');
  const [op] = await client
    .exportModel({
      name: fraud.name,
      outputConfig: { exportFormatId: '', artifactDestination: { outputUriPrefix: 'gs://cloudbench-e2e/outside/' } },
    })
    .catch(async () => client.copyModel({ parent: EU, sourceModel: `${fraud.name}@4` }));
  const operations = await wb.expandView(page, 'Operations');
  await wb.viewAction(operations, 'Refresh Operations');
  const outside = operations.locator('.monaco-list-row').filter({ hasText: 'started elsewhere' }).first();
  await outside.waitFor({ timeout: 30_000 });
  await screenshot('operation-from-elsewhere');
  log(`the Operations view lists ${op.name} started outside the window`);
  await client.close();

  // Undeploy support-ticket-router's version 3 from support-bot (it receives no traffic).
  await wb.focusView(page, 'Models');
  await wb.expandRow(models, 'us-central1', 'support-ticket-router');
  await wb.expandRow(models, 'support-ticket-router', 'Version 3');
  // A deployed version's rows are its deployments, one per endpoint, with their traffic share.
  await wb.expandRow(models, 'Version 3', 'support-bot');
  const deployment = wb.exactRow(models, 'support-bot');
  await deployment.filter({ hasText: 'no traffic' }).first().waitFor();
  await wb.contextMenu(page, deployment, 'Undeploy from Endpoint…', models);
  const dialog = await wb.modalDialog(page);
  await dialog.filter({ hasText: /Traffic now: 100% .*, 0% / }).waitFor();
  await dialog.locator('.monaco-button', { hasText: 'Undeploy' }).first().click();
  await wb.sandboxAdmin(sandbox, 'clock:advance', { seconds: 60 });
  await wb.waitForNotification(page, /Undeployed version 3 of model .* from support-bot\./, { timeout: 60_000 });
  log('undeployed version 3 from support-bot after reading its traffic split');
}
