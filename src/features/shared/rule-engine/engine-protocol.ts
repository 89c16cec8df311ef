// Messages between the extension host and the Test Rule worker (engine-worker.ts): the rule and its
// options first, then each event variable's events in slices, then the request to compute. The
// worker answers once, with the result or the reason it has none. Both sides check what arrives.
import type { Detection, RuleTestResult } from '../../../udm/rule/test-types';

/** What the engine is given besides the events; `deadline` is epoch milliseconds. */
export interface WorkerTestOptions {
  referenceLists: Record<string, string[]>;
  timeRange?: { start: number; end: number };
  maxDetections: number;
  deadline?: number;
}

export interface BeginTest {
  type: 'begin';
  ruleText: string;
  options: WorkerTestOptions;
}

/** Some of one event variable's events (slices keep the extension host answering between them). */
export interface VariableEvents {
  type: 'events';
  variable: string;
  events: unknown[];
}

export interface ComputeTest {
  type: 'compute';
}

export type ToRuleWorker = BeginTest | VariableEvents | ComputeTest;

export type FromRuleWorker = { type: 'result'; result: RuleTestResult } | { type: 'error'; message: string };

export const EVENTS_PER_SLICE = 2000;

const CUT_REASONS: ReadonlyArray<NonNullable<RuleTestResult['cut']>['reason']> = ['work-limit', 'time-limit'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isOptions(v: unknown): v is WorkerTestOptions {
  if (!isRecord(v)) return false;
  const lists = v.referenceLists;
  const range = v.timeRange;
  return (
    isRecord(lists) &&
    Object.values(lists).every(isStringList) &&
    (range === undefined || (isRecord(range) && isFiniteNumber(range.start) && isFiniteNumber(range.end))) &&
    typeof v.maxDetections === 'number' &&
    Number.isSafeInteger(v.maxDetections) &&
    v.maxDetections >= 0 &&
    (v.deadline === undefined || isFiniteNumber(v.deadline))
  );
}

/** The message a worker was sent, or undefined for one of another shape. */
export function toRuleWorker(v: unknown): ToRuleWorker | undefined {
  if (!isRecord(v)) return undefined;
  switch (v.type) {
    case 'begin':
      return typeof v.ruleText === 'string' && isOptions(v.options) ? (v as unknown as BeginTest) : undefined;
    case 'events':
      return typeof v.variable === 'string' && Array.isArray(v.events) ? (v as unknown as VariableEvents) : undefined;
    case 'compute':
      return { type: 'compute' };
    default:
      return undefined;
  }
}

export function isDetection(v: unknown): v is Detection {
  if (!isRecord(v)) return false;
  return (
    isRecord(v.match) &&
    isFiniteNumber(v.windowStart) &&
    isFiniteNumber(v.windowEnd) &&
    isRecord(v.outcomes) &&
    (v.riskScore === undefined || isFiniteNumber(v.riskScore)) &&
    isRecord(v.events) &&
    Object.values(v.events).every(
      (list) =>
        Array.isArray(list) && list.every((e) => isRecord(e) && (e.id === undefined || typeof e.id === 'string')),
    )
  );
}

function isCut(v: unknown): v is RuleTestResult['cut'] {
  return (
    isRecord(v) &&
    (CUT_REASONS as readonly unknown[]).includes(v.reason) &&
    typeof v.message === 'string' &&
    v.message.length > 0
  );
}

/** The worker's answer, or undefined for one of another shape. */
export function fromRuleWorker(v: unknown): FromRuleWorker | undefined {
  if (!isRecord(v)) return undefined;
  if (v.type === 'error') return typeof v.message === 'string' ? { type: 'error', message: v.message } : undefined;
  if (v.type !== 'result' || !isRecord(v.result)) return undefined;
  const r = v.result;
  if (!Array.isArray(r.detections) || !r.detections.every(isDetection) || !isStringList(r.notes)) return undefined;
  if (r.cut !== undefined && !isCut(r.cut)) return undefined;
  const result: RuleTestResult = { detections: r.detections, notes: r.notes };
  if (r.cut) result.cut = r.cut;
  return { type: 'result', result };
}
