// The query cells of a `.udmnb` notebook as documents of their own: read with the editor's notebook
// reader (so a file the editor refuses is refused here with the same message), positioned back
// into the JSON file for reports, and written back cell by cell so the rest of the file (outputs,
// settings, its layout) stays byte for byte as it was.
import { NotebookFormatError, parseNotebook, sourceLines, sourceText } from '../core/notebook/format';
import { LineIndex } from '../udm/index';
import { elementSpans, locate, stringOffsets, type Span } from './json-spans';
import { udm, type Language, type Position } from './languages';

/** A document inside another file (a notebook cell). */
export interface EmbeddedDocument {
  readonly language: Language;
  readonly text: string;
  /** Where it is in the file, for people ("cell 3"). */
  readonly label: string;
  /** A position in the document as a position in the file. */
  readonly toFile: (pos: Position) => Position;
  /** The value's span in the file, replaced when the document is rewritten. */
  readonly span: Span;
  /** The source was an array of lines (the notebook's own layout) rather than one string. */
  readonly asLines: boolean;
}

/** A file the container refuses, with where. */
export class ContainerError extends Error {
  override readonly name = 'ContainerError';
}

export interface Container {
  /** The documents a file holds, in order; throws ContainerError when the file is not readable. */
  documents(text: string): EmbeddedDocument[];
  /** The file with each document's text replaced by `texts[i]`. */
  replace(text: string, docs: readonly EmbeddedDocument[], texts: readonly string[]): string;
}

/** Decoded offset → file offset for one cell's source, its end included. */
function sourceOffsets(text: string, span: Span): number[] {
  if (text[span.start] === '"') return stringOffsets(text, span);
  const out: number[] = [];
  const elements = elementSpans(text, span);
  elements.forEach((el, j) => {
    const offsets = stringOffsets(text, el);
    // Every character but the end sentinel; the line break sourceText puts between lines sits at
    // the closing quote of the line.
    for (let k = 0; k < offsets.length - 1; k++) out.push(offsets[k]);
    if (j < elements.length - 1) out.push(el.end - 1);
  });
  out.push(elements.length ? elements[elements.length - 1].end - 1 : span.start + 1);
  return out;
}

export const notebookContainer: Container = {
  documents(text) {
    let notebook;
    try {
      notebook = parseNotebook(text);
    } catch (err) {
      if (err instanceof NotebookFormatError) throw new ContainerError(err.message);
      throw err;
    }
    const fileLines = new LineIndex(text);
    const cells = locate(text, ['cells']);
    const cellSpans = cells ? elementSpans(text, cells) : [];
    const out: EmbeddedDocument[] = [];
    notebook.cells.forEach((cell, i) => {
      if (cell.kind !== 'udm') return;
      const cellText = sourceText(cell.source);
      const cellSpan = cellSpans[i];
      const span = cellSpan && locate(text, ['source'], cellSpan);
      if (!span) return;
      const offsets = sourceOffsets(text, span);
      // A source string with CR line breaks is read with them removed: positions then fall back to
      // the start of the source rather than pointing at the wrong character.
      const exact = offsets.length === cellText.length + 1;
      const lines = new LineIndex(cellText);
      out.push({
        language: udm,
        text: cellText,
        label: `cell ${i + 1}`,
        span,
        asLines: text[span.start] === '[',
        toFile: (pos) => fileLines.position(exact ? offsets[lines.offset(pos)] : span.start),
      });
    });
    return out;
  },

  replace(text, docs, texts) {
    const order = docs.map((d, i) => ({ d, t: texts[i] })).sort((a, b) => b.d.span.start - a.d.span.start);
    let out = text;
    for (const { d, t } of order) {
      if (t === d.text) continue;
      let value: string;
      if (d.asLines) {
        // The layout serializeNotebook writes: one line per array element, two-space indentation
        // below the line that holds "source".
        const lineStart = out.lastIndexOf('\n', d.span.start - 1) + 1;
        const indent = /^[ \t]*/.exec(out.slice(lineStart, d.span.start))?.[0] ?? '';
        value = JSON.stringify(sourceLines(t), null, 2).split('\n').join(`\n${indent}`);
      } else value = JSON.stringify(t);
      out = out.slice(0, d.span.start) + value + out.slice(d.span.end);
    }
    return out;
  },
};
