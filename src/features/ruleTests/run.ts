// Running rule test cases from the Test Explorer: the same runner as `cloudbench test` (offline,
// Test Rule's engine, files read as the command line reads repository files), one rule at a time in
// a worker thread (worker-runner.ts), so a repository's cases never hold the editor and Cancel
// stops them at once. A failed case shows VS Code's expected/actual difference on
// its line of the test file; a case that cannot run (a rule with errors, a missing events file) is
// an error there too. The Debug profile also writes each case's detections to the test output.
import * as vscode from 'vscode';
import { safeText } from '../../core/display';
import type { CaseResult, RuleTestProblem, RuleTests } from '../../cli/test';
import { parseRuleTestFile, type Expectation } from '../../udm/rule/test-file';
import { actualText, expectedText } from '../../udm/rule/test-diff';
import { expectedFrom } from '../../udm/rule/test-capture';
import { stringify } from 'yaml';
import { caseId, rangeOf, readText, type RuleEntry, type RuleTestItems } from './discovery';
import { runRuleTestsInWorker } from './worker-runner';

/** What a run needs: the listed items, their controller and the worker's bundle. */
export interface RuleTestRunner {
  readonly items: RuleTestItems;
  readonly controller: vscode.TestController;
  /** dist/rule-tests-worker.js */
  readonly workerFile: string;
}

/** The cases to run of one rule: all of them, or these names. */
type Wanted = { readonly rule: vscode.TestItem; readonly entry: RuleEntry; readonly names?: Set<string> };

function pending(items: RuleTestItems, request: vscode.TestRunRequest, all: vscode.TestItemCollection): Wanted[] {
  const excluded = new Set(request.exclude ?? []);
  const byRule = new Map<vscode.TestItem, Wanted>();
  const add = (item: vscode.TestItem): void => {
    if (excluded.has(item)) return;
    const entry = items.entries.get(item);
    if (!entry) return;
    if (entry.kind === 'rule') {
      byRule.set(item, { rule: item, entry });
      return;
    }
    const rule = item.parent;
    if (!rule || excluded.has(rule)) return;
    const known = byRule.get(rule);
    if (known && !known.names) return;
    const names = known?.names ?? new Set<string>();
    names.add(entry.name);
    byRule.set(rule, { rule, entry: entry.rule, names });
  };
  if (request.include) for (const item of request.include) add(item);
  else all.forEach(add);
  return [...byRule.values()];
}

function caseItems(want: Wanted): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  want.rule.children.forEach((c) => {
    const names = want.names;
    if (!names || [...names].some((n) => c.id === caseId(want.entry.testFile, n))) out.push(c);
  });
  return out;
}

function messageAt(text: string, uri: vscode.Uri, span: { line: number; column: number }): vscode.TestMessage {
  const m = new vscode.TestMessage(text);
  m.location = new vscode.Location(uri, rangeOf({ ...span, endLine: span.line, endColumn: span.column }));
  return m;
}

function problemMessage(p: RuleTestProblem, entry: RuleEntry): vscode.TestMessage {
  const uri = p.code === 'rule-errors' || p.code === 'missing' ? entry.rule : entry.testFile;
  return messageAt(p.message, uri, p);
}

/** Each case's expectation as the file on disk says it now. */
async function expectations(testFile: vscode.Uri): Promise<Map<string, Expectation>> {
  const text = await readText(testFile);
  const parsed = text === undefined ? undefined : parseRuleTestFile(text);
  return new Map((parsed?.file?.cases ?? []).map((c) => [c.name, c.expect]));
}

function detectionsOutput(c: CaseResult): string {
  const found = (c.detections ?? []).map(expectedFrom);
  const body = stringify({ case: c.name, detections: found, notes: c.notes }, { lineWidth: 0 });
  return `${body.replace(/\r?\n/g, '\r\n')}\r\n`;
}

