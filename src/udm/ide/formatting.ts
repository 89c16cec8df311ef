import { TextEdit } from 'vscode-languageserver-types';
import type { Analysis } from '../index';
import type { Token } from '../lexer';

const UPPER_KEYWORDS = new Set(['and', 'or', 'not']);
const LOWER_KEYWORDS = new Set(['nocase', 'in', 'regex', 'cidr', 'asc', 'desc', 'any', 'all']);

/**
 * Normalises spacing and keyword case while keeping the author's line structure: one space
 * around operators and between conditions, none inside paths and calls, AND/OR/NOT in upper
 * case, section bodies and open parentheses indented one unit (the editor's tab settings).
 * Documents with lexical errors are left alone (reformatting half a string could change what
 * it means).
 */
export function format(a: Analysis, options: { tabSize: number; insertSpaces: boolean }): TextEdit[] {
  if (a.parse.tokens.some((t) => t.error && t.kind !== 'op') || a.parse.comments.some((c) => c.error)) return [];
  const unit = options.insertSpaces ? ' '.repeat(Math.max(1, Math.min(8, options.tabSize || 2))) : '\t';
  const formatted = formatText(a, unit);
  if (formatted === a.text) return [];
  return [TextEdit.replace(a.lines.range(0, a.text.length), formatted)];
}

export function formatText(a: Analysis, indentUnit = '  '): string {
  const { text } = a;
  const items = [...a.parse.tokens.filter((t) => t.kind !== 'eof'), ...a.parse.comments].sort(
    (x, y) => x.start - y.start,
  );
  const sectionKeywordAt = new Set(a.parse.query.sections.map((s) => s.keyword.start));
  if (a.parse.query.events) sectionKeywordAt.add(a.parse.query.events.start);
  const out: string[] = [];
  let line = '';
  let inSection = false;
  // A section's body starts on the line after `match:`, `outcome:`..., indented, as Google writes it.
  let afterSectionColon = false;
  let prev: Token | undefined;
  let parenDepth = 0;
  const flush = (): void => {
    out.push(line.replace(/\s+$/, ''));
    line = '';
  };
  for (let k = 0; k < items.length; k++) {
    const t = items[k];
    if (prev) {
      const gap = text.slice(prev.end, t.start);
      const newlines = (gap.match(/\n/g) ?? []).length;
      if (newlines > 0) {
        flush();
        const blank = Math.min(newlines - 1, 1);
        for (let b = 0; b < blank; b++) out.push('');
      }
    }
    // A section keyword always opens its own line: glued to a preceding "." it would read as a
    // field path the next time the text is parsed, and formatting would not be stable.
    if (line !== '' && t.kind === 'ident' && sectionKeywordAt.has(t.start)) flush();
    if (afterSectionColon && line !== '' && t.kind !== 'comment') flush();
    afterSectionColon = false;
    const startOfLine = line === '';
    let piece = t.kind === 'comment' ? t.value : text.slice(t.start, t.end);
    if (t.kind === 'ident') {
      const lower = t.value.toLowerCase();
      const adjacentDot =
        (prev?.kind === 'dot' && prev.end === t.start) ||
        (items[k + 1]?.kind === 'dot' && items[k + 1].start === t.end);
      if (sectionKeywordAt.has(t.start)) {
        piece = lower;
        inSection = true;
      } else if (!adjacentDot && UPPER_KEYWORDS.has(lower)) piece = lower.toUpperCase();
      else if (!adjacentDot && LOWER_KEYWORDS.has(lower)) piece = lower;
    }
    if (startOfLine) {
      const isSectionKw = t.kind === 'ident' && sectionKeywordAt.has(t.start);
      const depth = isSectionKw ? 0 : (inSection ? 1 : 0) + Math.max(0, parenDepth - (t.kind === 'rparen' ? 1 : 0));
      line = indentUnit.repeat(depth) + piece;
    } else {
      line += (needsSpace(prev!, t) ? ' ' : '') + piece;
    }
    if (t.kind === 'lparen') parenDepth++;
    if (t.kind === 'rparen') parenDepth = Math.max(0, parenDepth - 1);
    if (t.kind === 'colon' && prev?.kind === 'ident' && sectionKeywordAt.has(prev.start)) afterSectionColon = true;
    prev = t;
  }
  if (prev) flush();
  let result = out.join('\n');
  while (result.startsWith('\n')) result = result.slice(1);
  const trailingNewline = /\n\s*$/.test(text) || text.endsWith('\n');
  return result + (trailingNewline && result !== '' ? '\n' : '');
}

function needsSpace(prev: Token, t: Token): boolean {
  if (t.kind === 'comment') return true;
  if (prev.kind === 'comment') return true;
  if (t.kind === 'dot' || prev.kind === 'dot') return false;
  if (t.kind === 'comma' || t.kind === 'rparen' || t.kind === 'rbracket' || t.kind === 'colon') return false;
  if (prev.kind === 'lparen' || prev.kind === 'lbracket') return false;
  if (t.kind === 'lbracket') return false;
  // `count(` stays glued; `NOT (` keeps its space.
  if (t.kind === 'lparen')
    return !(prev.kind === 'ident' && prev.end === t.start && !UPPER_KEYWORDS.has(prev.value.toLowerCase()));
  if (prev.kind === 'minus') return false;
  if (t.kind === 'minus') return true;
  return true;
}
