// Shared pieces of the reliability runs: sandbox admin calls, a fault counter and the rule every
// failed flow must meet (a GoogleApiError a person can act on, never a raw transport error).
import assert from 'node:assert/strict';
import type { Sandbox } from '../../src/emulator/sandbox';
import type { FaultRule } from '../../src/emulator/types';
import { GoogleApiError, describeError, isCancellation } from '../../src/core/google/errors';
import type { RetryPolicy } from '../../src/core/google/retry';

export async function admin(sb: Sandbox, action: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sb.http}/sandbox/v1/${action}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`admin ${action}: ${JSON.stringify(json)}`);
  return json;
}

export function setFaults(sb: Sandbox, rules: FaultRule[], seed = 7): Promise<unknown> {
  return admin(sb, 'faults', { rules, seed });
}

/** Counts what the sandbox's fault rules decided, by wrapping the injector the servers consult per call. */
export function countFaults(sb: Sandbox): {
  errors: number;
  resets: number;
  delayed: number;
  calls: number;
  byMethod: Map<string, number>;
} {
  const counts = { errors: 0, resets: 0, delayed: 0, calls: 0, byMethod: new Map<string, number>() };
  const decide = sb.faults.decide.bind(sb.faults);
  sb.faults.decide = (method) => {
    const d = decide(method);
    counts.calls++;
    counts.byMethod.set(method, (counts.byMethod.get(method) ?? 0) + 1);
    if (d.kind === 'error') counts.errors++;
    if (d.kind === 'reset') counts.resets++;
    if (d.latencyMs > 0) counts.delayed++;
    return d;
  };
  return counts;
}

/** Quick retries so a run with 20 % failures takes seconds; same statuses as the product's default. */
export const FAST_RETRY: RetryPolicy = {
  maxRetries: 6,
  initialBackoffMs: 5,
  maxBackoffMs: 40,
  multiplier: 2,
  retryable: ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'],
};

/**
 * A flow that did not complete must end with an error a person can act on: a GoogleApiError with a
 * known status and a message, never a bare socket error or a TypeError from a half-read answer.
 */
export function assertClearError(flow: string, err: unknown): GoogleApiError {
  assert.ok(!isCancellation(err), `${flow}: nobody cancelled, yet it ended as cancelled: ${String(err)}`);
  assert.ok(
    err instanceof GoogleApiError,
    `${flow}: ended with ${(err as Error)?.name ?? typeof err} "${(err as Error)?.message ?? String(err)}" (code ${String((err as { code?: unknown })?.code)}) instead of a GoogleApiError`,
  );
  assert.notEqual(err.status, 'UNKNOWN', `${flow}: status UNKNOWN tells the user nothing: ${err.message}`);
  assert.ok(err.message.trim().length > 0, `${flow}: empty message`);
  const text = describeError(err);
  assert.ok(text.includes(err.status), `${flow}: the shown text names no status: ${text}`);
  return err;
}

export interface FlowTally {
  run: number;
  completed: number;
  failedClearly: number;
  failures: string[];
}

export function newTally(): FlowTally {
  return { run: 0, completed: 0, failedClearly: 0, failures: [] };
}

/** Runs one flow; a completed flow and a clearly failed one both survive, anything else is recorded. */
export async function runFlow(
  tally: FlowTally,
  name: string,
  fn: () => Promise<void>,
): Promise<'completed' | 'failed'> {
  tally.run++;
  try {
    await fn();
    tally.completed++;
    return 'completed';
  } catch (err) {
    if (err instanceof assert.AssertionError) {
      tally.failures.push(`${name}: ${err.message}`);
      return 'failed';
    }
    try {
      assertClearError(name, err);
      tally.failedClearly++;
    } catch (unclear) {
      tally.failures.push((unclear as Error).message);
    }
    return 'failed';
  }
}
