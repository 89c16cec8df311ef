// The query bar's messages in the shared protocol: both directions are rebuilt from known fields
// and anything malformed is refused with a MessageError.
import assert from 'node:assert/strict';
import { MAX_QUERY_TEXT, MessageError, parseFromWebview, parseToWebview } from '../../../src/core/secops/messages';

describe('query bar messages', () => {
  it('accepts watchLists and runQuery requests and keeps only their fields', () => {
    assert.deepEqual(parseFromWebview({ type: 'querybar.watchLists', extra: 1 }), { type: 'querybar.watchLists' });
    assert.deepEqual(parseFromWebview({ type: 'runQuery', query: 'metadata.event_type = "X"', runId: 'r' }), {
      type: 'runQuery',
      query: 'metadata.event_type = "X"',
    });
  });

  it('refuses malformed requests, and the old completion round trip', () => {
    const bad: unknown[] = [
      { type: 'runQuery', query: '   \n ' },
      { type: 'runQuery' },
      { type: 'runQuery', query: 'x'.repeat(MAX_QUERY_TEXT + 1) },
      // Completion and checks run in the page: the extension answers neither any more.
      { type: 'querybar.complete', id: 1, text: '', position: { line: 0, character: 0 } },
      { type: 'querybar.validate', id: 1, text: '' },
    ];
    for (const m of bad) assert.throws(() => parseFromWebview(m), MessageError, JSON.stringify(m).slice(0, 80));
  });

  it('rebuilds the reference lists from the fields the language service reads', () => {
    const lists = parseToWebview({
      type: 'querybar.lists',
      knownLists: [
        {
          name: 'vip_cidrs',
          contentType: 'CIDR',
          size: 2,
          preview: ['10.0.0.0/8', '192.168.0.0/16'],
          description: 'VIPs',
          updateTime: '2026-01-01T00:00:00Z',
          evil: '<img src=x onerror=alert(1)>',
        },
      ],
      listsUnavailable: 'UNAVAILABLE',
      referenceLists: { bad_hosts: ['evil-01', 'evil-02'] },
      extra: { any: 1 },
    });
    assert.deepEqual(lists, {
      type: 'querybar.lists',
      referenceLists: { bad_hosts: ['evil-01', 'evil-02'] },
      knownLists: [
        {
          name: 'vip_cidrs',
          contentType: 'CIDR',
          size: 2,
          preview: ['10.0.0.0/8', '192.168.0.0/16'],
          description: 'VIPs',
          updateTime: '2026-01-01T00:00:00Z',
        },
      ],
      listsUnavailable: 'UNAVAILABLE',
    });
    // A list named __proto__ is a list like any other, not the object's prototype.
    const proto = parseToWebview(JSON.parse('{"type":"querybar.lists","referenceLists":{"__proto__":["x"]}}'));
    assert.ok(proto.type === 'querybar.lists' && proto.referenceLists);
    assert.deepEqual(Object.keys(proto.referenceLists), ['__proto__']);
    assert.equal(Object.getPrototypeOf(proto.referenceLists), Object.prototype);
    // "No lists known" and "no lists exist" stay apart.
    assert.deepEqual(parseToWebview({ type: 'querybar.lists' }), { type: 'querybar.lists' });
    assert.deepEqual(parseToWebview({ type: 'querybar.lists', knownLists: [] }), {
      type: 'querybar.lists',
      knownLists: [],
    });
  });

  it('refuses hostile or malformed lists whole', () => {
    const known = { name: 'a', contentType: 'CIDR', size: 1, preview: ['10.0.0.0/8'] };
    const bad: unknown[] = [
      { type: 'querybar.lists', knownLists: {} },
      { type: 'querybar.lists', knownLists: [{ ...known, name: '../etc' }] },
      { type: 'querybar.lists', knownLists: [{ ...known, name: 'a"><script>alert(1)</script>' }] },
      { type: 'querybar.lists', knownLists: [{ ...known, contentType: 'HTML' }] },
      { type: 'querybar.lists', knownLists: [{ ...known, size: -1 }] },
      { type: 'querybar.lists', knownLists: [{ ...known, size: 1.5 }] },
      { type: 'querybar.lists', knownLists: [{ ...known, preview: [1] }] },
      { type: 'querybar.lists', knownLists: [{ ...known, description: {} }] },
      { type: 'querybar.lists', knownLists: [known, null] },
      { type: 'querybar.lists', knownLists: Array.from({ length: 10_001 }, (_, i) => ({ ...known, name: `l${i}` })) },
      { type: 'querybar.lists', knownLists: [known], listsUnavailable: 7 },
      { type: 'querybar.lists', knownLists: [known], listsUnavailable: 'x'.repeat(2001) },
      { type: 'querybar.lists', listsUnavailable: 'without any lists' },
      { type: 'querybar.lists', referenceLists: [] },
      { type: 'querybar.lists', referenceLists: 'bad_hosts' },
      { type: 'querybar.lists', referenceLists: { 'bad hosts': ['a'] } },
      { type: 'querybar.lists', referenceLists: { __proto__x: 'a' } },
      { type: 'querybar.lists', referenceLists: { a: ['x', 2] } },
      { type: 'querybar.lists', referenceLists: { a: Array(1_000_001).fill('x') } },
      // Completion answers no longer come from the extension.
      { type: 'querybar.completions', id: 1, items: [{ label: 'a' }] },
      { type: 'querybar.diagnostics', id: 1, diagnostics: [] },
    ];
    for (const m of bad) assert.throws(() => parseToWebview(m), MessageError, JSON.stringify(m).slice(0, 100));
  });

  it("carries the run's query text in results, and drops one of the wrong type", () => {
    const base = {
      type: 'results',
      columns: [],
      table: { count: 0, times: new Float64Array(0), columns: [], cells: new TextEncoder().encode('[]') },
      fields: [],
      moreDataAvailable: false,
    };
    const withQuery = parseToWebview({
      ...base,
      run: { runId: 'r', kind: 'udm', title: 'a = 1 b = 2', query: 'a = 1\nb = 2' },
    });
    assert.equal(withQuery.type === 'results' && withQuery.run.query, 'a = 1\nb = 2');
    const wrong = parseToWebview({ ...base, run: { runId: 'r', kind: 'udm', title: 't', query: 42 } });
    assert.equal(wrong.type === 'results' && 'query' in wrong.run, false);
  });
});
