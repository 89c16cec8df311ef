// "Test Rule": a rule of a .yaral file run over a past time range. The user picks the range, is told
// how many udmSearch calls the test spends (one per event variable, each with its own filter
// statements) and what cannot be tested, and agrees; the searches run with progress and a Cancel
// that aborts them; the rest of a cut answer is fetched only with consent (statistical search's
// question); the reference lists the rule names are read from the SecOps API; the engine computes
// the detections, which the Test Rule panel shows.
import * as vscode from 'vscode';
import { MESSAGE_LIMIT, safeText } from '../../core/display';
import { CancelledError, isCancellation } from '../../core/google/errors';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import { referenceListEntries } from '../../core/secops/reference-lists';
import { FETCH_REST_MAX_EVENTS } from '../../core/secops/results/rest';
import { resolveTimeRange, type ResolvedWindow } from '../../core/secops/timerange';
import type { UdmSearchEvent } from '../../core/secops/types';
import { getLogger } from '../../platform/log';
import type { RuleNode } from '../../udm/rule/ast';
import { parseRuleFile } from '../../udm/rule/parse';
import type { RuleTestPlan, RuleTestResult } from '../../udm/rule/test-types';
import { fetchStatisticsEvents } from '../shared/statistics-fetch';
import { planRuleTest } from '../../udm/rule/plan';
import { runRuleTestInWorker } from '../shared/rule-engine/engine-runner';
import { TEST_RULE_MAX_DETECTIONS } from '../../udm/rule/engine';
import type { RuleTestDeps } from './deps';
import { counted } from './view-model';

const log = getLogger('rules');

/** Detections the engine computes at most; the panel says when there were more. */
export const MAX_DETECTIONS = TEST_RULE_MAX_DETECTIONS;

/** The rule to test: its file, its text and where it stands in the file. */
export interface RuleUnderTest {
  document: vscode.TextDocument;
  rule: RuleNode;
  name: string;
  /** the rule's own text (`rule name { … }`), which the plan and the engine read */
  text: string;
}

/** A finished test: what the panel shows, and the events behind it (held for opening them). */
export interface RuleTestRun {
  ruleName: string;
  uri: string;
  window: ResolvedWindow;
  plan: RuleTestPlan;
  result: RuleTestResult;
  searches: number;
  eventsRead: number;
  notes: string[];
  /** the reference lists the rule read, by name: a case saved from the run gives them */
  referenceLists: Record<string, string[]>;
  /** every event read, held only when there is no detection (a no-fire case keeps them) */
  events?: UdmSearchEvent[];
}

/** The file and rule a command call means: the CodeLens's target, a URI, or the active editor's cursor. */
export async function resolveRule(target: unknown): Promise<RuleUnderTest> {
  let document: vscode.TextDocument | undefined;
  let offset: number | undefined;
  const t = target as { uri?: unknown; offset?: unknown; name?: unknown } | undefined;
  if (target instanceof vscode.Uri) document = await vscode.workspace.openTextDocument(target);
  else if (t && t.uri instanceof vscode.Uri) {
    document = await vscode.workspace.openTextDocument(t.uri);
    if (typeof t.offset === 'number' && Number.isSafeInteger(t.offset) && t.offset >= 0) offset = t.offset;
  } else {
    const editor = vscode.window.activeTextEditor;
    if (editor?.document.languageId === 'yaral') {
      document = editor.document;
      offset = document.offsetAt(editor.selection.active);
    }
  }
  if (!document) throw new Error('Open a .yaral rule file, then run Test Rule from the CodeLens above its rule.');
  const text = document.getText();
  const rules = parseRuleFile(text).rules;
  if (rules.length === 0)
    throw new Error(`${safeText(vscode.workspace.asRelativePath(document.uri))} holds no rule ("rule name { … }").`);
  let rule =
    typeof t?.name === 'string'
      ? rules.find((r) => r.name?.name === t.name)
      : offset !== undefined
        ? rules.find((r) => offset >= r.start && offset <= r.end)
        : undefined;
  if (!rule && typeof t?.name === 'string')
    throw new Error(`${safeText(t.name)} is no longer in ${safeText(vscode.workspace.asRelativePath(document.uri))}.`);
  if (!rule && rules.length === 1) rule = rules[0];
  if (!rule) {
    const picked = await vscode.window.showQuickPick(
      rules.map((r, i) => ({ label: r.name?.name ?? `rule ${i + 1}`, rule: r })),
      { title: 'Test Rule', placeHolder: 'Which rule?' },
    );
    if (!picked) throw new CancelledError();
    rule = picked.rule;
  }
  if (!rule.name) throw new Error('The rule has no name yet: write "rule name {" first.');
  return { document, rule, name: rule.name.name, text: text.slice(rule.start, rule.end) };
}

