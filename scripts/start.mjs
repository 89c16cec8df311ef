#!/usr/bin/env node
// npm start: the packaged extension in a real VS Code (code-server) on 127.0.0.1, pointed at a local
// sandbox with demo data, on a sample workspace with a UDM query. Prints the URL to open; Ctrl+C stops
// everything.
//   node scripts/start.mjs [--port N] [--no-package] [--seed demo|empty]
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as editor from '../test/e2e/lib/editor.mjs';
import { installExitHooks, stopAll } from '../test/e2e/lib/processes.mjs';
import { startSandboxProcess } from '../test/e2e/lib/sandbox.mjs';

const ROOT = editor.ROOT;
const HOME = join(ROOT, '.tmp/start');

function parseArgs(argv) {
  const opts = { port: 0, package: true, seed: 'demo' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--port') opts.port = Number(argv[++i]);
    else if (a === '--no-package') opts.package = false;
    else if (a === '--seed') opts.seed = argv[++i];
    else throw new Error(`unknown argument "${a}" (use --port N, --no-package, --seed demo|empty)`);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error('--port needs a port number');
  if (opts.seed !== 'demo' && opts.seed !== 'empty') throw new Error('--seed must be demo or empty');
  return opts;
}

const say = (msg) => console.log(`[start] ${msg}`);

function npm(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let stopping = false;
  installExitHooks(() => {
    stopping = true;
    say('stopping');
  });

  say('installing the editor when missing (first time: a few minutes)');
  const bin = editor.installEditor();

  const vsix = join(ROOT, 'cloudbench-0.1.0.vsix');
  if (opts.package || !existsSync(vsix)) {
    say('building and packaging the extension');
    await npm(['run', 'package', '--silent']);
  }

  say(`starting the local sandbox (${opts.seed} data)`);
  const sandbox = await startSandboxProcess(ROOT, { seed: opts.seed });

  // A fresh profile every time; the workspace is kept, so edits to the sample queries and rules
  // survive a restart, and samples added since it was made (such as rules/) are copied in beside them.
  const profile = join(HOME, 'profile');
  rmSync(profile, { recursive: true, force: true });
  const userDataDir = join(profile, 'user-data');
  const extensionsDir = join(profile, 'extensions');
  const workspace = join(HOME, 'workspace');
  mkdirSync(workspace, { recursive: true });
  cpSync(join(ROOT, 'test/e2e/fixtures/workspace'), workspace, { recursive: true, force: false, errorOnExist: false });
  const env = editor.editorEnv(join(profile, 'env'));
  editor.writeProfile(userDataDir, editor.sandboxSettings(sandbox));
  say('installing the package into the profile');
  await editor.installVsix(bin, env, { userDataDir, extensionsDir, vsix });

  const codeServer = await editor.startCodeServer(bin, env, {
    userDataDir,
    extensionsDir,
    workspace,
    port: opts.port || undefined,
  });

  const url = `${codeServer.url}/?folder=${encodeURIComponent(workspace)}`;
  console.log('');
  console.log(`  Cloudbench is running. Open ${url}`);
  console.log(`  Sandbox: gRPC ${sandbox.grpc}, HTTP ${sandbox.http} (project cloudbench-demo)`);
  // code-server is a remote window: the endpoints (machine-scoped) are remote machine settings.
  console.log(`  Settings: ${editor.settingsFiles(userDataDir).user} (User),`);
  console.log(`            ${editor.settingsFiles(userDataDir).machine} (Remote: the endpoints)`);
  console.log(`  Sample query: ${join(workspace, 'queries/failed-logins.udm')}`);
  console.log(`  Sample hunt notebook: ${join(workspace, 'hunts/password-guessing.udmnb')}`);
  console.log(`  Sample detection rules: ${join(workspace, 'rules')}`);
  console.log('  Press Ctrl+C to stop.');
  console.log('');

  // If either server dies on its own, take the other one down too instead of leaving half a setup.
  const which = await Promise.race([
    sandbox.handle.exited.then(() => sandbox.handle),
    codeServer.handle.exited.then(() => codeServer.handle),
  ]);
  if (stopping) return; // Ctrl+C: the exit hook is taking everything down
  say(`${which.label} stopped unexpectedly:\n${which.tail()}`);
  await stopAll();
  process.exit(1);
}

main().catch(async (err) => {
  console.error(`[start] ${err?.message ?? err}`);
  await stopAll();
  process.exit(1);
});
