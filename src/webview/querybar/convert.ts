// LSP answers from the extension → Monaco values, through monaco-languageserver-types. Types only
// from monaco-editor here, so this runs (and is tested) outside a browser.
import type * as monaco from 'monaco-editor';
import { toCompletionItem, toMarkerData } from 'monaco-languageserver-types';
import type { CompletionItem, Diagnostic, Position } from 'vscode-languageserver-types';

export interface WordRange {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/** Monaco positions count from 1, LSP positions from 0. */
export function toLspPosition(position: { lineNumber: number; column: number }): Position {
  return { line: position.lineNumber - 1, character: position.column - 1 };
}

/**
 * Items without a text edit replace the word under the cursor (`range`), as a language client
 * does in VS Code; items with one keep theirs.
 */
export function toMonacoCompletions(items: CompletionItem[], range: WordRange): monaco.languages.CompletionItem[] {
  return items.map((item) => toCompletionItem(item, { range }));
}

export function toMonacoMarkers(diagnostics: Diagnostic[]): monaco.editor.IMarkerData[] {
  return diagnostics.map((d) => toMarkerData(d));
}
