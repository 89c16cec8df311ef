// The local sandbox as its own process (node dist/emulator.js), as a user's editor would see it.
import { join } from 'node:path';
import { spawnGroup } from './processes.mjs';

export async function startSandboxProcess(root, { seed = 'demo', env = process.env } = {}) {
  const handle = spawnGroup(process.execPath, [join(root, 'dist/emulator.js'), '--seed', seed], {
    cwd: root,
    env,
    label: 'sandbox',
  });
  const line = await handle.waitForLine((l) => l.startsWith('{'), 'printing its endpoints');
  const { grpc, http } = JSON.parse(line);
  if (!grpc || !http) throw new Error(`sandbox printed an unexpected line: ${line}`);
  return {
    grpc,
    http,
    handle,
    async reset(to = seed) {
      const res = await fetch(`${http}/sandbox/v1/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed: to }),
      });
      if (!res.ok) throw new Error(`sandbox reset answered ${res.status}: ${await res.text()}`);
    },
    async state() {
      const res = await fetch(`${http}/sandbox/v1/state`);
      if (!res.ok) throw new Error(`sandbox state answered ${res.status}`);
      return res.json();
    },
    stop: () => handle.stop(),
  };
}
