// `cloudbench test-rule`: the editor's Test Rule over an events file instead of udmSearch. The plan
// gives one search per event variable; each search is compiled as the search language compiles it
// and picks that variable's events from the file (what udmSearch would have answered over the same
// events); the engine then computes the detections the Test Rule panel shows.
import { compileQuery, type CompileOptions } from '../udm/index';
import { runRuleTest, TEST_RULE_MAX_DETECTIONS } from '../udm/rule/engine';
import { parseRuleFile } from '../udm/rule/parse';
import { eventTime, udmOf } from '../udm/rule/prepare';
import { planRuleTest } from '../udm/rule/plan';
import type { Detection, RuleTestPlan, RuleTestResult } from '../udm/rule/test-types';
import { runCheck, type CheckRun } from './check';
import { readEvents } from './events';
import { displayPath, kindOf } from './files';
import { MAX_EVENTS_BYTES, MAX_SOURCE_BYTES, readGiven } from './input';
import { loadLists } from './lists';
import { humanReport } from './report';
import { cliMessage, cliText, jsonText } from './text';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from './usage';

/** Detections the engine computes at most, as many as the editor's Test Rule lists. */
export const MAX_DETECTIONS = TEST_RULE_MAX_DETECTIONS;

/** Seconds the engine may run before it stops and gives what it found (`--time-limit`). */
export const DEFAULT_TIME_LIMIT_SECONDS = 20;

export interface TestRuleOptions {
  readonly ruleFile: string;
  readonly eventsFile: string;
  readonly listsDir?: string;
  /** Only events at or after this time (ms), as the editor's range start. */
  readonly startMs?: number;
  /** Only events before this time (ms), as the editor's range end. */
  readonly endMs?: number;
  /** Epoch ms after which the engine stops and returns what it found, marked as cut. */
  readonly deadline?: number;
}

/** A rule or events file the test cannot run over; the message says why. */
export class TestRuleInputError extends Error {
  override readonly name = 'TestRuleInputError';
}

export type TestRuleOutcome =
  /** The rule file has errors: the check's findings, and no test. */
  | { readonly kind: 'errors'; readonly check: CheckRun; readonly ruleHasErrors: boolean }
  | {
      readonly kind: 'tested';
      readonly ruleName: string;
      readonly plan: RuleTestPlan;
      /** Events of the file each variable's search picked, by variable. */
      readonly picked: ReadonlyMap<string, number>;
      readonly eventsRead: number;
      /** Of those, the events in --start/--end (all of them without a range). */
      readonly eventsInRange: number;
      readonly detections: Detection[];
      /** What was left out or cut short: the plan's untestable parts, then the engine's notes. */
      readonly notes: string[];
      /** The engine stopped before the end (its time or work limit): the detections are incomplete. */
      readonly cut?: RuleTestResult['cut'];
    };

function readInput(flag: string, path: string, maxBytes: number): string {
  const read = readGiven(path, maxBytes, (why) => new UsageError(`test-rule: ${flag}${cliText(path)}: ${why}`));
  if ('skipped' in read) throw new TestRuleInputError(`${flag}${path}: ${read.skipped}`);
  return read.text;
}

/** The reference lists (`%name`) the rule's text uses: the ones the editor reads for the test. */
function listNames(ruleText: string): string[] {
  const names = new Set<string>();
  for (const t of parseRuleFile(ruleText).tokens) if (t.kind === 'reflist' && t.value) names.add(t.value);
  return [...names];
}

/**
 * The events udmSearch would answer for the editor's range: event time at or after the start and
 * before the end. Without a range, every event of the file.
 */
function inRange(events: unknown[], startMs?: number, endMs?: number): unknown[] {
  if (startMs === undefined && endMs === undefined) return events;
  return events.filter((e) => {
    const udm = udmOf(e);
    const t = udm ? eventTime(udm) : undefined;
    return t !== undefined && (startMs === undefined || t >= startMs) && (endMs === undefined || t < endMs);
  });
}

