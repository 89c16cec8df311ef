#!/usr/bin/env node
// activation ms: time spent inside activate() of the packaged extension, in a real extension host
// (code-server), as the extension reports it in its API (activationMs). Median over fresh windows,
// each with its own extension host.
//   node bench/activation.mjs [--runs N] [--vsix FILE]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as editor from '../test/e2e/lib/editor.mjs';
import * as wb from '../test/e2e/lib/workbench.mjs';
import { installExitHooks, stopAll } from '../test/e2e/lib/processes.mjs';
import { startSandboxProcess } from '../test/e2e/lib/sandbox.mjs';

const ROOT = editor.ROOT;
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(opt('--runs') ?? 5);

// Runs in the extension host: activates Cloudbench and hands its own measurement back.
const PROBE = `
exports.run = async () => {
  const vscode = require('vscode');
  const ext = vscode.extensions.getExtension('cloudbench.cloudbench');
  if (!ext) throw new Error('cloudbench.cloudbench is not installed');
  const api = await ext.activate();
  console.log('CLOUDBENCH_ACTIVATION ' + JSON.stringify({ activationMs: api.activationMs, steps: api.activationSteps, failures: api.failures }));
};
`;

installExitHooks();
const home = mkdtempSync(join(tmpdir(), 'cloudbench-bench-'));
let browser;
try {
  const bin = editor.installEditor();
  let vsix = opt('--vsix');
  if (!vsix) {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    vsix = join(ROOT, 'cloudbench-0.1.0.vsix');
  }
  const sandbox = await startSandboxProcess(ROOT, { seed: 'demo' });
  const env = editor.editorEnv(join(home, 'env'));
  const userDataDir = join(home, 'user-data');
  const extensionsDir = join(home, 'extensions');
  editor.writeProfile(userDataDir, editor.sandboxSettings(sandbox));
  const extensionDir = await editor.installVsix(bin, env, { userDataDir, extensionsDir, vsix });
  const codeServer = await editor.startCodeServer(bin, env, { userDataDir, extensionsDir });
  browser = await wb.launchBrowser(join(home, 'browser'));
  const probeDir = join(home, 'probe');
  mkdirSync(probeDir);
  writeFileSync(join(probeDir, 'index.cjs'), PROBE);
  const authority = `vscode-remote://127.0.0.1:${codeServer.port}`;

  const samples = [];
  const stepSamples = new Map();
  for (let i = 0; i < runs; i++) {
    const workspace = join(home, `ws-${i}`);
    mkdirSync(workspace);
    const page = await wb.newPage(browser, codeServer.url);
    let report;
    const exited = new Promise((resolve) => page.exposeFunction('codeAutomationExit', (code) => resolve(code)));
    await page.exposeFunction('codeAutomationLog', (_type, logArgs) => {
      const text = Array.isArray(logArgs) ? logArgs.join(' ') : String(logArgs);
      if (text.startsWith('CLOUDBENCH_ACTIVATION ')) report = JSON.parse(text.slice('CLOUDBENCH_ACTIVATION '.length));
    });
    await page.goto(
      wb.workbenchUrl(codeServer.url, workspace, [
        ['extensionDevelopmentPath', `${authority}${extensionDir}`],
        ['extensionTestsPath', `${authority}${join(probeDir, 'index.cjs')}`],
      ]),
    );
    const code = await exited;
    await page.context().close();
    if (code !== 0 || !report) throw new Error(`activation probe failed (exit ${code})`);
    if (report.failures?.length) throw new Error(`activation reported failures: ${JSON.stringify(report.failures)}`);
    samples.push(report.activationMs);
    for (const { step, ms } of report.steps ?? []) stepSamples.set(step, [...(stepSamples.get(step) ?? []), ms]);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(`activation ms: ${median.toFixed(1)} ms`);
  console.log(`activation ms max: ${samples[samples.length - 1].toFixed(1)} ms`);
  console.log(`activation runs: ${samples.length} runs`);
  // The breakdown is for finding what to defer; only the total is a figure.
  for (const [step, xs] of stepSamples) {
    xs.sort((a, b) => a - b);
    console.log(
      `  ${step}: median ${xs[Math.floor(xs.length / 2)].toFixed(1)} ms, max ${xs[xs.length - 1].toFixed(1)} ms`,
    );
  }
} catch (err) {
  console.error(`activation benchmark failed: ${err?.stack ?? err}`);
  process.exitCode = 1;
} finally {
  await browser?.close().catch(() => {});
  await stopAll();
  rmSync(home, { recursive: true, force: true });
}
