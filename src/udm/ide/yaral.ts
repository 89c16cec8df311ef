/**
 * Editor features for YARA-L rule files (`.yaral`). A RuleAnalysis is an Analysis over the
 * rule's events:…condition:, so fields, functions, values and signature help come from the
 * search language's own features; this module adds what only rules have: section names,
 * event variables and placeholders (completion, hover, definition, references), meta: and
 * options:, and the rule outline and folding.
 */
import { WINDOW_BOUNDS } from '../vocabulary';
import {
  CompletionItemKind,
  DocumentSymbol,
  FoldingRangeKind,
  MarkupKind,
  SymbolKind,
  TextEdit,
  type CompletionItem,
  type FoldingRange,
  type Hover,
  type Location,
  type Range,
} from 'vscode-languageserver-types';
import { RULE_SECTION_ORDER, type RuleNode, type RuleSectionKind } from '../rule/ast';
import type { RuleAnalysis, RuleShape } from '../rule/analyze';
import { RULE_OPTIONS } from '../rule/check-frame';
import { variableAt, type RuleVariable } from '../rule/variables';
import { inComment, tokenIndexBefore } from './analysis';
import { complete, type ListsForCompletion } from './completion';
import { hover } from './hover';
import type { KnownReferenceLists } from '../reference-lists';

type Position = { line: number; character: number };

export const RULE_SECTION_DOCS: Record<RuleSectionKind, string> = {
  meta: 'Descriptive `key = "value"` pairs (author, description, severity…). Required; values are quoted strings.',
  events:
    'The events the rule looks at: statements on event variables (`$e.metadata.event_type = "USER_LOGIN"`), and placeholders (`$user = $e.target.user.userid`) that join them. Required.',
  match:
    'Groups detections by placeholders over a time window: `$user over 10m`, or a sliding window `over 10m after $e`. Required when the rule joins several event variables or looks for a missing one.',
  outcome:
    'Values computed per detection: `$risk_score = max(…)`, aggregates over the events (`count`, `sum`, `array_distinct`…).',
  condition:
    'When the rule fires: event variables (`$e`, `#e > 5`, `!$e` for a missing event) and outcome comparisons, joined with `and`. Required.',
  options: 'Rule options: `allow_zero_values = true`, `suppression_window = 1h`.',
};

/** Outcome variables Google gives a meaning of their own. */
const SPECIAL_OUTCOMES: Record<string, string> = {
  risk_score: ' `$risk_score` is the risk score of the detection (an integer, shown with the alert).',
  suppression_key: ' `$suppression_key` decides which detections options: `suppression_window` suppresses together.',
};

const ROLE_LABEL: Record<RuleVariable['role'], string> = {
  event: 'event variable',
  placeholder: 'placeholder',
  outcome: 'outcome variable',
  unknown: 'undeclared variable',
};

/** The section whose body holds `offset`, in the rule around it. */
export function ruleSectionAt(rule: RuleNode, offset: number): RuleSectionKind | undefined {
  let found: RuleSectionKind | undefined;
  for (const s of rule.sectionOrder) if (s.keyword.end <= offset) found = s.kind;
  return found;
}

function lineStartsAt(a: RuleAnalysis, offset: number, wordStart: number): boolean {
  const here = a.lines.position(offset);
  return a.text.slice(a.lines.lineStart(here.line), wordStart).trim() === '';
}

function variableItems(
  rule: RuleShape | undefined,
  range: Range,
  sigil: '$' | '#',
  section?: string,
): CompletionItem[] {
  if (!rule) return [];
  const out: CompletionItem[] = [];
  for (const v of rule.variables.byName.values()) {
    if (v.role === 'unknown') continue;
    if (sigil === '#' && v.role === 'outcome') continue;
    // Outcome variables are not known in events:.
    if (section === 'events' && v.role === 'outcome') continue;
    out.push({
      label: `${sigil}${v.name}`,
      kind: v.role === 'event' ? CompletionItemKind.Class : CompletionItemKind.Variable,
      detail: ROLE_LABEL[v.role],
      textEdit: TextEdit.replace(range, `${sigil}${v.name}`),
      sortText: `${v.role === 'event' ? 0 : v.role === 'placeholder' ? 1 : 2}${v.name}`,
      ...(v.role === 'event' && sigil === '$'
        ? { command: { title: 'Suggest', command: 'editor.action.triggerSuggest' } }
        : {}),
    });
  }
  return out;
}

