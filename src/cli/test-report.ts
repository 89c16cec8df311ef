// How `cloudbench test` prints a run: text for people (pass/fail per case, the differences and the
// detections the engine found), JSON for scripts, JUnit XML for CI test reports and SARIF for code
// scanning. Every name and message comes from files someone else wrote: the text is escaped
// (text.ts), the XML escaped for XML 1.0, the SARIF messages for SARIF's link syntax.
import { pathToFileURL } from 'node:url';
import { sep } from 'node:path';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import type { Detection } from '../udm/rule/test-types';
import { bounded } from './report';
import { artifactUri, repositoryRoot, sarifText } from './sarif';
import { runFailed, type CaseResult, type RuleTestProblem, type RuleTests, type TestRun } from './test';
import { detectionsTable } from './test-rule';
import { cliMessage, cliText, jsonText } from './text';
import { EXIT_OK, EXIT_PROBLEMS } from './usage';

/** Detections a failing case lists (the rest are counted). */
export const SHOWN_DETECTIONS = 20;

const plural = (n: number, word: string): string => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

const MARK = { passed: 'ok  ', failed: 'FAIL', error: 'ERR ' } as const;

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => `${by}${l}`)
    .join('\n');
}

function caseText(r: RuleTests, c: CaseResult): string {
  const head = `  ${MARK[c.status]} ${cliText(c.name)}${c.status === 'passed' ? '' : `  (${cliText(r.testFile)}:${c.span.line})`}`;
  if (c.status === 'passed') return head;
  const lines = [head, ...c.messages.map((m) => `         ${cliMessage(m)}`)];
  if (c.detections && c.status === 'failed') {
    const shown = c.detections.slice(0, SHOWN_DETECTIONS);
    lines.push('         the engine found:');
    lines.push(indent(detectionsTable(r.ruleName ?? r.rule, shown), '           '));
    if (c.detections.length > shown.length)
      lines.push(`           … and ${plural(c.detections.length - shown.length, 'more detection')}`);
  }
  return lines.join('\n');
}

function problemText(p: RuleTestProblem): string {
  const where = p.line > 1 || p.column > 1 ? `${cliText(p.file)}:${p.line}:${p.column}` : cliText(p.file);
  return `  ${p.fails ? 'FAIL' : 'note'} ${where}: ${cliMessage(p.message)}`;
}

export function textReport(run: TestRun): string {
  const out: string[] = [];
  for (const r of run.rules) {
    out.push(`${cliText(r.rule)}${r.cases.length ? ` (${cliText(r.testFile)})` : ''}`);
    for (const p of r.problems) out.push(problemText(p));
    for (const c of r.cases) out.push(caseText(r, c));
  }
  const cases = run.passed + run.failed + run.errors;
  let summary = `${plural(cases, 'case')} in ${plural(run.rules.length, 'rule')}: ${run.passed} passed, ${run.failed} failed`;
  if (run.errors) summary += `, ${run.errors} could not run`;
  if (run.failingProblems) summary += `; ${plural(run.failingProblems, 'problem')} with the tests themselves`;
  const missing = run.rules.filter((r) => r.problems.some((p) => p.code === 'missing' && !p.fails)).length;
  if (missing) summary += `; ${plural(missing, 'rule')} without tests`;
  out.push('', `${summary}.`);
  return `${out.join('\n')}\n`;
}

/** A detection as the JSON report gives it: no whole events, their ids and counts. */
function detectionJson(d: Detection): Record<string, unknown> {
  const iso = (ms: number): string | number => (Number.isFinite(ms) ? new Date(ms).toISOString() : ms);
  return {
    window: { start: iso(d.windowStart), end: iso(d.windowEnd) },
    match: d.match,
    outcomes: d.outcomes,
    ...(d.riskScore !== undefined ? { riskScore: d.riskScore } : {}),
    events: Object.fromEntries(Object.entries(d.events).map(([v, list]) => [v, list.map((e) => e.id ?? null)])),
  };
}

export function jsonReport(run: TestRun, version: string): string {
  return `${jsonText({
    tool: 'cloudbench',
    version,
    passed: run.passed,
    failed: run.failed,
    errors: run.errors,
    failingProblems: run.failingProblems,
    rules: run.rules.map((r) => ({
      rule: r.rule,
      ...(r.ruleName !== undefined ? { ruleName: r.ruleName } : {}),
      testFile: r.testFile,
      problems: r.problems.map((p) => ({ ...p, message: bounded(p.message) })),
      cases: r.cases.map((c) => ({
        name: c.name,
        line: c.span.line,
        column: c.span.column,
        status: c.status,
        messages: c.messages.map(bounded),
        ...(c.notes.length ? { notes: c.notes } : {}),
        ...(c.detections && c.status !== 'passed'
          ? { detections: c.detections.slice(0, SHOWN_DETECTIONS).map(detectionJson) }
          : {}),
      })),
    })),
  })}\n`;
}

/**
 * Text as XML 1.0 character data or an attribute value: controls and bidi marks as visible escapes
 * (cliText), then the markup characters, and whatever XML 1.0 cannot hold at all (lone surrogates,
 * U+FFFE, U+FFFF) as a visible escape too.
 */
