// Shared by the sandbox HTTP tests: a sandbox per test and small raw-HTTP helpers (undici).
import { request } from 'undici';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import type { SeedName } from '../../../src/emulator/types';

export const AUTH = { authorization: 'Bearer test-token' };

export async function freshSandbox(seed: SeedName = 'demo'): Promise<Sandbox> {
  return startSandbox({ seed });
}

export interface Reply {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

export async function call(
  sandbox: Sandbox,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.auth === false ? {} : AUTH), ...(options.headers ?? {}) };
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json; charset=utf-8';
  const res = await request(`${sandbox.http}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: res.statusCode, body: parsed, headers: res.headers };
}

export function admin(sandbox: Sandbox, action: string, body?: unknown): Promise<Reply> {
  return call(sandbox, body === undefined ? 'GET' : 'POST', `/sandbox/v1/${action}`, { body, auth: false });
}

/** Query string with every value percent-encoded (never "+" for spaces). */
export function qs(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function expectError(reply: Reply, httpStatus: number, status: string, pattern?: RegExp): void {
  if (reply.status !== httpStatus || reply.body?.error?.status !== status || reply.body?.error?.code !== httpStatus) {
    throw new Error(
      `expected ${httpStatus} ${status}, got ${reply.status}: ${JSON.stringify(reply.body).slice(0, 400)}`,
    );
  }
  if (pattern && !pattern.test(reply.body.error.message))
    throw new Error(`message ${JSON.stringify(reply.body.error.message)} does not match ${pattern}`);
}
