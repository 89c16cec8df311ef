// Shared by the benches that drive the packaged extension in the real editor (code-server + headless
// Chromium, the e2e harness): figures, the machine's load, CPU time of a process tree, Cloudbench's log
// of the current window, and the steps every such bench starts with.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import * as wb from '../test/e2e/lib/workbench.mjs';
import * as editor from '../test/e2e/lib/editor.mjs';
import { startSandboxProcess } from '../test/e2e/lib/sandbox.mjs';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
export const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
export const figure = (name, value, unit = 'ms') =>
  console.log(`${name}: ${Number.isFinite(value) ? Math.round(value) : 'n/a'} ${unit}`);
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * CPU time (user + system, ms) used so far by the processes under `root` whose command line matches
 * `match`: the machine is shared, and CPU time does not count the waiting for a core.
 */
export function cpuMs(root, match) {
  const parent = new Map();
  const ticks = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(pid), Number(f[1]));
      ticks.set(Number(pid), Number(f[11]) + Number(f[12]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const under = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 50; p = parent.get(p) ?? 0, i++) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) {
    if (!under(pid)) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (match.test(cmd)) total += t;
  }
  // Linux reports clock ticks of 10 ms.
  return total * 10;
}

/** Cloudbench's log file of the current window (the newest one in the profile). */
export function cloudbenchLog(userDataDir) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/Cloudbench\.log$/.test(entry.name)) found.push(p);
    }
  };
  walk(join(userDataDir, 'logs'));
  found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return found[0];
}

/** Local-time log timestamps ("2026-11-25 14:30:00.123 [info] ...") as epoch milliseconds. */
export function logEntries(file) {
  if (!file || !existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => {
      const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] (.*)$/.exec(line);
      return m ? { at: new Date(`${m[1]}T${m[2]}`).getTime(), text: m[3] } : undefined;
    })
    .filter(Boolean);
}

export async function setThirtyDays(page) {
  await wb.runCommand(page, 'Cloudbench: Set Search Time Range…');
  await wb.pickQuickItem(page, 'Custom range', 'UDM Search Time Range');
  await wb.answerInputBox(page, '-30d', 'Custom time range: start');
  await wb.answerInputBox(page, 'now', 'Custom time range: end');
  await page.locator('.statusbar-item', { hasText: / – / }).first().waitFor();
}

/** The package to test: CLOUDBENCH_VSIX, else `npm run package` builds it. */
export function packagedExtension() {
  if (process.env.CLOUDBENCH_VSIX) return process.env.CLOUDBENCH_VSIX;
  const r = spawnSync('npm', ['run', 'package', '--silent'], {
    cwd: editor.ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('npm run package failed');
  return join(editor.ROOT, 'cloudbench-0.1.0.vsix');
}

/**
 * The packaged extension installed into a fresh code-server profile under `home`, pointed at a new
 * sandbox with the demo data, and a headless Chromium: what every real-editor bench starts from.
 * The workspace folder is created empty; the caller writes its files.
 */
export async function startEditorOnSandbox(home) {
  const bin = editor.installEditor();
  const vsix = packagedExtension();
  const sandbox = await startSandboxProcess(editor.ROOT, { seed: 'demo' });
  const env = editor.editorEnv(join(home, 'env'));
  const userDataDir = join(home, 'user-data');
  const extensionsDir = join(home, 'extensions');
  editor.writeProfile(userDataDir, editor.sandboxSettings(sandbox, { 'workbench.tree.enableStickyScroll': false }));
  await editor.installVsix(bin, env, { userDataDir, extensionsDir, vsix });
  const server = await editor.startCodeServer(bin, env, { userDataDir, extensionsDir });
  const browser = await wb.launchBrowser(join(home, 'browser'));
  const workspace = join(home, 'workspace');
  mkdirSync(workspace, { recursive: true });
  return { sandbox, server, browser, userDataDir, workspace };
}

/** The resident set of process `pid` in MB, as Process Explorer and `ps` show it (its own process only). */
export function rssMb(pid) {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Samples `pid`'s resident set every 50 ms until stopped; `stop()` gives the peak and the samples. */
export function sampleRss(pid) {
  const samples = [];
  const timer = setInterval(() => samples.push(rssMb(pid)), 50);
  return {
    stop() {
      clearInterval(timer);
      return { peak: Math.max(...samples), samples };
    },
  };
}

/** The pid of the extension host under `root` (code-server's process tree). */
export function extensionHostPid(root) {
  const parent = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const under = (pid) => {
    for (let p = pid, i = 0; p > 1 && i < 50; p = parent.get(p) ?? 0, i++) if (p === root) return true;
    return false;
  };
  const hosts = [...parent.keys()].filter((pid) => {
    if (!under(pid)) return false;
    try {
      return /extensionHost/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
  if (hosts.length !== 1) throw new Error(`expected one extension host under ${root}, found ${hosts.length}`);
  return hosts[0];
}
