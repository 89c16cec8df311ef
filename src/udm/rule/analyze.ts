// Analysis of a rule file: the frame parser, the search checker over each rule's events:…
// condition: (with the search-only checks taken out and entity graph fields resolved against
// the entity schema), then the rule-only checks. A RuleAnalysis is an `Analysis`, so the
// search language's editor features (completion, hover, signature help) serve rules too.
import { literalValue, type CompareExpr, type Expr, type FieldNode, type Query } from '../ast';
import { check, type CheckResult } from '../check';
import type { Analysis, CompileOptions, UdmDiagnostic } from '../index';
import { MAX_DIAGNOSTICS } from '../index';
import type { ParseResult, RawDiagnostic } from '../parser';
import { LineIndex } from '../text';
import type { RuleFile, RuleNode } from './ast';
import { checkFrame } from './check-frame';
import { checkQuery, isWindowKeyword } from './check-query';
import { isGraphField, resolveEntityPath } from './entity';
import { parseRuleFile } from './parse';
import { ruleVariables, type RuleVariables } from './variables';

/** A rule's tree and variables: what completion and navigation need, without the checks. */
export interface RuleShape {
  node: RuleNode;
  variables: RuleVariables;
}

export interface AnalyzedRule extends RuleShape {
  check: CheckResult;
  /** every field written in the rule, in source order */
  fields: FieldNode[];
}

