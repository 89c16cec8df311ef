// runSearch and testRule for agents: what they spend is said in the confirmation VS Code shows before
// the call (the query or rule, the time range, the udmSearch calls and how many are left this hour),
// and nothing beyond it is spent: an answer cut short is reported as such, never completed with more
// searches.
import * as vscode from 'vscode';
import { clip } from '../../core/agent/answer';
import {
  detectionsText,
  parseEventsText,
  pickEventsByVariable,
  searchText,
  statisticsText,
} from '../../core/agent/events';
import { UDM_SEARCH_MAX_LIMIT } from '../../core/secops/client';
import { resolveTimeRange, type ResolvedWindow, type TimeRangeSpec } from '../../core/secops/timerange';
import { referenceListEntries } from '../../core/secops/reference-lists';
import { analyze } from '../../udm/index';
import { parseRuleFile } from '../../udm/rule/parse';
import { planRuleTest } from '../../udm/rule/plan';
import { compileStatistics } from '../../udm/stats';
import { queryTitle } from '../../core/secops/results/arrange';
import { runRuleTestInWorker } from '../shared/rule-engine/engine-runner';
import { TEST_RULE_MAX_DETECTIONS as MAX_DETECTIONS } from '../../udm/rule/engine';
import type { Services } from '../services';
import { workspaceFile } from './workspace-file';
import { testCaseText } from './test-case-tool';

export type TimeRangeInput = { preset: '1h' | '24h' | '7d' } | { start: string; end: string };

export interface RunSearchInput {
  query: string;
  timeRange: TimeRangeInput;
  limit?: number;
  rows?: number;
}

export interface TestRuleInput {
  ruleFile?: string;
  rule?: string;
  ruleName?: string;
  eventsFile?: string;
  timeRange?: TimeRangeInput;
  /** a case of the rule's test file (`<rule>.test.yaml` beside ruleFile), by name */
  testCase?: string;
}

/** Largest events file a tool reads. */
const MAX_EVENTS_FILE_BYTES = 64 * 1024 * 1024;

export function windowOf(range: TimeRangeInput, now = Date.now()): ResolvedWindow {
  const spec: TimeRangeSpec =
    'preset' in range
      ? { kind: 'preset', preset: range.preset }
      : { kind: 'custom', start: range.start, end: range.end };
  return resolveTimeRange(spec, now);
}

/** udmSearch calls left this hour and the hourly limit, when the search has a client. */
export function budgetOf(services: Services): { remaining: number; limit: number } | undefined {
  try {
    const snapshot = services.search.get()?.controller.getClient().limiter.snapshot('udmSearch');
    return snapshot ? { remaining: snapshot.remaining, limit: snapshot.limit } : undefined;
  } catch {
    return undefined;
  }
}

