// scripts/models-bundle.mjs: the extension bundle carries no gRPC stack or proto runtime (the client
// comes from dist/models-client.js on first use), and the split bundle requires from the host exactly
// the modules src/core/models/bundle-host.ts supplies.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { BuildOptions, Plugin } from 'esbuild';
import { HOST_MODULES } from '../../../src/core/models/bundle-host';

const ROOT = join(__dirname, '../../..');

interface Split {
  modelsBundleOptions: (root: string, outfile: string, o?: object) => BuildOptions;
  splitModelsClient: (root: string) => Plugin;
}

describe('the models client bundle split (scripts/models-bundle.mjs)', function () {
  this.timeout(120_000);
  let split: Split;

  before(async () => {
    split = (await import(pathToFileURL(join(ROOT, 'scripts/models-bundle.mjs')).href)) as Split;
  });

  const heavy = (inputs: string[]): string[] => inputs.filter((p) => /@grpc\/|protobufjs|src\/core\/proto\//.test(p));

  it('keeps the gRPC stack, the proto runtime and the descriptor out of the extension bundle', async () => {
    const result = await esbuild.build({
      entryPoints: [join(ROOT, 'src/extension.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      mainFields: ['module', 'main'],
      write: false,
      outfile: join(ROOT, 'dist/extension.js'),
      metafile: true,
      logLevel: 'silent',
      plugins: [split.splitModelsClient(ROOT)],
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.deepEqual(heavy(inputs), []);
    assert.ok(
      inputs.some((p) => p.endsWith('src/core/models/bundle-host.ts')),
      'the client is reached through bundle-host',
    );
    assert.ok(!inputs.some((p) => /src\/core\/models\/(client|wire)\.ts$/.test(p)));
  });

  it('puts them in the split bundle, which requires from the host only what bundle-host supplies', async () => {
    const result = await esbuild.build({
      ...split.modelsBundleOptions(ROOT, join(ROOT, 'dist/models-client.js'), { sourcemap: false }),
      write: false,
      metafile: true,
    });
    const metafile = result.metafile;
    const inputs = Object.keys(metafile.inputs);
    assert.ok(heavy(inputs).some((p) => p.includes('@grpc/grpc-js')));
    assert.ok(heavy(inputs).some((p) => p.includes('protobufjs')));
    assert.ok(!inputs.some((p) => /src\/core\/(google|lro|paging)/.test(p)), 'shared modules are not copied');
    const fromHost = new Set(
      Object.values(metafile.inputs)
        .flatMap((i) => i.imports)
        .filter((i) => i.external && i.path.startsWith('cloudbench-host:'))
        .map((i) => i.path),
    );
    assert.deepEqual([...fromHost].sort(), Object.keys(HOST_MODULES).sort());
  });
});
