// code-server (VS Code 1.100 in the browser) on loopback with a fresh profile, plus the
// packaged extension installed into it. Facts behind the flags: shared/reference/real-editor-testing.md.
import { execFileSync, execFile } from 'node:child_process';
import { mkdirSync, writeFileSync, readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { spawnGroup } from './processes.mjs';

export const ROOT = new URL('../../../', import.meta.url).pathname.replace(/\/$/, '');
export const EXTENSION_ID = 'cloudbench.cloudbench';

/** Runs scripts/install-editor.sh (a no-op when everything is there) and returns the code-server binary. */
export function installEditor() {
  const out = execFileSync('bash', [join(ROOT, 'scripts/install-editor.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const bin = out.trim().split('\n').pop();
  if (!bin || !existsSync(bin)) throw new Error(`install-editor.sh did not report a code-server binary (got "${bin}")`);
  return bin;
}

/** Environment that keeps code-server and its helpers out of the home folder. */
export function editorEnv(home) {
  for (const d of ['config', 'data', 'cache', 'tmp']) mkdirSync(join(home, d), { recursive: true });
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CACHE_HOME: join(home, 'cache'),
    TMPDIR: join(home, 'tmp'),
  };
  // The extension host inherits this environment; the developer's own credentials have no
  // business in a test of the sandbox.
  delete env.GOOGLE_APPLICATION_CREDENTIALS;
  env.CLOUDSDK_CONFIG = join(home, 'gcloud');
  return env;
}

export function sandboxSettings(sandbox, extra = {}) {
  return {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.enabled': false,
    'chat.commandCenter.enabled': false,
    'window.commandCenter': false,
    'git.enabled': false,
    'cloudbench.project': 'cloudbench-demo',
    'cloudbench.endpoints.models': sandbox.grpc,
    'cloudbench.endpoints.apiKeys': sandbox.http,
    'cloudbench.endpoints.secops': sandbox.http,
    'cloudbench.endpoints.resourceManager': sandbox.http,
    ...extra,
  };
}

/** Settings the extension declares `machine`-scoped (endpoints, credentials files, universe …). */
export function machineScopedSettings() {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const config = manifest.contributes?.configuration ?? [];
  const sections = Array.isArray(config) ? config : [config];
  return new Set(
    sections.flatMap((section) =>
      Object.entries(section.properties ?? {})
        .filter(([, schema]) => schema.scope === 'machine' || schema.scope === 'machine-overridable')
        .map(([key]) => key),
    ),
  );
}

/**
 * Where each setting goes in a code-server profile. code-server is a remote window: VS Code reads
 * machine-scoped settings from the remote machine's settings (`<user-data-dir>/Machine/settings.json`,
 * the "Remote" tab of the Settings editor) and drops them from User/settings.json once it knows their
 * scope, the way it does over SSH, WSL and in containers. Writing them to User settings would work
 * only until the first settings change or reload.
 */
export function settingsFiles(userDataDir) {
  return { user: join(userDataDir, 'User', 'settings.json'), machine: join(userDataDir, 'Machine', 'settings.json') };
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8') || '{}') : {};
}

/**
 * Merges `changes` into the profile's settings, each key into the file the editor reads it from;
 * a null value removes the key.
 */
export function applySettings(userDataDir, changes) {
  const machineKeys = machineScopedSettings();
  const files = settingsFiles(userDataDir);
  const user = readJson(files.user);
  const machine = readJson(files.machine);
  for (const [key, value] of Object.entries(changes)) {
    const target = machineKeys.has(key) ? machine : user;
    delete (target === machine ? user : machine)[key];
    if (value === null) delete target[key];
    else target[key] = value;
  }
  for (const [file, content] of [
    [files.user, user],
    [files.machine, machine],
  ]) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(content, null, 2));
  }
}

/** A fresh user-data dir holding `settings`, machine-scoped ones in the remote machine's settings. */
export function writeProfile(userDataDir, settings) {
  rmSync(join(userDataDir, 'User', 'settings.json'), { force: true });
  rmSync(join(userDataDir, 'Machine', 'settings.json'), { force: true });
  applySettings(userDataDir, settings);
}

/** `code-server --install-extension` into `extensionsDir`; returns the unpacked extension folder. */
export async function installVsix(bin, env, { userDataDir, extensionsDir, vsix }) {
  mkdirSync(extensionsDir, { recursive: true });
  await new Promise((resolve, reject) => {
    execFile(
      bin,
      ['--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
      { env, timeout: 120_000 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`installing ${vsix} failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(),
    );
  });
  const dir = readdirSync(extensionsDir).find((d) => d.startsWith(`${EXTENSION_ID}-`));
  if (!dir) throw new Error(`${vsix} installed, but no ${EXTENSION_ID}-* folder appeared in ${extensionsDir}`);
  return join(extensionsDir, dir);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server in its own process group and resolves once it listens.
 * Returns { url, port, handle, stop() }.
 */
export async function startCodeServer(
  bin,
  env,
  { userDataDir, extensionsDir, workspace, port, onLine, workspaceTrust = false },
) {
  const chosen = port ?? (await freePort());
  const handle = spawnGroup(
    bin,
    [
      '--bind-addr',
      `127.0.0.1:${chosen}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      // Workspace trust is off except for the scenarios that test it (a second editor instance).
      ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
      '--disable-getting-started-override',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      ...(workspace ? [workspace] : []),
    ],
    { env, label: 'code-server', onLine },
  );
  // code-server logs "HTTP server listening on http://127.0.0.1:PORT/" once it accepts requests.
  await handle.waitForLine((l) => /HTTP server listening on/.test(l), 'listening');
  const url = `http://127.0.0.1:${chosen}`;
  const health = await fetch(`${url}/healthz`);
  if (!health.ok) throw new Error(`code-server /healthz answered ${health.status}`);
  return { url, port: chosen, handle, stop: () => handle.stop() };
}
