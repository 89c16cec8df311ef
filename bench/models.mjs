#!/usr/bin/env node
// Model Registry client figures, against a sandbox in its own process:
//   models coldstart ms            fresh process → first GetModel answer, Cloudbench's client (bundled as shipped)
//   models coldstart official ms   the same with @google-cloud/aiplatform v1beta1.ModelServiceClient
//   models coldstart speedup x     official / ours, medians of the same run (goal ≥ 20)
//   models coldstart net ms, models coldstart official net ms, models coldstart net speedup x:
//                                  the same without Node's own bootstrap (identical for both clients and,
//                                  on a loaded machine, the largest and noisiest part of a fresh process)
//   models list 10k ms             listing 10,000 models through paging, Cloudbench's client
//   models list 10k official ms    the same with listModelsAsync
//   node bench/models.mjs [--runs N] [--models N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = opt('--runs', 9);
const MODELS = opt('--models', 10_000);
const PROJECT = 'cloudbench-demo';
const LIST_LOCATION = 'asia-southeast1';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const work = mkdtempSync(join(tmpdir(), 'cb-bench-models-'));
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  absWorkingDir: ROOT,
  logLevel: 'warning',
  external: ['vscode'],
};
await Promise.all([
  build({ ...common, entryPoints: ['src/emulator/main.ts'], outfile: join(work, 'emulator.js') }),
  build({ ...common, entryPoints: ['bench/_models-ours.ts'], outfile: join(work, 'ours-bundle.js'), minify: true }),
  build({ ...common, entryPoints: ['bench/_models-lib.ts'], outfile: join(work, 'lib.js') }),
]);

writeFileSync(
  join(work, 'ours.js'),
  "const bootstrapMs = performance.now();\nrequire('./ours-bundle.js').run(bootstrapMs);\n",
);

function runNode(file, argv, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${file} exited ${code}: ${err.slice(0, 2000)}`)),
    );
  });
}

/** Starts the sandbox process and resolves with its ready line. */
function startSandbox(seed) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(work, 'emulator.js'), '--seed', seed], {
      cwd: ROOT,
      env: { ...process.env, CLOUDBENCH_SANDBOX_OPERATION_SECONDS: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve({ child, ...JSON.parse(buf.slice(0, nl)) });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

const sandbox = await startSandbox('empty');
const stop = () => sandbox.child.kill('SIGTERM');
process.on('exit', stop);
try {
  const lib = createRequire(import.meta.url)(join(work, 'lib.js'));
  const client = new lib.ModelRegistryClient({
    tokenSource: lib.sandboxTokenSource(),
    endpoint: { apiEndpoint: sandbox.grpc },
    timeoutMs: 120_000,
  });

  // Seed: one model for cold starts, MODELS in a location of their own for the list figures.
  const parent = `projects/${PROJECT}/locations/${LIST_LOCATION}`;
  const uploadOne = async (i) => {
    const op = await client.uploadModel({
      parent,
      model: {
        displayName: `bench-${String(i).padStart(5, '0')}`,
        containerSpec: { imageUri: 'us-docker.pkg.dev/vertex-ai/prediction/sklearn-cpu.1-3:latest' },
        labels: { bench: 'list' },
      },
    });
    return op.wait({ initialDelayMs: 5, maxDelayMs: 50 });
  };
  const first = await uploadOne(0);
  const target = first.model;
  let next = 1;
  const seedStarted = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < MODELS) await uploadOne(next++);
    }),
  );
  process.stderr.write(`seeded ${MODELS} models in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s\n`);

  // Cold starts: fresh processes, alternating so machine load affects both alike.
  const ours = [];
  const official = [];
  const oursNet = [];
  const officialNet = [];
  const parse = (out) => {
    const m = /COLDSTART ([\d.]+) BOOTSTRAP ([\d.]+)/.exec(out);
    if (!m) throw new Error(`probe printed no timing: ${out}`);
    return { total: Number(m[1]), net: Number(m[1]) - Number(m[2]) };
  };
  for (let i = 0; i < RUNS; i++) {
    const a = parse(await runNode(join(work, 'ours.js'), [sandbox.grpc, target]));
    const b = parse(await runNode(join(ROOT, 'bench/_models-official.cjs'), [sandbox.grpc, target]));
    ours.push(a.total);
    oursNet.push(a.net);
    official.push(b.total);
    officialNet.push(b.net);
  }
  const oursMs = median(ours);
  const officialMs = median(official);
  console.log(`models coldstart ms: ${oursMs.toFixed(1)} ms`);
  console.log(`models coldstart official ms: ${officialMs.toFixed(1)} ms`);
  console.log(`models coldstart speedup x: ${(officialMs / oursMs).toFixed(1)} x`);
  console.log(`models coldstart net ms: ${median(oursNet).toFixed(1)} ms`);
  console.log(`models coldstart official net ms: ${median(officialNet).toFixed(1)} ms`);
  console.log(`models coldstart net speedup x: ${(median(officialNet) / median(oursNet)).toFixed(1)} x`);

  // Listing: same page size for both clients (the service maximum).
  const { v1beta1 } = createRequire(import.meta.url)('@google-cloud/aiplatform');
  const { grpc, googleAuthLibrary } = createRequire(import.meta.url)('google-gax');
  const port = Number(sandbox.grpc.slice(sandbox.grpc.lastIndexOf(':') + 1));
  const officialClient = new v1beta1.ModelServiceClient({
    apiEndpoint: '127.0.0.1',
    port,
    sslCreds: grpc.credentials.createInsecure(),
    authClient: new googleAuthLibrary.OAuth2Client(),
    'grpc.callInvocationTransformer': (p) => {
      p.metadata.set('authorization', 'Bearer bench');
      return p;
    },
  });
  const listWith = async (which) => {
    const t = performance.now();
    let n = 0;
    if (which === 'ours') {
      for await (const _m of client.listModels({ request: { parent, pageSize: 1000 } })) n++;
    } else {
      for await (const _m of officialClient.listModelsAsync({ parent, pageSize: 1000 }, { autoPaginate: false })) n++;
    }
    if (n !== MODELS) throw new Error(`${which} listed ${n} models, expected ${MODELS}`);
    return performance.now() - t;
  };
  // One unmeasured round warms the sandbox and both clients; then alternate who goes first.
  await listWith('ours');
  await listWith('official');
  const listOurs = [];
  const listOfficial = [];
  for (let i = 0; i < 5; i++) {
    if (i % 2 === 0) {
      listOurs.push(await listWith('ours'));
      listOfficial.push(await listWith('official'));
    } else {
      listOfficial.push(await listWith('official'));
      listOurs.push(await listWith('ours'));
    }
  }
  const label = MODELS === 10_000 ? '10k' : `${MODELS}`;
  console.log(`models list ${label} ms: ${median(listOurs).toFixed(1)} ms`);
  console.log(`models list ${label} official ms: ${median(listOfficial).toFixed(1)} ms`);
  await officialClient.close();
  client.close();
} finally {
  stop();
  rmSync(work, { recursive: true, force: true });
}
