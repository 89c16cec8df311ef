// Builds the four bundles of DESIGN.md and the `cloudbench` command line with esbuild. Generators
// (scripts/gen-*.mjs) run first, so generated modules (proto descriptors, the UDM schema) are always
// fresh.
import { build, context } from 'esbuild';
import { readdirSync, existsSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { modelsBundleOptions, splitModelsClient } from './models-bundle.mjs';
import { cliBundleOptions, makeExecutable } from './cli-bundle.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const root = new URL('..', import.meta.url).pathname;

for (const file of readdirSync(join(root, 'scripts'))
  .filter((f) => /^gen-.*\.mjs$/.test(f))
  .sort()) {
  execFileSync(process.execPath, [join(root, 'scripts', file)], { stdio: 'inherit', cwd: root });
}

if (!watch) rmSync(join(root, 'dist'), { recursive: true, force: true });

const common = {
  bundle: true,
  sourcemap: true,
  minify: production,
  logLevel: 'warning',
  absWorkingDir: root,
};

const nodeBundles = [
  { in: 'src/extension.ts', out: 'extension' },
  { in: 'src/server/main.ts', out: 'server' },
  { in: 'src/emulator/main.ts', out: 'emulator' },
  // The statistics engine's worker thread (src/features/statistics/compute.ts starts it).
  { in: 'src/features/statistics/compute-worker.ts', out: 'stats-worker' },
  // Test Rule's engine in a worker thread (src/features/shared/rule-engine/engine-runner.ts starts it).
  { in: 'src/features/shared/rule-engine/engine-worker.ts', out: 'rule-worker' },
  // The Test Explorer's rule test cases in a worker thread (src/features/ruleTests/worker-runner.ts).
  { in: 'src/features/ruleTests/worker.ts', out: 'rule-tests-worker' },
].filter((e) => existsSync(join(root, e.in)));

const webviewDir = join(root, 'src/webview');
const webviewBundles = readdirSync(webviewDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(webviewDir, d.name, 'main.ts')))
  .map((d) => ({ in: `src/webview/${d.name}/main.ts`, out: d.name }));

const nodeConfig = {
  ...common,
  outdir: 'dist',
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['vscode'],
  mainFields: ['module', 'main'],
};
const configs = [
  // The extension loads the Model Registry client (gRPC stack, proto runtime) from its own bundle on
  // first use, with a V8 code cache (scripts/models-bundle.mjs, src/core/models/bundle-host.ts).
  { ...nodeConfig, entryPoints: nodeBundles.filter((e) => e.out === 'extension'), plugins: [splitModelsClient(root)] },
  { ...nodeConfig, entryPoints: nodeBundles.filter((e) => e.out !== 'extension') },
  modelsBundleOptions(root, join(root, 'dist/models-client.js'), { minify: production }),
  // The `cloudbench` command line (package.json "bin").
  cliBundleOptions(root, join(root, 'dist/cli.js'), { minify: production }),
  ...(webviewBundles.length
    ? [
        {
          ...common,
          entryPoints: webviewBundles,
          outdir: 'dist/webview',
          platform: 'browser',
          target: 'es2022',
          format: 'iife',
          // Monaco (the query bar) brings its codicon font; it lands next to the bundle in dist/webview.
          loader: { '.css': 'css', '.ttf': 'file' },
        },
      ]
    : []),
  // The notebook renderer is an ES module VS Code imports into the notebook's webview.
  ...(existsSync(join(root, 'src/webview/notebook-renderer/index.ts'))
    ? [
        {
          ...common,
          entryPoints: [{ in: 'src/webview/notebook-renderer/index.ts', out: 'notebook-renderer' }],
          outdir: 'dist/webview',
          platform: 'browser',
          target: 'es2022',
          format: 'esm',
          // Its styles (the shared grid's among them) are adopted as a constructed sheet: CSS as text.
          loader: { '.css': 'text' },
        },
      ]
    : []),
];

if (watch) {
  for (const cfg of configs) await (await context(cfg)).watch();
  console.log('watching for changes…');
} else {
  await Promise.all(configs.map((cfg) => build(cfg)));
  makeExecutable(join(root, 'dist/cli.js'));
}
