// Errors that teach, against the sandbox (gRPC with the official protos for models, REST for keys):
// a refusal names the method's permission and the predefined role that holds it, a precondition
// failure without a reason lists the method's documented preconditions, and the table covers every
// method Cloudbench calls.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { describeError, GoogleApiError } from '../../../src/core/google/errors';
import { METHOD_REQUIREMENTS, requirementOf } from '../../../src/core/google/method-requirements';
import type * as TreeModule from '../../../src/features/models/tree';
import type * as KeysTreeModule from '../../../src/features/keys/tree';

useFakeVscode();
const tree = require('../../../src/features/models/tree') as typeof TreeModule;
const keysTree = require('../../../src/features/keys/tree') as typeof KeysTreeModule;

const PROJECT = 'cloudbench-demo';
const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

describe('errors that teach', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let models: ModelRegistryClient;
  let keys: ApiKeysClient;

  const faults = async (rules: unknown[]) => {
    const res = await fetch(`${sandbox.http}/sandbox/v1/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules }),
    });
    assert.equal(res.status, 200, await res.text());
  };
  const failure = async (work: Promise<unknown>): Promise<GoogleApiError> => {
    try {
      await work;
    } catch (err) {
      assert.ok(err instanceof GoogleApiError, String(err));
      return err;
    }
    throw new Error('expected a failure');
  };

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    models = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
      retry: NO_RETRY,
    });
    keys = new ApiKeysClient({ baseUrl: sandbox.http, tokens: sandboxTokenSource(), retry: NO_RETRY });
  });
  afterEach(() => faults([]));
  after(async () => {
    models.close();
    await sandbox.close();
  });

  it('covers every model, endpoint and key method the product calls', () => {
    for (const m of [
      'ListModels',
      'GetModel',
      'ListModelVersions',
      'DeleteModel',
      'DeleteModelVersion',
      'ExportModel',
      'CopyModel',
      'MergeVersionAliases',
      'ListModelEvaluations',
      'ListModelEvaluationSlices',
      'GetIamPolicy',
      'ListEndpoints',
      'apikeys.keys.list',
      'apikeys.keys.patch',
      'apikeys.keys.undelete',
    ])
      assert.ok(METHOD_REQUIREMENTS.has(m), m);
    for (const [method, r] of METHOD_REQUIREMENTS) {
      assert.match(r.permission, /^[a-z]+\.[a-zA-Z]+\.[a-zA-Z]+$/, method);
      assert.ok(
        r.roles.every((role) => role.startsWith('roles/')),
        method,
      );
      assert.match(r.docs, /^https:\/\/cloud\.google\.com\//, method);
    }
    assert.equal(
      requirementOf('/google.cloud.aiplatform.v1beta1.ModelService/ListModels'),
      requirementOf('ListModels'),
    );
    assert.deepEqual(requirementOf('apikeys.keys.create')?.roles, ['roles/serviceusage.apiKeysAdmin']);
  });

  it('PERMISSION_DENIED on ListModels names the permission and role, in the message and the tree row', async () => {
    await faults([
      {
        method: 'google.cloud.aiplatform.v1beta1.ModelService/ListModels',
        errorRate: 1,
        codes: ['PERMISSION_DENIED'],
      },
    ]);
    const err = await failure(models.listModelsPage({ parent: `projects/${PROJECT}/locations/us-central1` }));
    assert.equal(err.status, 'PERMISSION_DENIED');
    const text = describeError(err);
    assert.match(text, /aiplatform\.models\.list/);
    assert.match(text, /roles\/aiplatform\.viewer/);
    assert.doesNotMatch(text, /the role this action needs/);

    const provider = new tree.ModelsTreeProvider({
      client: () => models,
      project: () => PROJECT,
      configuredLocations: () => ['us-central1'],
      filter: () => undefined,
      importedAnnotations: () => [],
    });
    const [project] = await provider.getChildren();
    const [location] = await provider.getChildren(project);
    const [row] = await provider.getChildren(location);
    assert.ok(row instanceof tree.ErrorNode);
    assert.match(
      String(row.description),
      /PERMISSION_DENIED · needs aiplatform\.models\.list \(roles\/aiplatform\.viewer/,
    );
    assert.match(row.tooltip as string, /roles\/aiplatform\.viewer/);
  });

  it('a FAILED_PRECONDITION without a reason lists the preconditions of that method', () => {
    const bare = new GoogleApiError('FAILED_PRECONDITION', 'Precondition check failed.', { method: 'DeleteModel' });
    assert.match(describeError(bare), /No endpoint has a deployed model based on the model/);
    const reasoned = new GoogleApiError('FAILED_PRECONDITION', 'The Model is deployed at endpoint 123.', {
      method: 'DeleteModel',
    });
    // A reason of its own: the method's list is not repeated, only the general next step follows.
    assert.match(describeError(reasoned), /^The Model is deployed at endpoint 123\. \(FAILED_PRECONDITION\)\. \S/);
    assert.doesNotMatch(describeError(reasoned), /these must hold/);
  });

  it('the keys tree, toast and Operations row name the API keys role once', async () => {
    await faults([{ method: 'apikeys.keys.list', errorRate: 1, codes: ['PERMISSION_DENIED'] }]);
    const err = await failure(keys.listKeys(PROJECT));
    const operationsRow = describeError(err);
    assert.match(operationsRow, /apikeys\.keys\.list/);
    assert.match(operationsRow, /roles\/serviceusage\.apiKeysAdmin/);
    const row = keysTree.describeKeysFailure(err);
    assert.equal(row.split('roles/serviceusage.apiKeysAdmin').length - 1, 1, row);
  });
});
