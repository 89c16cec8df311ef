// What `cloudbench coverage` prints: the tactics → techniques → rules table as text, JSON or a
// Markdown table (for a pull request comment or a job summary), and its notes on stderr. Names, file
// paths and technique names come from the repository's files: text is escaped as `check` escapes it,
// Markdown cells are escaped so a name cannot add a column, a link, an image or HTML.
import { safeText } from '../core/display';
import type { Coverage, CoveredRule, TacticCoverage, TechniqueCoverage } from '../udm/rule/coverage';
import type { CoverageNote, CoverageRun } from './coverage';
import { cliMessage, cliText, jsonText } from './text';

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Rules without ATT&CK meta a table names; the rest are counted (JSON lists them all). */
const UNTAGGED_SHOWN = 20;

function untaggedList(rules: readonly CoveredRule[], show: (file: string) => string): string {
  const shown = rules.slice(0, UNTAGGED_SHOWN).map((r) => show(r.file));
  return `${shown.join(', ')}${rules.length > UNTAGGED_SHOWN ? ` and ${rules.length - UNTAGGED_SHOWN} more` : ''}`;
}

function tacticTitle(group: TacticCoverage): string {
  return group.tactic ? `${group.tactic.id} ${group.tactic.name}` : 'No tactic named';
}

function tested(rules: readonly CoveredRule[]): string {
  return `${rules.filter((r) => r.hasTests).length}/${rules.length} tested`;
}

function techniqueLabel(t: TechniqueCoverage): string {
  return t.names.length ? `${t.id} (${t.names.join('; ')})` : t.id;
}

function summary(run: CoverageRun): string {
  const c = run.coverage;
  const tagged = c.rules.length - c.untagged.length;
  const tactics = c.tactics.filter((g) => g.tactic).length;
  return `${plural(c.rules.length, 'rule')}, ${tagged} with ATT&CK meta: ${plural(tactics, 'tactic')}, ${plural(c.techniqueIds.length, 'technique')}; ${c.rules.filter((r) => r.hasTests).length} of them with tests.`;
}

function missingLine(run: CoverageRun): string {
  return `${plural(run.missing.length, 'required technique is', 'required techniques are')} not covered: ${run.missing.join(', ')}`;
}

export function coverageText(run: CoverageRun): string {
  const out: string[] = [];
  const names = (rules: readonly CoveredRule[]): string => rules.map((r) => cliText(r.name)).join(', ');
  for (const group of run.coverage.tactics) {
    out.push(tacticTitle(group));
    for (const t of group.techniques)
      out.push(
        `  ${cliMessage(techniqueLabel(t), 160)}  ${plural(t.rules.length, 'rule')}, ${tested(t.rules)}: ${names(t.rules)}`,
      );
    if (group.withoutTechnique.length)
      out.push(
        `  (no technique)  ${plural(group.withoutTechnique.length, 'rule')}, ${tested(group.withoutTechnique)}: ${names(group.withoutTechnique)}`,
      );
  }
  if (run.coverage.untagged.length)
    out.push(
      `Rules without ATT&CK meta (${run.coverage.untagged.length}): ${untaggedList(run.coverage.untagged, cliText)}`,
    );
  if (out.length) out.push('');
  out.push(summary(run));
  if (run.required)
    out.push(run.missing.length ? missingLine(run) : `All ${plural(run.required, 'required technique')} covered.`);
  return `${out.join('\n')}\n`;
}

/** One Markdown table cell: escaped, on one line, bounded. */
function cell(text: string): string {
  return safeText(cliText(text), 'markdown', 300);
}

export function coverageMarkdown(run: CoverageRun): string {
  const out = ['| Tactic | Technique | Rules | Tested |', '| --- | --- | --- | --- |'];
  const ruleCell = (rules: readonly CoveredRule[]): string => rules.map((r) => cell(r.name)).join(', ');
  for (const group of run.coverage.tactics) {
    for (const t of group.techniques)
      out.push(
        `| ${cell(tacticTitle(group))} | ${cell(techniqueLabel(t))} | ${ruleCell(t.rules)} | ${tested(t.rules)} |`,
      );
    if (group.withoutTechnique.length)
      out.push(
        `| ${cell(tacticTitle(group))} | (no technique) | ${ruleCell(group.withoutTechnique)} | ${tested(group.withoutTechnique)} |`,
      );
  }
  out.push('', cell(summary(run)));
  if (run.coverage.untagged.length)
    out.push(
      '',
      `Rules without ATT&CK meta (${run.coverage.untagged.length}): ${untaggedList(run.coverage.untagged, cell)}`,
    );
  if (run.required)
    out.push(
      '',
      run.missing.length
        ? `**${cell(missingLine(run))}**`
        : `All ${plural(run.required, 'required technique')} covered.`,
    );
  return `${out.join('\n')}\n`;
}

function ruleJson(r: CoveredRule): unknown {
  return { name: r.name, file: r.file, line: r.line + 1, hasTests: r.hasTests };
}

export function coverageJson(run: CoverageRun, version: string): string {
  const c: Coverage = run.coverage;
  return `${jsonText({
    tool: { name: 'cloudbench', version },
    rules: c.rules.length,
    rulesWithTests: c.rules.filter((r) => r.hasTests).length,
    tactics: c.tactics.map((g) => ({
      ...(g.tactic ? { id: g.tactic.id, name: g.tactic.name, shortName: g.tactic.shortName } : { id: null }),
      techniques: g.techniques.map((t) => ({ id: t.id, names: t.names, rules: t.rules.map(ruleJson) })),
      rulesWithoutTechnique: g.withoutTechnique.map(ruleJson),
    })),
    techniques: c.techniqueIds,
    untagged: c.untagged.map(ruleJson),
    ...(run.required ? { required: run.required, missing: run.missing } : {}),
    problems: run.notes,
  })}\n`;
}

/** The notes as stderr lines: file:line:col: severity: message. */
export function notesText(notes: readonly CoverageNote[]): string {
  return notes
    .map(
      (n) => `${cliText(n.file)}${n.line ? `:${n.line}:${n.column}` : ''}: ${n.severity}: ${cliMessage(n.message)}\n`,
    )
    .join('');
}