function sectionNameItems(range: Range): CompletionItem[] {
  return RULE_SECTION_ORDER.map((k, i) => ({
    label: `${k}:`,
    kind: CompletionItemKind.Keyword,
    detail: 'rule section',
    documentation: { kind: MarkupKind.Markdown, value: RULE_SECTION_DOCS[k] },
    textEdit: TextEdit.replace(range, `${k}:`),
    sortText: `9${i}`,
  }));
}

export function completeRule(a: RuleAnalysis, position: Position, lists: ListsForCompletion = []): CompletionItem[] {
  const offset = a.lines.offset(position);
  if (inComment(a, offset)) return [];
  const { tokens } = a.parse;
  const idx = tokenIndexBefore(tokens, offset);
  const cur = idx >= 0 ? tokens[idx] : undefined;
  const rule = a.shapeAt(offset);
  const inside = rule && offset > rule.node.open.end && (!rule.node.close || offset <= rule.node.close.start);
  if (!rule || !inside) {
    if (cur && cur.kind === 'ident' && cur.end === offset && !rule) return [];
    return [];
  }
  const section = ruleSectionAt(rule.node, offset);
  const typing = cur && cur.end >= offset && cur.start < offset ? cur : undefined;
  const wordStart = typing && typing.kind === 'ident' ? typing.start : offset;
  const wordRange = a.lines.range(wordStart, offset);
  const atLineStart = lineStartsAt(a, offset, wordStart);

  // `$` / `#`: the rule's variables.
  if (typing && (typing.kind === 'variable' || typing.kind === 'count' || (typing.kind as string) === 'hash')) {
    const text = a.text.slice(typing.start, offset);
    if (text.startsWith('$') || text.startsWith('#')) {
      return variableItems(rule, a.lines.range(typing.start, offset), text[0] as '$' | '#', section);
    }
  }
  if (a.text[offset - 1] === '$' || a.text[offset - 1] === '#') {
    const sigil = a.text[offset - 1] as '$' | '#';
    return variableItems(rule, a.lines.range(offset - 1, offset), sigil, section);
  }
  if (section === 'meta') return atLineStart ? sectionNameItems(wordRange) : [];
  if (section === 'options') {
    if (!atLineStart) {
      const key = a.text.slice(a.lines.lineStart(position.line), offset).match(/^\s*(\w+)\s*=\s*\w*$/)?.[1];
      if (key === 'allow_zero_values')
        return ['true', 'false'].map((b) => ({
          label: b,
          kind: CompletionItemKind.Value,
          textEdit: TextEdit.replace(wordRange, b),
        }));
      return [];
    }
    return [
      ...Object.entries(RULE_OPTIONS).map(([k, doc]) => ({
        label: k,
        kind: CompletionItemKind.Property,
        detail: 'rule option',
        documentation: doc,
        textEdit: TextEdit.replace(wordRange, `${k} = `),
      })),
      ...sectionNameItems(wordRange),
    ];
  }
  if (!section) return atLineStart ? sectionNameItems(wordRange) : [];
  const items = complete(a, position, lists);
  // The search form's section names (dedup:, limit:…) are not a rule's; offer the rule's.
  const searchOnly = /^(dedup|select|unselect|order|limit):?$/i;
  const kept = items.filter((i) => !(i.kind === CompletionItemKind.Keyword && searchOnly.test(i.label)));
  // The bounds of the match window, where a rule may read them.
  const hasWindow = rule.node.query.sections.some((x) => x.kind === 'match' && !!x.window);
  if (hasWindow && (section === 'outcome' || section === 'condition'))
    for (const word of WINDOW_BOUNDS)
      kept.push({
        label: word,
        kind: CompletionItemKind.Keyword,
        detail: `${word === 'window_start' ? 'start' : 'end'} of the match window (a timestamp)`,
        textEdit: TextEdit.replace(wordRange, word),
        sortText: `8${word}`,
      });
  if (atLineStart) {
    const have = new Set(kept.map((i) => i.label));
    for (const s of sectionNameItems(wordRange)) if (!have.has(s.label)) kept.push(s);
    if (section === 'events' || section === 'outcome' || section === 'condition' || section === 'match')
      for (const v of variableItems(rule, wordRange, '$', section)) if (!have.has(v.label)) kept.push(v);
  }
  return kept;
}

function lineOf(a: RuleAnalysis, offset: number): number {
  return a.lines.position(offset).line + 1;
}

