// Rule-only checks of events:, match:, outcome: and condition: (the search checker has already
// checked fields, functions and types): event variables and placeholders declared and used,
// match: keys and windows, condition: names, `or` and missing events.
import { WINDOW_BOUNDS } from '../vocabulary';
import type { ConditionSection, Expr, FieldNode, MatchSection, MatchWindow } from '../ast';
import type { RawDiagnostic } from '../parser';
import { suggest } from '../schema';
import type { RuleNode } from './ast';
import { isGraphField } from './entity';
import type { RuleVariables, VariableUse } from './variables';
import { diag } from './diagnostic';

/** Google's bounds of a rule's match: window. */
export const MIN_WINDOW_MINUTES = 1;
export const MAX_WINDOW_MINUTES = 48 * 60;

const UNIT_MINUTES = { minute: 1, hour: 60, day: 1440, week: 10080, month: 43200 } as const;

export function windowMinutes(w: MatchWindow): number | undefined {
  return w.unit ? w.size * UNIT_MINUTES[w.unit] : undefined;
}

function sectionList(uses: VariableUse[]): string {
  const names = [...new Set(uses.map((u) => `${u.section}:`))];
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
}

/** Event variables whose fields are all entity graph fields (`$g.graph.…`). */
function graphVariables(fields: readonly FieldNode[]): Set<string> {
  const graph = new Set<string>();
  const udm = new Set<string>();
  for (const f of fields) {
    if (!f.eventVar) continue;
    (isGraphField(f) ? graph : udm).add(f.eventVar.name);
  }
  for (const n of udm) graph.delete(n);
  return graph;
}

export function checkQuery(rule: RuleNode, vars: RuleVariables, fields: readonly FieldNode[]): RawDiagnostic[] {
  const match = rule.query.sections.find((s): s is MatchSection => s.kind === 'match');
  return [
    ...checkVariables(vars),
    ...(match ? checkMatch(match, vars) : []),
    ...checkWindowKeywords(rule, match, fields),
    ...checkJoins(rule, match, vars, fields),
  ];
}

/** Names used but not declared, event variables used but never filtered, placeholders that join nothing. */
function checkVariables(vars: RuleVariables): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  const known = [...vars.events, ...vars.placeholders, ...vars.outcomes];
  for (const v of vars.byName.values()) {
    if (v.role === 'event') continue;
    const outside = v.uses.filter((u) => u.section !== 'events');
    // `$e2.field` in match:/outcome:/condition: with no `$e2.…` line in events:
    if (v.role === 'unknown' && outside.some((u) => u.form === 'field')) {
      const first = outside.find((u) => u.form === 'field') ?? outside[0];
      out.push(
        diag(
          'error',
          `$${v.name} is used in ${sectionList(outside)} but has no predicate in events:; filter it there (e.g. $${v.name}.metadata.event_type = "…") or use a declared variable`,
          first,
          'unfiltered-event',
        ),
      );
      continue;
    }
    if (v.role === 'unknown') {
      for (const u of outside) {
        const near = suggest(v.name, known);
        const sigil = u.form === 'count' ? '#' : '$';
        const did = near.length ? ` (did you mean ${sigil}${near[0]}?)` : '';
        out.push(
          diag(
            'error',
            `${sigil}${v.name} in ${u.section}: names no event variable, placeholder or outcome variable${did}; declare it in events:${u.section === 'condition' ? ' or outcome:' : ''}`,
            u,
            'unknown-variable',
            near.length ? { replacements: near.map((n) => `${sigil}${n}`) } : undefined,
          ),
        );
      }
      continue;
    }
    if (v.role === 'placeholder' && v.uses.length === 1)
      out.push(
        diag(
          'warning',
          `$${v.name} is assigned once and used nowhere else, so it joins nothing; use it in match:, outcome: or another event's line, or remove it`,
          v.uses[0],
          'unused-placeholder',
        ),
      );
  }

  return out;
}

