// Two windows editing the same key, and two long operations on the same model at once.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../src/emulator/sandbox';
import { ApiKeysClient } from '../../src/core/apikeys/client';
import { RestrictionSession } from '../../src/core/apikeys/session';
import type { Restrictions } from '../../src/core/apikeys/types';
import { ModelRegistryClient } from '../../src/core/models/client';
import type { ModelOperation } from '../../src/core/models/operation';
import type { ModelOperationMetadata } from '../../src/core/models/types';
import { sandboxTokenSource } from '../../src/core/google/credentials';
import { GoogleApiError } from '../../src/core/google/errors';
import { FAST_RETRY, assertClearError } from './helpers';

const PROJECT = 'cloudbench-concurrency';
const PARENT = `projects/${PROJECT}/locations/us-central1`;
const ORIGINAL: Restrictions = { browserKeyRestrictions: { allowedReferrers: ['https://a.example.com/*'] } };
const FROM_A: Restrictions = {
  browserKeyRestrictions: { allowedReferrers: ['https://a.example.com/*', 'https://b.example.com/*'] },
};
const FROM_B: Restrictions = { serverKeyRestrictions: { allowedIps: ['203.0.113.0/24'] } };

describe('reliability: concurrent edits and operations', function () {
  this.timeout(30_000);
  let sb: Sandbox;
  let windowA: ApiKeysClient;
  let windowB: ApiKeysClient;

  beforeEach(async () => {
    sb = await startSandbox({ seed: 'empty' });
    const options = {
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      retry: FAST_RETRY,
      pollInitialDelayMs: 5,
      pollMaxDelayMs: 20,
    };
    windowA = new ApiKeysClient(options);
    windowB = new ApiKeysClient(options);
  });
  afterEach(async () => {
    await sb.close();
  });

  it('the second of two restriction edits from the same starting point gets the etag conflict and loses nothing', async () => {
    const key = await windowA.createKey(PROJECT, { keyId: 'shared', restrictions: ORIGINAL });
    const a = new RestrictionSession(windowA, await windowA.getKey(key.name));
    const b = new RestrictionSession(windowB, await windowB.getKey(key.name));
    const etag = a.key.etag;
    assert.equal(b.key.etag, etag);

    const first = await a.save(FROM_A, etag);
    assert.equal(first.kind, 'saved');
    const second = await b.save(FROM_B, etag);
    assert.equal(second.kind, 'conflict', 'a stale etag must not overwrite the first edit');
    // Window B now shows the server's state (window A's edit), and the server still has it.
    assert.deepEqual(b.key.restrictions, FROM_A);
    assert.deepEqual((await windowA.getKey(key.name)).restrictions, FROM_A);
    // Re-applied from the fresh state, B's edit goes through and replaces A's on purpose.
    const again = await b.save(FROM_B, b.key.etag);
    assert.equal(again.kind, 'saved');
    assert.deepEqual((await windowA.getKey(key.name)).restrictions, FROM_B);
  });

  it('two simultaneous saves with the same etag: exactly one is saved, the other is told about the conflict', async () => {
    const key = await windowA.createKey(PROJECT, { keyId: 'race', restrictions: ORIGINAL });
    const current = await windowA.getKey(key.name);
    const [ra, rb] = await Promise.all([
      new RestrictionSession(windowA, current).save(FROM_A, current.etag),
      new RestrictionSession(windowB, current).save(FROM_B, current.etag),
    ]);
    const kinds = [ra.kind, rb.kind].sort();
    assert.deepEqual(kinds, ['conflict', 'saved']);
    const winner = ra.kind === 'saved' ? FROM_A : FROM_B;
    assert.deepEqual((await windowA.getKey(key.name)).restrictions, winner, 'the server holds exactly the saved edit');
    const loser = ra.kind === 'conflict' ? ra : rb;
    assert.ok(loser.kind === 'conflict');
    assert.deepEqual(loser.key.restrictions, winner, 'the loser is shown the winning state to redo its edit on');
  });

  it('a delete with a stale etag is refused after an edit from another window', async () => {
    const key = await windowA.createKey(PROJECT, { keyId: 'stale-delete', restrictions: ORIGINAL });
    const seenByB = await windowB.getKey(key.name);
    await new RestrictionSession(windowA, await windowA.getKey(key.name)).save(FROM_A, seenByB.etag);
    await assert.rejects(windowB.deleteKey(key.name, seenByB.etag), (err: unknown) => {
      assertClearError('stale delete', err);
      return true;
    });
    const after = await windowA.getKey(key.name);
    assert.equal(after.deleteTime, undefined, 'the key was not deleted');
  });

  describe('two operations on the same model', () => {
    let models: ModelRegistryClient;
    beforeEach(() => {
      models = new ModelRegistryClient({
        tokenSource: sandboxTokenSource(),
        endpoint: { apiEndpoint: sb.grpc },
        retry: FAST_RETRY,
      });
    });
    afterEach(() => models.close());

    async function upload(displayName: string, parentModel?: string): Promise<string> {
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
      sb.clock.advance(3600);
      return (await op.wait({ initialDelayMs: 5, maxDelayMs: 20 })).model!;
    }

    type Settled<R> = { ok: true; value: R; op: ModelOperation<R, unknown> } | { ok: false; err: unknown };

    /** Starts both calls together, lets sandbox time pass once both are accepted, then waits for both. */
    async function both<A, B>(
      a: Promise<ModelOperation<A, unknown>>,
      b: Promise<ModelOperation<B, unknown>>,
    ): Promise<[Settled<A>, Settled<B>]> {
      const started = await Promise.allSettled([a, b]);
      sb.clock.advance(3600);
      const wait = async <R>(s: PromiseSettledResult<ModelOperation<R, unknown>>): Promise<Settled<R>> => {
        if (s.status === 'rejected') return { ok: false, err: s.reason };
        try {
          return {
            ok: true,
            value: await s.value.wait({ initialDelayMs: 5, maxDelayMs: 20, totalTimeoutMs: 10_000 }),
            op: s.value,
          };
        } catch (err) {
          return { ok: false, err };
        }
      };
      return Promise.all([wait(started[0]), wait(started[1])]);
    }

    it('an export and a copy of one model run at once and each reports its own result', async () => {
      const model = await upload('busy');
      const [exported, copied] = await both(
        models.exportModel({
          name: model,
          outputConfig: { exportFormatId: 'custom-trained', artifactDestination: { outputUriPrefix: 'gs://out/' } },
        }),
        models.copyModel({
          request: { parent: `projects/${PROJECT}/locations/europe-west4`, sourceModel: model, modelId: 'twin' },
        }),
      );
      assert.ok(exported.ok && copied.ok, 'both finish');
      assert.notEqual(exported.op.name, copied.op.name, 'two operations, two names');
      const e = exported.op;
      assert.match(
        (e.metadata as ModelOperationMetadata | undefined)?.outputInfo?.artifactOutputUri ?? '',
        /^gs:\/\/out\//,
      );
      assert.equal(copied.value.model, `projects/${PROJECT}/locations/europe-west4/models/twin`);
      const copies: string[] = [];
      for await (const m of models.listModels({ parent: `projects/${PROJECT}/locations/europe-west4` }))
        copies.push(m.name!);
      assert.deepEqual(copies, [copied.value.model]);
    });

    it('two deletes of one model at once: one succeeds, the other ends with a clear error, the model is gone once', async () => {
      const model = await upload('twice');
      const results = await both(models.deleteModel({ name: model }), models.deleteModel({ name: model }));
      const ok = results.filter((r) => r.ok);
      const failed = results.filter((r): r is { ok: false; err: unknown } => !r.ok);
      assert.ok(ok.length >= 1, 'at least one delete reports success');
      for (const f of failed) assertClearError('second delete', f.err);
      await assert.rejects(
        models.getModel({ name: model }),
        (err: unknown) => err instanceof GoogleApiError && err.status === 'NOT_FOUND',
      );
    });

    it('deleting a version while the model is being exported: both end and the version state matches what was reported', async () => {
      const model = await upload('versions');
      await upload('versions', model);
      const [exported, deleted] = await both(
        models.exportModel({
          name: `${model}@2`,
          outputConfig: { exportFormatId: 'custom-trained', artifactDestination: { outputUriPrefix: 'gs://out/' } },
        }),
        models.deleteModelVersion({ name: `${model}@1` }),
      );
      assert.ok(exported.ok, `export of version 2: ${exported.ok ? '' : String(exported.err)}`);
      const versions: string[] = [];
      for await (const v of models.listModelVersions({ name: model })) versions.push(v.versionId!);
      if (deleted.ok) assert.deepEqual(versions, ['2']);
      else {
        assertClearError('delete version', deleted.err);
        assert.deepEqual(versions.sort(), ['1', '2']);
      }
    });
  });
});
