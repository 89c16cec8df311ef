// A copy followed by the one operation runner against the sandbox: the Model Registry client is
// closed and rebuilt mid-copy (what a settings change does), and the sandbox's port refuses
// connections for a while (what a sandbox restart looks like to the extension); the copy ends done
// both times, because each poll reads the operation by name through the client current then.
import { strict as assert } from 'node:assert';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { useFakeVscode } from '../../unit/fakes/vscode';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { ModelRegistryClient } from '../../../src/core/models/client';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type * as RegistryModule from '../../../src/features/operations/registry';
import type * as RunOperationModule from '../../../src/features/models/run-operation';
import type { ModelsContext } from '../../../src/features/models/context';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { OperationsRegistry } = require('../../../src/features/operations/registry') as typeof RegistryModule;
const { runModelOperation } = require('../../../src/features/models/run-operation') as typeof RunOperationModule;

const PARENT = 'projects/cloudbench-demo/locations/us-central1';
const NO_RETRY = { maxRetries: 0 };

/** A TCP relay in front of the sandbox's gRPC port that can be stopped (refusing) and started again on the same port. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}
  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

describe('a copy followed across a client rebuild and a refused connection (sandbox)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let withProgress: unknown;
  const clients: ModelRegistryClient[] = [];
  const newClient = (endpoint: string): ModelRegistryClient => {
    const c = new ModelRegistryClient({
      tokenSource: sandboxTokenSource(),
      endpoint: { apiEndpoint: endpoint },
      retry: NO_RETRY,
      timeoutMs: 5_000,
    });
    clients.push(c);
    return c;
  };

  before(async () => {
    sandbox = await startSandbox({ seed: 'demo' });
    withProgress = vscode.window.withProgress;
  });
  after(async () => {
    vscode.window.withProgress = withProgress;
    for (const c of clients) c.close();
    await sandbox.close();
  });

  /** A models context with just what the runner needs: the current client and the registry. */
  function modelsContext(current: () => ModelRegistryClient): ModelsContext {
    const registry = new OperationsRegistry();
    return { client: current, services: { operations: registry }, operations: registry } as unknown as ModelsContext;
  }

  /** Calls `onPoll` with each progress report (the runner's polls), after the copy has started. */
  function progressHook(onPoll: (message: string | undefined) => void): void {
    vscode.window.withProgress = (_o: unknown, task: any) =>
      task(
        { report: (p: { message?: string }) => onPoll(p.message) },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
  }

  async function sourceModel(client: ModelRegistryClient): Promise<string> {
    for await (const m of client.listModels({ parent: PARENT })) return m.name!;
    throw new Error('the demo seed has no model');
  }

  it('ends done when the client is closed and rebuilt mid-copy (a settings change)', async () => {
    let client = newClient(sandbox.grpc);
    const ctx = modelsContext(() => client);
    const source = await sourceModel(client);
    let rebuilt = false;
    progressHook(() => {
      if (rebuilt) return;
      rebuilt = true;
      // What the Models feature does on a settings change: close the old client, build a new one.
      const old = client;
      client = newClient(sandbox.grpc);
      old.close();
      sandbox.clock.advance(3600);
    });
    const outcome = await runModelOperation(ctx, {
      title: 'Copy model across a rebuild',
      resource: source,
      kind: 'copy',
      initialPollMs: 20,
      start: (signal) =>
        client.copyModel({ request: { parent: PARENT, sourceModel: source, modelId: 'rebuilt-copy' } }, { signal }),
    });
    assert.ok(rebuilt, 'the client was rebuilt while the copy ran');
    assert.equal(outcome.state, 'succeeded', JSON.stringify(outcome));
    assert.equal(ctx.operations.list()[0].state, 'succeeded');
    const copy = await client.getModel({ name: `${PARENT}/models/rebuilt-copy` });
    assert.equal(copy.name, `${PARENT}/models/rebuilt-copy`);
  });

  it('ends done when the sandbox port refuses connections mid-copy and then answers again', async () => {
    const [host, port] = sandbox.grpc.split(':');
    const relay = new Relay({ host, port: Number(port) });
    await relay.start();
    const endpoint = `127.0.0.1:${relay.port}`;
    const client = newClient(endpoint);
    const ctx = modelsContext(() => client);
    const source = await sourceModel(client);
    const messages: string[] = [];
    let stopped = false;
    let restarted: Promise<void> | undefined;
    progressHook((message) => {
      if (message) messages.push(message);
      if (!stopped) {
        stopped = true;
        void relay.stop();
        return;
      }
      // The runner said it is following again after a failed read: the sandbox comes back.
      if (!restarted && /following .* again/.test(message ?? '')) {
        sandbox.clock.advance(3600);
        restarted = relay.start();
      }
    });
    const outcome = await runModelOperation(ctx, {
      title: 'Copy model across a restart',
      resource: source,
      kind: 'copy',
      initialPollMs: 20,
      start: (signal) =>
        client.copyModel({ request: { parent: PARENT, sourceModel: source, modelId: 'restart-copy' } }, { signal }),
    });
    await relay.stop();
    assert.ok(restarted, `the connection was refused and the runner tried again: ${messages.join(' | ')}`);
    assert.equal(outcome.state, 'succeeded', JSON.stringify(outcome));
    assert.equal(ctx.operations.list()[0].state, 'succeeded');
  });
});