/** The errors in the rule, from the language server (Problems) and the file's own parse. */
export function ruleErrors(target: RuleUnderTest): string[] {
  const { document, rule } = target;
  const first = document.positionAt(rule.start).line;
  const last = document.positionAt(rule.end).line;
  const errors = new Set<string>();
  for (const d of vscode.languages.getDiagnostics(document.uri) ?? []) {
    if (d.severity !== vscode.DiagnosticSeverity.Error) continue;
    if (d.range.start.line >= first && d.range.start.line <= last)
      errors.add(`line ${d.range.start.line + 1}: ${d.message}`);
  }
  for (const d of parseRuleFile(document.getText()).diagnostics) {
    if (d.severity !== 'error' || d.start < rule.start || d.start > rule.end) continue;
    errors.add(`line ${document.positionAt(d.start).line + 1}: ${d.message}`);
  }
  return [...errors];
}

/** Says the rule has errors and where to see them; the test does not run. */
async function reportRuleErrors(name: string, errors: string[]): Promise<void> {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const choice = await vscode.window.showErrorMessage(
    `Test Rule: ${safeText(name)} has errors, so it cannot be tested: ${safeText(errors[0], 'plain', MESSAGE_LIMIT)}${more}. The Problems panel lists them.`,
    'Show Problems',
  );
  if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
}

/** The reference lists (`%name`) the rule's text uses. */
export function referenceListNames(ruleText: string): string[] {
  const names = new Set<string>();
  for (const t of parseRuleFile(ruleText).tokens) if (t.kind === 'reflist' && t.value) names.add(t.value);
  return [...names];
}

function timeText(ms: number): string {
  return new Date(ms).toLocaleTimeString();
}

/** The consent question: how many searches, of how many left, and what is not tested. */
async function confirmPlan(
  name: string,
  plan: RuleTestPlan,
  window: ResolvedWindow,
  budget: { remaining: number; limit: number },
): Promise<boolean> {
  const n = plan.searches.length;
  const variables = plan.searches.map((s) => `$${s.variable}`).join(', ');
  const untested = plan.untestable.length ? ` Not tested: ${plan.untestable.join(' ')}` : '';
  const choice = await vscode.window.showWarningMessage(
    `Test ${safeText(name)} over ${window.start} – ${window.end}? It spends ${n} udmSearch call${n === 1 ? '' : 's'} (one per event variable: ${safeText(variables)}).`,
    {
      modal: true,
      detail: `${budget.remaining} of ${budget.limit} udmSearch calls are left this hour. When an answer is cut short, Cloudbench asks before spending more on the rest.${safeText(untested, 'plain', MESSAGE_LIMIT)}`,
    },
    'Run Test',
  );
  return choice === 'Run Test';
}

export interface RunTestOptions {
  /** the bundled engine worker, dist/rule-worker.js */
  workerFile: string;
  /** what the test is doing, for the panel */
  onProgress?: (message: string) => void;
  /** how long the detections may compute (RULE_TEST_TIME_LIMIT_MS unless a test says otherwise) */
  timeLimitMs?: number;
}

/**
 * Runs the test of `target` over `window` (already picked) and returns the run, or undefined when
 * the user declined. Throws CancelledError on Cancel, which also ends the engine's worker at once.
 */
