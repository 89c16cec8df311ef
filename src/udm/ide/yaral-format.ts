/**
 * Formatting of rule files with the layout of Google's public rules: `rule name {` at the left
 * margin, section names indented two spaces, statements four, two more per open parenthesis or
 * bracket, a continuation after `=`, `+` or `,` four more, a line after a trailing `and`/`or` at
 * the statement's depth (after `) or`, the next `(` stands where the `)` does), and a line
 * continuing a bracket that has text after it on its own line (`max(if(…) +`) keeps the author's
 * alignment against that line. Only indentation, trailing spaces and runs of blank lines change,
 * so comments (the licence block too) and the text of every statement stay as written, and
 * formatting twice gives the same text. The editor sends tabSize 2 and spaces (the extension's
 * configurationDefaults), so Format Document and `cloudbench format` give the same text.
 */
import { TextEdit } from 'vscode-languageserver-types';
import type { RuleAnalysis } from '../rule/analyze';

interface LineInfo {
  /** indentation depth in units (sections 1, statements 2); undefined: keep the line as written */
  depth?: number;
  /**
   * Aligned under the text after an open bracket of an earlier line (`max(if(…) +` continued
   * below its `if`): that line's new indentation plus `rel` columns.
   */
  align?: { line: number; rel: number };
  /** a comment line takes the indentation of this code line */
  copy?: number;
}

/** Why a rule file is not formatted (text the formatter cannot lay out safely), or undefined. */
export function ruleFormatRefusal(a: RuleAnalysis): string | undefined {
  const bad = [...a.parse.tokens, ...a.parse.comments].find((t) => t.error);
  return bad ? `Not formatted: ${bad.error} (line ${a.lines.position(bad.start).line + 1})` : undefined;
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** An open bracket while the tokens are read: its line, and where text after it on that line starts. */
interface OpenBracket {
  line: number;
  /** columns from the line's indentation to the bracket */
  bracketRel: number;
  /** columns from the line's indentation to the first token after the bracket, when on the same line */
  visualRel?: number;
}

/** What the token scan learns about each line of a rule file. */
interface LineScan {
  /** bracket depth at the start of each line */
  depthAt: number[];
  /** the kind of each line's first token */
  firstToken: Array<string | undefined>;
  /** the line's last token leaves its statement open (`=`, `+`, `,`…), and/or ends it with `and`/`or` */
  opensNext: boolean[];
  logicalEnd: boolean[];
  /** the innermost bracket still open at the start of each line */
  openAt: Array<OpenBracket | undefined>;
}

function scanLines(a: RuleAnalysis, lines: string[], lineOf: (o: number) => number): LineScan {
  const lineStart: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStart.push(offset);
    offset += line.length + 1;
  }
  const indentLen = lines.map(indentOf);
  const scan: LineScan = {
    depthAt: lines.map(() => 0),
    firstToken: lines.map(() => undefined),
    opensNext: lines.map(() => false),
    logicalEnd: lines.map(() => false),
    openAt: lines.map(() => undefined),
  };
  const stack: OpenBracket[] = [];
  let lastLine = -1;
  const tokens = a.parse.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'eof') break;
    const l = lineOf(t.start);
    if (l !== lastLine) {
      for (let k = lastLine + 1; k <= l; k++) {
        scan.depthAt[k] = stack.length;
        scan.openAt[k] = stack[stack.length - 1];
      }
      scan.firstToken[l] = t.kind;
      lastLine = l;
    }
    const logical = t.kind === 'ident' && /^(and|or)$/i.test(t.value);
    scan.logicalEnd[l] = logical;
    scan.opensNext[l] =
      logical ||
      t.kind === 'op' ||
      t.kind === 'arith' ||
      t.kind === 'minus' ||
      t.kind === 'comma' ||
      (t.kind === 'ident' && /^not$/i.test(t.value));
    if (t.kind === 'lparen' || t.kind === 'lbracket') {
      const next = tokens[i + 1];
      const open: OpenBracket = { line: l, bracketRel: t.start - lineStart[l] - indentLen[l] };
      if (next && next.kind !== 'eof' && lineOf(next.start) === l)
        open.visualRel = next.start - lineStart[l] - indentLen[l];
      stack.push(open);
    }
    if ((t.kind === 'rparen' || t.kind === 'rbracket') && stack.length > 0) stack.pop();
    if (t.kind === 'lbrace' || t.kind === 'rbrace') stack.length = 0;
  }
  for (let k = lastLine + 1; k < lines.length; k++) scan.depthAt[k] = stack.length;
  return scan;
}

