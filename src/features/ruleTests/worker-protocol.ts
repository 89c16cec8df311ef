// Messages between the extension host and the rule tests worker (worker.ts): one request (a rule,
// and the names of the cases to run or none for all), one answer (`cloudbench test`'s result for
// that rule, or why there is none). Both sides check what arrives.
import type { CaseResult, RuleTestProblem, RuleTests } from '../../cli/test';
import { isDetection } from '../shared/rule-engine/engine-protocol';

export interface RunRuleTests {
  type: 'test';
  /** the rule file and the folder it is read within (links out of it are not followed) */
  rule: { path: string; root: string };
  /** the cases to run, by name; null for every case */
  names: string[] | null;
}

export type FromRuleTestsWorker = { type: 'result'; result: RuleTests } | { type: 'error'; message: string };

const STATUSES: readonly unknown[] = ['passed', 'failed', 'error'];
const PROBLEM_CODES: readonly unknown[] = [
  'missing',
  'invalid',
  'unreadable',
  'too-few',
  'fire-and-no-fire',
  'rule-errors',
];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isSpan = (v: Record<string, unknown>): boolean =>
  [v.line, v.column, v.endLine, v.endColumn].every((n) => Number.isSafeInteger(n) && (n as number) >= 0);

function isCase(v: unknown): v is CaseResult {
  return (
    isRecord(v) &&
    typeof v.name === 'string' &&
    isRecord(v.span) &&
    isSpan(v.span) &&
    STATUSES.includes(v.status) &&
    isStringList(v.messages) &&
    (v.detections === undefined || (Array.isArray(v.detections) && v.detections.every(isDetection))) &&
    isStringList(v.notes) &&
    typeof v.expectsDetections === 'boolean'
  );
}

function isProblem(v: unknown): v is RuleTestProblem {
  return (
    isRecord(v) &&
    PROBLEM_CODES.includes(v.code) &&
    typeof v.file === 'string' &&
    typeof v.message === 'string' &&
    typeof v.fails === 'boolean' &&
    isSpan(v)
  );
}

/** The request a worker was sent, or undefined for one of another shape. */
export function toRuleTestsWorker(v: unknown): RunRuleTests | undefined {
  if (!isRecord(v) || v.type !== 'test' || !isRecord(v.rule)) return undefined;
  const { path, root } = v.rule;
  if (typeof path !== 'string' || typeof root !== 'string') return undefined;
  if (v.names !== null && !isStringList(v.names)) return undefined;
  return { type: 'test', rule: { path, root }, names: v.names === null ? null : [...v.names] };
}

/** The worker's answer, or undefined for one of another shape. */
export function fromRuleTestsWorker(v: unknown): FromRuleTestsWorker | undefined {
  if (!isRecord(v)) return undefined;
  if (v.type === 'error') return typeof v.message === 'string' ? { type: 'error', message: v.message } : undefined;
  if (v.type !== 'result' || !isRecord(v.result)) return undefined;
  const r = v.result;
  const ok =
    typeof r.rule === 'string' &&
    (r.ruleName === undefined || typeof r.ruleName === 'string') &&
    typeof r.testFile === 'string' &&
    Array.isArray(r.cases) &&
    r.cases.every(isCase) &&
    Array.isArray(r.problems) &&
    r.problems.every(isProblem);
  return ok ? { type: 'result', result: r as unknown as RuleTests } : undefined;
}