/** match: groups by placeholders, over a window Google accepts. */
function checkMatch(match: MatchSection, vars: RuleVariables): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  for (const key of match.keys) {
    if (key.type === 'field')
      out.push(
        diag(
          'error',
          "A rule's match: groups by placeholders: bind the field in events: ($key = $e.field) and write $key here",
          key,
          'match-key',
        ),
      );
    else if (vars.outcomes.has(key.name) && !vars.placeholders.has(key.name))
      out.push(
        diag(
          'error',
          `$${key.name} is an outcome variable; match: groups by placeholders from events:`,
          key,
          'match-key',
        ),
      );
  }
  const w = match.window;
  if (w) {
    if (w.every)
      out.push(
        diag(
          'error',
          `A rule's match: window is 'over <duration>' (hop or sliding) or 'by <duration>' (tumbling), e.g. over ${w.raw && /^\d/.test(w.raw) ? w.raw : '1h'}; 'over every' is a search form`,
          { start: w.keyword.start, end: w.end },
          'rule-window',
        ),
      );
    else {
      const minutes = windowMinutes(w);
      if (minutes !== undefined && (minutes < MIN_WINDOW_MINUTES || minutes > MAX_WINDOW_MINUTES))
        out.push(
          diag(
            'error',
            `A rule's match: window is between 1m and 48h; ${w.raw} is ${minutes > MAX_WINDOW_MINUTES ? 'longer' : 'shorter'}`,
            { start: w.keyword.start, end: w.end },
            'rule-window',
          ),
        );
    }
    if (w.pivot && !vars.events.has(w.pivot.variable.name))
      out.push(
        diag(
          'error',
          `The sliding window is anchored on an event variable; $${w.pivot.variable.name} is not one`,
          w.pivot.variable,
          'unknown-variable',
        ),
      );
  } else if (match.keys.length)
    out.push(
      diag(
        'error',
        "match: needs a window after its keys: 'over <duration>' (e.g. over 10m)",
        { start: match.keyword.start, end: match.end },
        'missing-window',
      ),
    );
  return out;
}

/** window_start / window_end: the bounds of the match window, outside events: only. */
function checkWindowKeywords(
  rule: RuleNode,
  match: MatchSection | undefined,
  fields: readonly FieldNode[],
): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  const filter = rule.query.filter;
  for (const f of fields) {
    if (!isWindowKeyword(f)) continue;
    const word = f.segments[0].name;
    if (filter && f.start >= filter.start && f.end <= filter.end)
      out.push(
        diag(
          'error',
          `${word} is a bound of the match window; use it in outcome: or condition:, not in events:`,
          f,
          'window-keyword',
        ),
      );
    else if (!match?.window)
      out.push(diag('error', `${word} needs a match: window (over or by <duration>)`, f, 'window-keyword'));
  }

  return out;
}

/** Joins and missing events need a window; 'or' joins one event variable's conditions only. */
function checkJoins(
  rule: RuleNode,
  match: MatchSection | undefined,
  vars: RuleVariables,
  fields: readonly FieldNode[],
): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  const condition = rule.query.sections.find((s): s is ConditionSection => s.kind === 'condition');
  // Entity graph variables join context, not events.
  const windowed = !!match?.window;
  const graph = graphVariables(fields);
  const eventVars = [...vars.events].filter((n) => !graph.has(n));
  const negated = vars.uses.filter((u) => u.section === 'condition' && u.negated);
  if (!windowed && eventVars.length > 1 && negated.length === 0) {
    const joins = [...vars.placeholders].filter((p) => {
      const v = vars.byName.get(p);
      return v && v.uses.filter((u) => u.section === 'events').length > 1;
    });
    out.push(
      diag(
        'error',
        `${eventVars.length} event variables (${eventVars.map((n) => `$${n}`).join(', ')})${joins.length ? ` joined on ${joins.map((n) => `$${n}`).join(', ')}` : ''} need a match: window (over <duration>); add 'match: $key over 10m'`,
        { start: rule.keyword.start, end: rule.name?.end ?? rule.keyword.end },
        'missing-window',
      ),
    );
  }
  for (const u of negated)
    if (!windowed)
      out.push(
        diag(
          'error',
          `!$${u.name} looks for a missing event and needs a match: window (over <duration>); add one to match:`,
          u,
          'missing-window',
        ),
      );

  if (condition?.expr && eventVars.length > 1) {
    const or = findOr(condition.expr);
    if (or)
      out.push(
        diag(
          'error',
          "'or' in condition: joins only a single event variable's conditions; with several event variables write the conditions with 'and' (or split the rule)",
          or,
          'condition-or',
        ),
      );
  }
  return out;
}

/** An `or` that joins event variables (`$e`, `#e`); one between outcome comparisons is fine. */
/** `window_start` / `window_end` written alone (not a UDM field). */
export function isWindowKeyword(f: FieldNode): boolean {
  return (
    !f.eventVar &&
    f.segments.length === 1 &&
    !f.key &&
    (WINDOW_BOUNDS as readonly string[]).includes(f.segments[0].name)
  );
}

function findOr(e: Expr): { start: number; end: number } | undefined {
  if (e.type === 'or' && e.items.some(namesEvents)) return e;
  if (e.type === 'and' || e.type === 'or') {
    for (const i of e.items) {
      const f = findOr(i);
      if (f) return f;
    }
  }
  if (e.type === 'not') return findOr(e.expr);
  return undefined;
}

function namesEvents(e: Expr): boolean {
  if (e.type === 'exists') return true;
  if (e.type === 'compare') return e.left.type === 'count' || e.right?.type === 'count';
  if (e.type === 'and' || e.type === 'or') return e.items.some(namesEvents);
  if (e.type === 'not') return namesEvents(e.expr);
  return false;
}
