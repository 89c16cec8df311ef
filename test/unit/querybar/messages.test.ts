// The query bar's messages in the shared protocol: both directions are rebuilt from known fields
// and anything malformed is refused with a MessageError.
import assert from 'node:assert/strict';
import { MAX_QUERY_TEXT, MessageError, parseFromWebview, parseToWebview } from '../../../src/core/secops/messages';


describe('query bar messages', () => {
  it('accepts complete, validate and runQuery requests and keeps only their fields', () => {
    assert.deepEqual(
      parseFromWebview({
        type: 'querybar.complete',
        id: 3,
        text: 'metadata.',
        position: { line: 0, character: 9 },
        extra: 1,
      }),
      {
        type: 'querybar.complete',
        id: 3,
        text: 'metadata.',
        position: { line: 0, character: 9 },
      },
    );
    assert.deepEqual(parseFromWebview({ type: 'querybar.validate', id: 0, text: 'x = 1' }), {
      type: 'querybar.validate',
      id: 0,
      text: 'x = 1',
    });
    assert.deepEqual(parseFromWebview({ type: 'runQuery', query: 'metadata.event_type = "X"', runId: 'r' }), {
      type: 'runQuery',
      query: 'metadata.event_type = "X"',
    });
  });

  it('refuses malformed requests', () => {
    const bad: unknown[] = [
      { type: 'querybar.complete', id: -1, text: '', position: { line: 0, character: 0 } },
      { type: 'querybar.complete', id: 1.5, text: '', position: { line: 0, character: 0 } },
      { type: 'querybar.complete', id: 1, text: '', position: { line: -1, character: 0 } },
      { type: 'querybar.complete', id: 1, text: '', position: { line: 0 } },
      { type: 'querybar.complete', id: 1, text: 7, position: { line: 0, character: 0 } },
      { type: 'querybar.validate', id: '1', text: '' },
      { type: 'querybar.validate', id: 1, text: 'x'.repeat(MAX_QUERY_TEXT + 1) },
      { type: 'runQuery', query: '   \n ' },
      { type: 'runQuery' },
    ];
    for (const m of bad) assert.throws(() => parseFromWebview(m), MessageError, JSON.stringify(m).slice(0, 80));
  });

  it('rebuilds completion items and diagnostics from known fields only', () => {
    const completions = parseToWebview({
      type: 'querybar.completions',
      id: 2,
      items: [
        {
          label: 'event_type',
          kind: 5,
          detail: 'enum',
          documentation: { kind: 'markdown', value: '**doc**', evil: 1 },
          sortText: '1',
          insertTextFormat: 2,
          textEdit: {
            range: { start: { line: 0, character: 9 }, end: { line: 0, character: 9 } },
            newText: 'event_type',
          },
          command: { command: 'workbench.action.evil', title: 'x' },
          data: { any: 1 },
        },
      ],
    });
    assert.deepEqual(completions, {
      type: 'querybar.completions',
      id: 2,
      items: [
        {
          label: 'event_type',
          kind: 5,
          detail: 'enum',
          documentation: { kind: 'markdown', value: '**doc**' },
          sortText: '1',
          insertTextFormat: 2,
          textEdit: {
            range: { start: { line: 0, character: 9 }, end: { line: 0, character: 9 } },
            newText: 'event_type',
          },
        },
      ],
    });
    const diagnostics = parseToWebview({
      type: 'querybar.diagnostics',
      id: 4,
      diagnostics: [
        {
          range: { start: { line: 0, character: 9 }, end: { line: 0, character: 19 } },
          message: 'Unknown field',
          severity: 1,
          source: 'udm',
          code: 'unknown-field',
          data: { replacements: ['x'] },
          tags: [2],
        },
      ],
    });
    assert.deepEqual(diagnostics, {
      type: 'querybar.diagnostics',
      id: 4,
      diagnostics: [
        {
          range: { start: { line: 0, character: 9 }, end: { line: 0, character: 19 } },
          message: 'Unknown field',
          severity: 1,
          source: 'udm',
          code: 'unknown-field',
          tags: [2],
        },
      ],
    });
  });

  it('refuses answers with malformed items, ranges or severities', () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const bad: unknown[] = [
      { type: 'querybar.completions', id: 1, items: {} },
      { type: 'querybar.completions', id: 1, items: [{ kind: 5 }] },
      { type: 'querybar.completions', id: 1, items: [{ label: 'a', kind: 99 }] },
      { type: 'querybar.completions', id: 1, items: [{ label: 'a', insertTextFormat: 3 }] },
      { type: 'querybar.completions', id: 1, items: [{ label: 'a', textEdit: { range, newText: 5 } }] },
      { type: 'querybar.completions', id: 1, items: [{ label: 'a', documentation: { kind: 'html', value: '<b>' } }] },
      { type: 'querybar.completions', id: 1, items: Array.from({ length: 5001 }, () => ({ label: 'a' })) },
      { type: 'querybar.diagnostics', id: 1, diagnostics: [{ range, message: 'm', severity: 9 }] },
      {
        type: 'querybar.diagnostics',
        id: 1,
        diagnostics: [{ range: { start: { line: 2, character: 0 }, end: { line: 1, character: 0 } }, message: 'm' }],
      },
      { type: 'querybar.diagnostics', id: 1, diagnostics: [{ range }] },
      { type: 'querybar.diagnostics', diagnostics: [] },
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
