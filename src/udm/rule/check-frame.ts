// Checks of a rule's frame: one rule per file, the required sections and their order, meta:
// values (ATT&CK IDs among them), options: names and values. The events:…condition: part is check-query.ts's.
import { RULE_REQUIRED_SECTIONS } from '../vocabulary';
import type { MatchSection } from '../ast';
import type { RawDiagnostic } from '../parser';
import { suggest } from '../schema';
import { RULE_SECTION_ORDER, metaString, type RuleFile, type RuleNode } from './ast';
import { readAttack } from './attack';
import { windowMinutes } from './check-query';
import { diag } from './diagnostic';

/** The documented options (RULE_OPTION_NAMES of the vocabulary) and what each takes. */
export const RULE_OPTIONS: Readonly<Record<string, string>> = {
  allow_zero_values: 'true or false (default false): keep zero values of match: placeholders',
  suppression_window:
    'a duration such as 5m or 1h: after a detection, further detections with the same key are suppressed for this long',
};

/** A duration option value (`5m`, `1h`, `2d`) in minutes; seconds round up to a minute. */
export function durationMinutes(raw: string): number | undefined {
  const m = /^(\d+)([smhd])$/i.exec(raw);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  return unit === 's' ? n / 60 : unit === 'm' ? n : unit === 'h' ? n * 60 : n * 1440;
}

export function checkFrame(file: RuleFile, parserDiagnostics: readonly RawDiagnostic[]): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  file.rules.forEach((rule, i) => {
    if (i > 0)
      out.push(
        diag(
          'error',
          'A rule file holds one rule (Google keeps each rule in its own file): move this rule to a file of its own',
          { start: rule.keyword.start, end: rule.name?.end ?? rule.keyword.end },
          'one-rule-per-file',
        ),
      );
    out.push(
      ...checkSections(rule, parserDiagnostics),
      ...checkMeta(rule),
      ...checkAttack(rule),
      ...checkOptions(rule),
    );
  });
  return out;
}

function checkSections(rule: RuleNode, parserDiagnostics: readonly RawDiagnostic[]): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  const at = { start: rule.keyword.start, end: rule.name?.end ?? rule.keyword.end };
  for (const kind of RULE_REQUIRED_SECTIONS)
    if (!rule.sectionOrder.some((s) => s.kind === kind))
      out.push(
        diag(
          'error',
          `This rule has no ${kind}: section; a rule needs meta:, events: and condition:${kind === 'meta' ? ' (meta: may be empty of keys but must be written)' : ''}`,
          at,
          'missing-section',
          { section: kind },
        ),
      );
  // The parser already reported meta:/options: written between the search sections, and the
  // search sections' own order; report the first misplaced section only when it has not.
  const reported = parserDiagnostics.some(
    (d) => d.code === 'section-order' && d.start >= rule.start && d.end <= rule.end,
  );
  if (reported) return out;
  const order = rule.sectionOrder;
  for (let i = 1; i < order.length; i++) {
    const here = RULE_SECTION_ORDER.indexOf(order[i].kind);
    const before = order.slice(0, i).filter((s) => RULE_SECTION_ORDER.indexOf(s.kind) > here);
    if (before.length === 0) continue;
    const after = RULE_SECTION_ORDER.slice(0, here).filter((k) => rule.sectionOrder.some((s) => s.kind === k));
    out.push(
      diag(
        'error',
        after.length
          ? `${order[i].kind}: must come after ${after.map((k) => `${k}:`).join(', ')} and before ${before.map((s) => `${s.kind}:`).join(', ')}; sections go in the order ${RULE_SECTION_ORDER.map((k) => `${k}:`).join(' ')}`
          : `${order[i].kind}: comes first in a rule; sections go in the order ${RULE_SECTION_ORDER.map((k) => `${k}:`).join(' ')}`,
        order[i].keyword,
        'section-order',
      ),
    );
    break;
  }
  return out;
}

function checkMeta(rule: RuleNode): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  for (const item of rule.meta?.items ?? []) {
    if (!item.value || metaString(item)) continue;
    const written = item.value;
    const asText =
      written.type === 'number'
        ? written.raw
        : written.type === 'bool'
          ? String(written.value)
          : written.type === 'enum'
            ? written.name
            : written.type === 'string'
              ? written.value
              : undefined;
    out.push(
      diag(
        'error',
        `meta value of ${item.key.name} must be a quoted string${asText !== undefined ? `: write ${item.key.name} = "${asText}"` : ''}`,
        written,
        'meta-not-string',
        asText !== undefined ? { replacements: [`"${asText}"`] } : undefined,
      ),
    );
  }
  return out;
}

/** Malformed ATT&CK tactic and technique IDs in meta: (coverage would miss them): warnings. */
function checkAttack(rule: RuleNode): RawDiagnostic[] {
  return readAttack(rule).problems.map((p) => diag('warning', p.message, p, p.code));
}

function checkOptions(rule: RuleNode): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  const seen = new Set<string>();
  const match = rule.query.sections.find((s): s is MatchSection => s.kind === 'match');
  for (const item of rule.options?.items ?? []) {
    const key = item.key.name.toLowerCase();
    if (!(key in RULE_OPTIONS)) {
      const near = suggest(key, Object.keys(RULE_OPTIONS));
      out.push(
        diag(
          'error',
          `Unknown option '${item.key.name}'${near.length ? `. Did you mean '${near[0]}'?` : ''} The options are ${Object.keys(RULE_OPTIONS).join(' and ')}`,
          item.key,
          'unknown-option',
          near.length ? { replacements: near } : undefined,
        ),
      );
      continue;
    }
    if (seen.has(key)) out.push(diag('error', `${key} is set twice; keep one`, item.key, 'duplicate-option'));
    seen.add(key);
    const v = item.value;
    if (!v) continue;
    if (key === 'allow_zero_values' && v.type !== 'bool')
      out.push(
        diag('error', 'allow_zero_values is true or false', v, 'option-value', { replacements: ['true', 'false'] }),
      );
    if (key === 'suppression_window') {
      const minutes = v.type === 'enum' ? durationMinutes(v.name) : undefined;
      if (minutes === undefined) {
        out.push(diag('error', 'suppression_window is a duration such as 5m, 1h or 1d', v, 'option-value'));
        continue;
      }
      const window = match?.window ? windowMinutes(match.window) : undefined;
      if (window !== undefined && minutes <= window)
        out.push(
          diag(
            'error',
            `suppression_window (${v.type === 'enum' ? v.name : ''}) must be longer than the match: window (${match?.window?.raw ?? ''}); make it longer or the window shorter`,
            v,
            'option-value',
          ),
        );
    }
  }
  return out;
}
