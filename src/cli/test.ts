// `cloudbench test`: every rule under the paths with its `<rule>.test.yaml`, each case run offline
// with Test Rule's engine (src/udm/rule/test-case.ts) and compared with what it expects. Files are
// read as `check` reads them (input.ts: no link out of the root, regular files only, size limits,
// strict UTF-8); a path a test file names must also stay inside the repository (no absolute path,
// no `..`, no link out of the nearest folder holding .git, or of the test file's folder without one).
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import { referenceListEntries, splitReferenceListText } from '../core/secops/reference-lists';
import { parseRuleFile } from '../udm/rule/parse';
import { compareExpectation, runCase } from '../udm/rule/test-case';
import {
  expectsDetections,
  parseRuleTestFile,
  type ListSource,
  type RuleTestCase,
  type TestFileSpan,
} from '../udm/rule/test-file';
import type { Detection } from '../udm/rule/test-types';
import { runCheck } from './check';
import { EventsFileError, readEvents } from './events';
import { collectFiles, displayPath, type SourceFile } from './files';
import { isInside, lstatOrNothing, MAX_SOURCE_BYTES, readSource, rootOf } from './input';
import { repositoryRoot } from './sarif';
import { cliText } from './text';
import { UsageError } from './usage';

/** Largest events file a case reads. */
export const MAX_TEST_EVENTS_BYTES = 64 * 1024 * 1024;
/** Largest test file read. */
export const MAX_TEST_FILE_BYTES = MAX_SOURCE_BYTES;

export const TEST_SUFFIXES = ['.test.yaml', '.test.yml'] as const;

export interface TestOptions {
  readonly paths: readonly string[];
  /** every rule needs at least this many cases */
  readonly minimumTests?: number;
  /** every rule needs a case that expects detections and one that expects none */
  readonly requireFireAndNoFire?: boolean;
  /** a rule without a test file fails */
  readonly failOnMissing?: boolean;
  /** only these cases run (the Test Explorer's one case or file); policy checks are left out then */
  readonly selectCase?: (testFile: string, caseName: string) => boolean;
}

export type CaseStatus = 'passed' | 'failed' | 'error';

export interface CaseResult {
  readonly name: string;
  readonly span: TestFileSpan;
  readonly status: CaseStatus;
  /** the differences (failed) or why it could not run (error) */
  readonly messages: string[];
  /** what the engine found, when it ran */
  readonly detections?: Detection[];
  readonly notes: string[];
  readonly expectsDetections: boolean;
}

export type ProblemCode = 'missing' | 'invalid' | 'unreadable' | 'too-few' | 'fire-and-no-fire' | 'rule-errors';

/** Something wrong with a rule's tests as a whole; `fails` when it fails the run. */
export interface RuleTestProblem extends TestFileSpan {
  readonly code: ProblemCode;
  readonly file: string;
  readonly message: string;
  readonly fails: boolean;
}

export interface RuleTests {
  /** the rule file as reports name it */
  readonly rule: string;
  readonly ruleName?: string;
  /** the test file as reports name it (where it is or would be) */
  readonly testFile: string;
  readonly cases: CaseResult[];
  readonly problems: RuleTestProblem[];
}

export interface TestRun {
  readonly rules: RuleTests[];
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  /** problems that fail the run */
  readonly failingProblems: number;
}

const WHOLE_FILE: TestFileSpan = { line: 1, column: 1, endLine: 1, endColumn: 1 };

const exists = (path: string): boolean => lstatOrNothing(path) !== undefined;

function ruleOfTestFile(path: string): string | undefined {
  const suffix = TEST_SUFFIXES.find((s) => path.toLowerCase().endsWith(s));
  return suffix ? `${path.slice(0, path.length - suffix.length)}.yaral` : undefined;
}

/** The rules under the paths: folders walked as check walks them, test files mapped to their rule. */
export function collectRules(paths: readonly string[]): SourceFile[] {
  const given = paths.length ? paths : ['.'];
  const out = new Map<string, SourceFile>();
  const walked: string[] = [];
  for (const p of given) {
    const rule = ruleOfTestFile(p);
    if (rule === undefined) {
      walked.push(p);
      continue;
    }
    if (!exists(p)) throw new UsageError(`test: no such file or folder: ${cliText(p)}`);
    if (!exists(rule)) throw new UsageError(`test: ${cliText(p)} has no rule beside it (${cliText(rule)})`);
    out.set(rule, { path: rule, root: folderRoot(rootOf(p)) });
  }
  if (walked.length) {
    const { files } = collectFiles('test', walked);
    for (const f of files)
      if (f.path.toLowerCase().endsWith('.yaral')) out.set(f.path, { path: f.path, root: folderRoot(f.root) });
  }
  if (out.size === 0)
    throw new UsageError(`test: no .yaral rule under ${given.map(cliText).join(', ')}: nothing to test`);
  return [...out.values()];
}

