// Fault-injection runs: the real clients' flows (models tree, paging, every model LRO, key create /
// edit / delete / undelete, searches) against a sandbox that fails 20 % of calls, adds latency or
// resets connections. Every flow must complete or end with a clear GoogleApiError; afterwards the
// sandbox state (read with faults off) must show no duplicate and no half-applied or lost change.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import type { FaultRule } from '../../src/emulator/types';
import { ModelRegistryClient } from '../../src/core/models/client';
import type { ModelOperation } from '../../src/core/models/operation';
import { ApiKeysClient, keyName } from '../../src/core/apikeys/client';
import { RestrictionSession } from '../../src/core/apikeys/session';
import type { ApiKey, Restrictions } from '../../src/core/apikeys/types';
import { SecOpsClient } from '../../src/core/secops/client';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { GoogleApiError } from '../../src/core/google/errors';
import { OperationTrackingError } from '../../src/core/lro';
import { FAST_RETRY, admin, countFaults, newTally, runFlow, setFaults, type FlowTally } from './helpers';

const PROJECT = 'cloudbench-faults';
const LOC = 'us-central1';
const PARENT = `projects/${PROJECT}/locations/${LOC}`;
const COPY_PARENT = `projects/${PROJECT}/locations/europe-west4`;
const ORIGINAL: Restrictions = { browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*'] } };
const INTENDED: Restrictions = {
  browserKeyRestrictions: { allowedReferrers: ['https://www.example.com/*', 'https://*.example.org/*'] },
  apiTargets: [{ service: 'translate.googleapis.com' }],
};

interface Profile {
  name: string;
  rule: Omit<FaultRule, 'method'>;
}

const PROFILES: Profile[] = [
  { name: 'UNAVAILABLE at 20%', rule: { errorRate: 0.2, codes: ['UNAVAILABLE'] } },
  { name: 'INTERNAL at 20%', rule: { errorRate: 0.2, codes: ['INTERNAL'] } },
  { name: 'HTTP 500 at 20%', rule: { errorRate: 0.2, codes: [500] } },
  { name: 'HTTP 503 at 20%', rule: { errorRate: 0.2, codes: [503] } },
  { name: 'HTTP 429 at 20%', rule: { errorRate: 0.2, codes: [429] } },
  { name: '40 ms latency on every call', rule: { latencyMs: 40 } },
  { name: 'connection resets at 20%', rule: { resetRate: 0.2 } },
];

/** Totals over every profile, printed at the end for RELIABILITY.md. */
const totals = {
  faults: 0,
  resets: 0,
  delayed: 0,
  calls: 0,
  flows: 0,
  survived: 0,
  completed: 0,
  failedClearly: 0,
  trackingLost: 0,
};

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

describe('reliability: fault-injection runs across the clients', function () {
  this.timeout(120_000);

  after(() => {
    console.log(
      `\n      fault runs: faults injected: ${totals.faults + totals.resets} (errors ${totals.faults}, resets ${totals.resets}), delayed calls: ${totals.delayed}, calls: ${totals.calls}`,
    );
    console.log(
      `      fault runs: flows: ${totals.flows}, survived: ${totals.survived} (completed ${totals.completed}, failed with a clear error ${totals.failedClearly}), operations that ran on after the wait failed: ${totals.trackingLost}`,
    );
  });

  // Two fault seeds per profile: different calls fail, so different steps of each flow are hit.
  for (const profile of PROFILES)
    for (const faultSeed of [7, 19]) {
      it(`${profile.name} (fault seed ${faultSeed}): every flow completes or fails clearly; nothing duplicated, nothing lost`, async () => {
        const sb: Sandbox = await startSandbox({ seed: 'empty' });
        const tokens = sandboxTokenSource();
        const models = new ModelRegistryClient({
          tokenSource: tokens,
          endpoint: { apiEndpoint: sb.grpc },
          retry: FAST_RETRY,
          timeoutMs: 10_000,
        });
        const keys = new ApiKeysClient({
          baseUrl: sb.http,
          tokens,
          retry: FAST_RETRY,
          timeoutMs: 10_000,
          pollInitialDelayMs: 5,
          pollMaxDelayMs: 20,
        });
        const search = new SecOpsClient({ baseUrl: sb.http, tokens, retry: FAST_RETRY, timeoutMs: 10_000 });
        try {
          await admin(sb, 'ratelimits', { enabled: false });
          const finish = async <R>(op: ModelOperation<R, unknown>): Promise<R> => {
            sb.clock.advance(3600);
            return op.wait({ initialDelayMs: 5, maxDelayMs: 20 });
          };
          const upload = async (displayName: string, parentModel?: string): Promise<string> => {
            const op = await models.uploadModel({
              request: {
                parent: PARENT,
                model: {
                  displayName,
                  containerSpec: { imageUri: 'us-docker.pkg.dev/vertex-ai/prediction/sklearn-cpu.1-3:latest' },
                  artifactUri: 'gs://bucket/model',
                },
                ...(parentModel ? { parentModel } : {}),
              },
            });
            return (await finish(op)).model!;
          };

          // Fixtures, written with faults off.
          const source = await upload('source');
          await upload('source', source);
          const evaluation = await models.importModelEvaluation({
            parent: source,
            modelEvaluation: {
              displayName: 'holdout',
              metricsSchemaUri: 'gs://google-cloud-aiplatform/schema/modelevaluation/classification_metrics_1.0.0.yaml',
            },
          });
          await models.batchImportModelEvaluationSlices({
            parent: evaluation.name!,
            modelEvaluationSlices: [{ slice: { dimension: 'annotationSpec', value: 'cat' } }],
          });
          const versioned = await upload('versioned');
          await upload('versioned', versioned);
          await upload('versioned', versioned);
          const doomed = await upload('doomed');
          for (let i = 0; i < 4; i++) await upload(`filler-${i}`);
          const baselineNames: string[] = [];
          for await (const m of models.listModels({ request: { parent: PARENT, pageSize: 100 } }))
            baselineNames.push(m.name!);
          const editKey = await keys.createKey(PROJECT, {
            keyId: 'edit-me',
            displayName: 'edit me',
            restrictions: ORIGINAL,
          });
          await keys.createKey(PROJECT, { keyId: 'bin-me', displayName: 'bin me' });
          const now = Math.floor(sb.clock.now() / 1000) * 1000;
          const events = Array.from({ length: 40 }, (_, i) => ({
            metadata: { eventTimestamp: new Date(now - (i + 1) * 60_000).toISOString(), eventType: 'NETWORK_DNS' },
            principal: { hostname: 'host-a', ip: ['10.0.0.5'] },
            target: { hostname: 'evil.example.com' },
          }));
          await admin(sb, 'events:ingest', { events });

          const counts = countFaults(sb);
          await setFaults(sb, [{ method: '*', ...profile.rule }], faultSeed);
          const tally: FlowTally = newTally();
          const started = { copy: false, export: false, deleteVersion: false, deleteModel: false, create: false };
          const waitFailed: string[] = [];
          const lro = async <R>(
            what: keyof typeof started,
            op: () => Promise<ModelOperation<R, unknown>>,
          ): Promise<void> => {
            const handle = await op();
            started[what] = true;
            try {
              await finish(handle);
            } catch (err) {
              waitFailed.push(what);
              // The operation was accepted: the user must learn it may still finish, not that it failed.
              assert.ok(
                err instanceof OperationTrackingError && /may still be running/.test(err.message),
                `${what}: wait ended with ${String(err)}`,
              );
              throw err;
            }
          };

          await runFlow(tally, 'models tree load', async () => {
            const locations: string[] = [];
            for await (const l of models.listLocations(PROJECT)) locations.push(l.locationId!);
            assert.ok(locations.includes(LOC), `locations: ${locations.join(', ')}`);
            const page = await models.listModelsPage({ parent: PARENT, pageSize: 3 });
            assert.equal(page.items.length, 3);
            const versions = await models.listModelVersionsPage({ name: source, pageSize: 1 });
            assert.equal(versions.items.length, 1);
            assert.ok(versions.nextPageToken, 'a second version page');
            const evals = await models.listModelEvaluationsPage({ parent: source });
            assert.equal(evals.items.length, 1);
            const slices = await models.listModelEvaluationSlicesPage({ parent: evals.items[0].name! });
            assert.equal(slices.items.length, 1);
          });
          await runFlow(tally, 'models paging (page size 1)', async () => {
            const names: string[] = [];
            for await (const m of models.listModels({ request: { parent: PARENT, pageSize: 1 } })) names.push(m.name!);
            assert.deepEqual(names, baselineNames, 'paging under faults returns every model once, in order');
          });
          await runFlow(tally, 'copy model LRO', () =>
            lro('copy', () =>
              models.copyModel({ request: { parent: COPY_PARENT, sourceModel: source, modelId: 'copied' } }),
            ),
          );
          await runFlow(tally, 'export model LRO', () =>
            lro('export', () =>
              models.exportModel({
                name: source,
                outputConfig: {
                  exportFormatId: 'custom-trained',
                  artifactDestination: { outputUriPrefix: 'gs://out/' },
                },
              }),
            ),
          );
          await runFlow(tally, 'delete version LRO', () =>
            lro('deleteVersion', () => models.deleteModelVersion({ name: `${versioned}@2` })),
          );
          await runFlow(tally, 'delete model LRO', () =>
            lro('deleteModel', () => models.deleteModel({ name: doomed })),
          );

          await runFlow(tally, 'key create', async () => {
            const op = await keys.startCreateKey(PROJECT, { keyId: 'fault-new', displayName: 'created under faults' });
            started.create = true;
            await keys.wait(op);
          });
          let editOutcome = 'other' as 'saved' | 'conflict' | 'error' | 'other';
          let editMessage = '';
          await runFlow(tally, 'key restriction edit', async () => {
            const current = await keys.getKey(editKey.name);
            const session = new RestrictionSession(keys, current);
            try {
              const outcome = await session.save(INTENDED, current.etag);
              editOutcome = outcome.kind === 'saved' ? 'saved' : outcome.kind === 'conflict' ? 'conflict' : 'other';
            } catch (err) {
              editOutcome = 'error';
              editMessage = err instanceof Error ? err.message : String(err);
              throw err;
            }
          });
          let binOutcome = 'none';
          await runFlow(tally, 'key delete then undelete', async () => {
            const key = await keys.getKey(keyName(PROJECT, 'bin-me'));
            await keys.deleteKey(key.name, key.etag);
            binOutcome = 'deleted';
            await keys.undeleteKey(key.name);
            binOutcome = 'restored';
          });

          await runFlow(tally, 'udmSearch', async () => {
            const res = await search.udmSearch({
              query: 'principal.hostname = "host-a"',
              startTime: now - 3_600_000,
              endTime: now,
              limit: 100,
            });
            assert.equal(res.events.length, 40);
          });
          await runFlow(tally, 'ListEvents', async () => {
            const res = await search.listEvents({
              asset: { hostname: 'host-a' },
              startTime: now - 3_600_000,
              endTime: now,
              pageSize: 100,
            });
            assert.equal(res.events.length, 40);
          });
          await runFlow(tally, 'ListAssets', async () => {
            const res = await search.listAssets({
              artifact: { domainName: 'evil.example.com' },
              startTime: now - 3_600_000,
              endTime: now,
              pageSize: 10,
            });
            assert.ok(Array.isArray(res.assets));
          });

          // The sandbox state, read with faults off.
          await setFaults(sb, []);
          const problems = [...tally.failures];
          const copies: string[] = [];
          for await (const m of models.listModels({ parent: COPY_PARENT })) copies.push(m.name!);
          if (copies.length > 1) problems.push(`copy made ${copies.length} models`);
          if (started.copy !== (copies.length === 1))
            problems.push(`copy started=${started.copy} but ${copies.length} copies exist`);
          const after: string[] = [];
          for await (const m of models.listModels({ request: { parent: PARENT, pageSize: 100 } })) after.push(m.name!);
          const expected = baselineNames.filter((n) => !(started.deleteModel && n === doomed));
          if (!sameJson(after, expected))
            problems.push(`models after the run: ${after.length}, expected ${expected.length}`);
          const versions: string[] = [];
          for await (const v of models.listModelVersions({ name: versioned })) versions.push(v.versionId!);
          if (!sameJson(versions.sort(), started.deleteVersion ? ['1', '3'] : ['1', '2', '3']))
            problems.push(`versions after the run: ${versions.join(',')}`);

          const allKeys: ApiKey[] = [];
          for await (const k of keys.iterateKeys(PROJECT, { showDeleted: true })) allKeys.push(k);
          const created = allKeys.filter((k) => k.displayName === 'created under faults');
          if (created.length !== (started.create ? 1 : 0))
            problems.push(`key create started=${started.create}, keys made: ${created.length}`);
          const edited = await keys.getKey(editKey.name);
          const applied = sameJson(edited.restrictions, INTENDED);
          if (editOutcome === 'saved' && !applied)
            problems.push('the edit was reported saved but the server does not have it');
          if (editOutcome === 'conflict') problems.push('the edit met a conflict although nobody else wrote the key');
          if (editOutcome === 'error' && applied)
            problems.push(`the edit was applied but the user was told it failed: ${editMessage}`);
          if (!applied && !sameJson(edited.restrictions, ORIGINAL))
            problems.push(`restrictions are neither the original nor the edit: ${JSON.stringify(edited.restrictions)}`);
          const bin = await keys.getKey(keyName(PROJECT, 'bin-me'));
          if (binOutcome === 'restored' && bin.deleteTime) problems.push('key reported restored but is deleted');
          if (binOutcome === 'none' && bin.deleteTime)
            problems.push('key delete reported failed but the key is deleted');

          // A failed wait on a started operation: the work goes on server-side; counted for the report.
          totals.trackingLost += waitFailed.length;
          totals.faults += counts.errors;
          totals.resets += counts.resets;
          totals.delayed += counts.delayed;
          totals.calls += counts.calls;
          totals.flows += tally.run;
          totals.completed += tally.completed;
          totals.failedClearly += tally.failedClearly;
          totals.survived += tally.completed + tally.failedClearly - tally.failures.length;
          assert.ok(counts.errors + counts.resets + counts.delayed > 0, 'the fault rules were applied');
          assert.deepEqual(
            problems,
            [],
            `${profile.name}: ${tally.completed} completed, ${tally.failedClearly} failed clearly`,
          );
        } finally {
          models.close();
          await sb.close();
        }
      });
    }

  it('retries only calls that are safe to repeat: reads are retried, creates, deletes, copies and exports are sent once', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    const retry = { ...FAST_RETRY, maxRetries: 3 };
    const models = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sb.grpc },
      retry,
    });
    const keys = new ApiKeysClient({ baseUrl: sb.http, tokens: sandboxTokenSource(), retry });
    try {
      const counts = countFaults(sb);
      await setFaults(sb, [{ method: '*', errorRate: 1, codes: ['UNAVAILABLE'] }]);
      const name = `${PARENT}/models/m1`;
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['google.cloud.aiplatform.v1beta1.ModelService/GetModel', () => models.getModel({ name })],
        ['google.cloud.aiplatform.v1beta1.ModelService/ListModels', () => models.listModelsPage({ parent: PARENT })],
        ['google.longrunning.Operations/GetOperation', () => models.getOperation(`${PARENT}/operations/1`)],
        [
          'google.cloud.aiplatform.v1beta1.ModelService/CopyModel',
          () => models.copyModel({ parent: COPY_PARENT, sourceModel: name }),
        ],
        [
          'google.cloud.aiplatform.v1beta1.ModelService/ExportModel',
          () => models.exportModel({ name, outputConfig: { exportFormatId: 'custom-trained' } }),
        ],
        ['google.cloud.aiplatform.v1beta1.ModelService/DeleteModel', () => models.deleteModel({ name })],
        [
          'google.cloud.aiplatform.v1beta1.ModelService/DeleteModelVersion',
          () => models.deleteModelVersion({ name: `${name}@2` }),
        ],
        [
          'google.cloud.aiplatform.v1beta1.ModelService/UploadModel',
          () => models.uploadModel({ parent: PARENT, model: { displayName: 'x' } }),
        ],
        ['apikeys.keys.list', () => keys.listKeys(PROJECT)],
        ['apikeys.keys.get', () => keys.getKey(keyName(PROJECT, 'k'))],
        ['apikeys.keys.create', () => keys.startCreateKey(PROJECT, { keyId: 'k' })],
        ['apikeys.keys.delete', () => keys.startDeleteKey(keyName(PROJECT, 'k'), undefined)],
        ['apikeys.keys.undelete', () => keys.startUndeleteKey(keyName(PROJECT, 'k'))],
      ];
      const sent: Record<string, number> = {};
      for (const [method, call] of attempts) {
        await assert.rejects(call(), (err: unknown) => err instanceof GoogleApiError && err.status === 'UNAVAILABLE');
        sent[method.replace(/^.*\//, '')] = counts.byMethod.get(method) ?? 0;
      }
      assert.deepEqual(sent, {
        GetModel: 4,
        ListModels: 4,
        GetOperation: 4,
        CopyModel: 1,
        ExportModel: 1,
        DeleteModel: 1,
        DeleteModelVersion: 1,
        UploadModel: 1,
        'apikeys.keys.list': 4,
        'apikeys.keys.get': 4,
        'apikeys.keys.create': 1,
        'apikeys.keys.delete': 1,
        'apikeys.keys.undelete': 1,
      });
    } finally {
      models.close();
      await sb.close();
    }
  });

  it('a search under 100 % UNAVAILABLE gives up with a GoogleApiError naming UNAVAILABLE', async () => {
    const sb = await startSandbox({ seed: 'empty' });
    try {
      const search = new SecOpsClient({
        baseUrl: sb.http,
        tokens: sandboxTokenSource(),
        retry: { ...FAST_RETRY, maxRetries: 2 },
      });
      const counts = countFaults(sb);
      await setFaults(sb, [{ method: 'secops.*', errorRate: 1, codes: ['UNAVAILABLE'] }]);
      const now = sb.clock.now();
      await assert.rejects(
        search.udmSearch({ query: 'principal.hostname = "x"', startTime: now - 3_600_000, endTime: now }),
        (err: unknown) => {
          assert.ok(err instanceof GoogleApiError && err.status === 'UNAVAILABLE', String(err));
          return true;
        },
      );
      assert.equal(counts.errors, 3, 'one try and two retries');
    } finally {
      await sb.close();
    }
  });
});
