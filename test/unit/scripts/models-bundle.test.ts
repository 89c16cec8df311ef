// scripts/models-bundle.mjs: the extension bundle carries no gRPC stack or proto runtime (the client
// comes from dist/models-client.js on first use), and the split bundle requires from the host exactly
// the modules src/core/models/bundle-host.ts supplies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type * as NodeDns from 'node:dns';
import type * as NodeNet from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as NodeZlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { BuildOptions, Plugin } from 'esbuild';
import { HOST_MODULES } from '../../../src/core/models/bundle-host';

const ROOT = join(__dirname, '../../..');

interface Split {
  modelsBundleOptions: (root: string, outfile: string, o?: object) => BuildOptions;
  splitModelsClient: (root: string) => Plugin;
  grpcNodeModules: () => Plugin;
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

  it('gives grpc-js a net that answers as Node’s, zlib and dns on first use, and no proto parser', async () => {
    const result = await esbuild.build({
      ...split.modelsBundleOptions(ROOT, join(ROOT, 'dist/models-client.js'), { sourcemap: false }),
      write: false,
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      !inputs.some((p) => /node_modules\/(@grpc\/proto-loader|protobufjs\/src\/(parse|tokenize)\.js)/.test(p)),
      'no parser',
    );
    // The shims as grpc-js sees them: a module of the bundle that requires net, zlib and proto-loader.
    const probe = await esbuild.build({
      stdin: {
        contents:
          "module.exports = { net: require('net'), zlib: require('zlib'), dns: require('dns'), loader: () => require('@grpc/proto-loader') };",
        resolveDir: join(ROOT, 'node_modules/@grpc/grpc-js/build/src'),
        sourcefile: join(ROOT, 'node_modules/@grpc/grpc-js/build/src/probe.js'),
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      plugins: [split.grpcNodeModules()],
    });
    const dir = mkdtempSync(join(tmpdir(), 'grpc-node-modules-'));
    const file = join(dir, 'probe.js');
    writeFileSync(file, probe.outputFiles[0].text);
    const { net, zlib, dns, loader } = require(file) as {
      net: typeof NodeNet;
      zlib: typeof NodeZlib;
      dns: typeof NodeDns;
      loader: () => unknown;
    };
    rmSync(dir, { recursive: true, force: true });
    const nodeNet = require('node:net') as typeof NodeNet;
    for (const s of [
      '127.0.0.1',
      '::1',
      'fe80::1%eth0',
      '2001:db8::',
      '::ffff:10.0.0.1',
      'example.com',
      '',
      '1:2',
      ':::',
      'localhost:443',
    ]) {
      assert.equal(net.isIPv6(s), nodeNet.isIPv6(s), s);
      assert.equal(net.isIP(s), nodeNet.isIP(s), s);
      assert.equal(net.isIPv4(s), nodeNet.isIPv4(s), s);
    }
    assert.equal(net.connect, nodeNet.connect);
    assert.equal(zlib.gunzipSync(zlib.gzipSync(Buffer.from('grpc'))).toString(), 'grpc');
    const nodeDns = require('node:dns') as typeof NodeDns;
    assert.equal(dns.promises.Resolver, nodeDns.promises.Resolver);
    assert.deepEqual(await dns.promises.lookup('127.0.0.1'), { address: '127.0.0.1', family: 4 });
    assert.throws(loader, /not part of the Model Registry client bundle/);
  });
});
