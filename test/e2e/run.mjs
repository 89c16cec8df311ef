#!/usr/bin/env node
// Real-editor tests (npm run test:e2e): the packaged extension in code-server (VS Code 1.100),
// driven by headless Chromium through playwright-core, against a local sandbox process.
//
//   node test/e2e/run.mjs [--grep REGEX] [--vsix FILE] [--keep] [--retries N] [--screenshots]
//
// UI scenarios: test/e2e/scenarios/*.mjs, each `export const name` and `export async function run(t)`.
// Extension-host tests: test/e2e/host/*.test.cjs, run inside the extension host (full vscode API).
// Every scenario and host test starts from freshly reset sandbox data. Screenshots and logs go to
// test-results/e2e/. Ends with "N passed, N failed" and a non-zero exit code on any failure.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as editor from './lib/editor.mjs';
import * as wb from './lib/workbench.mjs';
import { installExitHooks, stopAll } from './lib/processes.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';
import { readmeShots } from './lib/readme-shots.mjs';

const ROOT = editor.ROOT;
const HERE = join(ROOT, 'test/e2e');
const OUT = join(ROOT, 'test-results/e2e');
const SCENARIO_TIMEOUT_MS = 180_000;
const HOST_TIMEOUT_MS = 15 * 60_000;

function parseArgs(argv) {
  const opts = { grep: undefined, vsix: undefined, keep: false, retries: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--grep' || a === '-g') opts.grep = argv[++i];
    else if (a === '--vsix') opts.vsix = argv[++i];
    else if (a === '--keep') opts.keep = true;
    else if (a === '--retries') opts.retries = Number(argv[++i]);
    else if (a === '--screenshots') opts.screenshots = true;
    else throw new Error(`unknown argument "${a}" (use --grep REGEX, --vsix FILE, --keep, --retries N, --screenshots)`);
  }
  if (!Number.isInteger(opts.retries) || opts.retries < 0) {
    throw new Error('--retries takes a whole number (0 runs each scenario once)');
  }
  return opts;
}

