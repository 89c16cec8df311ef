import { TextEdit } from 'vscode-languageserver-types';
import type { Analysis } from '../index';
import type { Token } from '../lexer';
import { LOGICAL_OPERATORS, LOWER_CASE_KEYWORDS } from '../vocabulary';

const UPPER_KEYWORDS: ReadonlySet<string> = new Set(LOGICAL_OPERATORS);
const LOWER_KEYWORDS: ReadonlySet<string> = new Set(LOWER_CASE_KEYWORDS);

/**
 * Normalises spacing and keyword case while keeping the author's line structure: one space
 * around operators and between conditions, none inside paths and calls, AND/OR/NOT in upper
 * case, section bodies and open parentheses indented one unit (the editor's tab settings).
 * Documents with lexical errors are left alone (reformatting half a string could change what
 * it means).
 */
export function format(a: Analysis, options: { tabSize: number; insertSpaces: boolean }): TextEdit[] {
  if (formatRefusal(a)) return [];
  const unit = options.insertSpaces ? ' '.repeat(Math.max(1, Math.min(8, options.tabSize || 2))) : '\t';
  const formatted = formatText(a, unit);
  if (formatted === a.text) return [];
  return [TextEdit.replace(a.lines.range(0, a.text.length), formatted)];
}

/**
 * Deepest nesting of parentheses the formatter lays out: the parser refuses deeper queries
 * (MAX_DEPTH), and each level of a too-long line is one more pass over it.
 */
export const MAX_FORMAT_DEPTH = 200;

/**
 * Why format() leaves the document alone, for the editor to say so (a Format Document that does
 * nothing silently looks broken): the first lexical error with its line, or nesting deeper than
 * MAX_FORMAT_DEPTH; undefined when the document can be formatted.
 */
export function formatRefusal(a: Analysis): string | undefined {
  const bad = a.parse.tokens.find((t) => t.error && t.kind !== 'op') ?? a.parse.comments.find((c) => c.error);
  if (bad) {
    const line = a.lines.position(bad.start).line + 1;
    return `Not formatted: line ${line} has ${JSON.stringify(a.text.slice(bad.start, Math.min(bad.end, bad.start + 40)))} (${bad.error}); fix it and format again`;
  }
  let depth = 0;
  let deepest = 0;
  for (const t of a.parse.tokens) {
    if (t.kind === 'lparen' || t.kind === 'lbracket') deepest = Math.max(deepest, ++depth);
    else if ((t.kind === 'rparen' || t.kind === 'rbracket') && depth > 0) depth--;
  }
  if (deepest <= MAX_FORMAT_DEPTH) return undefined;
  return `Not formatted: parentheses are nested ${deepest.toLocaleString('en-US')} deep, and UDM queries are formatted up to ${MAX_FORMAT_DEPTH} levels.`;
}

/** Lines longer than this (indentation included) are laid out one condition per line. */
export const MAX_LINE_WIDTH = 100;

interface Line {
  items: Token[];
  /** blank lines kept before it (0 or 1) */
  blank: number;
}

/**
 * Normalised text of the document. The author's line structure is kept, except that a line
 * longer than MAX_LINE_WIDTH with AND/OR in it is laid out one condition per line with the
 * operator leading, and a parenthesised group that is still too long opens on its own line with
 * its conditions indented inside it. Breaking before an explicit AND/OR never changes what the
 * query means: a condition after an operator joins it whatever line it is on.
 */
