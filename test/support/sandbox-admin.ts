// What integration tests say to a running sandbox: an admin call (ingest, faults, reset), and times
// as the sandbox and the service write them (whole seconds, UTC).
import type { Sandbox } from '../../src/emulator/sandbox';

/** POSTs `body` to the sandbox's admin `action` (e.g. "events:ingest", "faults"); throws unless it is taken. */
export async function admin(sb: Sandbox, action: string, body: unknown): Promise<void> {
  const res = await fetch(`${sb.http}/sandbox/v1/${action}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`${action}: ${await res.text()}`);
}

/** An RFC 3339 time in whole seconds. */
export const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
