// With the sandbox down when the API Keys view first loads, the view says "Connecting…" while the
// call is pending, shows the refused connection, and fills by itself once the sandbox answers at
// the same address: no manual refresh.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ApiKeysClient } from '../../../src/core/apikeys/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { ReconnectSchedule, type ReconnectTimers } from '../../../src/core/reconnect';
import type * as KeysTreeModule from '../../../src/features/keys/tree';

useFakeVscode();
const tree = require('../../../src/features/keys/tree') as typeof KeysTreeModule;

const NO_RETRY = { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] };

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Timers that fire when the test says so. */
function manualTimers(): ReconnectTimers & { fire(): number[] } {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  return {
    now: () => 0,
    setTimeout: (run, ms) => {
      pending.set(++next, { run, ms });
      return next;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
    fire() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.run();
      return due.map((t) => t.ms);
    },
  };
}

describe('API Keys view when the sandbox is down at first', () => {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('says Connecting…, shows the refused connection, then fills by itself when the sandbox answers', async () => {
    const port = await closedPort();
    const client = new ApiKeysClient({
      baseUrl: `http://127.0.0.1:${port}`,
      tokens: sandboxTokenSource(),
      retry: NO_RETRY,
    });
    const timers = manualTimers();
    const provider = new tree.KeysTreeProvider(
      () => new tree.KeysModel('cloudbench-demo', client, () => Date.now()),
      new ReconnectSchedule(timers),
    );
    const messages: (string | undefined)[] = [];
    const onMessage = provider.onDidChangeMessage(() => messages.push(provider.message));
    let changes = 0;
    const onChange = provider.onDidChangeTreeData(() => changes++);

    const [project] = await provider.getChildren();
    const first = await provider.getChildren(project);
    assert.deepEqual(messages, ['Connecting…', undefined], 'the view says Connecting… while the first load is pending');
    const error = first.find((n) => n instanceof tree.MessageNode);
    assert.match(error?.fullText ?? '', /Could not list keys: .*ECONNREFUSED.*checks again by itself/);
    assert.ok(!first.some((n) => n instanceof tree.KeyNode));

    // The sandbox comes up at the address the client was given; the scheduled check finds it.
    sandbox = await startSandbox({ seed: 'demo', httpPort: port });
    const before = changes;
    assert.deepEqual(timers.fire(), [2_000], 'the first check is 2 s after the failure');
    assert.ok(changes > before, 'the check redraws the view by itself');
    const [again] = await provider.getChildren();
    const rows = await provider.getChildren(again);
    assert.ok(
      rows.some((n) => n instanceof tree.KeyNode),
      'the keys show without a manual refresh',
    );
    assert.ok(!rows.some((n) => n instanceof tree.MessageNode && n.fullText.startsWith('Could not')));
    assert.deepEqual(timers.fire(), [], 'a success schedules nothing more');
    onMessage.dispose();
    onChange.dispose();
    provider.dispose();
  });
});
