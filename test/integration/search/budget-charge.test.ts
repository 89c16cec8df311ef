// What the hourly udmSearch budget is charged for, against the sandbox: only attempts the service
// answered. Google's limits table counts query submissions per hour and answers 429 when the rate is
// reached (reference/api-facts.md, "Rate limits"); a request that never arrived was not submitted.
// So a refused connection or a timeout before any answer costs nothing, retries included; a served
// search costs one; each answered attempt (a 500 and its retries) costs one; a 429 was not run and
// costs nothing.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { SecOpsClient } from '../../../src/core/secops/client';
import { RateLimiter, SECOPS_BUDGETS } from '../../../src/core/ratelimit';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import type { RetryPolicy } from '../../../src/core/google/retry';
import { admin } from '../../support/sandbox-admin';

const HOURLY = SECOPS_BUDGETS.udmSearch.limit;

/** A local port nobody listens on: connecting to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('udmSearch budget: only what the service answered is charged (sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let limiter: RateLimiter;

  const retry: RetryPolicy = {
    maxRetries: 2,
    initialBackoffMs: 5,
    maxBackoffMs: 10,
    multiplier: 2,
    retryable: ['UNAVAILABLE', 'INTERNAL', 'RESOURCE_EXHAUSTED'],
    maxTotalWaitMs: 10_000,
  };
  const client = (baseUrl: string, timeoutMs?: number): SecOpsClient =>
    new SecOpsClient({
      baseUrl,
      tokens: sandboxTokenSource(),
      limiter,
      retry,
      ...(timeoutMs !== undefined ? { udmSearchTimeoutMs: timeoutMs } : {}),
    });
  /** What the search itself reported spending (the run history records this). */
  let charged = 0;
  const search = (c: SecOpsClient) =>
    c.udmSearch({
      query: 'metadata.event_type = "USER_LOGIN"',
      startTime: Date.now() - 3_600_000,
      endTime: Date.now(),
      limit: 10,
      onCharged: () => charged++,
    });
  const spent = (): number => HOURLY - limiter.snapshot('udmSearch').remaining;

  beforeEach(async () => {
    sb = await startSandbox({ seed: 'demo' });
    limiter = new RateLimiter(SECOPS_BUDGETS);
    charged = 0;
  });
  afterEach(() => {
    assert.equal(charged, spent(), 'the search reports what the budget was charged');
  });
  afterEach(async () => {
    await sb.close();
  });

  it('a refused connection costs nothing, each of its retries neither', async () => {
    const attempts: number[] = [];
    const c = new SecOpsClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      tokens: sandboxTokenSource(),
      limiter,
      retry,
      onRetry: (_m, _e, attempt) => attempts.push(attempt),
    });
    await assert.rejects(search(c), (e: Error) => /ECONNREFUSED|connection/i.test(e.message));
    assert.deepEqual(attempts, [1, 2], 'it did retry');
    assert.equal(spent(), 0);
  });

  it('a stopped sandbox costs nothing; the same search served costs one', async () => {
    await search(client(sb.http));
    assert.equal(spent(), 1);
    const url = sb.http;
    await sb.close();
    await assert.rejects(search(client(url)));
    assert.equal(spent(), 1, 'the refused searches after the stop added nothing');
    sb = await startSandbox({ seed: 'demo' });
  });

  it('a timeout before any answer costs nothing', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', latencyMs: 3_000 }] });
    await assert.rejects(search(client(sb.http, 200)));
    assert.equal(spent(), 0);
  });

  it('each answered attempt costs one: a 500 and its two retries cost three', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: [500] }] });
    await assert.rejects(search(client(sb.http)), /HTTP 500|INTERNAL/);
    assert.equal(spent(), 3);
  });

  it('a 429 the service refused to run costs nothing', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: [429] }] });
    await assert.rejects(search(client(sb.http)));
    assert.equal(spent(), 0);
  });
});
