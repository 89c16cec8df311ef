// The one operation runner: it follows by name through whatever client is current at each poll, so a
// client closed by a settings change or a refused connection is re-attached to (bounded) instead of
// failing the operation; past the bounds the outcome is unknown, never failed, and Check Again asks
// the server again. A reload keeps the start time.
import { strict as assert } from 'node:assert';
import { fakeExtensionContext, record, useFakeVscode } from '../../fakes/vscode';
import { ClientClosedError, GoogleApiError } from '../../../../src/core/google/errors';
import type { OperationLike } from '../../../../src/core/lro';
import type * as RegistryModule from '../../../../src/features/operations/registry';
import type { OperationFollower, OperationRun } from '../../../../src/features/operations/runner';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { OperationsRegistry } = require('../../../../src/features/operations/registry') as typeof RegistryModule;

const FAST = { maxAttempts: 6, maxMs: 5_000, initialDelayMs: 1, maxDelayMs: 2 };
/** What gRPC says when the sandbox's port refuses connections. */
const refused = (): GoogleApiError =>
  new GoogleApiError(
    'UNAVAILABLE',
    'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:18402. Resolution note: .',
  );

/** A server that knows one operation: running for `polls` reads, then done. */
function server(polls: number, result: OperationLike['response'] = { model: 'm2' }) {
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    read(name: string): OperationLike {
      reads++;
      return reads > polls ? { name, done: true, response: result } : { name, done: false };
    },
  };
}

function run(
  follower: OperationFollower,
  extra: Partial<OperationRun<OperationLike>> = {},
): OperationRun<OperationLike> {
  return {
    title: 'Copy model m',
    resource: 'projects/p/locations/l/models/m',
    source: 'models',
    kind: 'copy',
    follower,
    initialPollMs: 1,
    reattach: FAST,
    work: (_signal, follow) => follow({ name: 'projects/p/locations/l/operations/7', done: false }),
    ...extra,
  };
}

describe('operation runner (features/operations/runner)', () => {
  let withProgress: unknown;
  before(() => {
    withProgress = vscode.window.withProgress;
    vscode.window.withProgress = (_o: unknown, task: any) =>
      task(
        { report: () => undefined },
        { isCancellationRequested: false, onCancellationRequested: () => ({ dispose() {} }) },
      );
  });
  after(() => {
    vscode.window.withProgress = withProgress;
  });
  beforeEach(() => {
    record.messages.length = 0;
  });

  it('follows by name through the client current at each poll: a closed client is re-attached to and the copy ends done', async () => {
    const registry = new OperationsRegistry();
    const remote = server(3);
    // The first client is closed after one poll (a settings change); the next one answers.
    const clients = [{ closed: false }, { closed: false }];
    let current = 0;
    const follower: OperationFollower = {
      get: async (name) => {
        const client = clients[current];
        if (client.closed) throw new ClientClosedError('Model Registry');
        const op = remote.read(name);
        if (current === 0 && remote.reads === 1) {
          client.closed = true;
          // The rebuilt client becomes current a moment after the old one closed.
          setTimeout(() => (current = 1), 3);
        }
        return op;
      },
    };
    const outcome = await registry.run(run(follower));
    assert.equal(outcome.state, 'succeeded', JSON.stringify(outcome));
    const row = registry.list()[0];
    assert.equal(row.state, 'succeeded');
    assert.equal(row.operationName, 'projects/p/locations/l/operations/7');
    assert.equal(current, 1, 'the rebuilt client was used');
  });

  it('a refused connection past the bounds ends "outcome unknown" in plain words, never failed; Check Again reads the server', async () => {
    const registry = new OperationsRegistry();
    const remote = server(0);
    let down = true;
    let resourceChecks = 0;
    const follower: OperationFollower = {
      get: async (name) => {
        if (down) throw refused();
        return remote.read(name);
      },
      checkResource: async () => {
        resourceChecks++;
        return 'projects/p/locations/l/models/m2 exists (version 1).';
      },
    };
    const outcome = await registry.run(run(follower));
    assert.equal(outcome.state, 'lost');
    const row = registry.list()[0];
    assert.equal(row.state, 'lost');
    assert.doesNotMatch(row.detail ?? '', /ECONNREFUSED|Last error|Resolution note/);
    assert.match(row.detail ?? '', /The sandbox at 127\.0\.0\.1:18402 refused the connection/);
    assert.match(row.detail ?? '', /asked \d+ times over/);

    registry.announce('Copy model m', outcome, '');
    assert.match(record.messages.at(-1)?.text ?? '', /outcome unknown/);
    assert.notEqual(record.messages.at(-1)?.level, 'error');

    down = false;
    const answer = await registry.checkAgain(row.id);
    assert.equal(row.state, 'succeeded', answer);
    assert.equal(resourceChecks, 1);
    assert.match(row.resourceState ?? '', /exists/);
  });

  it('keeps the start time of an operation followed again after a reload, and announces its end', async () => {
    const context = fakeExtensionContext({}, '/tmp');
    const first = new OperationsRegistry(context.workspaceState);
    const started = Date.now() - 90_000;
    first.journal.add({
      source: 'models',
      kind: 'copy',
      name: 'projects/p/locations/l/operations/9',
      title: 'Copy model m',
      resource: 'projects/p/locations/l/models/m',
      started,
    });
    // A new window: a new registry over the same workspace state.
    const registry = new OperationsRegistry(context.workspaceState);
    const remote = server(1);
    const ended = new Promise<void>((resolve) =>
      registry.onDidChange(() => {
        if (registry.list()[0]?.state === 'succeeded') resolve();
      }),
    );
    const count = registry.resume('models', () => ({
      follower: { get: async (name) => remote.read(name) },
      initialPollMs: 1,
      reattach: FAST,
    }));
    assert.equal(count, 1);
    assert.equal(registry.list()[0].started.getTime(), started, 'the elapsed time counts from the real start');
    await ended;
    await new Promise((r) => setImmediate(r));
    assert.ok(
      record.messages.some((m) => m.level === 'info' && /Copy model m: done/.test(m.text)),
      JSON.stringify(record.messages),
    );
    assert.equal(registry.journal.entries('models').length, 0, 'an ended operation leaves the journal');
  });

  it('an operation that failed on the server is failed, with the server words', async () => {
    const registry = new OperationsRegistry();
    const follower: OperationFollower = {
      get: async (name) => ({ name, done: true, error: { code: 7, message: 'caller lacks aiplatform.models.create' } }),
    };
    const outcome = await registry.run(run(follower));
    assert.equal(outcome.state, 'failed');
    assert.match(registry.list()[0].detail ?? '', /caller lacks aiplatform\.models\.create/);
  });
});
