import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as OperationsRegistryModule from '../../../src/features/operations/registry';
import type * as OperationsViewModule from '../../../src/features/operations/view';
import { GoogleApiError, briefError, describeError } from '../../../src/core/google/errors';

useFakeVscode();

const { OperationsRegistry } = require('../../../src/features/operations/registry') as typeof OperationsRegistryModule;

describe('operations registry (Operations view model)', () => {
  it('lists running operations first and records how each ended', () => {
    const reg = new OperationsRegistry();
    let changes = 0;
    const listener = reg.onDidChange(() => changes++);
    const a = reg.start({ title: 'Copy model a', resource: 'r/a', source: 'models' });
    const b = reg.start({ title: 'Delete key b', resource: 'r/b', source: 'keys' });
    assert.deepEqual(
      reg.list().map((o) => o.title),
      ['Delete key b', 'Copy model a'],
    );
    a.progress('running for 3 s');
    a.finish('succeeded', 'done');
    a.progress('ignored after the end');
    assert.equal(a.operation.state, 'succeeded');
    assert.equal(a.operation.detail, 'done');
    assert.ok(a.operation.ended);
    assert.equal(b.operation.state, 'running');
    assert.ok(changes >= 4);
    assert.equal(reg.clearFinished(), 1);
    assert.deepEqual(
      reg.list().map((o) => o.title),
      ['Delete key b'],
    );
    listener.dispose();
    const seen = changes;
    b.finish('failed', 'gone');
    assert.equal(changes, seen, 'a disposed listener hears nothing more');
  });

  it("cancel goes through the operation's own action and keeps it running until the server says so", async () => {
    const reg = new OperationsRegistry();
    const calls: string[] = [];
    const h = reg.start({
      title: 'Export',
      resource: 'r',
      source: 'models',
      cancel: async () => {
        calls.push('cancel');
        return 'Cancellation was requested.';
      },
    });
    assert.equal(await reg.cancel(h.operation.id), 'Cancellation was requested.');
    assert.deepEqual(calls, ['cancel']);
    assert.equal(h.operation.state, 'running');
    assert.equal(h.signal.aborted, false, 'cancel does not stop the local wait');
    const none = reg.start({ title: 'No cancel', resource: 'r', source: 'keys' });
    assert.match(await reg.cancel(none.operation.id), /cannot be cancelled/);
  });

  it('stop waiting calls the stop action, marks the entry and aborts the local wait', async () => {
    const reg = new OperationsRegistry();
    const calls: string[] = [];
    const h = reg.start({
      title: 'Copy',
      resource: 'r',
      source: 'models',
      stopWaiting: async () => {
        calls.push('delete');
        return 'Stopped waiting.';
      },
    });
    assert.equal(await reg.stopWaiting(h.operation.id), 'Stopped waiting.');
    assert.deepEqual(calls, ['delete']);
    assert.equal(h.operation.state, 'detached');
    assert.equal(h.signal.aborted, true);
    h.finish('failed', 'late');
    assert.equal(h.operation.state, 'detached', 'a late finish does not overwrite the outcome');
    assert.match(await reg.stopWaiting(h.operation.id), /no longer running/);
  });
});

describe('operations view items', () => {
  it('shows an operation whose polling failed as outcome unknown, not as failed', () => {
    const { OperationItem } = require('../../../src/features/operations/view') as typeof OperationsViewModule;
    const reg = new OperationsRegistry();
    const h = reg.start({ title: 'Copy model a', resource: 'r/a', source: 'models' });
    h.finish('lost', 'Lost track of op/1');
    const item = new OperationItem(h.operation);
    assert.equal(item.contextValue, 'operation.lost');
    assert.match(String(item.description), /^outcome unknown \(lost track; Check Again asks the server\)/);
    assert.doesNotMatch(String(item.description), /failed/);
  });

  it('puts the role a refused operation needs first, where a narrow view still shows it', () => {
    const { OperationItem } = require('../../../src/features/operations/view') as typeof OperationsViewModule;
    const reg = new OperationsRegistry();
    for (const [method, role, permission] of [
      ['DeleteModel', 'roles/aiplatform.user', 'aiplatform.models.delete'],
      ['apikeys.keys.delete', 'roles/serviceusage.apiKeysAdmin', 'apikeys.keys.delete'],
    ]) {
      const err = new GoogleApiError('PERMISSION_DENIED', `Permission '${permission}' denied on resource.`, { method });
      const h = reg.start({ title: 'Delete', resource: 'r', source: 'models' });
      h.finish('failed', describeError(err), briefError(err));
      const item = new OperationItem(h.operation);
      const description = String(item.description);
      assert.ok(description.startsWith(`failed · needs ${role} (${permission})`), description);
      assert.ok(description.length < 80, `the row stays short: ${description}`);
      // The tooltip keeps the whole explanation.
      assert.match((item.tooltip as { value: string }).value, /ask a project owner/);
    }
    const plain = new GoogleApiError('NOT_FOUND', 'Model not found.', { method: 'DeleteModel' });
    assert.equal(briefError(plain), undefined, 'other failures are shown as the service said them');
  });

  it('says each state once: no "done · 43s · done", no "running · 3s · running for 3 s"', () => {
    const { operationDescription } = require('../../../src/features/operations/view') as typeof OperationsViewModule;
    const reg = new OperationsRegistry();
    const at = (op: { started: Date }, seconds: number) => new Date(op.started.getTime() + seconds * 1000);
    const running = reg.start({ title: 'Copy', resource: 'r', source: 'models' });
    assert.equal(operationDescription(running.operation, at(running.operation, 3)), 'running · 3s');
    running.progress('running');
    assert.equal(operationDescription(running.operation, at(running.operation, 3)), 'running · 3s');
    running.progress('to gs://bucket/out/');
    assert.equal(
      operationDescription(running.operation, at(running.operation, 3)),
      'running · to gs://bucket/out/ · 3s',
    );

    const done = reg.start({ title: 'Delete', resource: 'r', source: 'models' });
    done.progress('asking the server to cancel…');
    done.finish('succeeded', 'done');
    const text = operationDescription(done.operation);
    assert.match(text, /^done · \d+s$/);
    const cancelled = reg.start({ title: 'Export', resource: 'r', source: 'models' });
    cancelled.progress('Cancellation was requested; the server did not report the outcome yet.');
    cancelled.finish('cancelled');
    assert.match(operationDescription(cancelled.operation), /^cancelled · \d+s$/, 'stale progress is dropped');
    const failed = reg.start({ title: 'Export', resource: 'r', source: 'models' });
    failed.finish('failed', 'No export formats (FAILED_PRECONDITION).');
    assert.match(
      operationDescription(failed.operation),
      /^failed · No export formats \(FAILED_PRECONDITION\)\. · \d+s$/,
    );
  });
});
