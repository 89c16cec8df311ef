// From the parser's statistical sections to the engine's plan, and the filter part of a query
// (what udmSearch is asked for: the filtering statements, without the `events:` header and the
// sections).
import { sectionsByKind, type GroupKey, type MatchWindow, type Query } from '../ast';
import { fieldPathOf } from '../check';
import type { OrderSpec, StatsPlan, TimeBucketSpec } from './plan';

export function hasStatisticalSections(query: Query): boolean {
  return query.sections.length > 0;
}

function keyName(k: GroupKey): string {
  return k.type === 'variable' ? k.name : fieldPathOf(k).join('.');
}

/** `by 2h` / `over every day`; a rule window (`over 5m`) is reported by the checker and not bucketed. */
function bucketOf(window: MatchWindow | undefined): TimeBucketSpec | undefined {
  if (!window?.unit) return undefined;
  if (window.kind === 'over' && !window.every) return undefined;
  return { count: Math.max(1, Math.floor(window.size)), unit: window.unit };
}

export function planFromQuery(query: Query): StatsPlan {
  const { match, outcome, condition, dedup, order, limit } = sectionsByKind(query.sections);
  const bucket = bucketOf(match?.window);
  const ignored = [
    ...new Set(query.sections.filter((s) => s.kind === 'select' || s.kind === 'unselect').map((s) => s.kind)),
  ];
  return {
    ...(ignored.length ? { ignoredSections: ignored } : {}),
    grouped: !!match,
    keys: (match?.keys ?? []).map((k) => ({ name: keyName(k), operand: k })),
    ...(bucket ? { bucket } : {}),
    outcomes: (outcome?.outcomes ?? []).flatMap((o) => (o.value ? [{ name: o.variable.name, value: o.value }] : [])),
    ...(condition?.expr ? { condition: condition.expr } : {}),
    dedup: dedup?.keys ?? [],
    order: (order?.order ?? []).map((o): OrderSpec => ({
      name: keyName(o.variable),
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
  const events = query.events;
  if (events && events.end <= firstSection) return text.slice(0, events.start) + text.slice(events.end, firstSection);
  return text.slice(0, firstSection);
}
