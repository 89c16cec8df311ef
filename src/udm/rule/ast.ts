// The tree of a YARA-L 2.0 rule file (`.yaral`). A rule's events:, match:, outcome: and
// condition: sections are the search language's own (`Query` in ../ast.ts), parsed by the same
// parser with the rule-only syntax switched on (`#e` counts, `$e` / `!$e` in condition:, sliding
// windows); meta: and options: and the `rule name { … }` frame are parsed here.
import { RULE_SECTION_ORDER as SECTION_NAMES, type RuleSectionName } from '../vocabulary';
import type { Operand, Query, Span, StringNode } from '../ast';
import type { RawDiagnostic } from '../parser';
import type { Token } from '../lexer';

/** A name as written, with its span. */
export interface Name extends Span {
  name: string;
}

/** `key = "value"` in meta:. The value is meant to be a quoted string; anything else is reported. */
export interface MetaItem extends Span {
  key: Name;
  /** null when nothing follows `=` (already reported) */
  value: Operand | null;
}

export interface MetaSection extends Span {
  /** `meta` and its colon */
  keyword: Span;
  items: MetaItem[];
}

/** `allow_zero_values = true`, `suppression_window = 5m` in options:. */
export interface OptionItem extends Span {
  key: Name;
  /** a bool, number, string or duration (a duration is an `enum` operand holding e.g. `5m`); null when missing */
  value: Operand | null;
}

export interface OptionsSection extends Span {
  keyword: Span;
  items: OptionItem[];
}

/** `rule name { meta: … events: … match: … outcome: … condition: … options: … }` */
export interface RuleNode extends Span {
  /** the `rule` word */
  keyword: Span;
  /** null when the name is missing or not an identifier (already reported) */
  name: Name | null;
  /** the braces; `close` is absent when the rule is not closed (already reported) */
  open: Span;
  close?: Span;
  meta: MetaSection | null;
  /**
   * events: (its header in `query.events`, its statements in `query.filter`), then match:,
   * outcome: and condition: in `query.sections`.
   */
  query: Query;
  options: OptionsSection | null;
  /** where each section's name stands, in source order (for the outline, folding and order checks) */
  sectionOrder: Array<{ kind: RuleSectionKind; keyword: Span }>;
}

export type RuleSectionKind = RuleSectionName;

/** The documented order of a rule's sections (the vocabulary's). meta, events and condition are required. */
export const RULE_SECTION_ORDER: readonly RuleSectionKind[] = SECTION_NAMES;

export interface RuleFile {
  rules: RuleNode[];
  tokens: Token[];
  comments: Token[];
  diagnostics: RawDiagnostic[];
}

/** A meta value that is a quoted string (the documented form). */
export function metaString(item: MetaItem): StringNode | undefined {
  return item.value?.type === 'string' && item.value.quoted ? item.value : undefined;
}
