import { FUNCTION_NAMESPACES } from '../functions';
import type { Analysis } from '../index';
import type { Token } from '../lexer';
import { KEYWORDS, WINDOW_WORDS } from '../vocabulary';
import { outcomeItems } from './analysis';

export const SEMANTIC_TOKEN_TYPES = [
  'keyword',
  'operator',
  'string',
  'number',
  'regexp',
  'variable',
  'property',
  'function',
  'enumMember',
  'comment',
  'namespace',
  'parameter',
] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ['deprecated', 'readonly', 'declaration'] as const;
type SemType = (typeof SEMANTIC_TOKEN_TYPES)[number];

const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

export interface ClassifiedToken {
  start: number;
  end: number;
  type: SemType;
  modifiers: number;
}

const WINDOW_WORD_SET: ReadonlySet<string> = new Set(WINDOW_WORDS);

/** Classifies every token; the TextMate grammar mirrors these categories. */
export function classify(a: Analysis): ClassifiedToken[] {
  const { tokens } = a.parse;
  const out: ClassifiedToken[] = [];
  const sectionStarts = new Set(a.parse.query.sections.map((s) => s.keyword.start));
  if (a.parse.query.events) sectionStarts.add(a.parse.query.events.start);
  // `by`, `over`, `every`, `first` of a match: window are keywords there (and only there).
  const windowSpans: Array<{ start: number; end: number }> = [];
  for (const s of a.parse.query.sections) if (s.kind === 'match' && s.window) windowSpans.push(s.window);
  const deprecatedSegments = new Set<number>();
  for (const [node, facts] of a.check.facts) {
    const offset = node.segments.length - facts.path.length;
    facts.fields.forEach((f, i) => {
      if (f.deprecated) deprecatedSegments.add(node.segments[i + offset].start);
    });
  }
  const assignTargets = new Set<number>();
  for (const def of a.check.placeholders.values()) assignTargets.add(def.variable.start);
  for (const o of outcomeItems(a)) assignTargets.add(o.variable.start);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    let type: SemType | undefined;
    let modifiers = 0;
    switch (t.kind) {
      case 'string':
        type = 'string';
        break;
      case 'number':
      case 'duration':
        type = 'number';
        break;
      case 'regex':
        type = 'regexp';
        break;
      case 'op':
        type = 'operator';
        break;
      case 'variable':
        type = 'variable';
        if (assignTargets.has(t.start)) modifiers |= 4;
        break;
      case 'reflist':
        type = 'parameter';
        modifiers |= 2;
        break;
      case 'minus':
        type = tokens[i + 1]?.kind === 'number' ? 'number' : 'operator';
        break;
      case 'ident': {
        const next = tokens[i + 1];
        const prev = tokens[i - 1];
        const lower = t.value.toLowerCase();
        const dottedBefore = prev?.kind === 'dot' && prev.end === t.start;
        const dottedAfter = next?.kind === 'dot' && next.start === t.end;
        if (sectionStarts.has(t.start)) type = 'keyword';
        else if (WINDOW_WORD_SET.has(lower) && windowSpans.some((w) => w.start <= t.start && t.end <= w.end))
          type = 'keyword';
        else if (!dottedBefore && !dottedAfter && KEYWORD_SET.has(lower)) type = 'keyword';
        else if (next?.kind === 'lparen' && next.start === t.end) type = 'function';
        else if (dottedAfter && FUNCTION_NAMESPACES.includes(t.value) && callAhead(tokens, i)) type = 'namespace';
        else if (!dottedBefore && !dottedAfter && prev?.kind === 'op') type = 'enumMember';
        else {
          type = 'property';
          if (deprecatedSegments.has(t.start)) modifiers |= 1;
        }
        break;
      }
      default:
        break;
    }
    if (type) out.push({ start: t.start, end: t.end, type, modifiers });
  }
  const comments: ClassifiedToken[] = a.parse.comments.map((c) => ({
    start: c.start,
    end: c.end,
    type: 'comment',
    modifiers: 0,
  }));
  return mergeByStart(out, comments);
}

