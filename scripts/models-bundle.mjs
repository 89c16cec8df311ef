// The split of the Model Registry client into dist/models-client.js, shared by scripts/build.mjs, the
// models benchmark and the tests that load the bundle the way the extension does.
//
// - splitModelsClient(root): esbuild plugin for the extension bundle: imports of the client and the
//   codecs become a lazy hand-off to src/core/models/bundle-host.ts (which loads the split bundle with
//   a V8 code cache), so the gRPC stack and the proto runtime stay out of dist/extension.js.
// - modelsBundleOptions(root, outfile): esbuild options for the split bundle itself. Modules it shares
//   with the extension (errors, endpoints, retry, paging, operations) are not copied in: they are
//   required as "cloudbench-host:<path under src>" and bundle-host supplies the extension's own.
import { readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';

const SPLIT_ENTRY = 'src/core/models/bundle.ts';
/** Source files that live in the split bundle (paths relative to the root, without extension). */
const IN_SPLIT = [/^src\/core\/models\/(bundle|client|client-[a-z]+|wire|operation)$/, /^src\/core\/proto(\/|$)/];
/** What the extension bundle takes from the split bundle, by source module. */
const REDIRECTED = new Map([
  ['src/core/models/client', 'client'],
  ['src/core/models/wire', 'wire'],
]);

const toPosix = (p) => p.split(sep).join('/');
const withoutExt = (p) => p.replace(/\.(ts|js|json)$/, '');

function resolvedRelative(root, args) {
  return toPosix(withoutExt(relative(root, resolve(args.resolveDir, args.path))));
}

export function splitModelsClient(root) {
  return {
    name: 'split-models-client',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        const target = resolvedRelative(root, args);
        const part = REDIRECTED.get(target);
        if (!part) return undefined;
        return { path: part, namespace: 'models-bundle' };
      });
      build.onLoad({ filter: /.*/, namespace: 'models-bundle' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(join(root, 'src/core/models/bundle-host.ts'))}).modelsBundle().${args.path};`,
        loader: 'js',
        resolveDir: root,
      }));
    },
  };
}

function hostModules(root) {
  return {
    name: 'models-bundle-host-modules',
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const target = resolvedRelative(root, args);
        if (!target.startsWith('src/') || IN_SPLIT.some((re) => re.test(target))) return undefined;
        return { path: `cloudbench-host:${target.slice('src/'.length)}`, external: true };
      });
    },
  };
}

/**
 * What @grpc/grpc-js gets for a few modules, inside the split bundle only:
 * - net: Node's own, with an isIPv6/isIP that answer without the IPv6 regular expression for a
 *   string that has no ":" (it cannot be an IPv6 address). grpc-js asks for every address it connects
 *   to, and the first match of that expression costs several milliseconds of a cold start.
 * - zlib: Node's own, loaded when a compressed message first needs it (the client sends none).
 * - dns: Node's own, loaded when a name is first resolved (the sandbox's IP address never is).
 * - @grpc/proto-loader: grpc-js requires it only to serve channelz and ORCA, which a client never
 *   does; a clear error instead of a second copy of the proto parser in the bundle.
 */
export function grpcNodeModules() {
  const shims = {
    net: `const net = require('node:net');
const isIPv6 = (s) => String(s).includes(':') && net.isIPv6(s);
module.exports = Object.assign(Object.create(net), {
  isIPv6,
  isIP: (s) => (net.isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0),
});`,
    zlib: `let zlib;
module.exports = new Proxy({}, { get: (_, key) => (zlib ??= require('node:zlib'))[key] });`,
    dns: `let dns;
module.exports = new Proxy({}, { get: (_, key) => (dns ??= require('node:dns'))[key] });`,
    '@grpc/proto-loader': `throw new Error('@grpc/proto-loader is not part of the Model Registry client bundle (channelz and ORCA services are not served).');`,
  };
  return {
    name: 'grpc-node-modules',
    setup(build) {
      build.onResolve({ filter: /^(net|zlib|dns|@grpc\/proto-loader)$/ }, (args) =>
        /[\\/]@grpc[\\/]grpc-js[\\/]/.test(args.importer)
          ? { path: args.path, namespace: 'grpc-node-modules' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'grpc-node-modules' }, (args) => ({
        contents: shims[args.path],
        loader: 'js',
      }));
    },
  };
}

/** JSON files as JSON.parse of a string: V8 reads that faster than it builds a large object literal. */
function jsonAsParse() {
  return {
    name: 'json-as-parse',
    setup(build) {
      build.onLoad({ filter: /\.json$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        return {
          contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(text)))});`,
          loader: 'js',
        };
      });
    },
  };
}

export function modelsBundleOptions(root, outfile, { minify = false, sourcemap = true } = {}) {
  return {
    entryPoints: [join(root, SPLIT_ENTRY)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    minify,
    sourcemap,
    logLevel: 'warning',
    absWorkingDir: root,
    plugins: [hostModules(root), grpcNodeModules(), jsonAsParse()],
  };
}
