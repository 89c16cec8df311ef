// One rule test case, run offline: the events a case gives stand for what udmSearch would answer.
// As Test Rule does, the plan gives one search per event variable; each search picks its
// variable's events from the case's events, and the engine computes the detections. Nothing here
// reads the clock, the time zone or the machine: the same case gives the same answer anywhere.
import { compileQuery } from '../index';
import { runRuleTest } from './engine';
import { parseRuleFile } from './parse';
import { planRuleTest } from './plan';
import { eventTime, udmOf } from './prepare';
import type { Detection, RuleTestResult } from './test-types';
import type { ExpectedDetection, Expectation } from './test-file';

/** Detections a case computes at most: enough for any expectation a person writes. */
export const MAX_CASE_DETECTIONS = 10_000;

export interface CaseInput {
  /** the rule's own text (`rule name { … }`) */
  readonly ruleText: string;
  /** UDM events (bare, or `{ udm }` as the Search API returns them) */
  readonly events: readonly unknown[];
  readonly lists: Readonly<Record<string, readonly string[]>>;
  /** epoch ms, [start, end) */
  readonly range?: { readonly start: number; readonly end: number };
}

export type CaseRun =
  | { readonly error: string }
  | {
      readonly detections: Detection[];
      readonly notes: string[];
      readonly cut?: RuleTestResult['cut'];
    };

/** Functions whose answer is the current time: a case over them would depend on when it runs. */
const CLOCK_FUNCTIONS = new Set(['timestamp.now', 'timestamp.current_seconds']);

/** The reference lists (`%name`) a rule's text uses. */
export function ruleListNames(ruleText: string): string[] {
  const names = new Set<string>();
  for (const t of parseRuleFile(ruleText).tokens) if (t.kind === 'reflist' && t.value) names.add(t.value);
  return [...names];
}

function readsClock(ruleText: string): string | undefined {
  const tokens = parseRuleFile(ruleText).tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [a, dot, b] = [tokens[i], tokens[i + 1], tokens[i + 2]];
    if (a.kind !== 'ident' || dot.kind !== 'dot' || b.kind !== 'ident') continue;
    const name = `${a.value}.${b.value}`.toLowerCase();
    if (CLOCK_FUNCTIONS.has(name) && tokens[i + 3]?.kind === 'lparen') return name;
  }
  return undefined;
}

function inRange(events: readonly unknown[], range?: CaseInput['range']): unknown[] {
  const udms = events.map((e) => udmOf(e)).filter((u): u is Record<string, unknown> => u !== undefined);
  if (!range) return udms;
  return udms.filter((udm) => {
    const t = eventTime(udm);
    return t !== undefined && t >= range.start && t < range.end;
  });
}

/** The detections of the case's events, or why the case cannot be run. */
export function runCase(input: CaseInput): CaseRun {
  const clock = readsClock(input.ruleText);
  if (clock)
    return { error: `the rule calls ${clock}(), whose answer depends on when the test runs; a test cannot pin it` };
  const plan = planRuleTest(input.ruleText);
  if ('error' in plan) return { error: plan.error };
  if (plan.searches.length === 0)
    return {
      error: `the rule has no event variable to test${plan.untestable.length ? `: ${plan.untestable.join(' ')}` : ''}`,
    };
  const used = ruleListNames(input.ruleText);
  const missing = used.filter((l) => !Object.hasOwn(input.lists, l));
  if (missing.length)
    return {
      error: `the rule uses ${missing.map((l) => `%${l}`).join(', ')}; give ${missing.length === 1 ? 'it' : 'them'} under "lists:" (the case's or the file's)`,
    };
  const lists: Record<string, string[]> = {};
  for (const l of used) lists[l] = [...input.lists[l]];
  const events = inRange(input.events, input.range);
  const eventsByVariable = new Map<string, unknown[]>();
  for (const search of plan.searches) {
    const query = compileQuery(search.query, { referenceLists: lists });
    if (query.hasErrors)
      return {
        error: `the search for $${search.variable} does not compile: ${query.diagnostics
          .filter((d) => d.severity === 'error')
          .map((d) => d.message)
          .join('; ')}`,
      };
    eventsByVariable.set(
      search.variable,
      events.filter((e) => query.matches(e)),
    );
  }
  // No deadline: the work limit alone stops a run, and it stops every run at the same place.
  const result = runRuleTest(input.ruleText, eventsByVariable, {
    referenceLists: lists,
    maxDetections: MAX_CASE_DETECTIONS,
  });
  const notes = [...plan.untestable];
  notes.push(...result.notes.filter((n) => !notes.includes(n) && n !== result.cut?.message));
  return { detections: result.detections, notes, ...(result.cut ? { cut: result.cut } : {}) };
}

