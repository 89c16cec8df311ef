// The reference-list store on Services: what the Reference Lists view loaded, kept for every UDM
// input, checked at the boundary, and announced to the language client.
import { strict as assert } from 'node:assert';
import { useFakeVscode } from '../../fakes/vscode';
import type * as StoreModule from '../../../../src/features/shared/reference-list-store';

describe('reference-list store', () => {
  let store: InstanceType<typeof StoreModule.ReferenceListStore>;

  beforeEach(() => {
    useFakeVscode();
    const { ReferenceListStore } =
      require('../../../../src/features/shared/reference-list-store') as typeof StoreModule;
    store = new ReferenceListStore();
  });
  afterEach(() => store.dispose());

  it('holds nothing until the lists are loaded', () => {
    assert.equal(store.entries(), undefined);
    assert.equal(store.known(), undefined);
    assert.equal(store.knownError(), undefined);
  });

  it('keeps the entries and what is known of each list, and announces each change', () => {
    const entries: unknown[] = [];
    const known: unknown[] = [];
    const subs = [store.onDidChangeEntries((e) => entries.push(e)), store.onDidChangeKnown((k) => known.push(k))];
    store.setEntries({ blocked: ['evil.example.com'] });
    store.setKnown([
      { name: 'blocked', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['evil.example.com'] },
    ]);
    assert.deepEqual(store.entries(), { blocked: ['evil.example.com'] });
    assert.deepEqual(
      store.known()?.map((l) => l.name),
      ['blocked'],
    );
    assert.deepEqual(entries, [{ blocked: ['evil.example.com'] }]);
    assert.equal(known.length, 1);
    // A failed load keeps the last lists and says why.
    store.setKnown(store.known()!, 'PERMISSION_DENIED');
    assert.equal(store.knownError(), 'PERMISSION_DENIED');
    assert.deepEqual(known[1], { lists: store.known(), loadError: 'PERMISSION_DENIED' });
    // A later load without a failure clears the reason.
    store.setKnown([]);
    assert.equal(store.knownError(), undefined);
    assert.deepEqual(store.known(), []);
    for (const sub of subs) sub.dispose();
  });

  it('refuses malformed lists and keeps what it had', () => {
    store.setEntries({ ok: ['a'] });
    assert.throws(() => store.setEntries({ bad: [1 as unknown as string] }), /arrays of strings/);
    assert.throws(
      () => store.setKnown([{ name: 'has space', contentType: 'CIDR', size: 0, preview: [] }]),
      /reference lists need a name/,
    );
    assert.deepEqual(store.entries(), { ok: ['a'] });
    assert.equal(store.known(), undefined);
  });
});
