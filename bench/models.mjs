#!/usr/bin/env node
// Model Registry client figures, against a sandbox in its own process. Cloudbench's client is loaded
// as the extension loads it: dist/models-client.js built as `npm run package` builds it, loaded on
// first use by src/core/models/bundle-host.ts with the V8 code cache in a folder of its own.
//   models coldstart ms            fresh process → first GetModel answer, Cloudbench's client, warm code
//                                  cache (every start after the first one with this build)
//   models coldstart cold cache ms the same with an empty code cache folder (the first start of a build;
//                                  the cache is written after the answer, as the extension does)
//   models coldstart official ms   the same with @google-cloud/aiplatform v1beta1.ModelServiceClient
//   models coldstart speedup x     official / ours (warm cache), medians of the same run
//   models coldstart net ..., models coldstart net speedup x, models coldstart net speedup cold cache x:
//                                  the same without Node's own bootstrap (identical for both clients and,
//                                  on a loaded machine, the largest and noisiest part of a fresh process);
//                                  the goal (issue 19) is net speedup ≥ 25
//   models coldstart net cpu ...   process CPU time instead of wall time (less sensitive to machine load)
//   models list 10k ms             listing 10,000 models through paging, Cloudbench's client
//   models list 10k official ms    the same with listModelsAsync
//   node bench/models.mjs [--runs N] [--models N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { modelsBundleOptions } from '../scripts/models-bundle.mjs';

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
  build(modelsBundleOptions(ROOT, join(work, 'models-client.js'), { minify: true, sourcemap: false })),
  build({ ...common, entryPoints: ['bench/_models-lib.ts'], outfile: join(work, 'lib.js') }),
]);

writeFileSync(
  join(work, 'ours.js'),
  'const bootstrapMs = performance.now();\nconst c = process.cpuUsage();\n' +
    "require('./ours-bundle.js').run(bootstrapMs, (c.user + c.system) / 1000);\n",
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

  // Cold starts: fresh processes, taking turns so machine load affects all alike. Each round starts
  // with an empty code cache folder (ours, cold), runs again with the cache that start wrote (ours,
  // warm), then runs the official client.
  const figures = { cold: [], warm: [], official: [] };
  const parse = (out, expectCache) => {
    const m = /COLDSTART ([\d.]+) BOOTSTRAP ([\d.]+) CPU ([\d.]+) BOOTCPU ([\d.]+)(?: CACHE (\w+))?/.exec(out);
    if (!m) throw new Error(`probe printed no timing: ${out}`);
    if (expectCache && m[5] !== expectCache)
      throw new Error(`expected code cache ${expectCache}, the probe saw ${m[5]}`);
    return { total: Number(m[1]), net: Number(m[1]) - Number(m[2]), cpu: Number(m[3]) - Number(m[4]) };
  };
  const loads = [];
  for (let i = 0; i < RUNS; i++) {
    const cacheDir = join(work, `code-cache-${i}`);
    mkdirSync(cacheDir);
    const ours = (expect) =>
      runNode(join(work, 'ours.js'), [sandbox.grpc, target, work, cacheDir]).then((o) => parse(o, expect));
    figures.cold.push(await ours('missing'));
    figures.warm.push(await ours('used'));
    figures.official.push(parse(await runNode(join(ROOT, 'bench/_models-official.cjs'), [sandbox.grpc, target])));
    loads.push(loadavg()[0]);
  }
  const med = (which, key) => median(figures[which].map((f) => f[key]));
  const line = (name, value, unit) => console.log(`${name}: ${value.toFixed(1)} ${unit}`);
  const note = `(medians of ${RUNS}; load average ${median(loads).toFixed(1)} on ${cpus().length} cores)`;
  line('models coldstart ms', med('warm', 'total'), 'ms');
  line('models coldstart cold cache ms', med('cold', 'total'), 'ms');
  line('models coldstart official ms', med('official', 'total'), 'ms');
  line('models coldstart speedup x', med('official', 'total') / med('warm', 'total'), 'x');
  line('models coldstart net ms', med('warm', 'net'), 'ms');
  line('models coldstart net cold cache ms', med('cold', 'net'), 'ms');
  line('models coldstart official net ms', med('official', 'net'), 'ms');
  console.log(`models coldstart net speedup x: ${(med('official', 'net') / med('warm', 'net')).toFixed(1)} x  ${note}`);
  line('models coldstart net speedup cold cache x', med('official', 'net') / med('cold', 'net'), 'x');
  line('models coldstart net cpu ms', med('warm', 'cpu'), 'ms');
  line('models coldstart net cpu cold cache ms', med('cold', 'cpu'), 'ms');
  line('models coldstart official net cpu ms', med('official', 'cpu'), 'ms');
  line('models coldstart net cpu speedup x', med('official', 'cpu') / med('warm', 'cpu'), 'x');

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