function report(
  run: vscode.TestRun,
  item: vscode.TestItem,
  entry: RuleEntry,
  c: CaseResult,
  expect: Expectation | undefined,
  ms: number,
): void {
  if (c.status === 'passed') return run.passed(item, ms);
  if (c.status === 'error') return run.errored(item, messageAt(c.messages.join('\n'), entry.testFile, c.span), ms);
  const text = c.messages.join('\n');
  const m = expect
    ? vscode.TestMessage.diff(text, expectedText(expect), actualText(expect, c.detections ?? []))
    : new vscode.TestMessage(text);
  m.location = new vscode.Location(entry.testFile, rangeOf(c.span));
  run.failed(item, m, ms);
}

/** Runs what the request asks for into `run` and ends it. */
export async function runRequest(
  runner: RuleTestRunner,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
  debug: boolean,
): Promise<void> {
  const run = runner.controller.createTestRun(request, undefined, true);
  // Stopped from the profile's token, or from the run's own (the Test Explorer's stop button on a
  // run started by a CodeLens or a command).
  const abort = new AbortController();
  const cancelled = [token, run.token].map((t) => t.onCancellationRequested(() => abort.abort()));
  try {
    const wanted = pending(runner.items, request, runner.controller.items);
    for (const want of wanted) for (const c of caseItems(want)) run.enqueued(c);
    for (const want of wanted) {
      const cases = caseItems(want);
      if (abort.signal.aborted || token.isCancellationRequested) {
        for (const c of cases) run.skipped(c);
        continue;
      }
      for (const c of cases) run.started(c);
      await runRule(run, want, cases, { debug, workerFile: runner.workerFile, signal: abort.signal });
    }
  } finally {
    for (const c of cancelled) c.dispose();
    run.end();
  }
}

async function runRule(
  run: vscode.TestRun,
  want: Wanted,
  cases: vscode.TestItem[],
  { debug, workerFile, signal }: { debug: boolean; workerFile: string; signal: AbortSignal },
): Promise<void> {
  const { entry } = want;
  const started = performance.now();
  let result: RuleTests;
  try {
    const outcome = await runRuleTestsInWorker(
      { path: entry.rule.fsPath, root: entry.folder.fsPath },
      want.names ? [...want.names] : undefined,
      { workerFile, signal },
    );
    if (outcome.status === 'cancelled') {
      for (const c of cases) run.skipped(c);
      return;
    }
    if (outcome.status === 'time-limit') {
      for (const c of cases) run.errored(c, new vscode.TestMessage(outcome.message));
      return;
    }
    result = outcome.result;
  } catch (err) {
    for (const c of cases) run.errored(c, new vscode.TestMessage(`Cannot run: ${(err as Error).message}`));
    return;
  }
  const ms = Math.round(performance.now() - started);
  const each = Math.max(1, Math.round(ms / Math.max(1, result.cases.length)));
  const expected = await expectations(entry.testFile);
  const byName = new Map(result.cases.map((c) => [c.name, c]));
  const failing = result.problems.filter((p) => p.fails && p.code !== 'too-few' && p.code !== 'fire-and-no-fire');
  for (const item of cases) {
    const name = [...byName.keys()].find((n) => item.id === caseId(entry.testFile, n));
    const c = name === undefined ? undefined : byName.get(name);
    if (!c) {
      const why = failing[0];
      run.errored(
        item,
        why
          ? problemMessage(why, entry)
          : new vscode.TestMessage('The case is no longer in the test file; refresh the tests.'),
      );
      continue;
    }
    if (debug) run.appendOutput(detectionsOutput(c), new vscode.Location(entry.testFile, rangeOf(c.span)), item);
    report(run, item, entry, c, expected.get(c.name), each);
  }
  if (!cases.length && failing.length)
    run.appendOutput(`${safeText(failing.map((p) => p.message).join('; '), 'plain', 2000)}\r\n`);
}