/** Every field node below `node`. */
function collectFields(node: unknown, out: FieldNode[]): void {
  if (Array.isArray(node)) {
    for (const n of node) collectFields(n, out);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const rec = node as Record<string, unknown>;
  if (rec.type === 'field') {
    out.push(node as FieldNode);
    return;
  }
  for (const v of Object.values(rec)) if (typeof v === 'object' && v !== null) collectFields(v, out);
}

/** The top-level statements of events:, each ANDed with the others. */
function statements(filter: Expr | null): Expr[] {
  if (!filter) return [];
  return filter.type === 'and' ? filter.items.flatMap((i) => statements(i)) : [filter];
}

/**
 * `$a.f = "x"` and `$a.f = "y"` can never both hold; for different variables they can. The
 * search checker knows no variables, so its version of this warning is replaced by this one.
 */
function contradictions(query: Query, facts: CheckResult['facts']): RawDiagnostic[] {
  const seen = new Map<string, string | number | boolean>();
  const out: RawDiagnostic[] = [];
  for (const s of statements(query.filter)) {
    if (s.type !== 'compare') continue;
    const c: CompareExpr = s;
    if (c.op !== '=' || c.nocase || c.left.type !== 'field' || !c.right || c.left.key) continue;
    const f = facts.get(c.left);
    if (!f || f.unknown || f.repeated) continue;
    const value = literalValue(c.right);
    if (value === undefined) continue;
    const key = `${c.left.eventVar?.name ?? ''}.${f.key}`;
    const prev = seen.get(key);
    if (prev === undefined) seen.set(key, value);
    else if (prev !== value)
      out.push({
        severity: 'warning',
        message: `This can never match: ${c.left.eventVar ? `$${c.left.eventVar.name}.` : ''}${f.key} cannot equal two different values at once (see the condition before); use OR`,
        start: c.start,
        end: c.end,
        code: 'never-matches',
      });
  }
  return out;
}

/** What the search checker reports that does not apply to rules. */
function searchOnly(d: RawDiagnostic, graphSpans: readonly FieldNode[]): boolean {
  // Windows, variable names and condition: names follow the rule's own checks (check-query.ts).
  if (d.code === 'rule-window' || d.code === 'keyword-variable' || d.code === 'condition-unknown') return true;
  // Rule-only functions are at home here; a single-event rule's outcome may mix per-event values
  // and aggregates (Google's own rules do).
  if (d.code === 'rules-only' || d.code === 'mixed-outcome') return true;
  // Whole-query value reasoning does not know that `$a` and `$b` are different events.
  if (
    d.code === 'never-matches' &&
    /cannot equal two different values|together with the conditions before/.test(d.message)
  )
    return true;
  // An outcome's if(condition, then) takes zero as its else.
  if (d.code === 'arity' && d.message.startsWith('if takes') && d.message.endsWith('got 2 arguments')) return true;
  if (graphSpans.some((g) => d.start >= g.start && d.end <= g.end)) return true;
  return false;
}

function analyzeRule(
  { node, variables }: RuleShape,
  text: string,
  options: CompileOptions,
  parsed: readonly RawDiagnostic[],
): { rule: AnalyzedRule; diagnostics: RawDiagnostic[] } {
  const { referenceLists, knownLists, listsUnavailable } = options;
  const result = check(node.query, {
    text,
    ...(referenceLists ? { referenceLists } : {}),
    ...(knownLists ? { knownLists } : {}),
    ...(listsUnavailable !== undefined ? { listsUnavailable } : {}),
  });
  const fields: FieldNode[] = [];
  collectFields(node.query, fields);
  const graph = fields.filter(isGraphField);
  // window_start / window_end are the rule's own words; check-query.ts checks where they stand.
  const windowWords = fields.filter(isWindowKeyword);
  const diagnostics = result.diagnostics.filter(
    (d) => !searchOnly(d, graph) && !windowWords.some((w) => d.start >= w.start && d.end <= w.end),
  );
  for (const g of graph) {
    const { problem } = resolveEntityPath(g);
    if (problem)
      diagnostics.push({
        severity: 'error',
        message: problem.message,
        start: problem.start,
        end: problem.end,
        code: 'unknown-field',
        ...(problem.replacements ? { data: { replacements: problem.replacements } } : {}),
      });
  }
  diagnostics.push(...contradictions(node.query, result.facts));
  // Sections out of order leave statements outside events:; their variables would all look unknown.
  const misordered = parsed.some((d) => d.code === 'section-order' && d.start >= node.start && d.end <= node.end);
  const ruleChecks = checkQuery(node, variables, fields).filter((d) => !misordered || d.code !== 'unknown-variable');
  // A name the rule declares nowhere is the rule check's to report, in the rule's words, once.
  const named = new Set(ruleChecks.filter((d) => d.code === 'unknown-variable').map((d) => d.start));
  const kept = named.size
    ? diagnostics.filter((d) => d.code !== 'undefined-placeholder' || !named.has(d.start))
    : diagnostics;
  kept.push(...ruleChecks);
  return { rule: { node, check: { ...result, diagnostics: kept }, variables, fields }, diagnostics: kept };
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

export class RuleAnalysis implements Analysis {
  /** Problems of a rule file show the source "yaral" (the Problems panel). */
  readonly language = 'yaral' as const;
  readonly file: RuleFile;
  readonly lines: LineIndex;
  readonly parse: ParseResult;
  private shaped: RuleShape[] | undefined;
  private analyzed: AnalyzedRule[] | undefined;
  private raw: RawDiagnostic[] | undefined;
  private diags: UdmDiagnostic[] | undefined;

  constructor(
    readonly text: string,
    private readonly options: CompileOptions = {},
  ) {
    this.file = parseRuleFile(text);
    this.lines = new LineIndex(text);
    // The first rule's query stands for the file: a file holds one rule (a second is an error).
    this.parse = {
      query: this.file.rules[0]?.query ?? { filter: null, sections: [] },
      tokens: this.file.tokens,
      comments: this.file.comments,
      diagnostics: this.file.diagnostics,
    };
  }

  /** Each rule's tree and variables, without running the checks (completion, navigation, outline). */
  get shapes(): RuleShape[] {
    this.shaped ??= this.file.rules.map((node) => ({ node, variables: ruleVariables(node.query) }));
    return this.shaped;
  }

  /** The rule around `offset`, or the first one, unchecked. */
  shapeAt(offset: number): RuleShape | undefined {
    const rules = this.shapes;
    return rules.find((r) => offset >= r.node.start && offset <= r.node.end) ?? rules[0];
  }

  /** Each rule with its checks run. */
  get rules(): AnalyzedRule[] {
    if (!this.analyzed) {
      const raw: RawDiagnostic[] = [...this.file.diagnostics, ...checkFrame(this.file, this.file.diagnostics)];
      this.analyzed = this.shapes.map((shape) => {
        const r = analyzeRule(shape, this.text, this.options, this.file.diagnostics);
        raw.push(...r.diagnostics);
        return r.rule;
      });
      this.raw = raw;
    }
    return this.analyzed;
  }

  /** The rule around `offset`, or the first one. */
  ruleAt(offset: number): AnalyzedRule | undefined {
    const rules = this.rules;
    return rules.find((r) => offset >= r.node.start && offset <= r.node.end) ?? rules[0];
  }

  get check(): CheckResult {
    const first = this.rules[0];
    if (!first) return { diagnostics: [], facts: new Map(), placeholders: new Map(), sectionsByKind: {} };
    if (this.rules.length === 1) return first.check;
    const facts = new Map(first.check.facts);
    for (const r of this.rules.slice(1)) for (const [k, v] of r.check.facts) facts.set(k, v);
    return { ...first.check, facts };
  }

  /** Every problem of the file, unsorted and unlimited. */
  get rawDiagnostics(): RawDiagnostic[] {
    void this.rules;
    return this.raw ?? [];
  }

  get diagnostics(): UdmDiagnostic[] {
    if (!this.diags) {
      const raw = this.rawDiagnostics
        .slice()
        .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.start - b.start)
        .slice(0, MAX_DIAGNOSTICS)
        .sort((a, b) => a.start - b.start || a.end - b.end);
      this.diags = raw.map((d) => {
        const start = Math.max(0, Math.min(d.start, this.text.length));
        const end = Math.max(start, Math.min(d.end, this.text.length));
        const out: UdmDiagnostic = {
          message: d.message,
          severity: d.severity,
          range: this.lines.range(start, end),
          offset: start,
          length: end - start,
        };
        if (d.code) out.code = d.code;
        if (d.data !== undefined) out.data = d.data;
        return out;
      });
    }
    return this.diags;
  }

  get errorTotal(): number {
    return this.rawDiagnostics.filter((d) => d.severity === 'error').length;
  }

  get hasErrors(): boolean {
    return this.errorTotal > 0;
  }
}

export function analyzeRuleFile(text: string, options: CompileOptions = {}): RuleAnalysis {
  return new RuleAnalysis(text, options);
}
