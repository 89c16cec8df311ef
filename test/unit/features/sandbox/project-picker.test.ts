// Select Project…: what projects.search lists is checked against Google's project ID grammar before
// it is offered or saved, and every name it gives is shown as text (no icon from a project's name).
import assert from 'node:assert/strict';
import type * as PickerModule from '../../../../src/features/sandbox/project-picker';
import { useFakeVscode } from '../../fakes/vscode';

useFakeVscode();
const vscode = require('vscode') as Record<string, any>;
// The picker's separators (the fake has none): named before the module is loaded, so its view of
// vscode has the name, and again in each test, since the fake forgets what a test added.
const QUICK_PICK_ITEM_KIND = { Separator: -1, Default: 0 };
vscode.QuickPickItemKind = QUICK_PICK_ITEM_KIND;
const { isProjectId, keptRecents, pickAndKeepProject } =
  require('../../../../src/features/sandbox/project-picker') as typeof PickerModule;

// The oracle, written from Google's Resource Manager documentation of a project ID: "6 to 30
// lowercase letters, digits, or hyphens. It must start with a letter. Trailing hyphens are
// prohibited." Project numbers are all digits and are not IDs.
const VALID = ['abcdef', 'my-project-1', 'a2345-7890-2345-7890-2345-7890', 'x-----1'];
const INVALID = [
  '../../attacker.example/x?',
  'abcde', // 5 characters
  'a2345-7890-2345-7890-2345-78901', // 31 characters
  '1project', // starts with a digit
  '-project', // starts with a hyphen
  'project-', // ends with a hyphen
  'My-Project', // capitals
  'my_project', // underscore
  'my.project',
  'my project',
  'project\n-x',
  '123456789012', // a project number, not an ID
  '',
];

type Item = { label: string; description?: string; detail?: string; project?: { projectId: string }; kind?: number };

/** A QuickPick the test can watch and drive. */
function fakeQuickPick(): { picker: any; shown: (ok: (items: Item[]) => boolean) => Promise<Item[]> } {
  const listeners: Record<string, Array<() => void>> = { hide: [], value: [], accept: [] };
  let items: Item[] = [];
  let waiters: Array<{ ok: (items: Item[]) => boolean; resolve: (items: Item[]) => void }> = [];
  const on = (kind: string) => (l: () => void) => {
    listeners[kind].push(l);
    return { dispose() {} };
  };
  const picker = {
    value: '',
    busy: false,
    activeItems: [] as Item[],
    selectedItems: [] as Item[],
    get items(): Item[] {
      return items;
    },
    set items(next: Item[]) {
      items = next;
      waiters = waiters.filter((w) => !(w.ok(next) && (w.resolve(next), true)));
    },
    onDidHide: on('hide'),
    onDidChangeValue: on('value'),
    onDidAccept: on('accept'),
    show() {},
    dispose() {},
    accept(item: Item) {
      picker.selectedItems = [item];
      listeners.accept.forEach((l) => l());
    },
  };
  const shown = (ok: (items: Item[]) => boolean): Promise<Item[]> =>
    ok(items) ? Promise.resolve(items) : new Promise((resolve) => waiters.push({ ok, resolve }));
  return { picker, shown };
}

const project = (projectId: string, n: string, displayName?: string): Record<string, unknown> => ({
  name: `projects/${n}`,
  projectId,
  state: 'ACTIVE',
  ...(displayName ? { displayName } : {}),
});

describe('Select Project: the project ID grammar and safe text', () => {
  it('a project ID is what Google documents, and nothing else', () => {
    for (const id of VALID) assert.equal(isProjectId(id), true, id);
    for (const id of INVALID) assert.equal(isProjectId(id), false, JSON.stringify(id));
    assert.equal(isProjectId(undefined), false);
  });

  it('recent projects kept by an older version are checked again', () => {
    assert.deepEqual(
      keptRecents([
        { projectId: 'good-project', number: '12', displayName: 'Good' },
        { projectId: '../../attacker.example/x?' },
        { projectId: 'other-project', number: '../x' },
        'a string',
        null,
        7,
      ]),
      [{ projectId: 'good-project', number: '12', displayName: 'Good' }, { projectId: 'other-project' }],
    );
    assert.deepEqual(keptRecents('not a list'), []);
  });

  it('offers only listed projects with project IDs, shows names as text, and saves only a project ID', async () => {
    const { picker, shown } = fakeQuickPick();
    vscode.window.createQuickPick = () => picker;
    vscode.QuickPickItemKind = QUICK_PICK_ITEM_KIND;
    const client = {
      searchProjects: async () => ({
        items: [
          project('good-project-1', '123', '$(zap) Production [docs](command:evil)'),
          project('../../attacker.example/x?', '456', 'Attacker'),
          project('Upper-Case-1', '457'),
          project('trailing-', '458'),
        ],
      }),
      getProject: async () => {
        throw new Error('not called');
      },
    };
    const state = new Map<string, unknown>([
      ['cloudbench.recentProjects', [{ projectId: '../../attacker.example/x?' }]],
    ]);
    const saved: string[] = [];
    const done = pickAndKeepProject(
      client as never,
      undefined,
      {
        get: (key: string) => state.get(key),
        update: async (key: string, value: unknown) => void state.set(key, value),
      } as never,
      async (id) => void saved.push(id),
    );
    const items = await shown((list) => list.some((i) => i.project) && !picker.busy);
    const offered = items.filter((i) => i.project);
    assert.deepEqual(
      offered.map((i) => i.project!.projectId),
      ['good-project-1'],
    );
    for (const item of items) {
      const text = `${item.label} ${item.description ?? ''} ${item.detail ?? ''}`;
      // Shown as written (so a name copied is the server's), but never as an icon or a link.
      if (item.project) assert.doesNotMatch(text, /\$\(|\]\(/, `no icon or link from a project name: ${text}`);
    }
    assert.ok(
      items.some((i) => /3 listed projects left out/.test(i.label)),
      items.map((i) => i.label).join(' | '),
    );
    picker.accept(offered[0]);
    await done;
    assert.deepEqual(saved, ['good-project-1']);
    assert.deepEqual(
      (state.get('cloudbench.recentProjects') as Array<{ projectId: string }>).map((r) => r.projectId),
      ['good-project-1'],
    );
  });
});
