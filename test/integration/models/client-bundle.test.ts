// The Model Registry client as the extension loads it: dist/models-client.js (built here with the
// build's own options, scripts/models-bundle.mjs) loaded through src/core/models/bundle-host.ts with
// the V8 code cache, in fresh processes, talking to the real sandbox. Also the hook the extension
// uses to write the cache after the first call.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';

const ROOT = join(__dirname, '../../..');
const HOST = join(ROOT, 'src/core/models/bundle-host.ts');
const ERRORS = join(ROOT, 'src/core/google/errors.ts');
const MODEL = 'projects/cloudbench-demo/locations/us-central1/models/churn-predictor';

interface Probe {
  cache: string;
  displayName: string;
  notFoundIsHostError: boolean;
  notFoundStatus: string;
  detailsJson: string;
  persisted: string[];
}

function runChild(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`probe exited ${code}: ${err}`))));
  });
}

/** A fresh process that loads the bundle as the extension does, makes calls and writes the cache. */
async function probe(bundleDir: string, cacheDir: string, grpc: string): Promise<Probe> {
  const out = await runChild(`
    const host = require(${JSON.stringify(HOST)});
    const errors = require(${JSON.stringify(ERRORS)});
    const fs = require('node:fs');
    (async () => {
      host.configureModelsBundle({ dir: ${JSON.stringify(bundleDir)}, cacheDir: ${JSON.stringify(cacheDir)} });
      const bundle = host.loadModelsBundle();
      const client = new bundle.exports.client.ModelRegistryClient({
        tokenSource: { kind: 'sandbox', getAccessToken: async () => 'test' },
        endpoint: { apiEndpoint: ${JSON.stringify(grpc)} },
        retry: { maxRetries: 0 },
        afterFirstCall: () => host.persistModelsBundleCache(),
      });
      const model = await client.getModel({ name: ${JSON.stringify(MODEL)} });
      const missing = await client.getModel({ name: ${JSON.stringify(MODEL)} + '-missing' }).catch((e) => e);
      const detailsJson = JSON.stringify(bundle.exports.wire.toProto3Json('google.cloud.aiplatform.v1beta1.Model', model));
      client.close();
      process.stdout.write(JSON.stringify({
        cache: bundle.cache,
        displayName: model.displayName,
        notFoundIsHostError: missing instanceof errors.GoogleApiError,
        notFoundStatus: missing.status,
        detailsJson,
        persisted: fs.existsSync(${JSON.stringify(cacheDir)}) ? fs.readdirSync(${JSON.stringify(cacheDir)}) : [],
      }));
    })().catch((e) => { console.error(e); process.exit(1); });
  `);
  return JSON.parse(out) as Probe;
}

describe('models client bundle loaded with the code cache, against the sandbox', function () {
  this.timeout(120_000);
  let sandbox: Sandbox;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudbench-models-bundle-'));
    const { modelsBundleOptions } = (await import(pathToFileURL(join(ROOT, 'scripts/models-bundle.mjs')).href)) as {
      modelsBundleOptions: (root: string, outfile: string, o?: object) => BuildOptions;
    };
    await build(modelsBundleOptions(ROOT, join(dir, 'models-client.js'), { minify: true, sourcemap: false }));
    sandbox = await startSandbox({ seed: 'demo' });
  });

  after(async () => {
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers from a cold cache, writes the cache after the first call, and answers the same from it', async () => {
    const cacheDir = join(dir, 'code-cache');
    const cold = await probe(dir, cacheDir, sandbox.grpc);
    assert.equal(cold.cache, 'missing');
    assert.equal(cold.displayName, 'churn-predictor');
    assert.deepEqual(cold.persisted.length, 1, 'the first call wrote the cache');
    assert.match(cold.persisted[0] ?? '', /^models-client\.js\.[0-9a-f]{20}\.v8cache$/);

    const warm = await probe(dir, cacheDir, sandbox.grpc);
    assert.equal(warm.cache, 'used');
    assert.deepEqual({ ...warm, cache: 'x' }, { ...cold, cache: 'x' });
    assert.deepEqual(readdirSync(cacheDir), cold.persisted);
  });

  it('throws the extension’s own error classes from the bundle (shared modules, not copies)', async () => {
    const r = await probe(dir, join(dir, 'cache-errors'), sandbox.grpc);
    assert.equal(r.notFoundStatus, 'NOT_FOUND');
    assert.equal(r.notFoundIsHostError, true);
    assert.match(r.detailsJson, /"displayName":"churn-predictor"/);
  });
});

describe('models client afterFirstCall hook', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  before(async () => (sandbox = await startSandbox({ seed: 'demo' })));
  after(async () => sandbox.close());

  it('runs once, after the first call settles, failed or not', async () => {
    const seen: string[] = [];
    const client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
      retry: { maxRetries: 0 },
      afterFirstCall: () => seen.push('hook'),
    });
    try {
      const first = client.getModel({ name: `${MODEL}-missing` });
      assert.deepEqual(seen, [], 'not before the call settles');
      await assert.rejects(first);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(seen, ['hook']);
      await client.getModel({ name: MODEL });
      assert.deepEqual(seen, ['hook'], 'only once');
    } finally {
      client.close();
    }
  });

  it('does not let a failing hook change the call’s outcome', async () => {
    const client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: sandbox.grpc },
      afterFirstCall: () => {
        throw new Error('hook failed');
      },
    });
    try {
      const model = await client.getModel({ name: MODEL });
      assert.equal(model.displayName, 'churn-predictor');
    } finally {
      client.close();
    }
  });
});