function describeVariable(a: RuleAnalysis, v: RuleVariable): string {
  const decl = v.declaration;
  const where = decl ? ` — declared in ${decl.section}: on line ${lineOf(a, decl.start)}` : '';
  const used = v.uses.length;
  let detail = '';
  if (v.role === 'event')
    detail =
      '\n\nAn event variable: each statement on `$' +
      v.name +
      '.…` filters the events it stands for. `#' +
      v.name +
      '` counts them in condition:.';
  if (v.role === 'placeholder') {
    const binds = v.uses.filter((u) => u.section === 'events').length;
    detail = `\n\nA placeholder: it takes a field's value${binds > 1 ? ` and joins the ${binds} statements that name it` : ''}.`;
  }
  if (v.role === 'outcome')
    detail = `\n\nAn outcome variable, computed per detection.${SPECIAL_OUTCOMES[v.name] ?? ''}`;
  if (v.role === 'unknown') detail = '\n\nNot declared in events: or outcome:.';
  return `**${v.role === 'event' ? '$' : '$'}${v.name}** (${ROLE_LABEL[v.role]})${where}; used ${used} time${used === 1 ? '' : 's'}.${detail}`;
}

export function hoverRule(
  a: RuleAnalysis,
  position: Position,
  lists: Record<string, string[]> | KnownReferenceLists = {},
): Hover | null {
  const offset = a.lines.offset(position);
  const rule = a.shapeAt(offset);
  if (!rule) return null;
  const at = variableAt(rule.variables, offset);
  if (at)
    return {
      contents: { kind: MarkupKind.Markdown, value: describeVariable(a, at.variable) },
      range: a.lines.range(at.use.start, at.use.end),
    };
  for (const s of rule.node.sectionOrder)
    if (offset >= s.keyword.start && offset <= s.keyword.end)
      return {
        contents: { kind: MarkupKind.Markdown, value: `**${s.kind}:** ${RULE_SECTION_DOCS[s.kind]}` },
        range: a.lines.range(s.keyword.start, s.keyword.end),
      };
  for (const o of rule.node.options?.items ?? [])
    if (offset >= o.key.start && offset <= o.key.end && RULE_OPTIONS[o.key.name])
      return {
        contents: { kind: MarkupKind.Markdown, value: `**${o.key.name}** (rule option): ${RULE_OPTIONS[o.key.name]}` },
        range: a.lines.range(o.key.start, o.key.end),
      };
  if (offset >= rule.node.keyword.start && offset <= (rule.node.name?.end ?? rule.node.keyword.end))
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: `**rule ${rule.node.name?.name ?? ''}**: a YARA-L 2.0 detection rule (${rule.node.sectionOrder.map((s) => `${s.kind}:`).join(' ')})`,
      },
      range: a.lines.range(rule.node.keyword.start, rule.node.name?.end ?? rule.node.keyword.end),
    };
  const inMetaOrOptions = [rule.node.meta, rule.node.options].some((s) => s && offset >= s.start && offset <= s.end);
  if (inMetaOrOptions) return null;
  return hover(a, position, lists);
}

/** Go to definition: an event variable's or placeholder's first statement, an outcome's item. */
export function definitionRule(a: RuleAnalysis, uri: string, position: Position): Location[] {
  const offset = a.lines.offset(position);
  const rule = a.shapeAt(offset);
  const at = rule && variableAt(rule.variables, offset);
  const decl = at?.variable.declaration;
  if (!decl) return [];
  return [{ uri, range: a.lines.range(decl.start, decl.end) }];
}

export function referencesRule(
  a: RuleAnalysis,
  uri: string,
  position: Position,
  includeDeclaration = true,
): Location[] {
  const offset = a.lines.offset(position);
  const rule = a.shapeAt(offset);
  const at = rule && variableAt(rule.variables, offset);
  if (!at) return [];
  return at.variable.uses
    .filter((u) => includeDeclaration || u !== at.variable.declaration)
    .map((u) => ({ uri, range: a.lines.range(u.start, u.end) }));
}

