import { literalValue, type Expr } from '../ast';
import type { CheckContext } from './context';

/** Two different `=` values for the same single-valued field inside one AND can never both hold. */
export function findContradictions(c: CheckContext, e: Expr): void {
  if (e.type === 'or') {
    for (let i = 0; i < e.items.length; i++) findContradictions(c, e.items[i]);
    return;
  }
  if (e.type === 'not') {
    findContradictions(c, e.expr);
    return;
  }
  if (e.type !== 'and') return;
  // Made on first use: most ANDs compare no field with a literal twice.
  let seen: Map<string, { value: string | number | boolean }> | undefined;
  let bounds: Map<string, { lo: number; loIn: boolean; hi: number; hiIn: boolean }> | undefined;
  for (let i = 0; i < e.items.length; i++) {
    const item = e.items[i];
    if (item.type !== 'compare') {
      findContradictions(c, item);
      continue;
    }
    if (item.left.type === 'field' && item.right?.type === 'number' && item.op !== '!=') {
      const facts = c.facts.get(item.left);
      if (facts && !facts.unknown && !facts.repeated && facts.kind === 'number') {
        bounds ??= new Map();
        const b = bounds.get(facts.key) ?? { lo: -Infinity, loIn: true, hi: Infinity, hiIn: true };
        const v = item.right.value;
        if (item.op === '=' || item.op === '>' || item.op === '>=') {
          const incl = item.op !== '>';
          if (v > b.lo || (v === b.lo && !incl)) {
            b.lo = v;
            b.loIn = incl;
          }
        }
        if (item.op === '=' || item.op === '<' || item.op === '<=') {
          const incl = item.op !== '<';
          if (v < b.hi || (v === b.hi && !incl)) {
            b.hi = v;
            b.hiIn = incl;
          }
        }
        bounds.set(facts.key, b);
        if (b.lo > b.hi || (b.lo === b.hi && !(b.loIn && b.hiIn))) {
          c.report(
            'warning',
            `This can never match: together with the conditions before, no value of ${facts.key} satisfies this`,
            item.start,
            item.end,
            'never-matches',
          );
          bounds.delete(facts.key);
        }
      }
    }
    if (item.op !== '=' || item.nocase || item.left.type !== 'field' || !item.right) continue;
    const facts = c.facts.get(item.left);
    if (!facts || facts.unknown || facts.repeated || item.left.key) continue;
    const value = literalValue(item.right);
    if (value === undefined) continue;
    const key = facts.key;
    seen ??= new Map();
    const prev = seen.get(key);
    if (prev && prev.value !== value) {
      c.report(
        'warning',
        `This can never match: ${key} cannot equal two different values at once (see the condition before); use OR`,
        item.start,
        item.end,
        'never-matches',
      );
    } else if (!prev) seen.set(key, { value });
  }
}
