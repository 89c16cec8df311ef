// How `check` prints its findings: for people (file:line:col, severity, message, the line with a
// caret under the problem) or as one JSON document for scripts. SARIF is in sarif.ts.
import type { CheckRun, Finding } from './check';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Control characters would move the terminal's cursor or colour the output: shown as spaces. */
function printable(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/[\u0000-\u0008\u000B-\u001F\u007F\u2028\u2029]/g, ' ');
}

function tabsAsSpaces(line: string): string {
  return line.replace(/\t/g, ' ');
}

function humanFinding(f: Finding): string {
  const head = `${f.file}:${f.line}:${f.column}: ${f.severity}: ${printable(f.message)} [${f.rule}]${f.where ? ` (${f.where})` : ''}`;
  if (!f.sourceLine && f.caretEnd === 0) return head;
  // Tabs become one space each so the caret lines up whatever the terminal's tab width.
  const shown = printable(tabsAsSpaces(f.sourceLine));
  const width = Math.max(1, Math.min(f.caretEnd, shown.length) - f.caretStart);
  return `${head}\n  ${shown}\n  ${' '.repeat(f.caretStart)}${'^'.repeat(width)}`;
}

export function humanReport(run: CheckRun, maxWarnings: number | undefined): string {
  const out = run.findings.map(humanFinding);
  const files = plural(run.filesChecked, 'file');
  if (run.errors === 0 && run.warnings === 0 && run.findings.length === 0) out.push(`${files} checked, no problems.`);
  else {
    let summary = `${plural(run.errors, 'error')} and ${plural(run.warnings, 'warning')} in ${files} checked.`;
    if (maxWarnings !== undefined && run.warnings > maxWarnings)
      summary += ` More warnings than --max-warnings ${maxWarnings}.`;
    if (out.length) out.push('');
    out.push(summary);
  }
  return out.join('\n') + '\n';
}

export function jsonReport(run: CheckRun, version: string): string {
  return (
    JSON.stringify(
      {
        tool: 'cloudbench',
        version,
        filesChecked: run.filesChecked,
        errors: run.errors,
        warnings: run.warnings,
        problems: run.findings.map((f) => ({
          file: f.file,
          line: f.line,
          column: f.column,
          endLine: f.endLine,
          endColumn: f.endColumn,
          severity: f.severity,
          rule: f.rule,
          message: f.message,
          ...(f.where ? { where: f.where } : {}),
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
