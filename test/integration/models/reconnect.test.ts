// With the sandbox down when the Models view first loads, the view says "Connecting…" while the
// call is pending, shows the refused connection, and fills by itself once the sandbox answers at
// the same address: no manual refresh.
import * as assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { ReconnectSchedule, type ReconnectTimers } from '../../../src/core/reconnect';
import type * as ModelsTreeModule from '../../../src/features/models/tree';

useFakeVscode();
const tree = require('../../../src/features/models/tree') as typeof ModelsTreeModule;

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

describe('Models view when the sandbox is down at first', function () {
  this.timeout(30_000);
  let sandbox: Sandbox | undefined;
  let client: ModelRegistryClient | undefined;
  afterEach(async () => {
    client?.close();
    await sandbox?.close();
    sandbox = undefined;
  });

  it('says Connecting…, shows the refused connection, then fills by itself when the sandbox answers', async () => {
    const port = await closedPort();
    client = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: `127.0.0.1:${port}` },
      retry: { maxRetries: 0, initialBackoffMs: 10, maxBackoffMs: 10, multiplier: 1, retryable: [] },
    });
    const timers = manualTimers();
    const provider = new tree.ModelsTreeProvider(
      {
        client: () => client,
        project: () => 'cloudbench-demo',
        configuredLocations: () => [],
        filter: () => undefined,
        importedAnnotations: () => [],
      },
      new ReconnectSchedule(timers),
    );
    const messages: (string | undefined)[] = [];
    const onMessage = provider.onDidChangeMessage(() => messages.push(provider.message));
    let changes = 0;
    const onChange = provider.onDidChangeTreeData(() => changes++);

    const [project] = await provider.getChildren();
    const first = await provider.getChildren(project);
    assert.deepEqual(messages, ['Connecting…', undefined], 'the view says Connecting… while the first load is pending');
    const error = first.find((n) => n instanceof tree.ErrorNode);
    assert.ok(error, 'the refused connection shows as an error row');
    assert.match(error.tooltip as string, /checks again by itself/);

    sandbox = await startSandbox({ seed: 'demo', grpcPort: port });
    // gRPC's channel may still be in its own reconnect wait: the view's checks continue, 2 s, 4 s …
    const delays: number[] = [];
    let rows: InstanceType<typeof tree.ModelsNode>[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const before = changes;
      const fired = timers.fire();
      assert.equal(fired.length, 1, 'a check is scheduled while the connection fails');
      delays.push(...fired);
      assert.ok(changes > before, 'the check redraws the view by itself');
      const [again] = await provider.getChildren();
      rows = await provider.getChildren(again);
      if (!rows.some((n) => n instanceof tree.ErrorNode)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // 2 s doubling to a ceiling of 60 s, however many checks gRPC's own reconnect wait takes.
    assert.deepEqual(
      delays,
      delays.map((_, i) => Math.min(2_000 * 2 ** i, 60_000)),
    );
    assert.ok(
      rows.some((n) => n instanceof tree.LocationNode),
      'the locations show without a manual refresh',
    );
    assert.ok(!rows.some((n) => n instanceof tree.ErrorNode));
    assert.deepEqual(timers.fire(), [], 'a success schedules nothing more');
    onMessage.dispose();
    onChange.dispose();
    provider.dispose();
  });
});
