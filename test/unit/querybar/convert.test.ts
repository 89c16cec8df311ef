// LSP → Monaco conversion for the bar (monaco-languageserver-types underneath) and the theme and
// font choice from the VS Code webview's body classes and CSS variables.
import assert from 'node:assert/strict';
import { toLspPosition, toMonacoCompletions, toMonacoMarkers } from '../../../src/webview/querybar/convert';
import { editorFont, inputColors, monacoThemeFor } from '../../../src/webview/querybar/theme';

const WORD = { startLineNumber: 2, startColumn: 10, endLineNumber: 2, endColumn: 12 };

describe('query bar: LSP to Monaco', () => {
  it('turns 1-based Monaco positions into 0-based LSP positions', () => {
    assert.deepEqual(toLspPosition({ lineNumber: 2, column: 10 }), { line: 1, character: 9 });
    assert.deepEqual(toLspPosition({ lineNumber: 1, column: 1 }), { line: 0, character: 0 });
  });

  it("keeps an item's own text edit as a 1-based range and falls back to the word range", () => {
    const [withEdit, plain, snippet] = toMonacoCompletions(
      [
        {
          label: 'event_type',
          kind: 5,
          detail: 'enum',
          sortText: '1',
          textEdit: {
            range: { start: { line: 1, character: 9 }, end: { line: 1, character: 11 } },
            newText: 'event_type',
          },
        },
        { label: 'AND', kind: 14 },
        {
          label: 'count()',
          kind: 3,
          insertText: 'count($1)',
          insertTextFormat: 2,
          documentation: { kind: 'markdown', value: 'Counts' },
        },
      ],
      WORD,
    );
    assert.deepEqual(withEdit.range, { startLineNumber: 2, startColumn: 10, endLineNumber: 2, endColumn: 12 });
    assert.equal(withEdit.insertText, 'event_type');
    assert.equal(withEdit.detail, 'enum');
    assert.equal(withEdit.sortText, '1');
    // Monaco's CompletionItemKind numbers differ from LSP's: Field is 3 in Monaco, 5 in LSP.
    assert.equal(withEdit.kind, 3);
    assert.equal(plain.insertText, 'AND');
    assert.deepEqual(plain.range, WORD);
    assert.equal(plain.kind, 17, 'LSP Keyword (14) is Monaco Keyword (17)');
    assert.equal(snippet.insertText, 'count($1)');
    assert.equal(snippet.insertTextRules, 4, 'a snippet item is inserted as a snippet');
    assert.deepEqual(snippet.documentation, { value: 'Counts' });
  });

  it('turns diagnostics into markers with Monaco severities and 1-based ranges', () => {
    const [error, warning] = toMonacoMarkers([
      {
        range: { start: { line: 0, character: 9 }, end: { line: 0, character: 19 } },
        message: 'Unknown field',
        severity: 1,
        source: 'udm',
        code: 'unknown-field',
      },
      {
        range: { start: { line: 2, character: 0 }, end: { line: 2, character: 4 } },
        message: 'Deprecated',
        severity: 2,
        tags: [2],
      },
    ]);
    assert.equal(error.severity, 8);
    assert.equal(error.message, 'Unknown field');
    assert.deepEqual([error.startLineNumber, error.startColumn, error.endLineNumber, error.endColumn], [1, 10, 1, 20]);
    assert.equal(error.code, 'unknown-field');
    assert.equal(warning.severity, 4);
    assert.deepEqual(warning.tags, [2]);
  });
});

describe('query bar: theme and font', () => {
  it('maps the VS Code body class to the matching Monaco theme', () => {
    assert.equal(monacoThemeFor(['vscode-dark']), 'vs-dark');
    assert.equal(monacoThemeFor(['vscode-light', 'vscode-reduce-motion']), 'vs');
    assert.equal(monacoThemeFor(['vscode-high-contrast']), 'hc-black');
    assert.equal(monacoThemeFor(['vscode-high-contrast', 'vscode-high-contrast-light']), 'hc-light');
    assert.equal(monacoThemeFor([]), 'vs-dark');
  });

  it('takes the input colours when they are hex, and leaves anything else to the base theme', () => {
    const vars = (v: Record<string, string>) => ({ getPropertyValue: (n: string) => v[n] ?? '' });
    assert.deepEqual(
      inputColors(vars({ '--vscode-input-background': ' #3c3c3c', '--vscode-input-foreground': '#ccccccff' })),
      { 'editor.background': '#3c3c3c', 'editor.foreground': '#ccccccff' },
    );
    assert.deepEqual(
      inputColors(vars({ '--vscode-input-background': 'rgb(1, 2, 3)', '--vscode-input-foreground': 'red' })),
      {},
    );
    assert.deepEqual(inputColors(vars({})), {});
  });

  it('takes the editor font from the CSS variables, with fallbacks for missing or absurd values', () => {
    const vars = (v: Record<string, string>) => ({ getPropertyValue: (n: string) => v[n] ?? '' });
    assert.deepEqual(
      editorFont(
        vars({ '--vscode-editor-font-family': ' "Fira Code", monospace ', '--vscode-editor-font-size': '15px' }),
      ),
      { fontFamily: '"Fira Code", monospace', fontSize: 15 },
    );
    assert.deepEqual(editorFont(vars({ '--vscode-editor-font-size': '900px' })), {
      fontFamily: 'Menlo, Monaco, "Courier New", monospace',
      fontSize: 13,
    });
  });
});