/** Two values as a test compares them: scalars by their text (YAML's 4444 is the engine's "4444"), lists item by item. */
export function sameValue(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) return false;
    return expected.every((e, i) => sameValue(e, actual[i]));
  }
  if (expected === null || actual === null || expected === undefined || actual === undefined)
    return expected === actual;
  if (typeof expected === 'object' || typeof actual === 'object')
    return JSON.stringify(expected) === JSON.stringify(actual);
  if (typeof expected === 'number' && typeof actual === 'number') return expected === actual;
  return scalarText(expected) === scalarText(actual);
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? typeof value);
}

/** A value as a difference shows it: JSON, so strings are quoted and nothing is ambiguous. */
export function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value) ?? typeof value;
}

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

function compareRecord(
  what: string,
  expected: Readonly<Record<string, unknown>> | undefined,
  actual: Readonly<Record<string, unknown>>,
  out: string[],
): void {
  if (!expected) return;
  for (const [k, v] of Object.entries(expected))
    if (!Object.hasOwn(actual, k)) out.push(`${what}.${k}: expected ${shown(v)}, the detection has no ${what} $${k}`);
    else if (!sameValue(v, actual[k])) out.push(`${what}.${k}: expected ${shown(v)}, got ${shown(actual[k])}`);
}

function compareDetection(e: ExpectedDetection, d: Detection, out: string[]): void {
  compareRecord('match', e.match, d.match, out);
  compareRecord('outcomes', e.outcomes, d.outcomes, out);
  if (e.riskScore !== undefined && e.riskScore !== d.riskScore)
    out.push(`riskScore: expected ${shown(e.riskScore)}, got ${shown(d.riskScore)}`);
  for (const [v, want] of Object.entries(e.events ?? {})) {
    const got = d.events[v] ?? [];
    if (typeof want === 'number') {
      if (want !== got.length)
        out.push(`events.${v}: expected ${want} event${want === 1 ? '' : 's'}, got ${got.length}`);
    } else {
      const ids = got.map((x) => x.id ?? '');
      if (!sameValue(want, ids)) out.push(`events.${v}: expected ids ${shown(want)}, got ${shown(ids)}`);
    }
  }
  if (e.window && (e.window.start !== d.windowStart || e.window.end !== d.windowEnd))
    out.push(
      `window: expected ${iso(e.window.start)} to ${iso(e.window.end)}, got ${iso(d.windowStart)} to ${iso(d.windowEnd)}`,
    );
}

const count = (n: number): string => `${n} detection${n === 1 ? '' : 's'}`;

/**
 * How the detections differ from what the case expects, one line a difference (none: it passes).
 * Expected detections are compared in order with the engine's (by window start, then match values).
 */
export function compareExpectation(expect: Expectation, detections: readonly Detection[]): string[] {
  const n = detections.length;
  if (expect.kind === 'fires') {
    if (expect.fires && n === 0) return ['expected the rule to fire, got no detection'];
    if (!expect.fires && n > 0) return [`expected no detection, got ${count(n)}`];
    return [];
  }
  if (expect.kind === 'count') return expect.count === n ? [] : [`expected ${count(expect.count)}, got ${n}`];
  const out: string[] = [];
  if (expect.detections.length !== n) out.push(`expected ${count(expect.detections.length)}, got ${n}`);
  expect.detections.forEach((e, i) => {
    const d = detections[i];
    if (!d) return;
    const diffs: string[] = [];
    compareDetection(e, d, diffs);
    for (const line of diffs) out.push(`detection ${i + 1} ${line}`);
  });
  return out;
}
