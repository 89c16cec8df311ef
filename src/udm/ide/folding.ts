import { type FoldingRange, FoldingRangeKind } from 'vscode-languageserver-types';
import type { Analysis } from '../index';

/**
 * Folding: the `events:` header with its filtering statements, each statistical section
 * (`match:`, `outcome:`, `condition:`, `dedup:`, `order:`, `limit:`...) with its body, block
 * comments and runs of whole-line `//` comments, and parentheses and brackets that span lines
 * (the closing line stays visible when it is not the line after the opening one).
 */
export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const line = (offset: number): number => a.lines.position(offset).line;
  const { events, filter, sections } = a.parse.query;
  if (events && filter && filter.end > events.end) {
    const start = line(events.start);
    const end = line(filter.end);
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  for (const s of sections) {
    const start = line(s.keyword.start);
    const end = line(s.end);
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  commentRanges(a, line, out);
  const parens: number[] = [];
  const brackets: number[] = [];
  // `f([` ... `])` opens and closes on the same lines twice: one range for both.
  const seen = new Set<string>();
  for (const t of a.parse.tokens) {
    if (t.kind === 'lparen') parens.push(t.start);
    else if (t.kind === 'lbracket') brackets.push(t.start);
    else if ((t.kind === 'rparen' && parens.length) || (t.kind === 'rbracket' && brackets.length)) {
      const open = (t.kind === 'rparen' ? parens : brackets).pop()!;
      const start = line(open);
      const end = line(t.start);
      const endLine = end - 1 >= start + 1 ? end - 1 : end;
      const key = `${start}:${endLine}`;
      if (end > start && !seen.has(key)) {
        seen.add(key);
        out.push({ startLine: start, endLine });
      }
    }
  }
  return out;
}

/** Block comments over several lines, and two or more `//` comments on lines of their own in a row. */
function commentRanges(a: Analysis, line: (offset: number) => number, out: FoldingRange[]): void {
  let runStart = -1;
  let runEnd = -1;
  const endRun = (): void => {
    if (runEnd > runStart) out.push({ startLine: runStart, endLine: runEnd, kind: FoldingRangeKind.Comment });
    runStart = runEnd = -1;
  };
  for (const c of a.parse.comments) {
    const start = line(c.start);
    const end = line(c.end);
    if (!c.value.startsWith('//')) {
      endRun();
      if (end > start) out.push({ startLine: start, endLine: end, kind: FoldingRangeKind.Comment });
      continue;
    }
    const ownLine = a.text.slice(a.lines.lineStart(start), c.start).trim() === '';
    if (!ownLine) {
      endRun();
      continue;
    }
    if (runStart >= 0 && start === runEnd + 1) runEnd = start;
    else {
      endRun();
      runStart = runEnd = start;
    }
  }
  endRun();
}
