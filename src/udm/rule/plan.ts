// The searches Test Rule spends: one udmSearch per event variable, each holding only that
// variable's own statements with the `$e.` prefix removed, so the Search API returns a superset of
// the events the rule can use. Joins, placeholder bindings and comparisons across variables are
// not sent: the engine (engine.ts) computes them over what the searches return.
import { childrenOf, type Expr, type Operand, type Span } from '../ast';
import { compileQuery, type CompileOptions } from '../index';
import { parseRuleFile } from './parse';
import { refsOf, ruleModel, type RuleModel } from './model';
import type { RuleNode } from './ast';
import type { RuleTestPlan, RuleTestSearch } from './test-types';

/** What the search compiler knows when each search text is checked (the reference lists). */
export type RulePlanOptions = CompileOptions;

interface Edit extends Span {
  text: string;
}

/** The first rule of a file, or why Test Rule cannot run it. */
export function firstRule(text: string): { rule: RuleNode } | { error: string } {
  const file = parseRuleFile(text);
  const rule = file.rules[0];
  if (!rule) return { error: 'The file holds no rule (rule name { … }).' };
  const broken = file.diagnostics.find((d) => d.severity === 'error' && d.start >= rule.start && d.start < rule.end);
  if (broken) return { error: `The rule does not parse: ${broken.message}` };
  if (!rule.query.filter) return { error: 'The rule has no events: statements to search for.' };
  return { rule };
}

/** The text of `span` with the edits inside it applied (edits do not overlap). */
function rewrite(text: string, span: Span, edits: Edit[]): string {
  let out = '';
  let at = span.start;
  for (const e of [...edits].sort((a, b) => a.start - b.start)) {
    if (e.start < at || e.end > span.end) continue;
    out += text.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + text.slice(at, span.end);
}

/** Removes `$e.` before every field of the node. */
function prefixEdits(text: string, node: Expr | Operand): Edit[] {
  const edits: Edit[] = [];
  for (const f of refsOf(node).fields) {
    if (!f.eventVar) continue;
    const end = text[f.eventVar.end] === '.' ? f.eventVar.end + 1 : f.eventVar.end;
    edits.push({ start: f.eventVar.start, end, text: '' });
  }
  return edits;
}

/** Placeholder occurrences (not the `$e` of fields) in a statement; an assignment's are not uses. */
function placeholderNodes(node: Expr | Operand | null | undefined, out: Array<{ name: string } & Span> = []) {
  if (!node || node.type === 'assign' || node.type === 'error') return out;
  if (node.type === 'variable') out.push(node);
  else for (const child of childrenOf(node)) placeholderNodes(child, out);
  return out;
}

/** One search line per statement the variable's search can hold (alternatives, the first that compiles). */
function candidateLines(model: RuleModel, text: string, variable: string): string[][] {
  const lines: string[][] = [];
  const oneLine = (s: string): string => (s.includes('\n') ? `(${s})` : s);
  for (const stmt of model.filters.get(variable) ?? [])
    lines.push([oneLine(rewrite(text, stmt, prefixEdits(text, stmt)))]);
  // A statement on placeholders this variable defines becomes a condition on the fields behind them.
  for (const c of model.cross) {
    if ([...c.vars].some((v) => v !== variable) || c.placeholders.size === 0) continue;
    const edits = prefixEdits(text, c.expr);
    let ok = true;
    for (const p of placeholderNodes(c.expr)) {
      const b = model.bindings.find((x) => x.placeholder === p.name && x.variable === variable);
      if (!b) {
        ok = false;
        break;
      }
      edits.push({ start: p.start, end: p.end, text: rewrite(text, b.value, prefixEdits(text, b.value)) });
    }
    if (ok) lines.push([oneLine(rewrite(text, c.expr, edits))]);
  }
  // One placeholder on two fields of the same event: the fields hold a common value.
  const mine = model.bindings.filter((b) => b.variable === variable && b.value.type === 'field');
  for (let i = 0; i < mine.length; i++)
    for (let j = i + 1; j < mine.length; j++)
      if (mine[i].placeholder === mine[j].placeholder && !mine[i].placeholder.startsWith('__'))
        lines.push([
          `${rewrite(text, mine[i].value, prefixEdits(text, mine[i].value))} = ${rewrite(text, mine[j].value, prefixEdits(text, mine[j].value))}`,
        ]);
  // A match placeholder with a zero value makes no detection (unless allow_zero_values): as Google
  // documents, the rule behaves as if `$host != ""` were written, so the search can say it too.
  if (!model.allowZeroValues)
    for (const m of model.match)
      for (const b of model.bindings)
        if (b.placeholder === m.placeholder && b.variable === variable && b.value.type === 'field') {
          const field = rewrite(text, b.value, prefixEdits(text, b.value));
          lines.push([`${field} != ""`, `${field} != 0`]);
        }
  return lines;
}

export function planFromModel(model: RuleModel, text: string, options: RulePlanOptions = {}): RuleTestPlan {
  const searches: RuleTestSearch[] = [];
  const untestable = [...model.untestable];
  for (const variable of model.eventVars) {
    const kept: string[] = [];
    for (const alternatives of candidateLines(model, text, variable)) {
      // Every line must compile as search: one the search language refuses is computed in the editor only.
      const line = alternatives.find((l) => !compileQuery([...kept, l].join('\n'), options).hasErrors);
      if (line !== undefined && !kept.includes(line)) kept.push(line);
    }
    if (kept.length === 0) {
      untestable.push(
        `$${variable} has no statement of its own to search for (such as $${variable}.metadata.event_type = "…"): its events are not fetched, so what needs $${variable} is not computed.`,
      );
      continue;
    }
    searches.push({ variable, query: kept.join('\n') });
  }
  return { ruleName: model.name, searches, untestable };
}

/** The searches Test Rule spends for the first rule of `text`. */
export function planRuleTest(text: string, options: RulePlanOptions = {}): RuleTestPlan | { error: string } {
  const found = firstRule(text);
  if ('error' in found) return found;
  const model = ruleModel(found.rule, text);
  if (model.eventVars.length === 0)
    return { error: 'The rule has no event variable ($e.…) the Search API can return.' };
  return planFromModel(model, text, options);
}
