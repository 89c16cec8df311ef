// The Search view's tree model: saved queries and recent runs read from the workspace state (bad
// stored entries dropped, nothing thrown), items that run their query, and the query a node (or a
// command argument from elsewhere) stands for.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../fakes/vscode';
import type * as ViewModule from '../../../src/features/search/view';

useFakeVscode();

const { SearchViewProvider, historyDescription, queryOfNode } =
  require('../../../src/features/search/view') as typeof ViewModule;

const KEYS = { history: 'history', saved: 'saved' };

function memento(values: Record<string, unknown>): {
  get(key: string): unknown;
  update(key: string, v: unknown): Promise<void>;
} {
  const state = new Map(Object.entries(values));
  return {
    get: (key: string) => state.get(key),
    update: async (key: string, v: unknown) => {
      state.set(key, v);
    },
  };
}

const saved = [{ name: 'Logins', query: 'metadata.event_type = "USER_LOGIN"', savedAt: '2026-11-01T10:00:00Z' }];
const history = [
  {
    query: 'principal.hostname = "alpha"\nand target.ip = "10.0.0.1"',
    ranAt: '2026-11-02T09:00:00.000Z',
    timeRange: 'Last 24 hours',
    events: 12345,
  },
  { query: 'network.dns.questions.name = /evil/', ranAt: '2026-11-02T08:00:00.000Z', timeRange: 'Last hour' },
];

describe('Search view (saved and recent queries)', () => {
  it('shows nothing (the welcome content) while there is neither a saved nor a recent query', () => {
    const view = new SearchViewProvider(memento({}) as never, KEYS);
    assert.deepEqual(view.getChildren(), []);
    view.dispose();
  });

  it('lists saved queries and recent runs under two groups with their counts', () => {
    const view = new SearchViewProvider(memento({ saved, history }) as never, KEYS);
    const groups = view.getChildren();
    assert.deepEqual(
      groups.map((g) => view.getTreeItem(g)).map((i) => [i.label, i.description, i.contextValue]),
      [
        ['Saved Queries', '1', 'searchGroup.saved'],
        ['Recent Queries', '2', 'searchGroup.history'],
      ],
    );
    const [savedGroup, historyGroup] = groups;
    const savedItems = view.getChildren(savedGroup).map((n) => view.getTreeItem(n));
    assert.equal(savedItems.length, 1);
    assert.equal(savedItems[0].label, 'Logins');
    assert.equal(savedItems[0].description, 'metadata.event_type = "USER_LOGIN"');
    assert.equal(savedItems[0].contextValue, 'savedQuery');

    const recent = view.getChildren(historyGroup);
    const items = recent.map((n) => view.getTreeItem(n));
    // A multi-line query reads as one line; the description says when and how much it found.
    assert.equal(items[0].label, 'principal.hostname = "alpha" and target.ip = "10.0.0.1"');
    assert.equal(items[0].description, 'Last 24 hours · 12,345 events');
    assert.equal(items[1].description, 'Last hour');
    assert.equal(items[0].contextValue, 'recentQuery');
    // Ids stay apart for two runs of the same query at different times.
    assert.notEqual(items[0].id, items[1].id);
    // Clicking an entry runs it, with the node as the argument.
    assert.equal(items[0].command?.command, 'cloudbench.search.view.run');
    assert.deepEqual(items[0].command?.arguments, [recent[0]]);
    assert.equal(queryOfNode(items[0].command?.arguments?.[0]), history[0].query);
    // Leaves have no children.
    assert.deepEqual(view.getChildren(recent[0]), []);
    view.dispose();
  });

  it('labels entries by their query, not by the comment a query starts with', () => {
    const commented = [
      {
        query:
          '// logins blocked overnight, ticket 4711\nmetadata.event_type = "USER_LOGIN" /* all hosts */\nsecurity_result.action = "BLOCK"',
        ranAt: '2026-11-02T09:00:00.000Z',
        timeRange: 'Last hour',
      },
      { query: '// only a note', ranAt: '2026-11-02T08:00:00.000Z', timeRange: 'Last hour' },
      { query: 'target.url = "http://a//b" // the path', ranAt: '2026-11-02T07:00:00.000Z', timeRange: 'Last hour' },
    ];
    const savedCommented = [{ name: 'Blocked', query: commented[0].query, savedAt: '2026-11-01T10:00:00Z' }];
    const view = new SearchViewProvider(memento({ saved: savedCommented, history: commented }) as never, KEYS);
    const [savedGroup, historyGroup] = view.getChildren();
    assert.deepEqual(
      view.getChildren(historyGroup).map((n) => view.getTreeItem(n).label),
      [
        'metadata.event_type = "USER_LOGIN" security_result.action = "BLOCK"',
        '// only a note',
        'target.url = "http://a//b"',
      ],
    );
    const savedItem = view.getTreeItem(view.getChildren(savedGroup)[0]);
    assert.equal(savedItem.description, 'metadata.event_type = "USER_LOGIN" security_result.action = "BLOCK"');
    // What runs is still the whole query, comments and all.
    assert.equal(queryOfNode(view.getChildren(historyGroup)[0]), commented[0].query);
    view.dispose();
  });

  it('drops malformed stored entries instead of failing the whole view', () => {
    const state = memento({
      saved: [{ name: 3, query: 'x' }, null, 'text', ...saved],
      history: { not: 'a list' },
    });
    const view = new SearchViewProvider(state as never, KEYS);
    const [savedGroup, historyGroup] = view.getChildren();
    assert.deepEqual(
      view.getChildren(savedGroup).map((n) => view.getTreeItem(n).label),
      ['Logins'],
    );
    assert.deepEqual(view.getChildren(historyGroup), []);
    assert.equal(view.getTreeItem(historyGroup).description, '0');
    view.dispose();
  });

  it('reads the state afresh on refresh and tells the tree', async () => {
    const state = memento({});
    const view = new SearchViewProvider(state as never, KEYS);
    let fired = 0;
    const sub = view.onDidChangeTreeData(() => fired++);
    await state.update('saved', saved);
    view.refresh();
    assert.equal(fired, 1);
    assert.equal(view.getChildren().length, 2);
    sub.dispose();
    view.dispose();
  });

  it('finds the query of saved and recent nodes, and nothing in anything else', () => {
    assert.equal(queryOfNode({ kind: 'saved', saved: saved[0] }), saved[0].query);
    assert.equal(queryOfNode({ kind: 'history', entry: history[1] }), history[1].query);
    for (const other of [undefined, null, 'query', { kind: 'group', group: 'saved' }, { kind: 'saved', saved: {} }])
      assert.equal(queryOfNode(other), undefined);
  });

  it('says what each run spent of the hourly budget, and that a run failed', () => {
    const base = { query: 'a', ranAt: '2026-12-07T05:00:00Z', timeRange: 'Last hour' };
    assert.equal(historyDescription({ ...base, events: 12, searches: 1 }), 'Last hour · 12 events · 1 search');
    assert.equal(historyDescription({ ...base, events: 0, searches: 3 }), 'Last hour · 0 events · 3 searches');
    assert.equal(historyDescription({ ...base, failed: true, searches: 0 }), 'Last hour · failed · no search spent');
    assert.equal(historyDescription({ ...base, events: 5 }), 'Last hour · 5 events');
  });
});
