// `check --format sarif`: SARIF 2.1.0 (OASIS), the format GitHub code scanning reads, so findings
// show on the pull request's lines. Paths are relative to the folder the check ran in (the
// repository's root in CI), under the %SRCROOT% base that code scanning resolves.
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { CheckRun, Finding } from './check';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;
const SRCROOT = '%SRCROOT%';

/** "unknown-field" → "Unknown field": rules have no descriptions of their own beyond their code. */
function ruleTitle(rule: string): string {
  const code = rule.includes('/') ? rule.slice(rule.indexOf('/') + 1) : `${rule} problem`;
  const words = code.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function artifactUri(file: string): { uri: string; uriBaseId?: string } {
  if (isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

export function sarifReport(run: CheckRun, version: string, cwd = process.cwd()): string {
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const ruleOf = (f: Finding): number => {
    let i = ruleIndex.get(f.rule);
    if (i === undefined) {
      i = rules.length;
      ruleIndex.set(f.rule, i);
      rules.push({
        id: f.rule,
        name: ruleTitle(f.rule).replace(/ /g, ''),
        shortDescription: { text: ruleTitle(f.rule) },
        defaultConfiguration: { level: LEVEL[f.severity] },
      });
    }
    return i;
  };
  const results: Result[] = run.findings.map((f) => ({
    ruleId: f.rule,
    ruleIndex: ruleOf(f),
    level: LEVEL[f.severity],
    message: { text: f.where ? `${f.message} (${f.where})` : f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactUri(f.file),
          region: {
            startLine: f.line,
            startColumn: f.column,
            endLine: f.endLine,
            // SARIF regions end after their last character; an empty range still covers one.
            endColumn: f.endLine === f.line ? Math.max(f.endColumn, f.column + 1) : f.endColumn,
          },
        },
      },
    ],
  }));
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cloudbench', version, semanticVersion: version, rules } },
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(cwd.endsWith('/') ? cwd : `${cwd}/`).href } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}
