// The `cloudbench` command-line bundle (package.json "bin"): one CommonJS file for Node 20 with its
// shebang, built by scripts/build.mjs and by the CLI tests (which build it where they run it).
import { chmodSync } from 'node:fs';
import { join } from 'node:path';

export const CLI_ENTRY = 'src/cli/main.ts';

/** esbuild options that write the CLI to `outfile`. */
export function cliBundleOptions(root, outfile, { minify = false } = {}) {
  return {
    entryPoints: [join(root, CLI_ENTRY)],
    outfile,
    bundle: true,
    sourcemap: true,
    minify,
    logLevel: 'warning',
    absWorkingDir: root,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    banner: { js: '#!/usr/bin/env node' },
    // The CLI never runs inside VS Code: a vscode import would be a layering bug, so it fails here.
    external: [],
  };
}

/** `npx cloudbench` runs the file directly. */
export function makeExecutable(outfile) {
  chmodSync(outfile, 0o755);
}