/** The indentation of each line (sections, statements, brackets, continuations, alignment). */
function layOut(a: RuleAnalysis, lines: string[]): { info: LineInfo[]; keep: Set<number> } {
  const info: LineInfo[] = lines.map(() => ({}));
  const lineOf = (o: number): number => a.lines.position(o).line;
  const sectionLines = new Set<number>();
  const ruleLines = new Set<number>();
  const closeLines = new Set<number>();
  const inRule: boolean[] = lines.map(() => false);
  for (const r of a.shapes) {
    const n = r.node;
    ruleLines.add(lineOf(n.keyword.start));
    for (const s of n.sectionOrder) sectionLines.add(lineOf(s.keyword.start));
    const last = n.close ? lineOf(n.close.start) : lineOf(n.end);
    if (n.close) closeLines.add(last);
    for (let l = lineOf(n.keyword.start); l <= last; l++) inRule[l] = true;
  }
  // Lines that continue a block comment keep their text (a licence block's ` * ` alignment).
  const keep = new Set<number>();
  const commentOnly = new Set<number>();
  for (const c of a.parse.comments) {
    const s = lineOf(c.start);
    const e = lineOf(c.end);
    for (let l = s + 1; l <= e; l++) keep.add(l);
  }
  const { depthAt, firstToken, opensNext, logicalEnd, openAt } = scanLines(a, lines, lineOf);
  for (const c of a.parse.comments) {
    const l = lineOf(c.start);
    if (firstToken[l] === undefined && !keep.has(l)) commentOnly.add(l);
  }
  let prevCode = -1;
  for (let l = 0; l < lines.length; l++) {
    if (keep.has(l) || !inRule[l]) continue;
    // Google's rules continue a statement four more after `=`, `+` or `,`, but keep a line after
    // a trailing `and`/`or` at the statement's depth (`) or` / `(` included).
    const continues =
      prevCode >= 0 && opensNext[prevCode] && !logicalEnd[prevCode] && depthAt[l] === 0 && !sectionLines.has(l);
    if (firstToken[l] !== undefined) prevCode = sectionLines.has(l) && opensNext[l] === false ? -1 : l;
    if (ruleLines.has(l) || (closeLines.has(l) && firstToken[l] === 'rbrace')) info[l].depth = 0;
    else if (sectionLines.has(l)) info[l].depth = 1;
    else if (firstToken[l] === 'lbrace') info[l].depth = 0;
    else if (firstToken[l] !== undefined) {
      const closes = firstToken[l] === 'rparen' || firstToken[l] === 'rbracket';
      const open = openAt[l];
      if (open?.visualRel !== undefined && !keep.has(open.line) && inRule[open.line]) {
        // `max(if(…) +` continued: the author's alignment against the line that opened the
        // bracket is kept (Google's rules align these by hand); a line that is not indented past
        // that line goes under the text after the bracket (a closing one under the bracket).
        const written = indentOf(lines[l]) - indentOf(lines[open.line]);
        info[l].align = { line: open.line, rel: written > 0 ? written : closes ? open.bracketRel : open.visualRel };
      }
      // Google's rules indent what is inside parentheses, and a statement's continuation, four more.
      else info[l].depth = 2 + 2 * Math.max(0, depthAt[l] - (closes ? 1 : 0)) + (continues ? 2 : 0);
    }
  }
  // A comment line takes the indentation of the code line after it (or before it, at the end of a section).
  for (let l = lines.length - 1; l >= 0; l--) {
    if (!commentOnly.has(l) || !inRule[l]) continue;
    let next = l + 1;
    while (next < lines.length && (lines[next].trim() === '' || commentOnly.has(next))) next++;
    if (next < lines.length && ruleLines.has(next)) continue;
    const d = next < lines.length ? info[next].depth : undefined;
    if (next < lines.length && info[next].align) info[l].copy = next;
    else info[l].depth = d === 0 ? 2 : (d ?? 2);
  }
  return { info, keep };
}

export function formatRuleText(a: RuleAnalysis, unit = '  '): string {
  const lines = a.text.split('\n');
  const { info, keep } = layOut(a, lines);
  const indent: Array<string | undefined> = lines.map(() => undefined);
  const indentAt = (l: number): string => {
    const known = indent[l];
    if (known !== undefined) return known;
    const { depth, align } = info[l];
    let s: string;
    if (depth !== undefined) s = unit.repeat(depth);
    else if (align) s = indentAt(align.line) + ' '.repeat(Math.max(0, align.rel));
    else s = lines[l].slice(0, lines[l].length - lines[l].trimStart().length);
    indent[l] = s;
    return s;
  };
  const out: string[] = [];
  let blank = 0;
  for (let l = 0; l < lines.length; l++) {
    const raw = lines[l].replace(/\s+$/, '');
    if (raw === '' && !keep.has(l)) {
      blank++;
      continue;
    }
    if (blank > 0 && out.length > 0) out.push('');
    blank = 0;
    const { depth, align, copy } = info[l];
    if (depth === undefined && align === undefined && copy === undefined) out.push(raw);
    else out.push(indentAt(copy ?? l) + raw.trimStart());
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

export function formatRule(a: RuleAnalysis, options: { tabSize: number; insertSpaces: boolean }): TextEdit[] {
  if (ruleFormatRefusal(a)) return [];
  const formatted = formatRuleText(a, options.insertSpaces ? '  ' : '\t');
  if (formatted === a.text) return [];
  return [TextEdit.replace(a.lines.range(0, a.text.length), formatted)];
}