export function xmlText(text: string): string {
  return cliText(text)
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\uFFFE\uFFFF]/g, (c) => {
      return `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    })
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');
}

function junitCase(r: RuleTests, c: CaseResult): string {
  const head = `    <testcase${attrs({ classname: r.ruleName ?? r.rule, name: c.name, file: r.testFile, line: c.span.line })}`;
  if (c.status === 'passed') return `${head}/>`;
  const tag = c.status === 'failed' ? 'failure' : 'error';
  const body = c.messages.map((m) => cliMessage(m, 1000)).join('\n');
  return `${head}>\n      <${tag}${attrs({ message: cliMessage(c.messages[0] ?? '', 300), type: tag === 'failure' ? 'mismatch' : 'cannot-run' })}>${xmlText(body)}</${tag}>\n    </testcase>`;
}

function junitProblem(r: RuleTests, p: RuleTestProblem): string {
  const head = `    <testcase${attrs({ classname: r.ruleName ?? r.rule, name: `[${p.code}]`, file: p.file, line: p.line })}>`;
  return `${head}\n      <failure${attrs({ message: cliMessage(p.message, 300), type: p.code })}>${xmlText(cliMessage(p.message, 1000))}</failure>\n    </testcase>`;
}

/** JUnit XML as CI test reporters read it: a suite per rule, a case per test case, failing problems as failed cases. */
export function junitReport(run: TestRun): string {
  const suites = run.rules.map((r) => {
    const failing = r.problems.filter((p) => p.fails);
    const tests = r.cases.length + failing.length;
    const failures = r.cases.filter((c) => c.status === 'failed').length + failing.length;
    const errors = r.cases.filter((c) => c.status === 'error').length;
    const items = [...failing.map((p) => junitProblem(r, p)), ...r.cases.map((c) => junitCase(r, c))];
    const head = `  <testsuite${attrs({ name: r.rule, tests, failures, errors, skipped: 0, file: r.testFile })}`;
    return items.length ? `${head}>\n${items.join('\n')}\n  </testsuite>` : `${head}/>`;
  });
  const tests = run.passed + run.failed + run.errors + run.failingProblems;
  const top = attrs({ name: 'cloudbench test', tests, failures: run.failed + run.failingProblems, errors: run.errors });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${top}>\n${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`;
}

const SARIF_RULES: Record<string, string> = {
  'rule-test/failed': 'A rule test case gives other detections than it expects',
  'rule-test/error': 'A rule test case cannot run',
  'rule-test/missing': 'A rule has no test file',
  'rule-test/invalid': 'A rule test file is not valid',
  'rule-test/unreadable': 'A rule or test file was not read',
  'rule-test/too-few': 'A rule has fewer test cases than required',
  'rule-test/fire-and-no-fire': 'A rule lacks a case that fires or one that does not',
  'rule-test/rule-errors': 'A rule with errors is not tested',
};

export function sarifReport(run: TestRun, version: string, cwd = process.cwd(), root = repositoryRoot(cwd)): string {
  const results: Result[] = [];
  const at = (file: string, span: { line: number; column: number; endLine: number; endColumn: number }) => [
    {
      physicalLocation: {
        artifactLocation: artifactUri(file, cwd, root),
        region: {
          startLine: span.line,
          startColumn: span.column,
          endLine: span.endLine,
          endColumn: span.endLine === span.line ? Math.max(span.endColumn, span.column + 1) : span.endColumn,
        },
      },
    },
  ];
  for (const r of run.rules) {
    for (const p of r.problems)
      if (p.fails)
        results.push({
          ruleId: `rule-test/${p.code}`,
          level: 'error',
          message: { text: sarifText(bounded(p.message)) },
          locations: at(p.file, p),
        });
    for (const c of r.cases)
      if (c.status !== 'passed')
        results.push({
          ruleId: c.status === 'failed' ? 'rule-test/failed' : 'rule-test/error',
          level: 'error',
          message: { text: sarifText(bounded(`${c.name}: ${c.messages.join('; ')}`)) },
          locations: at(r.testFile, { ...c.span, endLine: c.span.line, endColumn: c.span.column + 1 }),
        });
  }
  const used = [...new Set(results.map((x) => x.ruleId ?? ''))].sort();
  const rules: ReportingDescriptor[] = used.map((id) => ({
    id,
    shortDescription: { text: SARIF_RULES[id] ?? id },
    defaultConfiguration: { level: 'error' },
  }));
  for (const x of results) x.ruleIndex = used.indexOf(x.ruleId ?? '');
  const log: Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cloudbench', version, semanticVersion: version, rules } },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(root.endsWith(sep) ? root : `${root}${sep}`).href } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return `${jsonText(log)}\n`;
}

/** What `test` prints in a format, and its exit code (1 when a case or a required policy fails). */
export function testReport(
  run: TestRun,
  format: 'text' | 'json' | 'junit' | 'sarif',
  version: string,
): { out: string; code: number } {
  const out =
    format === 'json'
      ? jsonReport(run, version)
      : format === 'junit'
        ? junitReport(run)
        : format === 'sarif'
          ? sarifReport(run, version)
          : textReport(run);
  return { out, code: runFailed(run) ? EXIT_PROBLEMS : EXIT_OK };
}
