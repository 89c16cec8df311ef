/**
 * Semantic tokens of a rule file: the search language's classification of events:…condition:,
 * with the rule's own words on top (the `rule` keyword and name, section names, meta:/options:
 * keys, `#e` counts, `!`, sliding-window `after`/`before`).
 */
import type { RuleAnalysis } from '../rule/analyze';
import { classify, encodeTokens, type ClassifiedToken } from './semantic-tokens';

type SemType = ClassifiedToken['type'];

export function classifyRule(a: RuleAnalysis): ClassifiedToken[] {
  const override = new Map<number, { end: number; type: SemType; modifiers: number }>();
  const set = (s: { start: number; end: number }, type: SemType, modifiers = 0): void => {
    override.set(s.start, { end: s.end, type, modifiers });
  };
  for (const r of a.shapes) {
    const n = r.node;
    set(n.keyword, 'keyword');
    if (n.name) set(n.name, 'function', 4);
    for (const s of n.sectionOrder) set({ start: s.keyword.start, end: s.keyword.end - 1 }, 'keyword');
    for (const item of [...(n.meta?.items ?? []), ...(n.options?.items ?? [])]) {
      set(item.key, 'property', 2);
      if (item.value?.type === 'enum') set(item.value, 'number');
      if (item.value?.type === 'bool') set(item.value, 'keyword');
    }
    for (const s of n.query.sections) if (s.kind === 'match' && s.window?.pivot) set(s.window.pivot.keyword, 'keyword');
    for (const v of r.variables.byName.values())
      for (const u of v.uses) if (u.form === 'count') set(u, 'variable', v.declaration === u ? 4 : 0);
  }
  const out: ClassifiedToken[] = [];
  const seen = new Set<number>();
  for (const t of classify(a)) {
    const o = override.get(t.start);
    if (o) {
      seen.add(t.start);
      out.push({ start: t.start, end: o.end, type: o.type, modifiers: o.modifiers });
    } else out.push(t);
  }
  for (const [start, o] of override)
    if (!seen.has(start)) out.push({ start, end: o.end, type: o.type, modifiers: o.modifiers });
  for (const t of a.parse.tokens)
    if (t.kind === 'bang') out.push({ start: t.start, end: t.end, type: 'operator', modifiers: 0 });
  out.sort((x, y) => x.start - y.start);
  // One token per start: an override and a plain token of the same place keep the override.
  return out.filter((t, i) => i === 0 || out[i - 1].start !== t.start);
}

/** LSP relative encoding, as semanticTokens() does for searches. */
export function ruleSemanticTokens(a: RuleAnalysis): number[] {
  return encodeTokens(a, classifyRule(a));
}
