// Child processes of the real-editor harness. Every server runs in its own process group
// (detached → setsid) so stopping it takes its children along: a plain SIGTERM to code-server
// would leave the extension host and its file watchers running.
import { spawn } from 'node:child_process';

const groups = new Set();

/**
 * Starts `command` in a new process group. Output goes to `onLine(stream, line)` when given,
 * and is kept (last 200 lines) for error messages.
 */
export function spawnGroup(command, args, { cwd, env, onLine, label } = {}) {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = [];
  const listeners = new Set();
  const handle = {
    label: label ?? command,
    child,
    pid: child.pid,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    tail: () => tail.join('\n'),
    /** Resolves with the first line matching `predicate`; rejects if the process exits first. */
    waitForLine(predicate, what) {
      return new Promise((resolve, reject) => {
        const listener = (line) => {
          if (!predicate(line)) return;
          listeners.delete(listener);
          resolve(line);
        };
        listeners.add(listener);
        handle.exited.then(({ code, signal }) => {
          if (!listeners.has(listener)) return;
          listeners.delete(listener);
          reject(
            new Error(`${handle.label} exited (code ${code}, signal ${signal}) before ${what}:\n${handle.tail()}`),
          );
        });
      });
    },
    stop: () => stopGroup(handle),
  };
  for (const [name, stream] of [
    ['stdout', child.stdout],
    ['stderr', child.stderr],
  ]) {
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        tail.push(line);
        if (tail.length > 200) tail.shift();
        onLine?.(name, line);
        for (const l of [...listeners]) l(line);
      }
    });
  }
  child.on('error', (err) => {
    tail.push(`spawn error: ${err.message}`);
  });
  groups.add(handle);
  handle.exited.then(() => groups.delete(handle));
  return handle;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // the group is gone already
  }
}

/**
 * SIGTERM to the whole group; once the leader has exited (or `graceMs` passed), SIGKILL to
 * whatever is left of the group, since leftovers are exactly what a plain stop would leak.
 */
export async function stopGroup(handle, graceMs = 5000) {
  if (!handle.pid) return;
  if (signalGroup(handle.pid, 'SIGTERM')) {
    let timer;
    await Promise.race([
      handle.exited,
      new Promise((r) => {
        timer = setTimeout(r, graceMs);
      }),
    ]);
    clearTimeout(timer);
    signalGroup(handle.pid, 'SIGKILL');
  }
  groups.delete(handle);
}

/** Synchronous last resort on process exit: nothing async can run there. */
function killAllNow() {
  for (const h of groups) {
    if (h.pid) signalGroup(h.pid, 'SIGKILL');
  }
  groups.clear();
}

export async function stopAll() {
  await Promise.all([...groups].map((h) => stopGroup(h)));
}

let hooked = false;
/** Stops every group when the runner exits or is interrupted. */
export function installExitHooks(onSignal) {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllNow);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, async () => {
      try {
        await onSignal?.(sig);
      } finally {
        await stopAll();
        process.exit(130);
      }
    });
  }
}
