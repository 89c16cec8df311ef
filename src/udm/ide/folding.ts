import { type FoldingRange, FoldingRangeKind } from 'vscode-languageserver-types';
import type { Analysis } from '../index';

export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const { sections } = a.parse.query;
  for (const s of sections) {
    const start = a.lines.position(s.keyword.start).line;
    const end = a.lines.position(s.end).line;
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  for (const c of a.parse.comments) {
    const start = a.lines.position(c.start).line;
    const end = a.lines.position(c.end).line;
    if (end > start) out.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Comment });
  }
  const stack: number[] = [];
  for (const t of a.parse.tokens) {
    if (t.kind === 'lparen') stack.push(t.start);
    else if (t.kind === 'rparen' && stack.length) {
      const open = stack.pop()!;
      const start = a.lines.position(open).line;
      const end = a.lines.position(t.start).line;
      if (end > start) out.push({ startLine: start, endLine: end - 1 >= start + 1 ? end - 1 : end });
    }
  }
  return out;
}