/** A rule named on the command line has its file as its root: its tests lie in the folder holding it. */
function folderRoot(root: string): string {
  try {
    return statSync(root).isDirectory() ? root : dirname(root);
  } catch {
    return root;
  }
}

export function testFileOf(rulePath: string): string {
  const stem = rulePath.slice(0, rulePath.length - '.yaral'.length);
  return TEST_SUFFIXES.map((s) => `${stem}${s}`).find(exists) ?? `${stem}${TEST_SUFFIXES[0]}`;
}

/** Reads the files a test file names, each once, inside the repository only. */
class Referenced {
  private readonly root: string;
  private readonly events = new Map<string, unknown[] | string>();

  constructor(private readonly folder: string) {
    const repo = repositoryRoot(folder);
    let real = repo;
    try {
      real = realpathSync(repo);
    } catch {
      // A missing folder: every read below reports it.
    }
    this.root = real;
  }

  /** The path, or why it may not be read. */
  private resolve(rel: string): { path: string } | { error: string } {
    const normal = posix.normalize(rel);
    if (
      isAbsolute(rel) ||
      /^[A-Za-z]:/.test(rel) ||
      rel.includes('\\') ||
      normal === '..' ||
      normal.startsWith('../') ||
      rel.split('/').includes('..')
    )
      return { error: `${rel}: a path must be relative to the test file's folder, without ".."` };
    const path = join(this.folder, normal);
    if (!isInside(this.root, realOrSelf(path)) && exists(path))
      return { error: `${rel}: a symbolic link to a place outside the repository; not followed` };
    return { path };
  }

  private read(rel: string, maxBytes: number): { text: string } | { error: string } {
    const at = this.resolve(rel);
    if ('error' in at) return at;
    const read = readSource(at.path, this.root, maxBytes);
    if ('skipped' in read) return { error: `${rel}: ${read.skipped}` };
    return { text: read.text };
  }

  eventsOf(rel: string): unknown[] | string {
    const cached = this.events.get(rel);
    if (cached !== undefined) return cached;
    const read = this.read(rel, MAX_TEST_EVENTS_BYTES);
    let value: unknown[] | string;
    if ('error' in read) value = read.error;
    else
      try {
        value = readEvents(rel, read.text);
      } catch (err) {
        if (!(err instanceof EventsFileError)) throw err;
        value = err.message;
      }
    this.events.set(rel, value);
    return value;
  }