export function formatText(a: Analysis, indentUnit = '  '): string {
  const { text } = a;
  const items = [...a.parse.tokens.filter((t) => t.kind !== 'eof'), ...a.parse.comments].sort(
    (x, y) => x.start - y.start,
  );
  const sectionKeywordAt = new Set(a.parse.query.sections.map((s) => s.keyword.start));
  if (a.parse.query.events) sectionKeywordAt.add(a.parse.query.events.start);

  const pieces = new Map<Token, string>();
  for (let k = 0; k < items.length; k++) {
    const t = items[k];
    let piece = t.kind === 'comment' ? t.value : text.slice(t.start, t.end);
    if (t.kind === 'ident') {
      const lower = t.value.toLowerCase();
      const prev = items[k - 1];
      const adjacentDot =
        (prev?.kind === 'dot' && prev.end === t.start) ||
        (items[k + 1]?.kind === 'dot' && items[k + 1].start === t.end);
      if (sectionKeywordAt.has(t.start)) piece = lower;
      else if (!adjacentDot && UPPER_KEYWORDS.has(lower)) piece = lower.toUpperCase();
      else if (!adjacentDot && LOWER_KEYWORDS.has(lower)) piece = lower;
    }
    pieces.set(t, piece);
  }

  // The author's lines; a section keyword and a section's body each start a line.
  const lines: Line[] = [];
  let current: Line = { items: [], blank: 0 };
  let afterSectionColon = false;
  const flush = (): void => {
    if (current.items.length) lines.push(current);
    current = { items: [], blank: 0 };
  };
  let prev: Token | undefined;
  for (const t of items) {
    if (prev) {
      const newlines = countNewlines(text, prev.end, t.start);
      if (newlines > 0) {
        flush();
        current.blank = Math.min(newlines - 1, 1);
      }
    }
    const isSectionKw = t.kind === 'ident' && sectionKeywordAt.has(t.start);
    if (current.items.length && (isSectionKw || (afterSectionColon && t.kind !== 'comment'))) flush();
    afterSectionColon = false;
    current.items.push(t);
    if (t.kind === 'colon' && prev?.kind === 'ident' && sectionKeywordAt.has(prev.start)) afterSectionColon = true;
    prev = t;
  }
  flush();

  const out: string[] = [];
  let inSection = false;
  let parenDepth = 0;
  const emit = (line: Line): void => {
    const first = line.items[0];
    const isSectionKw = first.kind === 'ident' && sectionKeywordAt.has(first.start);
    if (isSectionKw) inSection = true;
    const depth = isSectionKw ? 0 : (inSection ? 1 : 0) + Math.max(0, parenDepth - (first.kind === 'rparen' ? 1 : 0));
    const rendered = indentUnit.repeat(depth) + render(line.items, pieces);
    if (rendered.length > MAX_LINE_WIDTH && !line.items.some((t) => t.kind === 'comment' && t.value.startsWith('/*'))) {
      const parts = splitConditions(line.items);
      if (parts.length > 1) {
        parts.forEach((p, i) => emit({ items: p, blank: i === 0 ? line.blank : 0 }));
        return;
      }
    }
    if (out.length) for (let b = 0; b < line.blank; b++) out.push('');
    out.push(rendered.replace(/\s+$/, ''));
    for (const t of line.items) {
      if (t.kind === 'lparen') parenDepth++;
      if (t.kind === 'rparen') parenDepth = Math.max(0, parenDepth - 1);
    }
  };
  for (const line of lines) emit(line);
  const result = out.join('\n');
  const trailingNewline = /\n\s*$/.test(text) || text.endsWith('\n');
  return result + (trailingNewline && result !== '' ? '\n' : '');
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

function render(line: Token[], pieces: Map<Token, string>): string {
  let s = '';
  for (let i = 0; i < line.length; i++)
    s += (i > 0 && needsSpace(line[i - 1], line[i]) ? ' ' : '') + pieces.get(line[i]);
  return s;
}

/** AND / OR as an operator (not a field segment such as `x.or`). */
function isLogical(line: Token[], i: number): boolean {
  const t = line[i];
  if (t.kind !== 'ident' || !/^(and|or)$/i.test(t.value)) return false;
  const prev = line[i - 1];
  const next = line[i + 1];
  return !(prev?.kind === 'dot' && prev.end === t.start) && !(next?.kind === 'dot' && next.start === t.end);
}

/** A '(' that groups conditions, not one that opens a call's arguments (`NOT (` groups). */
function isGroupOpen(line: Token[], i: number): boolean {
  const prev = line[i - 1];
  return !(
    prev &&
    prev.kind === 'ident' &&
    prev.end === line[i].start &&
    !UPPER_KEYWORDS.has(prev.value.toLowerCase())
  );
}

/**
 * One line's tokens split for layout: before every AND/OR outside parentheses, or else around
 * the first parenthesised group that holds AND/OR (its '(' ends a line, its conditions get lines
 * of their own, its ')' starts one). A single part means the line cannot be split.
 */
function splitConditions(line: Token[]): Token[][] {
  // depth of grouping parentheses, and whether the token is inside a call's arguments
  const depth: number[] = [];
  const inCall: boolean[] = [];
  const stack: boolean[] = []; // true: group, false: call
  let groups = 0;
  let calls = 0;
  for (let i = 0; i < line.length; i++) {
    const t = line[i];
    if (t.kind === 'rparen' && stack.length) {
      if (stack.pop()) groups--;
      else calls--;
    }
    depth.push(groups);
    inCall.push(calls > 0);
    if (t.kind === 'lparen') {
      const group = isGroupOpen(line, i);
      stack.push(group);
      if (group) groups++;
      else calls++;
    }
  }
  const cuts: number[] = [];
  for (let i = 1; i < line.length; i++) if (isLogical(line, i) && depth[i] === 0 && !inCall[i]) cuts.push(i);
  if (cuts.length) {
    const parts: Token[][] = [];
    let from = 0;
    for (const c of cuts) {
      parts.push(line.slice(from, c));
      from = c;
    }
    parts.push(line.slice(from));
    return parts;
  }
  for (let i = 0; i < line.length; i++) {
    if (line[i].kind !== 'lparen' || depth[i] !== 0 || inCall[i] || !isGroupOpen(line, i)) continue;
    let close = -1;
    let hasLogical = false;
    for (let j = i + 1; j < line.length; j++) {
      if (line[j].kind === 'rparen' && depth[j] === 0 && !inCall[j]) {
        close = j;
        break;
      }
      if (isLogical(line, j) && depth[j] === 1 && !inCall[j]) hasLogical = true;
    }
    if (!hasLogical || close < 0 || close === i + 1) continue;
    const parts = [line.slice(0, i + 1), line.slice(i + 1, close), line.slice(close)];
    return parts.filter((p) => p.length > 0);
  }
  return [line];
}

function needsSpace(prev: Token, t: Token): boolean {
  if (t.kind === 'comment') return true;
  if (prev.kind === 'comment') return true;
  if (t.kind === 'dot' || prev.kind === 'dot') return false;
  if (t.kind === 'comma' || t.kind === 'rparen' || t.kind === 'rbracket' || t.kind === 'colon') return false;
  if (prev.kind === 'lparen' || prev.kind === 'lbracket') return false;
  // `period:1d`: a named argument keeps its value glued (a section's colon ends its line anyway)
  if (prev.kind === 'colon') return false;
  if (t.kind === 'lbracket') return false;
  // `count(` stays glued; `NOT (` keeps its space.
  if (t.kind === 'lparen')
    return !(prev.kind === 'ident' && prev.end === t.start && !UPPER_KEYWORDS.has(prev.value.toLowerCase()));
  if (prev.kind === 'minus') return false;
  if (t.kind === 'minus') return true;
  return true;
}