function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${fence}\n${clip(text, 2000)}\n${fence}`;
}

function budgetLine(budget: { remaining: number; limit: number } | undefined, spends: number): string {
  const calls = `${spends} udmSearch call${spends === 1 ? '' : 's'}`;
  return budget
    ? `It spends ${calls} of the ${budget.remaining} left this hour (${budget.limit} an hour).`
    : `It spends ${calls} from the hourly budget.`;
}

export function searchConfirmation(services: Services, input: RunSearchInput): vscode.PreparedToolInvocation {
  const window = windowOf(input.timeRange);
  const statistical = compileStatistics(input.query) !== undefined;
  const message = new vscode.MarkdownString(
    `Run this ${statistical ? 'statistical query' : 'UDM search'} over ${window.start} – ${window.end}? ${budgetLine(budgetOf(services), 1)}\n\n${fenced(input.query)}`,
  );
  return {
    invocationMessage: `Searching ${window.start} – ${window.end}`,
    confirmationMessages: { title: 'Run a UDM search for the agent?', message },
  };
}

export async function runSearchTool(
  services: Services,
  input: RunSearchInput,
  token: vscode.CancellationToken,
): Promise<string> {
  const errors = analyze(input.query).diagnostics.filter((d) => d.severity === 'error');
  if (errors.length)
    throw new Error(
      `The query has ${errors.length} error(s) (first: line ${errors[0].range.start.line + 1}: ${clip(errors[0].message, 300)}); nothing was searched. Fix it with cloudbench_check first.`,
    );
  const window = windowOf(input.timeRange);
  const controller = services.search.require().controller;
  const client = controller.getClient();
  const budget = client.limiter.snapshot('udmSearch');
  if (budget.remaining < 1)
    throw new Error(`The hourly udmSearch budget is spent (${budget.limit} an hour); nothing was searched.`);
  const limit = input.limit ?? services.connection().settings.search.defaultLimit ?? UDM_SEARCH_MAX_LIMIT;
  const rows = input.rows ?? 10;
  const referenceLists = services.referenceLists.entries() ?? {};
  const statistics = compileStatistics(input.query, { referenceLists });
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    const answer = await client.udmSearch(
      { query: statistics ? statistics.filter : input.query, startTime: window.start, endTime: window.end, limit },
      abort.signal,
    );
    const title = `Agent: ${queryTitle(input.query)}`;
    controller.showRows('udm', title, answer.events, { window });
    if (!statistics)
      return searchText({
        query: input.query,
        window,
        events: answer.events,
        moreDataAvailable: answer.moreDataAvailable,
        rows,
        panelOpened: true,
      });
    const result = statistics.engine.run(answer.events, { timeZone: 'UTC' });
    return statisticsText({
      columns: result.columns.map((c) => c.name),
      table: result.rows,
      eventsRead: answer.events.length,
      moreDataAvailable: answer.moreDataAvailable,
      rows,
      window,
    });
  } finally {
    sub.dispose();
  }
}

/** The rule text to test: its own text (`rule name { … }`) out of the file or the given text. */
async function ruleOf(input: TestRuleInput): Promise<{ name: string; text: string }> {
  const whole = input.rule ?? (await workspaceFile(input.ruleFile ?? '', 10 * 1024 * 1024)).text;
  const rules = parseRuleFile(whole).rules;
  const rule = input.ruleName !== undefined ? rules.find((r) => r.name?.name === input.ruleName) : rules[0];
  if (!rule)
    throw new Error(
      input.ruleName !== undefined
        ? `No rule named ${JSON.stringify(clip(input.ruleName, 100))}.`
        : 'The text holds no rule ("rule name { … }").',
    );
  if (rules.length > 1 && input.ruleName === undefined)
    throw new Error(`The text holds ${rules.length} rules; say which with "ruleName".`);
  const name = rule.name?.name ?? 'the rule';
  const errors = parseRuleFile(whole).diagnostics.filter(
    (d) => d.severity === 'error' && d.start >= rule.start && d.start <= rule.end,
  );
  if (errors.length)
    throw new Error(
      `${name} has errors (${clip(errors[0].message, 300)}); check it with cloudbench_check. It was not tested.`,
    );
  return { name, text: whole.slice(rule.start, rule.end) };
}

export async function testRuleConfirmation(
  services: Services,
  input: TestRuleInput,
): Promise<vscode.PreparedToolInvocation> {
  if (input.testCase !== undefined) return { invocationMessage: 'Testing the rule over its test case' };
  if (!input.timeRange) return { invocationMessage: `Testing the rule over ${input.eventsFile ?? 'the events file'}` };
  const window = windowOf(input.timeRange);
  let rule: { name: string; text: string } | undefined;
  try {
    rule = await ruleOf(input);
  } catch {
    rule = undefined;
  }
  const plan = rule ? planRuleTest(rule.text) : undefined;
  const searches = plan && !('error' in plan) ? plan.searches.length : 1;
  const variables = plan && !('error' in plan) ? plan.searches.map((s) => `$${s.variable}`).join(', ') : '';
  const message = new vscode.MarkdownString(
    `Test the rule ${rule ? JSON.stringify(clip(rule.name, 100)) : ''} over ${window.start} – ${window.end}? ${budgetLine(budgetOf(services), searches)}${variables ? ` One search per event variable: ${variables}.` : ''} When an answer is cut short the rule is tested over what came back; no more is spent.`,
  );
  return {
    invocationMessage: `Testing the rule over ${window.start} – ${window.end}`,
    confirmationMessages: { title: 'Search events to test a rule for the agent?', message },
  };
}

export async function testRuleTool(
  services: Services,
  input: TestRuleInput,
  token: vscode.CancellationToken,
): Promise<string> {
  const rule = await ruleOf(input);
  if (input.testCase !== undefined) return testCaseText(input.ruleFile ?? '', rule, input.testCase);
  const abort = new AbortController();
  const sub = token.onCancellationRequested(() => abort.abort());
  try {
    let eventsByVariable: Map<string, unknown[]>;
    let eventsRead: number;
    let source: string;
    const notes: string[] = [];
    const referenceLists: Record<string, string[]> = {};
    let window: ResolvedWindow | undefined;
    if (input.eventsFile !== undefined) {
      const events = parseEventsText((await workspaceFile(input.eventsFile, MAX_EVENTS_FILE_BYTES)).text);
      eventsByVariable = pickEventsByVariable(rule.text, events);
      eventsRead = events.length;
      source = `the file ${JSON.stringify(clip(input.eventsFile, 200))} (no search spent)`;
      Object.assign(referenceLists, services.referenceLists.entries() ?? {});
    } else {
      ({ eventsByVariable, eventsRead, window } = await searchRuleEvents(
        services,
        rule.text,
        input.timeRange!,
        notes,
        referenceLists,
        abort.signal,
      ));
      source = `udmSearch over ${window.start} – ${window.end}`;
    }
    const outcome = await runRuleTestInWorker(
      rule.text,
      eventsByVariable,
      {
        referenceLists,
        maxDetections: MAX_DETECTIONS,
        ...(window ? { timeRange: { start: window.startMs, end: window.endMs } } : {}),
      },
      { workerFile: vscode.Uri.joinPath(services.extensionUri, 'dist', 'rule-worker.js').fsPath, signal: abort.signal },
    );
    if (outcome.status === 'cancelled') throw new vscode.CancellationError();
    const result = outcome.result;
    return detectionsText({
      ruleName: rule.name,
      detections: result.detections,
      eventsRead,
      source,
      notes: [...notes, ...result.notes],
      ...(result.cut ? { cut: result.cut.message } : {}),
    });
  } finally {
    sub.dispose();
  }
}

/** One udmSearch per event variable, as confirmed; a cut answer is noted, never completed. */
async function searchRuleEvents(
  services: Services,
  ruleText: string,
  range: TimeRangeInput,
  notes: string[],
  referenceLists: Record<string, string[]>,
  signal: AbortSignal,
): Promise<{ eventsByVariable: Map<string, unknown[]>; eventsRead: number; window: ResolvedWindow }> {
  const plan = planRuleTest(ruleText);
  if ('error' in plan) throw new Error(`The rule cannot be tested: ${plan.error}`);
  if (plan.searches.length === 0) throw new Error('The rule has no event variable the Search API can search for.');
  const client = services.search.require().controller.getClient();
  const budget = client.limiter.snapshot('udmSearch');
  if (budget.remaining < plan.searches.length)
    throw new Error(
      `Testing needs ${plan.searches.length} udmSearch calls and ${budget.remaining} of ${budget.limit} are left this hour; nothing was searched.`,
    );
  const window = windowOf(range);
  notes.push(...plan.untestable);
  const eventsByVariable = new Map<string, unknown[]>();
  let eventsRead = 0;
  for (const search of plan.searches) {
    const answer = await client.udmSearch(
      { query: search.query, startTime: window.start, endTime: window.end, limit: UDM_SEARCH_MAX_LIMIT },
      signal,
    );
    if (answer.moreDataAvailable)
      notes.push(
        `$${search.variable}: udmSearch said more events match than the ${answer.events.length} it returned; the test covers those only.`,
      );
    eventsByVariable.set(search.variable, answer.events);
    eventsRead += answer.events.length;
  }
  for (const t of parseRuleFile(ruleText).tokens) {
    if (t.kind !== 'reflist' || !t.value || Object.hasOwn(referenceLists, t.value)) continue;
    referenceLists[t.value] = referenceListEntries((await client.getReferenceList(t.value, signal)).lines);
  }
  return { eventsByVariable, eventsRead, window };
}