/**
 * The tokens and the comments in one list by start. Both come in source order from the lexer, so
 * a merge does what sorting the whole list (tens of thousands of tokens in a large document) did.
 */
function mergeByStart(tokens: ClassifiedToken[], comments: ClassifiedToken[]): ClassifiedToken[] {
  if (!comments.length) return tokens;
  const sorted = (xs: ClassifiedToken[]): boolean => xs.every((x, i) => i === 0 || xs[i - 1].start <= x.start);
  if (!sorted(tokens) || !sorted(comments)) return [...tokens, ...comments].sort((x, y) => x.start - y.start);
  const out: ClassifiedToken[] = [];
  let i = 0;
  let j = 0;
  while (i < tokens.length || j < comments.length) {
    // A comment never starts where a token does; on a tie the token goes first, as the stable sort had it.
    if (j >= comments.length || (i < tokens.length && tokens[i].start <= comments[j].start)) out.push(tokens[i++]);
    else out.push(comments[j++]);
  }
  return out;
}

function callAhead(tokens: Token[], i: number): boolean {
  let k = i + 1;
  while (tokens[k]?.kind === 'dot' && tokens[k + 1]?.kind === 'ident') k += 2;
  return tokens[k]?.kind === 'lparen';
}

/**
 * Tokens classified per document. Past it the TextMate grammar still colours the text; a
 * megabyte of hostile input would otherwise answer with millions of numbers on every edit.
 */
export const MAX_SEMANTIC_TOKENS = 50_000;

/** LSP relative encoding; tokens spanning lines (block comments) are split per line. */
export function semanticTokens(a: Analysis): number[] {
  return encodeTokens(a, classify(a));
}

const TYPE_INDEX: ReadonlyMap<SemType, number> = new Map(SEMANTIC_TOKEN_TYPES.map((t, i) => [t, i]));

/** Classified tokens in the LSP relative encoding (searches and rule files alike). */
export function encodeTokens(a: Pick<Analysis, 'lines'>, tokens: Iterable<ClassifiedToken>): number[] {
  const data: number[] = [];
  let lastLine = 0;
  let lastChar = 0;
  // Tokens come by start, so the line of each is found by walking forward from the previous one
  // rather than by a search per token; a token out of order starts the walk again.
  const { lines } = a;
  let line = 0;
  let start = lines.lineStart(0);
  let next = lines.lineCount > 1 ? lines.lineStart(1) : Infinity;
  const at = (offset: number): { line: number; character: number } => {
    if (offset < start) {
      line = lines.position(offset).line;
      start = lines.lineStart(line);
      next = line + 1 < lines.lineCount ? lines.lineStart(line + 1) : Infinity;
    }
    while (offset >= next) {
      line++;
      start = next;
      next = line + 1 < lines.lineCount ? lines.lineStart(line + 1) : Infinity;
    }
    return { line, character: offset - start };
  };
  const emit = (line: number, char: number, length: number, type: number, mods: number): void => {
    if (length <= 0) return;
    data.push(line - lastLine, line === lastLine ? char - lastChar : char, length, type, mods);
    lastLine = line;
    lastChar = char;
  };
  for (const t of tokens) {
    if (data.length >= MAX_SEMANTIC_TOKENS * 5) break;
    const typeIndex = TYPE_INDEX.get(t.type)!;
    const s = at(t.start);
    const e = t.end < next ? { line: s.line, character: t.end - start } : a.lines.position(t.end);
    if (s.line === e.line) emit(s.line, s.character, e.character - s.character, typeIndex, t.modifiers);
    else {
      for (let l = s.line; l <= e.line; l++) {
        const from = l === s.line ? s.character : 0;
        const to = l === e.line ? e.character : a.lines.lineEnd(l) - a.lines.lineStart(l);
        emit(l, from, to - from, typeIndex, t.modifiers);
      }
    }
  }
  return data;
}
