#!/usr/bin/env node
// Makes sure the browser the webview tests drive is installed before `npm test` runs them, the way
// `npm start` installs it (scripts/install-editor.sh): Debian's `chromium` package, only when it is
// missing, so a fresh machine needs nothing but `npm ci && npm test`.
// The tests look for CLOUDBENCH_CHROMIUM, else the package's browser (scripts/chromium.mjs).
// apt-get and sudo are taken from PATH, so a test can stand in for them.
import { accessSync, constants } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { chromiumExecutable } from './chromium.mjs';

const path = chromiumExecutable();

function installed() {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function run(command, args) {
  const r = spawnSync(command, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (r.error) throw new Error(`${command} could not run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

if (!installed()) {
  console.log(`[npm test] No Chromium at ${path}: installing Debian's chromium package for the webview tests (once)`);
  const asRoot = process.getuid?.() === 0;
  const apt = (args) => (asRoot ? run('apt-get', args) : run('sudo', ['apt-get', ...args]));
  try {
    // Waits for another apt (for example `npm start` installing the editor) instead of failing.
    apt(['-o', 'DPkg::Lock::Timeout=900', 'update', '-qq']);
    apt(['-o', 'DPkg::Lock::Timeout=900', 'install', '-y', '-qq', 'chromium']);
  } catch (err) {
    console.error(
      `[npm test] Installing chromium failed: ${err.message}. Install it yourself (apt-get install -y chromium) ` +
        'or point CLOUDBENCH_CHROMIUM at a Chromium binary, then run npm test again.',
    );
    process.exit(1);
  }
  if (!installed()) {
    console.error(
      `[npm test] The chromium package is installed but there is no browser at ${path}; ` +
        'point CLOUDBENCH_CHROMIUM at the Chromium binary, then run npm test again.',
    );
    process.exit(1);
  }
  console.log(`[npm test] Chromium installed at ${path}`);
}
