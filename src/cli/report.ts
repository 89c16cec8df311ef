// How `check` prints its findings: for people (file:line:col, severity, message, the line with a
// caret under the problem) or as one JSON document for scripts. SARIF is in sarif.ts.
import type { CheckRun, Finding } from './check';
import { cliMessage, cliText, jsonText, sourceExcerpt } from './text';

/** Messages in JSON and SARIF are cut at this many characters (a message may quote a long line). */
export const MAX_MESSAGE = 1000;

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

function humanFinding(f: Finding): string {
  const where = f.where ? ` (${cliText(f.where)})` : '';
  const head = `${cliText(f.file)}:${f.line}:${f.column}: ${f.severity}: ${cliMessage(f.message)} [${cliText(f.rule)}]${where}`;
  if (!f.sourceLine && f.caretEnd === 0) return head;
  const shown = sourceExcerpt(f.sourceLine, f.caretStart, f.caretEnd);
  const width = Math.max(1, shown.caretEnd - shown.caretStart);
  return `${head}\n  ${shown.text}\n  ${' '.repeat(shown.caretStart)}${'^'.repeat(width)}`;
}

export function humanReport(run: CheckRun, maxWarnings: number | undefined): string {
  const out = run.findings.map(humanFinding);
  const files = plural(run.filesChecked, 'file');
  if (run.errors === 0 && run.warnings === 0 && run.findings.length === 0) out.push(`${files} checked, no problems.`);
  else {
    let summary = `${plural(run.errors, 'error')} and ${plural(run.warnings, 'warning')} in ${files} checked.`;
    if (maxWarnings !== undefined && run.warnings > maxWarnings)
      summary += ` More warnings than --max-warnings ${maxWarnings}.`;
    if (run.omitted > 0) summary += ` ${plural(run.omitted, 'problem')} not listed.`;
    if (out.length) out.push('');
    out.push(summary);
  }
  return out.join('\n') + '\n';
}

export function jsonReport(run: CheckRun, version: string): string {
  return (
    jsonText({
      tool: 'cloudbench',
      version,
      filesChecked: run.filesChecked,
      errors: run.errors,
      warnings: run.warnings,
      omitted: run.omitted,
      problems: run.findings.map((f) => ({
        file: f.file,
        line: f.line,
        column: f.column,
        endLine: f.endLine,
        endColumn: f.endColumn,
        severity: f.severity,
        rule: f.rule,
        message: bounded(f.message),
        ...(f.where ? { where: f.where } : {}),
      })),
    }) + '\n'
  );
}

/** A message for JSON and SARIF: whole up to MAX_MESSAGE characters. */
export function bounded(message: string): string {
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
}
