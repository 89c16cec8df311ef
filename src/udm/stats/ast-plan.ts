// From the parser's statistical sections to the engine's plan, and the filter part of a query
// (what udmSearch is asked for: everything before the first statistical section).
import { sectionsByKind, type Query } from '../ast';
import { fieldPathOf } from '../check';
import type { OrderSpec, StatsPlan } from './plan';

export function hasStatisticalSections(query: Query): boolean {
  return query.sections.length > 0;
}

export function planFromQuery(query: Query): StatsPlan {
  const { match, outcome, order, limit } = sectionsByKind(query.sections);
  return {
    grouped: !!match,
    keys: (match?.keys ?? []).map((k) => ({
      name: k.type === 'variable' ? k.name : fieldPathOf(k).join('.'),
      operand: k,
    })),
    outcomes: (outcome?.outcomes ?? []).flatMap((o) => (o.value ? [{ name: o.variable.name, value: o.value }] : [])),
    dedup: [],
    order: (order?.order ?? []).map((o): OrderSpec => ({
      name: o.variable.type === 'variable' ? o.variable.name : fieldPathOf(o.variable).join('.'),
      descending: o.direction?.value === 'desc',
    })),
    ...(limit?.limit ? { limit: limit.limit.value } : {}),
  };
}

/**
 * The filtering statements of a statistical query, for udmSearch: the text before the first
 * section, without an `events:` header. Comments stay (the service ignores them).
 */
export function filterText(text: string, query: Query): string {
  const firstSection = query.sections.reduce((min, s) => Math.min(min, s.start), text.length);
  const head = text.slice(0, firstSection);
  return head.replace(/^(\s*(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)?)*\s*events\s*:/i, (m) => m.replace(/events\s*:$/i, ''));
}
