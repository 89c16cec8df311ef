// From the parser's statistical sections to the engine's plan, and the filter part of a query
// (what udmSearch is asked for: everything before the first statistical section).
import type { Expr, FieldNode, Query, Section, VariableNode } from '../ast';
import { fieldPathOf } from '../check';
import { parseBucketUnit } from './buckets';
import type { OrderSpec, StatsPlan, TimeBucketSpec } from './plan';

export function hasStatisticalSections(query: Query): boolean {
  return query.sections.length > 0;
}

/** The parts of a section the plan reads; sections differ by kind. */
interface SectionView {
  kind: string;
  start: number;
  keys?: Array<VariableNode | FieldNode>;
  window?: { size?: number; unit?: string | null; raw?: string } | undefined;
  outcomes?: Array<{ variable: VariableNode; value: unknown }>;
  expr?: Expr | null;
  order?: Array<{ variable: VariableNode | FieldNode; direction?: { value: 'asc' | 'desc' } }>;
  limit?: { value: number };
}

function sectionOf(query: Query, kind: string): SectionView | undefined {
  return (query.sections as readonly Section[] as unknown as SectionView[]).find((s) => s.kind === kind);
}

function keyName(k: VariableNode | FieldNode): string {
  return k.type === 'variable' ? k.name : fieldPathOf(k).join('.');
}

function bucketOf(window: SectionView['window']): TimeBucketSpec | undefined {
  if (!window) return undefined;
  const unit = window.unit ? parseBucketUnit(window.unit) : undefined;
  if (!unit) return undefined;
  const count = typeof window.size === 'number' && window.size >= 1 ? Math.floor(window.size) : 1;
  return { count, unit };
}

export function planFromQuery(query: Query): StatsPlan {
  const match = sectionOf(query, 'match');
  const outcome = sectionOf(query, 'outcome');
  const condition = sectionOf(query, 'condition');
  const dedup = sectionOf(query, 'dedup');
  const order = sectionOf(query, 'order');
  const limit = sectionOf(query, 'limit');
  const bucket = bucketOf(match?.window);
  return {
    grouped: !!match,
    keys: (match?.keys ?? []).map((k) => ({ name: keyName(k), operand: k })),
    ...(bucket ? { bucket } : {}),
    outcomes: (outcome?.outcomes ?? []).flatMap((o) =>
      o.value ? [{ name: o.variable.name, value: o.value as StatsPlan['outcomes'][number]['value'] }] : [],
    ),
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
  const events = (query as { events?: { start: number; end: number } }).events;
  if (events && events.end <= firstSection) return text.slice(0, events.start) + text.slice(events.end, firstSection);
  return text.slice(0, firstSection);
}
