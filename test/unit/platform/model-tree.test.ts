// A model-backed tree view: the provider redraws on every change of its model and stops listening
// when disposed; the view's state key is the model's state, "empty" when it is ready with nothing.
import assert from 'node:assert/strict';
import type * as ModelTreeModule from '../../../src/platform/model-tree';
import { useFakeVscode } from '../fakes/vscode';

const record = useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
const { ModelTreeProvider, setViewState } = require('../../../src/platform/model-tree') as typeof ModelTreeModule;

class Provider extends ModelTreeProvider<any> {
  getChildren(): Promise<any[]> {
    return Promise.resolve([]);
  }
}

describe('model-backed tree views', () => {
  it('redraw the whole tree on every change of the model, and no more once disposed', () => {
    const model = new vscode.EventEmitter();
    const provider = new Provider({ onDidChange: model.event });
    const fired: unknown[] = [];
    const listening = provider.onDidChangeTreeData((e) => fired.push(e));
    model.fire('changed');
    model.fire('again');
    assert.deepEqual(fired, [undefined, undefined]);
    provider.dispose();
    model.fire('after');
    assert.equal(fired.length, 2);
    listening.dispose();
  });

  it('show a node as its own tree item', () => {
    const provider = new Provider({ onDidChange: new vscode.EventEmitter().event });
    const item = new vscode.TreeItem('row');
    assert.equal(provider.getTreeItem(item), item);
  });

  it('publish the state kind, and "empty" only for a ready model with nothing in it', async () => {
    const cases: Array<[string, boolean, string]> = [
      ['ready', false, 'ready'],
      ['ready', true, 'empty'],
      ['loading', true, 'loading'],
      ['error', true, 'error'],
      ['idle', false, 'idle'],
    ];
    for (const [kind, empty, expected] of cases) {
      setViewState('test.view.state', kind, empty);
      await Promise.resolve();
      assert.equal(record.contextKeys.get('test.view.state'), expected, `${kind}, empty ${empty}`);
    }
  });
});