export async function runTest(
  deps: RuleTestDeps,
  target: RuleUnderTest,
  window: ResolvedWindow,
  { workerFile, onProgress = () => undefined, timeLimitMs }: RunTestOptions,
): Promise<RuleTestRun | undefined> {
  const planned = planRuleTest(target.text);
  if ('error' in planned) throw new Error(`${target.name} cannot be tested: ${planned.error}`);
  const plan = planned;
  if (plan.searches.length === 0)
    throw new Error(
      `${target.name} has no event variable the Search API can search for${plan.untestable.length ? `: ${plan.untestable.join(' ')}` : '.'}`,
    );
  let client: ReturnType<RuleTestDeps['client']>;
  try {
    client = deps.client();
  } catch (err) {
    throw new Error(
      `Test Rule needs a connection to Google SecOps: ${(err as Error).message}. Check the SecOps settings or run "Cloudbench: Check Connection".`,
      { cause: err },
    );
  }
  const budget = client.limiter.snapshot('udmSearch');
  if (budget.remaining < plan.searches.length) {
    const when = budget.nextRefillAt !== undefined ? ` The next one frees up at ${timeText(budget.nextRefillAt)}.` : '';
    throw new Error(
      `${budget.remaining === 0 ? 'The hourly udmSearch budget is spent' : 'Too few udmSearch calls are left this hour'}: testing ${target.name} needs ${plan.searches.length} and ${budget.remaining} of ${budget.limit} are left.${when}`,
    );
  }
  if (!(await confirmPlan(target.name, plan, window, budget))) return undefined;

  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Test Rule: ${target.name}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      const say = (message: string): void => {
        progress.report({ message });
        onProgress(message);
      };
      try {
        const eventsByVariable = new Map<string, unknown[]>();
        const held: UdmSearchEvent[] = [];
        const notes = [...plan.untestable];
        let searches = 0;
        for (const search of plan.searches) {
          say(`searching the events of $${search.variable}…`);
          const fetched = await fetchStatisticsEvents({
            client,
            query: search.query,
            startMs: window.startMs,
            endMs: window.endMs,
            limit: UDM_SEARCH_MAX_LIMIT,
            maxEvents: FETCH_REST_MAX_EVENTS,
            signal: abort.signal,
            confirmMore: (q) => deps.confirmMore(q),
            onProgress: (p) =>
              say(
                `$${search.variable}: ${counted(p.events, 'event', 'events')}, ${counted(searches + p.searches, 'search', 'searches')}`,
              ),
          });
          // A Cancel after the first answer leaves what was fetched: the test stops all the same.
          if (abort.signal.aborted) throw new CancelledError();
          searches += fetched.searches;
          if (fetched.partial) notes.push(`$${search.variable}: ${fetched.partial}.`);
          eventsByVariable.set(search.variable, fetched.events);
          held.push(...fetched.events);
        }
        const referenceLists: Record<string, string[]> = {};
        for (const name of referenceListNames(target.text)) {
          say(`reading the reference list ${name}…`);
          const list = await client.getReferenceList(name, abort.signal);
          referenceLists[name] = referenceListEntries(list.lines);
        }
        if (abort.signal.aborted) throw new CancelledError();
        say(`computing the detections over ${counted(held.length, 'event', 'events')}…`);
        const outcome = await runRuleTestInWorker(
          target.text,
          eventsByVariable,
          { referenceLists, timeRange: { start: window.startMs, end: window.endMs }, maxDetections: MAX_DETECTIONS },
          { workerFile, signal: abort.signal, ...(timeLimitMs !== undefined ? { timeLimitMs } : {}) },
        );
        if (outcome.status === 'cancelled') throw new CancelledError();
        const result = outcome.result;
        log.info(
          `tested ${target.name}: ${result.detections.length} detections over ${held.length} events (${searches} searches)${result.cut ? `; cut (${result.cut.reason})` : ''}`,
        );
        return {
          ruleName: target.name,
          uri: target.document.uri.toString(),
          window,
          plan,
          result,
          searches,
          eventsRead: held.length,
          notes: [...notes, ...result.notes.filter((n) => !notes.includes(n))],
          referenceLists,
          ...(result.detections.length === 0 ? { events: held } : {}),
        };
      } catch (err) {
        if (abort.signal.aborted || isCancellation(err)) throw new CancelledError();
        throw err;
      } finally {
        sub.dispose();
      }
    },
  );
}

/** The rule a call means, or undefined when it has errors (said, with the way to the Problems panel). */
export async function ruleWithoutErrors(targetArg: unknown): Promise<RuleUnderTest | undefined> {
  const target = await resolveRule(targetArg);
  const errors = ruleErrors(target);
  if (errors.length === 0) return target;
  await reportRuleErrors(target.name, errors);
  return undefined;
}

/** The command's questions before the test: the rule (without errors), then the time range. */
export async function prepareTest(
  deps: RuleTestDeps,
  targetArg: unknown,
): Promise<{ target: RuleUnderTest; window: ResolvedWindow } | undefined> {
  const target = await ruleWithoutErrors(targetArg);
  if (!target) return undefined;
  const spec = await deps.pickTimeRange(deps.timeRange());
  if (!spec) return undefined;
  return { target, window: resolveTimeRange(spec, Date.now()) };
}