  listOf(source: ListSource): string[] | string {
    if ('entries' in source) return [...source.entries];
    const read = this.read(source.file, MAX_SOURCE_BYTES);
    return 'error' in read ? read.error : referenceListEntries(splitReferenceListText(read.text));
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function runOne(ruleText: string, c: RuleTestCase, files: Referenced): CaseResult {
  const base = { name: c.name, span: c.span, notes: [] as string[], expectsDetections: expectsDetections(c.expect) };
  const error = (message: string): CaseResult => ({ ...base, status: 'error', messages: [message] });
  const events = 'inline' in c.events ? c.events.inline : files.eventsOf(c.events.file);
  if (typeof events === 'string') return error(events);
  const lists: Record<string, string[]> = {};
  for (const [name, source] of Object.entries(c.lists)) {
    const entries = files.listOf(source);
    if (typeof entries === 'string') return error(`list %${name}: ${entries}`);
    lists[name] = entries;
  }
  const run = runCase({ ruleText, events, lists, ...(c.range ? { range: c.range } : {}) });
  if ('error' in run) return error(`cannot run: ${run.error}`);
  if (run.cut) return { ...error(`incomplete: ${run.cut.message}`), detections: run.detections, notes: run.notes };
  const diff = compareExpectation(c.expect, run.detections);
  return {
    ...base,
    status: diff.length ? 'failed' : 'passed',
    messages: diff,
    detections: run.detections,
    notes: run.notes,
  };
}

function problem(
  code: ProblemCode,
  file: string,
  message: string,
  fails: boolean,
  span: TestFileSpan = WHOLE_FILE,
): RuleTestProblem {
  return { code, file, message, fails, ...span };
}

/** The rule's own text, or the check's errors that keep it from being tested. */
function ruleTextOf(rule: SourceFile, shown: string): { text: string; name?: string } | { problem: RuleTestProblem } {
  const check = runCheck({ paths: [rule.path] });
  const errors = check.findings.filter((f) => f.severity === 'error');
  if (check.errors > 0) {
    const first = errors[0];
    const more = check.errors > 1 ? ` (and ${check.errors - 1} more; run cloudbench check)` : '';
    const at = first
      ? { line: first.line, column: first.column, endLine: first.endLine, endColumn: first.endColumn }
      : WHOLE_FILE;
    return {
      problem: problem(
        'rule-errors',
        shown,
        `the rule has errors, so no case runs: ${first?.message ?? ''}${more}`,
        true,
        at,
      ),
    };
  }
  const read = readSource(rule.path, rule.root);
  if ('skipped' in read) return { problem: problem('unreadable', shown, read.skipped, true) };
  const parsed = parseRuleFile(read.text).rules[0];
  if (!parsed) return { problem: problem('rule-errors', shown, 'the file holds no rule ("rule name { … }")', true) };
  return { text: read.text.slice(parsed.start, parsed.end), ...(parsed.name ? { name: parsed.name.name } : {}) };
}

function policyProblems(testFile: string, cases: readonly CaseResult[], options: TestOptions): RuleTestProblem[] {
  const out: RuleTestProblem[] = [];
  const n = cases.length;
  if (options.minimumTests !== undefined && n < options.minimumTests)
    out.push(
      problem(
        'too-few',
        testFile,
        `${n} test case${n === 1 ? '' : 's'}, fewer than --minimum-tests ${options.minimumTests}`,
        true,
      ),
    );
  if (options.requireFireAndNoFire) {
    const lacks = [
      ...(cases.some((c) => c.expectsDetections) ? [] : ['one that expects detections']),
      ...(cases.some((c) => !c.expectsDetections) ? [] : ['one that expects none']),
    ];
    if (lacks.length)
      out.push(
        problem(
          'fire-and-no-fire',
          testFile,
          `--require-fire-and-no-fire: no case ${lacks.join(' and no case ')}`,
          true,
        ),
      );
  }
  return out;
}

export function testRule(rule: SourceFile, options: TestOptions): RuleTests {
  const shownRule = displayPath(rule.path);
  const testPath = testFileOf(rule.path);
  const testFile = displayPath(testPath);
  const result = (ruleName: string | undefined, cases: CaseResult[], problems: RuleTestProblem[]): RuleTests => ({
    rule: shownRule,
    ...(ruleName !== undefined ? { ruleName } : {}),
    testFile,
    cases,
    problems,
  });
  if (!exists(testPath)) {
    const message = `no test file: write ${basename(testPath)} beside the rule`;
    return result(undefined, [], [problem('missing', shownRule, message, options.failOnMissing === true)]);
  }
  const read = readSource(testPath, rule.root, MAX_TEST_FILE_BYTES);
  if ('skipped' in read) return result(undefined, [], [problem('unreadable', testFile, read.skipped, true)]);
  const parsed = parseRuleTestFile(read.text);
  if (!parsed.file)
    return result(
      undefined,
      [],
      parsed.problems.map((p) => problem('invalid', testFile, p.message, true, p)),
    );
  const rt = ruleTextOf(rule, shownRule);
  const files = new Referenced(dirname(testPath));
  const select = options.selectCase;
  const chosen = select ? parsed.file.cases.filter((c) => select(testPath, c.name)) : parsed.file.cases;
  let cases: CaseResult[];
  if ('problem' in rt) {
    const why = rt.problem.message;
    cases = chosen.map((c) => ({
      name: c.name,
      span: c.span,
      status: 'error' as const,
      messages: [why],
      notes: [],
      expectsDetections: expectsDetections(c.expect),
    }));
  } else cases = chosen.map((c) => runOne(rt.text, c, files));
  const policy = select ? [] : policyProblems(testFile, cases, options);
  const problems = [...('problem' in rt ? [rt.problem] : []), ...policy];
  return result('problem' in rt ? undefined : rt.name, cases, problems);
}

export function runTests(options: TestOptions): TestRun {
  const rules = collectRules(options.paths).map((r) => testRule(r, options));
  const all = rules.flatMap((r) => r.cases);
  return {
    rules,
    passed: all.filter((c) => c.status === 'passed').length,
    failed: all.filter((c) => c.status === 'failed').length,
    errors: all.filter((c) => c.status === 'error').length,
    failingProblems: rules.flatMap((r) => r.problems).filter((p) => p.fails).length,
  };
}

export function runFailed(run: TestRun): boolean {
  return run.failed > 0 || run.errors > 0 || run.failingProblems > 0;
}