export function runTestRule(options: TestRuleOptions): TestRuleOutcome {
  const kind = kindOf(options.ruleFile);
  if (!kind || !('language' in kind) || kind.language.id !== 'yaral')
    throw new UsageError(`test-rule: ${options.ruleFile} is not a .yaral rule file`);
  const text = readInput('', options.ruleFile, MAX_SOURCE_BYTES);
  const lists = options.listsDir !== undefined ? loadLists(options.listsDir) : undefined;
  // A rule with errors is not tested, as in the editor; the errors are the check's.
  const check = runCheck({ paths: [options.ruleFile], ...(lists ? { lists } : {}) });
  if (check.errors > 0) {
    const shown = displayPath(options.ruleFile);
    const ruleHasErrors = check.findings.some((f) => f.severity === 'error' && f.file === shown);
    return { kind: 'errors', check, ruleHasErrors };
  }

  const rule = parseRuleFile(text).rules[0];
  if (!rule) throw new TestRuleInputError(`${options.ruleFile}: holds no rule ("rule name { … }")`);
  const name = rule.name?.name ?? 'the rule';
  // The editor plans and runs the rule's own text, without what stands around it in the file.
  const ruleText = text.slice(rule.start, rule.end);
  const planned = planRuleTest(ruleText);
  if ('error' in planned) throw new TestRuleInputError(`${name} cannot be tested: ${planned.error}`);
  if (planned.searches.length === 0)
    throw new TestRuleInputError(
      `${name} has no event variable the Search API can search for${planned.untestable.length ? `: ${planned.untestable.join(' ')}` : '.'}`,
    );
  const missing = listNames(ruleText).filter((list) => !lists || !Object.hasOwn(lists.entries, list));
  if (missing.length)
    throw new UsageError(
      `test-rule: ${name} uses the reference list${missing.length === 1 ? '' : 's'} ${missing.map((l) => `%${l}`).join(', ')}, ` +
        `which ${lists ? '--lists does not hold' : 'no --lists folder gives'}: give ${missing.length === 1 ? 'it' : 'them'} ` +
        `with --lists DIR (one file per list), or the test would answer as if ${missing.length === 1 ? 'it were' : 'they were'} empty`,
    );
  const read = readEvents(options.eventsFile, readInput('--events ', options.eventsFile, MAX_EVENTS_BYTES));
  const events = inRange(read, options.startMs, options.endMs);

  const referenceLists: Record<string, string[]> = {};
  for (const list of listNames(ruleText))
    if (lists && Object.hasOwn(lists.entries, list)) referenceLists[list] = lists.entries[list];
  // udmSearch knows the instance's lists; here they are the lists of --lists (without it, none: the
  // searches compile as the plan compiled them, and the engine notes each list it was not given).
  const searchOptions: CompileOptions = lists ? { referenceLists: lists.entries } : {};
  const eventsByVariable = new Map<string, unknown[]>();
  const picked = new Map<string, number>();
  for (const search of planned.searches) {
    const query = compileQuery(search.query, searchOptions);
    if (query.hasErrors)
      throw new TestRuleInputError(
        `the search for $${search.variable} does not compile: ${query.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => d.message)
          .join('; ')}`,
      );
    const matching = events.filter((e) => query.matches(e));
    eventsByVariable.set(search.variable, matching);
    picked.set(search.variable, matching.length);
  }
  const result = runRuleTest(ruleText, eventsByVariable, {
    referenceLists,
    maxDetections: MAX_DETECTIONS,
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  });
  const notes = [...planned.untestable];
  // The engine repeats a cut's message as its last note; the report says it once, as "incomplete".
  notes.push(...result.notes.filter((n) => !notes.includes(n) && n !== result.cut?.message));
  return {
    kind: 'tested',
    ruleName: name,
    plan: planned,
    picked,
    eventsRead: read.length,
    eventsInRange: events.length,
    detections: result.detections,
    notes,
    ...(result.cut ? { cut: result.cut } : {}),
  };
}

export function detectionsJson(
  ruleName: string,
  detections: readonly Detection[],
  cut?: RuleTestResult['cut'],
): string {
  return `${jsonText({ rule: ruleName, ...(cut ? { cut } : {}), detections })}\n`;
}

/** What `test-rule` prints for an outcome, and its exit code. */
export function testRuleReport(
  outcome: TestRuleOutcome,
  format: 'json' | 'text',
): { out: string; err: string; code: number } {
  if (outcome.kind === 'errors') {
    // stdout carries detections only; the errors go where a person sees them.
    const why = outcome.ruleHasErrors
      ? 'The rule has errors, so it is not tested.\n'
      : 'The reference lists of --lists have errors, so the rule is not tested.\n';
    return { out: '', err: humanReport(outcome.check, undefined) + why, code: EXIT_PROBLEMS };
  }
  let err = outcome.notes.map((note) => `note: ${cliMessage(note)}\n`).join('');
  if (outcome.cut)
    err += `incomplete: ${cliMessage(outcome.cut.message)} The detections printed are those found before it stopped.\n`;
  const out =
    format === 'text'
      ? detectionsTable(outcome.ruleName, outcome.detections, outcome.cut)
      : detectionsJson(outcome.ruleName, outcome.detections, outcome.cut);
  return { out, err, code: outcome.cut ? EXIT_PROBLEMS : EXIT_OK };
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

/** A value as one table cell: strings bare, lists joined, unsafe characters escaped, 200 characters at most. */
function cell(value: unknown): string {
  const text = Array.isArray(value)
    ? value.map(cell).join(', ')
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
  return cliMessage(text ?? '', 200);
}

/**
 * One line per detection: the window [start, end) (the end is not in it), the match values, the
 * risk score and the events per variable.
 */
export function detectionsTable(
  ruleName: string,
  detections: readonly Detection[],
  cut?: RuleTestResult['cut'],
): string {
  const head = ['#', 'window start', 'window end (exclusive)', 'match', 'risk', 'events'];
  const rows = detections.map((d, i) => [
    String(i + 1),
    iso(d.windowStart),
    iso(d.windowEnd),
    Object.entries(d.match)
      .map(([k, v]) => `$${k}=${cell(v)}`)
      .join(' '),
    d.riskScore === undefined ? '' : cell(d.riskScore),
    Object.entries(d.events)
      .map(([k, v]) => `$${k}:${v.length}`)
      .join(' '),
  ]);
  const widths = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
  const line = (r: string[]): string =>
    r
      .map((v, c) => v.padEnd(widths[c]))
      .join('  ')
      .trimEnd();
  const n = detections.length;
  const count = n === 0 ? 'no detections' : `${n} detection${n === 1 ? '' : 's'}`;
  const title = `${cliText(ruleName)}: ${count}${cut ? ' (incomplete: the engine stopped early)' : ''}`;
  return n === 0 ? `${title}\n` : `${title}\n${[head, ...rows].map(line).join('\n')}\n`;
}
