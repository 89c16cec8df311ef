import {
  type DedupSection,
  type MatchSection,
  type OrderSection,
  type Section,
  SECTION_ORDER,
  type SectionsByKind,
} from '../ast';
import { checkCondition } from './condition';
import type { CheckContext } from './context';
import { fieldPathOf, resolveField } from './fields';
import { checkOutcomeSection } from './outcome';
import { undefinedPlaceholder } from './variables';

/** Documented cap of udmSearch results. */
export const MAX_LIMIT = 10000;

export function checkSections(c: CheckContext, sections: Section[]): SectionsByKind {
  const byKind = sectionsInOrder(c, sections);
  const groupNames = new Set<string>();
  const match = byKind.match;
  if (match) checkMatch(c, match, groupNames);
  const outcomeNames = new Set<string>();
  if (byKind.outcome) checkOutcomeSection(c, byKind.outcome, match, groupNames, outcomeNames);
  const condition = byKind.condition;
  if (condition) {
    if (!condition.expr)
      c.report(
        'error',
        'condition: needs a test of an outcome variable, e.g. $event_count > 5',
        condition.keyword.start,
        condition.keyword.end,
        'empty-section',
      );
    else checkCondition(c, condition.expr, groupNames, outcomeNames);
  }
  for (const d of [byKind.dedup, byKind.select, byKind.unselect]) if (d) checkKeys(c, d, groupNames, outcomeNames);
  if (byKind.order) checkOrder(c, byKind.order, byKind, groupNames, outcomeNames);
  const limit = byKind.limit;
  if (limit?.limit) {
    const v = limit.limit.value;
    if (!Number.isInteger(v) || v < 1 || v > MAX_LIMIT) {
      c.report(
        'error',
        `limit: must be a whole number from 1 to ${MAX_LIMIT}`,
        limit.limit.start,
        limit.limit.end,
        'limit-range',
      );
    }
  }
  return byKind;
}

/** The sections by kind, the first of each; a duplicate or a section out of the documented order is reported. */
function sectionsInOrder(c: CheckContext, sections: Section[]): SectionsByKind {
  const byKind: SectionsByKind = {};
  let lastRank = -1;
  for (const s of sections) {
    const rank = SECTION_ORDER.indexOf(s.kind);
    if (byKind[s.kind]) {
      c.report('error', `Duplicate ${s.kind}: section`, s.keyword.start, s.keyword.end, 'duplicate-section');
      continue;
    }
    // select:/unselect: have no place in the documented order; Google's page writes select: after limit:.
    const free = s.kind === 'select' || s.kind === 'unselect';
    if (!free && rank < lastRank) {
      c.report(
        'error',
        `Section ${s.kind}: must come before ${SECTION_ORDER[lastRank]}: (the order is match:, outcome:, condition:, dedup:, order:, limit:)`,
        s.keyword.start,
        s.keyword.end,
        'section-order',
      );
    }
    if (!free) lastRank = Math.max(lastRank, rank);
    (byKind as Record<string, Section>)[s.kind] = s;
  }
  return byKind;
}

/** match: groups by fields or defined placeholders; a rule's sliding window has no place in search. */
function checkMatch(c: CheckContext, match: MatchSection, groupNames: Set<string>): void {
  if (match.keys.length === 0)
    c.report(
      'error',
      'match: needs at least one field or placeholder to group by',
      match.keyword.start,
      match.keyword.end,
      'empty-section',
    );
  for (const k of match.keys) {
    if (k.type === 'variable') {
      if (!c.placeholders.has(k.name)) undefinedPlaceholder(c, k);
      groupNames.add(k.name);
    } else {
      const f = resolveField(c, k);
      if (!f.unknown && f.kind === 'message')
        c.report('error', `${f.key} is a message; group by one of its fields`, k.start, k.end, 'message-compare');
      groupNames.add(fieldPathOf(k).join('.'));
    }
  }
  const w = match.window;
  if (w && w.kind === 'over' && !w.every) {
    c.report(
      'error',
      `'over ${w.raw}' is a detection rule's sliding window, not valid in search; use 'by ${w.raw || '1h'}' or 'over every ${w.unit ?? 'day'}'`,
      w.start,
      w.end,
      'rule-window',
      { replacements: [`by ${w.raw || '1h'}`] },
    );
  }
}

/** dedup:, select:, unselect: name fields, or placeholders and variables defined before. */
function checkKeys(c: CheckContext, d: DedupSection, groupNames: Set<string>, outcomeNames: Set<string>): void {
  if (d.keys.length === 0)
    c.report(
      'error',
      `${d.kind}: needs at least one field, e.g. ${d.kind}: target.hostname`,
      d.keyword.start,
      d.keyword.end,
      'empty-section',
    );
  for (const k of d.keys) {
    if (k.type === 'variable') {
      if (!c.placeholders.has(k.name) && !outcomeNames.has(k.name) && !groupNames.has(k.name))
        undefinedPlaceholder(c, k);
    } else {
      const f = resolveField(c, k);
      if (!f.unknown && f.kind === 'message')
        c.report('error', `${f.key} is a message; name one of its fields`, k.start, k.end, 'message-compare');
    }
  }
}

/** order: sorts the rows of match:/outcome: by one of their variables. */
function checkOrder(
  c: CheckContext,
  order: OrderSection,
  byKind: SectionsByKind,
  groupNames: Set<string>,
  outcomeNames: Set<string>,
): void {
  const { match, outcome } = byKind;
  if (!match && !outcome)
    c.report(
      'error',
      'order: sorts the rows of match: and outcome:; add those sections first',
      order.keyword.start,
      order.keyword.end,
      'order-without-stats',
    );
  for (const item of order.order) {
    const name = item.variable.type === 'variable' ? item.variable.name : fieldPathOf(item.variable).join('.');
    if (!groupNames.has(name) && !outcomeNames.has(name)) {
      c.report(
        'error',
        `order: can only sort by a match: or outcome: variable; ${item.variable.type === 'variable' ? '$' : ''}${name} is neither`,
        item.variable.start,
        item.variable.end,
        'order-unknown',
      );
    }
  }
  if (order.order.length === 0)
    c.report(
      'error',
      'order: needs a variable, e.g. $event_count desc',
      order.keyword.start,
      order.keyword.end,
      'empty-section',
    );
}
