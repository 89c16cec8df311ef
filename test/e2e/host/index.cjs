// Loaded by the VS Code extension host as `extensionTestsPath` (see test/e2e/run.mjs). Runs every
// host/*.test.cjs with the full `vscode` API against the running extension and sandbox, and writes one
// JSON line per test into the results file the runner reads. Console output reaches the runner
// through the workbench's codeAutomationLog hook.
const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const vscode = require('vscode');

const EXTENSION_ID = 'cloudbench.cloudbench';

/** Resolves once `probe()` returns a truthy value; re-probes on every vscode event that may change it. */
async function waitFor(probe, { timeout = 20_000, what = 'condition', events = [] } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  const check = async () => {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      lastError = err;
    }
    return undefined;
  };
  const first = await check();
  if (first) return first;
  return new Promise((resolve, reject) => {
    const subs = [];
    let done = false;
    let timer;
    let ticker;
    const finish = (fn, value) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(ticker);
      for (const s of subs) s.dispose();
      fn(value);
    };
    const recheck = async () => {
      const v = await check();
      if (v) finish(resolve, v);
    };
    const defaults = [
      vscode.languages.onDidChangeDiagnostics,
      vscode.workspace.onDidChangeTextDocument,
      vscode.window.onDidChangeActiveTextEditor,
      vscode.window.onDidChangeVisibleTextEditors,
      vscode.workspace.onDidOpenTextDocument,
    ];
    for (const ev of [...defaults, ...events]) subs.push(ev(recheck));
    // Not every state change has an event the host can hear (a server answering, a tree
    // refreshing), so also re-probe on a short interval until the deadline.
    ticker = setInterval(recheck, 100);
    timer = setTimeout(
      () =>
        finish(
          reject,
          new Error(`timed out after ${timeout} ms waiting for ${what}${lastError ? `: ${lastError.message}` : ''}`),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
}

async function resetSandbox(http, seed = 'demo') {
  const res = await fetch(`${http}/sandbox/v1/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seed }),
  });
  if (!res.ok) throw new Error(`sandbox reset answered ${res.status}`);
}

async function run() {
  const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'config.json'), 'utf8'));
  const grep = config.grep ? new RegExp(config.grep, 'i') : undefined;
  const results = fs.openSync(config.resultsFile, 'a');
  const record = (entry) => fs.writeSync(results, JSON.stringify(entry) + '\n');

  const tests = [];
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.cjs'))
    .sort();
  for (const file of files) {
    const area = file.replace(/\.test\.cjs$/, '');
    const test = (name, fn, opts = {}) =>
      tests.push({ name: `host ${area}: ${name}`, fn, timeout: opts.timeout ?? 60_000 });
    require(path.join(__dirname, file))({ test, vscode, assert, waitFor, config, EXTENSION_ID });
  }

  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  const ctx = {
    vscode,
    assert,
    waitFor,
    config,
    extension,
    sandbox: {
      http: config.sandbox.http,
      grpc: config.sandbox.grpc,
      reset: (seed) => resetSandbox(config.sandbox.http, seed),
    },
    workspace: config.workspace,
  };
  let failed = 0;
  for (const t of tests) {
    if (grep && !grep.test(t.name)) continue;
    const started = Date.now();
    let timer;
    try {
      await resetSandbox(config.sandbox.http);
      await Promise.race([
        t.fn(ctx),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timed out after ${t.timeout} ms`)), t.timeout);
        }),
      ]);
      record({ name: t.name, ok: true, ms: Date.now() - started });
      console.log(`[host] ok   ${t.name}`);
    } catch (err) {
      failed++;
      record({ name: t.name, ok: false, ms: Date.now() - started, error: String(err && err.stack ? err.stack : err) });
      console.log(`[host] FAIL ${t.name}: ${err && err.message}`);
    } finally {
      clearTimeout(timer);
      // Leave no editor or dialog of this test to the next one.
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  }
  fs.closeSync(results);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
}

module.exports = { run };
