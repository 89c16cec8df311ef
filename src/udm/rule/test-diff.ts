// What a failed rule test case shows as its expected/actual difference: the expectation as the test
// file writes it, and the engine's answer written in the same shape, holding only the fields the
// expectation compares (a detection the case does not expect is written whole). Two YAML texts that
// differ exactly where the comparison found a difference, for the Test Explorer's diff view.
import { stringify } from 'yaml';
import { expectedFrom } from './test-capture';
import type { ExpectedDetection, Expectation } from './test-file';
import type { Detection } from './test-types';

/** Detections written out at most; the rest is counted in one line. */
const MAX_WRITTEN = 200;

function iso(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}

function yamlOf(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}

function pick(
  wanted: Readonly<Record<string, unknown>> | undefined,
  actual: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  if (!wanted) return undefined;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(wanted)) out[k] = Object.hasOwn(actual, k) ? actual[k] : null;
  return out;
}

/** An expected detection as the test file holds it (windows as RFC 3339 text). */
function writtenExpected(e: ExpectedDetection): Record<string, unknown> {
  return {
    ...(e.match ? { match: e.match } : {}),
    ...(e.outcomes ? { outcomes: e.outcomes } : {}),
    ...(e.riskScore !== undefined ? { riskScore: e.riskScore } : {}),
    ...(e.events ? { events: e.events } : {}),
    ...(e.window ? { window: { start: iso(e.window.start), end: iso(e.window.end) } } : {}),
  };
}

/** An actual detection in the shape of the expected one it is compared with. */
function writtenActual(e: ExpectedDetection | undefined, d: Detection): Record<string, unknown> {
  if (!e) return expectedFrom(d);
  const events: Record<string, unknown> = {};
  for (const [v, want] of Object.entries(e.events ?? {})) {
    const got = d.events[v] ?? [];
    events[v] = typeof want === 'number' ? got.length : got.map((x) => x.id ?? '');
  }
  const match = pick(e.match, d.match);
  const outcomes = pick(e.outcomes, d.outcomes);
  return {
    ...(match ? { match } : {}),
    ...(outcomes ? { outcomes } : {}),
    ...(e.riskScore !== undefined ? { riskScore: d.riskScore ?? null } : {}),
    ...(e.events ? { events } : {}),
    ...(e.window ? { window: { start: iso(d.windowStart), end: iso(d.windowEnd) } } : {}),
  };
}

function listed<T>(items: readonly T[], write: (item: T, i: number) => unknown): unknown[] {
  const out = items.slice(0, MAX_WRITTEN).map(write);
  if (items.length > MAX_WRITTEN) out.push(`… and ${items.length - MAX_WRITTEN} more`);
  return out;
}

/** The expectation as YAML text. */
export function expectedText(expect: Expectation): string {
  if (expect.kind === 'fires') return yamlOf({ fires: expect.fires });
  if (expect.kind === 'count') return yamlOf({ count: expect.count });
  return yamlOf({ detections: listed(expect.detections, writtenExpected) });
}

/** What the engine answered, as YAML text in the expectation's shape. */
export function actualText(expect: Expectation, detections: readonly Detection[]): string {
  if (expect.kind === 'fires') return yamlOf({ fires: detections.length > 0 });
  if (expect.kind === 'count') return yamlOf({ count: detections.length });
  return yamlOf({ detections: listed(detections, (d, i) => writtenActual(expect.detections[i], d)) });
}
