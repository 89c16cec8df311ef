import { findRe2Problem, sourceOffsetInLiteral } from '../regex';
import type { CheckContext } from './context';

/** A `/…/` literal must be valid RE2; the error points inside the pattern. */
export function checkRegexLiteral(c: CheckContext, op: { pattern: string; start: number; end: number }): void {
  const p = findRe2Problem(op.pattern);
  if (!p) return;
  const literal = c.options.text?.slice(op.start, op.end);
  const from = literal ? op.start + sourceOffsetInLiteral(literal, p.index) : op.start + 1 + p.index;
  const to = literal ? op.start + sourceOffsetInLiteral(literal, p.index + p.length) : from + p.length;
  c.report('error', p.message, from, Math.max(to, from + 1), 're2');
}
