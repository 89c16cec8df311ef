// Checks the LSP values (completion items, diagnostics) the extension sends to the results panel's
// query bar. The page rebuilds each value from the fields it knows, so nothing unexpected reaches
// Monaco. Kept free of the UDM library: the results bundle imports this and must stay small.
import type { CompletionItem, Diagnostic, MarkupContent, Position, Range, TextEdit } from 'vscode-languageserver-types';

export class PayloadError extends Error {
  override readonly name = 'PayloadError';
}

/** Longest query text the bar sends; a UDM search is a few lines, this leaves ample room. */
export const MAX_QUERY_TEXT = 100_000;
export const MAX_COMPLETION_ITEMS = 5000;
/** The language service lists at most 1,000 diagnostics and one "…and N more" summary. */
export const MAX_DIAGNOSTICS = 1001;
const TRIGGER_SUGGEST = 'editor.action.triggerSuggest';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isUint(v: unknown, max = 1_000_000_000): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

function optString(o: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length > max)
    throw new PayloadError(`${key} must be a string of at most ${max} characters`);
  return v;
}

export function parsePosition(v: unknown): Position {
  if (!isRecord(v) || !isUint(v.line) || !isUint(v.character))
    throw new PayloadError('a position must be {line, character} with non-negative integers');
  return { line: v.line, character: v.character };
}

export function parseRange(v: unknown): Range {
  if (!isRecord(v)) throw new PayloadError('a range must be {start, end}');
  const start = parsePosition(v.start);
  const end = parsePosition(v.end);
  if (end.line < start.line || (end.line === start.line && end.character < start.character))
    throw new PayloadError('a range must not end before it starts');
  return { start, end };
}

function parseDocumentation(v: unknown): string | MarkupContent | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && v.length <= 20_000) return v;
  if (
    isRecord(v) &&
    (v.kind === 'markdown' || v.kind === 'plaintext') &&
    typeof v.value === 'string' &&
    v.value.length <= 20_000
  )
    return { kind: v.kind, value: v.value };
  throw new PayloadError('documentation must be a string or {kind, value}');
}

function parseTextEdit(v: unknown): TextEdit {
  if (!isRecord(v) || typeof v.newText !== 'string' || v.newText.length > 10_000)
    throw new PayloadError('textEdit must be {range, newText}');
  return { range: parseRange(v.range), newText: v.newText };
}

/** One completion item, rebuilt from the fields the query bar uses. */
export function parseCompletionItem(v: unknown): CompletionItem {
  if (!isRecord(v) || typeof v.label !== 'string' || v.label.length > 1000)
    throw new PayloadError('a completion item needs a label');
  const item: CompletionItem = { label: v.label };
  if (v.kind !== undefined) {
    if (!isUint(v.kind, 25) || v.kind < 1) throw new PayloadError('completion kind must be 1 to 25');
    item.kind = v.kind as CompletionItem['kind'];
  }
  const detail = optString(v, 'detail', 2000);
  if (detail !== undefined) item.detail = detail;
  const documentation = parseDocumentation(v.documentation);
  if (documentation !== undefined) item.documentation = documentation;
  const insertText = optString(v, 'insertText', 10_000);
  if (insertText !== undefined) item.insertText = insertText;
  if (v.insertTextFormat !== undefined) {
    if (v.insertTextFormat !== 1 && v.insertTextFormat !== 2) throw new PayloadError('insertTextFormat must be 1 or 2');
    item.insertTextFormat = v.insertTextFormat;
  }
  const filterText = optString(v, 'filterText', 1000);
  if (filterText !== undefined) item.filterText = filterText;
  const sortText = optString(v, 'sortText', 1000);
  if (sortText !== undefined) item.sortText = sortText;
  if (v.textEdit !== undefined) item.textEdit = parseTextEdit(v.textEdit);
  // The one command the language service attaches (suggest again after a message field); Monaco
  // runs it itself. Any other command would reach into the page, so it is dropped.
  if (isRecord(v.command) && v.command.command === TRIGGER_SUGGEST)
    item.command = {
      title: typeof v.command.title === 'string' ? v.command.title.slice(0, 100) : 'Suggest',
      command: TRIGGER_SUGGEST,
    };
  if (typeof v.preselect === 'boolean') item.preselect = v.preselect;
  if (Array.isArray(v.tags) && v.tags.every((t) => t === 1)) item.tags = v.tags as 1[];
  if (
    Array.isArray(v.commitCharacters) &&
    v.commitCharacters.length <= 20 &&
    v.commitCharacters.every((c) => typeof c === 'string' && c.length === 1)
  ) {
    item.commitCharacters = v.commitCharacters as string[];
  }
  return item;
}

/** One diagnostic, rebuilt from the fields a marker shows. */
export function parseDiagnostic(v: unknown): Diagnostic {
  if (!isRecord(v) || typeof v.message !== 'string' || v.message.length > 10_000)
    throw new PayloadError('a diagnostic needs a message');
  const diag: Diagnostic = { range: parseRange(v.range), message: v.message };
  if (v.severity !== undefined) {
    if (v.severity !== 1 && v.severity !== 2 && v.severity !== 3 && v.severity !== 4)
      throw new PayloadError('severity must be 1 to 4');
    diag.severity = v.severity;
  }
  if ((typeof v.code === 'string' && v.code.length <= 200) || (typeof v.code === 'number' && Number.isInteger(v.code)))
    diag.code = v.code;
  const source = optString(v, 'source', 200);
  if (source !== undefined) diag.source = source;
  if (Array.isArray(v.tags) && v.tags.every((t) => t === 1 || t === 2)) diag.tags = v.tags as Array<1 | 2>;
  return diag;
}

export function parseCompletionItems(v: unknown): CompletionItem[] {
  if (!Array.isArray(v) || v.length > MAX_COMPLETION_ITEMS)
    throw new PayloadError(`items must be an array of at most ${MAX_COMPLETION_ITEMS}`);
  return v.map(parseCompletionItem);
}

export function parseDiagnostics(v: unknown): Diagnostic[] {
  if (!Array.isArray(v) || v.length > MAX_DIAGNOSTICS)
    throw new PayloadError(`diagnostics must be an array of at most ${MAX_DIAGNOSTICS}`);
  return v.map(parseDiagnostic);
}