const say = (msg) => console.log(`[e2e] ${msg}`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

function runNpm(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** A fresh workspace folder: the sample workspace plus whatever the scenario asks for. */
function freshWorkspace(home, name, settings) {
  const dir = join(home, 'workspaces', name);
  mkdirSync(dir, { recursive: true });
  const sample = join(HERE, 'fixtures/workspace');
  if (existsSync(sample)) cpSync(sample, dir, { recursive: true });
  if (settings) {
    mkdirSync(join(dir, '.vscode'), { recursive: true });
    writeFileSync(join(dir, '.vscode/settings.json'), JSON.stringify(settings, null, 2));
  }
  return dir;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${seconds(ms)}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function loadScenarios(grep) {
  const dir = join(HERE, 'scenarios');
  if (!existsSync(dir)) return [];
  const scenarios = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.mjs'))
    .sort()) {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    const name = `ui ${mod.name ?? file.replace(/\.mjs$/, '')}`;
    if (grep && !grep.test(name)) continue;
    scenarios.push({
      name,
      file,
      run: mod.run,
      workspaceSettings: mod.workspaceSettings,
      workspaceTrust: mod.workspaceTrust === true,
      userSettings: mod.userSettings,
      // `export const timeoutMs = N`: a scenario that walks through the whole extension needs longer.
      timeoutMs: mod.timeoutMs ?? SCENARIO_TIMEOUT_MS,
    });
  }
  return scenarios;
}

function hostTestFiles() {
  const dir = join(HERE, 'host');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.cjs')) : [];
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  // --screenshots: the scenario that takes the README's screenshots, which then land in media/screenshots/.
  if (opts.screenshots) opts.grep ??= 'get-started';
  const grep = opts.grep ? new RegExp(opts.grep, 'i') : undefined;
  const started = Date.now();
  const results = [];
  const flaky = [];
  const record = (name, ok, ms, error) => {
    results.push({ name, ok, ms, error });
    const lines = ok ? [] : String(error).split('\n');
    if (lines.length > 40) lines.splice(30, lines.length - 40, `… ${lines.length - 40} more lines …`);
    console.log(`  ${ok ? '✓' : '✗'} ${name} (${seconds(ms)})${lines.map((l) => `\n      ${l}`).join('')}`);
  };

  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const home = mkdtempSync(join(tmpdir(), 'cloudbench-e2e-'));
  let browser;
  let codeServer;
  let sandbox;
  installExitHooks(async () => {
    await browser?.close().catch(() => {});
  });

  try {
    say('installing the editor when missing');
    const bin = editor.installEditor();

    let vsix = opts.vsix;
    if (!vsix) {
      say('packaging the extension (npm run package)');
      await runNpm(['run', 'package', '--silent']);
      vsix = join(ROOT, 'cloudbench-0.1.0.vsix');
    }
    if (!existsSync(vsix)) throw new Error(`no package at ${vsix}`);
    if (!existsSync(join(ROOT, 'dist/emulator.js'))) throw new Error('dist/emulator.js is missing: run npm run build');

    say('starting the sandbox');
    sandbox = await startSandboxProcess(ROOT, { seed: 'demo' });
    say(`sandbox: gRPC ${sandbox.grpc}, HTTP ${sandbox.http}`);

    const env = editor.editorEnv(join(home, 'env'));
    const userDataDir = join(home, 'user-data');
    const extensionsDir = join(home, 'extensions');
    // Sticky tree headers overlay the rows under them, so a click meant for a row would land on them.
    editor.writeProfile(userDataDir, editor.sandboxSettings(sandbox, { 'workbench.tree.enableStickyScroll': false }));
    say(`installing ${vsix} into a fresh profile`);
    const extensionDir = await editor.installVsix(bin, env, { userDataDir, extensionsDir, vsix });
    // A test-only extension beside it (fixtures/tool-driver, never in Cloudbench's package): a command
    // that calls vscode.lm.invokeTool outside chat, so scenarios see VS Code's own tool confirmation.
    const driverVsix = join(home, 'tool-driver.vsix');
    const { createVSIX } = await import('@vscode/vsce');
    await createVSIX({
      cwd: join(HERE, 'fixtures/tool-driver'),
      packagePath: driverVsix,
      dependencies: false,
      allowMissingRepository: true,
      skipLicense: true,
    });
    await editor.installVsix(bin, env, { userDataDir, extensionsDir, vsix: driverVsix });

    const logLines = [];
    codeServer = await editor.startCodeServer(bin, env, {
      userDataDir,
      extensionsDir,
      onLine: (_stream, line) => logLines.push(line),
    });
    say(`code-server: ${codeServer.url}`);
    browser = await wb.launchBrowser(join(home, 'browser'));

    // UI scenarios: a fresh page (and so a fresh extension host) on a fresh workspace each.
    const scenarios = await loadScenarios(grep);
    // Scenarios that test workspace trust run in a second editor whose profile has trust enabled
    // (the trust prompt shows for every new folder); the first editor keeps trust off.
    let trustServer;
    const serverFor = async (scenario) => {
      if (!scenario.workspaceTrust) return codeServer;
      if (!trustServer) {
        const trustDataDir = join(home, 'user-data-trust');
        editor.writeProfile(
          trustDataDir,
          editor.sandboxSettings(sandbox, {
            'workbench.tree.enableStickyScroll': false,
            'security.workspace.trust.enabled': true,
            'security.workspace.trust.startupPrompt': 'always',
          }),
        );
        trustServer = await editor.startCodeServer(bin, env, {
          userDataDir: trustDataDir,
          extensionsDir,
          workspaceTrust: true,
          onLine: (_stream, line) => logLines.push(`[trust] ${line}`),
        });
        say(`code-server with workspace trust: ${trustServer.url}`);
      }
      return trustServer;
    };
    // A UI scenario that fails runs again on a fresh page (--retries, 1 by default): the workbench
    // under load sometimes drops a click or a palette row. A pass on a later attempt is reported as
    // flaky, with the first failure, so flakiness stays visible; a scenario that fails every
    // attempt fails the run.
    const runScenario = async (scenario, attempt) => {
      const slug = scenario.file.replace(/\.mjs$/, '') + (attempt > 1 ? `-attempt${attempt}` : '');
      const server = await serverFor(scenario);
      // `export const userSettings = { key: value | null }`: the profile's user settings for this
      // scenario only (null removes a key; the sandbox endpoints, say, for a signed-out editor). What
      // the scenario changes there, and in the remote machine settings where machine-scoped settings
      // land, is undone afterwards.
      const profile = scenario.workspaceTrust ? join(home, 'user-data-trust') : userDataDir;
      const settingsFiles = ['User/settings.json', 'Machine/settings.json'].map((f) => join(profile, f));
      // Every scenario may change settings (through the Settings editor, or a command that writes
      // them): both files are put back afterwards.
      const savedSettings = settingsFiles.map((f) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined));
      if (scenario.userSettings) editor.applySettings(profile, scenario.userSettings);
      const page = await wb.newPage(browser, server.url);
      const pageErrors = [];
      page.on('pageerror', (err) => pageErrors.push(err.message));
      try {
        await sandbox.reset('demo');
        const settings =
          typeof scenario.workspaceSettings === 'function'
            ? await scenario.workspaceSettings()
            : scenario.workspaceSettings;
        const workspace = freshWorkspace(home, slug, settings);
        const t = {
          page,
          wb,
          sandbox,
          workspace,
          userDataDir: profile,
          baseUrl: server.url,
          // The editor's profile folder (user settings, workspace storage, logs) for checks on disk.
          profile,
          screenshot: (label) => page.screenshot({ path: join(OUT, `${slug}-${label}.png`) }),
          readmeScreenshot: readmeShots(page, { write: !!opts.screenshots, out: OUT }),
          log: (msg) => console.log(`      ${msg}`),
        };
        await withTimeout(
          (async () => {
            await wb.openWorkbench(page, server.url, workspace);
            await scenario.run(t);
          })(),
          scenario.timeoutMs,
          scenario.name,
        );
        await page.screenshot({ path: join(OUT, `${slug}.png`) });
        return undefined;
      } catch (err) {
        await page.screenshot({ path: join(OUT, `${slug}-FAILED.png`) }).catch(() => {});
        const extra = pageErrors.length ? `\npage errors:\n${pageErrors.slice(0, 5).join('\n')}` : '';
        return `${err?.stack ?? err}${extra}`;
      } finally {
        await page
          .context()
          .close()
          .catch(() => {});
        savedSettings.forEach((text, i) =>
          text === undefined ? rmSync(settingsFiles[i], { force: true }) : writeFileSync(settingsFiles[i], text),
        );
      }
    };
    for (const scenario of scenarios) {
      const t0 = Date.now();
      let error;
      for (let attempt = 1; attempt <= 1 + opts.retries; attempt++) {
        const failure = await runScenario(scenario, attempt);
        if (failure === undefined) {
          if (attempt > 1) flaky.push({ name: scenario.name, error });
          error = undefined;
          break;
        }
        error ??= failure;
        if (attempt <= opts.retries) {
          console.log(`  ↻ ${scenario.name}: attempt ${attempt} failed; running it again on a fresh page`);
          console.log(`      ${String(failure).split('\n').slice(0, 3).join('\n      ')}`);
        }
      }
      record(scenario.name, error === undefined, Date.now() - t0, error);
    }

    // Extension-host tests: one window whose extension host loads host/index.cjs as extensionTestsPath
    // and the installed (packaged) extension as the extension under development.
    if (hostTestFiles().length) {
      const t0 = Date.now();
      const hostDir = join(home, 'host-tests');
      cpSync(join(HERE, 'host'), hostDir, { recursive: true });
      const resultsFile = join(hostDir, 'results.jsonl');
      writeFileSync(resultsFile, '');
      const workspace = freshWorkspace(home, 'host');
      writeFileSync(
        join(hostDir, 'config.json'),
        JSON.stringify({
          grep: opts.grep,
          resultsFile,
          workspace,
          sandbox: { grpc: sandbox.grpc, http: sandbox.http },
          extensionDir,
        }),
      );
      const page = await wb.newPage(browser, codeServer.url);
      const hostLog = [];
      const exited = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
      await page.exposeFunction('codeAutomationLog', (_type, args) => {
        const text = Array.isArray(args) ? args.join(' ') : String(args);
        hostLog.push(text);
        if (text.startsWith('[host]')) console.log(`      ${text}`);
        // A host test asks for the next modal dialog to be answered (a tool's confirmation): its text
        // goes to dialogs.jsonl, which the test reads, and the button is pressed.
        if (text.startsWith('[host-ui] dialog ')) void answerHostDialog(page, hostDir, JSON.parse(text.slice(17)));
      });
      const authority = `vscode-remote://127.0.0.1:${codeServer.port}`;
      await page.goto(
        wb.workbenchUrl(codeServer.url, workspace, [
          ['extensionDevelopmentPath', `${authority}${extensionDir}`],
          ['extensionTestsPath', `${authority}${join(hostDir, 'index.cjs')}`],
        ]),
      );
      let exitCode;
      let hostError;
      try {
        exitCode = await withTimeout(exited, HOST_TIMEOUT_MS, 'extension-host tests');
      } catch (err) {
        hostError = err;
        await page.screenshot({ path: join(OUT, 'host-FAILED.png') }).catch(() => {});
      }
      writeFileSync(join(OUT, 'host.log'), hostLog.join('\n'));
      const lines = readFileSync(resultsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      for (const r of lines) record(r.name, r.ok, r.ms, r.error);
      const failedInside = lines.some((r) => !r.ok);
      if (hostError || (exitCode !== 0 && !failedInside)) {
        // The harness itself broke (module failed to load, extension host crashed, timeout).
        const tail = hostLog.slice(-30).join('\n');
        record(
          'host harness',
          false,
          Date.now() - t0,
          `${hostError?.message ?? `extension host exited with ${exitCode}`}\n${tail}`,
        );
      }
      await page
        .context()
        .close()
        .catch(() => {});
    }

    writeFileSync(join(OUT, 'code-server.log'), logLines.join('\n'));
  } catch (err) {
    record('e2e setup', false, 0, err?.stack ?? err);
  } finally {
    // Extension logs (the Cloudbench output channel among them) help explain a failure.
    const userLogs = join(home, 'user-data', 'logs');
    if (existsSync(userLogs)) cpSync(userLogs, join(OUT, 'logs'), { recursive: true });
    await browser?.close().catch(() => {});
    await stopAll();
    if (!opts.keep) rmSync(home, { recursive: true, force: true });
  }

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  say(`finished in ${seconds(Date.now() - started)}; screenshots and logs in ${OUT}`);
  if (flaky.length) {
    console.log('flaky (failed, then passed on a fresh page):');
    for (const f of flaky) {
      console.log(`  ↻ ${f.name}`);
      console.log(`      ${String(f.error).split('\n').slice(0, 3).join('\n      ')}`);
    }
  }
  if (failed) {
    console.log('failures:');
    for (const r of results.filter((x) => !x.ok)) console.log(`  ✗ ${r.name}`);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed || results.length === 0 ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});

/** Presses `button` on the next modal dialog of the host window and records the dialog's text. */
async function answerHostDialog(page, hostDir, { button }) {
  try {
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await dialog.innerText();
    await dialog.getByRole('button', { name: button, exact: true }).click();
    appendFileSync(join(hostDir, 'dialogs.jsonl'), `${JSON.stringify({ button, text })}\n`);
  } catch (err) {
    appendFileSync(join(hostDir, 'dialogs.jsonl'), `${JSON.stringify({ button, error: String(err) })}\n`);
  }
}
