/**
 * Formatting of rule files with the layout of Google's public rules: `rule name {` at the left
 * margin, section names indented two spaces, statements four, continuation lines two more per
 * open parenthesis or bracket, the closing brace at the margin. Only indentation, trailing
 * spaces and runs of blank lines change, so comments (the licence block too) and the text of
 * every statement stay as written, and formatting twice gives the same text.
 */
import { TextEdit } from 'vscode-languageserver-types';
import type { RuleAnalysis } from '../rule/analyze';

interface LineInfo {
  /** indentation depth in units (sections 1, statements 2); undefined: keep the line as written */
  depth?: number;
}

/** Why a rule file is not formatted (text the formatter cannot lay out safely), or undefined. */
export function ruleFormatRefusal(a: RuleAnalysis): string | undefined {
  const bad = [...a.parse.tokens, ...a.parse.comments].find((t) => t.error);
  return bad ? `Not formatted: ${bad.error} (line ${a.lines.position(bad.start).line + 1})` : undefined;
}

export function formatRuleText(a: RuleAnalysis, unit = '  '): string {
  const text = a.text;
  const lines = text.split('\n');
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
  // Paren/bracket depth at the start of each line, and the first token of each line.
  const depthAt: number[] = lines.map(() => 0);
  const firstToken: Array<string | undefined> = lines.map(() => undefined);
  // Whether a line's last token leaves its statement open (`=`, `+`, `,`, `and`…).
  const opensNext: boolean[] = lines.map(() => false);
  let depth = 0;
  let lastLine = -1;
  for (const t of a.parse.tokens) {
    if (t.kind === 'eof') break;
    const l = lineOf(t.start);
    if (l !== lastLine) {
      for (let k = lastLine + 1; k <= l; k++) depthAt[k] = depth;
      firstToken[l] = t.kind;
      lastLine = l;
    }
    opensNext[l] =
      t.kind === 'op' ||
      t.kind === 'arith' ||
      t.kind === 'minus' ||
      t.kind === 'comma' ||
      (t.kind === 'ident' && /^(and|or|not)$/i.test(t.value));
    if (t.kind === 'lparen' || t.kind === 'lbracket') depth++;
    if ((t.kind === 'rparen' || t.kind === 'rbracket') && depth > 0) depth--;
    if (t.kind === 'lbrace' || t.kind === 'rbrace') depth = 0;
  }
  for (let k = lastLine + 1; k < lines.length; k++) depthAt[k] = depth;
  for (const c of a.parse.comments) {
    const l = lineOf(c.start);
    if (firstToken[l] === undefined && !keep.has(l)) commentOnly.add(l);
  }
  let prevCode = -1;
  for (let l = 0; l < lines.length; l++) {
    if (keep.has(l) || !inRule[l]) continue;
    const continues = prevCode >= 0 && opensNext[prevCode] && depthAt[l] === 0 && !sectionLines.has(l);
    if (firstToken[l] !== undefined) prevCode = sectionLines.has(l) && opensNext[l] === false ? -1 : l;
    if (ruleLines.has(l) || (closeLines.has(l) && firstToken[l] === 'rbrace')) info[l].depth = 0;
    else if (sectionLines.has(l)) info[l].depth = 1;
    else if (firstToken[l] === 'lbrace') info[l].depth = 0;
    else if (firstToken[l] !== undefined) {
      const closes = firstToken[l] === 'rparen' || firstToken[l] === 'rbracket' ? 1 : 0;
      // Google's rules indent what is inside parentheses, and a statement's continuation, four more.
      info[l].depth = 2 + 2 * Math.max(0, depthAt[l] - closes) + (continues ? 2 : 0);
    }
  }
  // A comment line takes the indentation of the code line after it (or before it, at the end of a section).
  for (let l = lines.length - 1; l >= 0; l--) {
    if (!commentOnly.has(l) || !inRule[l]) continue;
    let next = l + 1;
    while (next < lines.length && (lines[next].trim() === '' || commentOnly.has(next))) next++;
    const d = next < lines.length ? info[next].depth : undefined;
    info[l].depth = d === 0 && !ruleLines.has(next) ? 2 : (d ?? 2);
    if (ruleLines.has(next)) info[l].depth = undefined;
  }
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
    const d = info[l].depth;
    out.push(d === undefined ? raw : unit.repeat(d) + raw.trimStart());
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

export function formatRule(a: RuleAnalysis, options: { tabSize: number; insertSpaces: boolean }): TextEdit[] {
  if (ruleFormatRefusal(a)) return [];
  const formatted = formatRuleText(a, options.insertSpaces ? '  ' : '\t');
  if (formatted === a.text) return [];
  return [TextEdit.replace(a.lines.range(0, a.text.length), formatted)];
}
