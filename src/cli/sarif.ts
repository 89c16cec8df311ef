// `check --format sarif`: SARIF 2.1.0 (OASIS), the format GitHub code scanning reads, so findings
// show on the pull request's lines. Paths are relative to the repository's root (the nearest
// folder holding `.git` at or above the current folder, or --sarif-root), under the %SRCROOT% base
// that code scanning resolves; a file outside it gets an absolute file: URI, never `../`.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { CheckRun, Finding } from './check';
import { isInside } from './input';
import { bounded } from './report';
import { jsonText } from './text';

const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;
const SRCROOT = '%SRCROOT%';

/** The words of a rule's code: "yaral/unknown-list" → ["unknown", "list"]; a bare language → "<language> problem". */
function ruleWords(rule: string): string[] {
  const code = rule.includes('/') ? rule.slice(rule.indexOf('/') + 1) : `${rule} problem`;
  return code.split(/[^A-Za-z0-9]+/).filter(Boolean);
}

/** "yaral/unknown-list" → "Unknown list": rules have no descriptions of their own beyond their code. */
export function ruleTitle(rule: string): string {
  const text = ruleWords(rule).join(' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "yaral/unknown-list" → "UnknownList", as SARIF's rule names are written. */
export function ruleName(rule: string): string {
  return ruleWords(rule)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('');
}

/**
 * SARIF's plain-text messages: `[text](1)` is an embedded link (§3.11.6), so a literal `[` or `]`
 * (and the backslash that escapes them) is escaped with a backslash; so are `<` and `>`, lest a
 * viewer that renders more than plain text read HTML into a message.
 */
export function sarifText(text: string): string {
  return text.replace(/[\\[\]<>]/g, (c) => `\\${c}`);
}

/** The repository's root: the nearest folder at or above `cwd` that holds `.git`, else `cwd`. */
export function repositoryRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

export function artifactUri(file: string, cwd: string, root: string): { uri: string; uriBaseId?: string } {
  const abs = resolve(cwd, file);
  if (!isInside(root, abs)) return { uri: pathToFileURL(abs).href };
  const rel = relative(root, abs).split(sep);
  return { uri: rel.map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

export function sarifReport(run: CheckRun, version: string, cwd = process.cwd(), root = repositoryRoot(cwd)): string {
  const rules: ReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const ruleOf = (f: Finding): number => {
    let i = ruleIndex.get(f.rule);
    if (i === undefined) {
      i = rules.length;
      ruleIndex.set(f.rule, i);
      rules.push({
        id: f.rule,
        name: ruleName(f.rule),
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
    message: { text: sarifText(bounded(f.where ? `${f.message} (${f.where})` : f.message)) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactUri(f.file, cwd, root),
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
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(root.endsWith(sep) ? root : `${root}${sep}`).href } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return jsonText(log) + '\n';
}