/** The outline: rule → sections → event variables, placeholders, match keys and outcomes. */
export function ruleSymbols(a: RuleAnalysis): DocumentSymbol[] {
  const range = (s: number, e: number): Range => a.lines.range(s, e);
  return a.shapes.map((r) => {
    const node = r.node;
    const order = node.sectionOrder;
    const sections = order.map((s, i) => {
      const end = i + 1 < order.length ? order[i + 1].keyword.start : (node.close?.start ?? node.end);
      const children: DocumentSymbol[] = [];
      const body = { start: s.keyword.end, end };
      const vars = [...r.variables.byName.values()].filter(
        (v) => v.declaration && v.declaration.start >= body.start && v.declaration.start <= body.end,
      );
      if (s.kind === 'events')
        for (const v of vars)
          children.push(
            DocumentSymbol.create(
              `$${v.name}`,
              ROLE_LABEL[v.role],
              v.role === 'event' ? SymbolKind.Class : SymbolKind.Variable,
              range(v.declaration!.start, v.declaration!.end),
              range(v.declaration!.start, v.declaration!.end),
            ),
          );
      if (s.kind === 'match') {
        const m = node.query.sections.find((x) => x.kind === 'match');
        if (m && m.kind === 'match') {
          for (const k of m.keys)
            if (k.type === 'variable')
              children.push(
                DocumentSymbol.create(
                  `$${k.name}`,
                  'match key',
                  SymbolKind.Key,
                  range(k.start, k.end),
                  range(k.start, k.end),
                ),
              );
          if (m.window)
            children.push(
              DocumentSymbol.create(
                a.text.slice(m.window.keyword.start, m.window.end),
                'window',
                SymbolKind.Event,
                range(m.window.start, m.window.end),
                range(m.window.start, m.window.end),
              ),
            );
        }
      }
      if (s.kind === 'outcome') {
        const o = node.query.sections.find((x) => x.kind === 'outcome');
        if (o && o.kind === 'outcome')
          for (const item of o.outcomes)
            children.push(
              DocumentSymbol.create(
                `$${item.variable.name}`,
                'outcome',
                SymbolKind.Field,
                range(item.start, item.end),
                range(item.variable.start, item.variable.end),
              ),
            );
      }
      if (s.kind === 'meta' || s.kind === 'options') {
        const items = (s.kind === 'meta' ? node.meta : node.options)?.items ?? [];
        for (const it of items)
          children.push(
            DocumentSymbol.create(
              it.key.name,
              it.value ? a.text.slice(it.value.start, it.value.end) : '',
              SymbolKind.Property,
              range(it.start, it.end),
              range(it.key.start, it.key.end),
            ),
          );
      }
      const lastEnd = Math.max(s.keyword.end, trimEnd(a.text, end));
      return DocumentSymbol.create(
        s.kind,
        undefined,
        SymbolKind.Namespace,
        range(s.keyword.start, lastEnd),
        range(s.keyword.start, s.keyword.end),
        children,
      );
    });
    const nameSpan = node.name ?? node.keyword;
    return DocumentSymbol.create(
      node.name?.name ?? 'rule',
      'rule',
      SymbolKind.Module,
      range(node.start, node.end),
      range(nameSpan.start, nameSpan.end),
      sections,
    );
  });
}

function trimEnd(text: string, end: number): number {
  let e = end;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  return e;
}

/** Folding: each rule, each section, block comments (the licence) and runs of `//` lines. */
export function ruleFoldingRanges(a: RuleAnalysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const line = (o: number): number => a.lines.position(o).line;
  for (const r of a.shapes) {
    const n = r.node;
    const end = n.close ? line(n.close.start) - 1 : line(n.end);
    if (end > line(n.start)) out.push({ startLine: line(n.start), endLine: end });
    n.sectionOrder.forEach((s, i) => {
      const next = i + 1 < n.sectionOrder.length ? n.sectionOrder[i + 1].keyword.start : (n.close?.start ?? n.end);
      const last = line(trimEnd(a.text, next));
      if (last > line(s.keyword.start)) out.push({ startLine: line(s.keyword.start), endLine: last });
    });
  }
  let run: { start: number; end: number } | undefined;
  const flush = (): void => {
    if (run && run.end > run.start)
      out.push({ startLine: run.start, endLine: run.end, kind: FoldingRangeKind.Comment });
    run = undefined;
  };
  for (const c of a.parse.comments) {
    const s = line(c.start);
    const e = line(c.end);
    if (c.value.startsWith('/*')) {
      flush();
      if (e > s) out.push({ startLine: s, endLine: e, kind: FoldingRangeKind.Comment });
      continue;
    }
    const whole = a.text.slice(a.lines.lineStart(s), c.start).trim() === '';
    if (!whole) continue;
    if (run && s === run.end + 1) run.end = s;
    else {
      flush();
      run = { start: s, end: s };
    }
  }
  flush();
  return out.sort((x, y) => x.startLine - y.startLine || y.endLine - x.endLine);
}
