// SecOpsClient.udmSearchStreaming against the sandbox: the same events and fields as udmSearch,
// handed over in batches while the body is still arriving; error answers, a body that breaks off,
// a cancelled search, and retries that never hand an event over twice.
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/emulator/sandbox';
import { SecOpsClient, UdmSearchStreamBrokenError } from '../../../src/core/secops/client';
import { CancelledError, GoogleApiError } from '../../../src/core/google/errors';
import { sandboxTokenSource } from '../../../src/core/google/credentials';
import { admin } from '../../support/sandbox-admin';
import type { UdmSearchEvent } from '../../../src/core/secops/types';

const DAY = 86_400_000;

describe('SecOpsClient.udmSearchStreaming', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let client: SecOpsClient;
  let window: { startTime: string; endTime: string };
  const query = 'principal.hostname = /.*/';

  before(async () => {
    sb = await startSandbox({ seed: 'demo' });
    await admin(sb, 'ratelimits', { enabled: false });
    const now = sb.clock.now();
    window = { startTime: new Date(now - 8 * DAY).toISOString(), endTime: new Date(now).toISOString() };
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await admin(sb, 'faults', { rules: [] });
    client = new SecOpsClient({
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      retry: { maxRetries: 3, initialBackoffMs: 1, maxBackoffMs: 5, multiplier: 2, retryable: ['UNAVAILABLE'] },
    });
  });

  it('hands over the same 10,000 events as udmSearch, in order, in several batches, then moreDataAvailable', async () => {
    const whole = await client.udmSearch({ query, ...window });
    const batches: UdmSearchEvent[][] = [];
    const result = await client.udmSearchStreaming({ query, ...window }, (b) => batches.push(b));
    assert.ok(batches.length > 1, `expected several batches, got ${batches.length}`);
    assert.deepEqual(batches.flat(), whole.events);
    assert.equal(result.eventCount, 10_000);
    assert.equal(result.moreDataAvailable, true);
    assert.deepEqual(result.fields, { moreDataAvailable: true });
  });

  it('hands the first batch over while the rest of the body is still on its way', async () => {
    // Each 64 KB chunk of the body waits 50 ms: the whole answer takes seconds to arrive.
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', bodyChunkDelayMs: 50 }] });
    let batches = 0;
    let firstBatch!: () => void;
    const first = new Promise<void>((resolve) => (firstBatch = resolve));
    const done = client.udmSearchStreaming({ query, ...window, limit: 2000 }, () => {
      if (batches++ === 0) firstBatch();
    });
    let settled = false;
    void done.then(
      () => (settled = true),
      () => (settled = true),
    );
    await first;
    assert.equal(settled, false, 'the answer was complete before the first batch was handed over');
    const result = await done;
    assert.ok(batches > 2, `${batches} batches`);
    assert.equal(result.eventCount, 2000);
  });

  it('an error answer is a GoogleApiError and hands nothing over', async () => {
    const got: UdmSearchEvent[] = [];
    await assert.rejects(
      client.udmSearchStreaming({ query: 'principal.hostname = ', ...window }, (b) => got.push(...b)),
      (e: unknown) => e instanceof GoogleApiError && e.status === 'INVALID_ARGUMENT' && e.httpStatus === 400,
    );
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', errorRate: 1, codes: [500] }] });
    await assert.rejects(
      client.udmSearchStreaming({ query, ...window }, (b) => got.push(...b)),
      (e: unknown) => e instanceof GoogleApiError && e.httpStatus === 500,
    );
    assert.equal(got.length, 0);
  });

  it('a body that breaks off after some events is an error naming how many came, not retried', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', bodyResetAfterBytes: 300_000 }] });
    const got: UdmSearchEvent[] = [];
    let retries = 0;
    const retrying = new SecOpsClient({
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      retry: { maxRetries: 3, initialBackoffMs: 1, maxBackoffMs: 5, multiplier: 2, retryable: ['UNAVAILABLE'] },
      onRetry: () => retries++,
    });
    await assert.rejects(
      retrying.udmSearchStreaming({ query, ...window }, (b) => got.push(...b)),
      (e: unknown) =>
        e instanceof UdmSearchStreamBrokenError &&
        e.eventsReceived === got.length &&
        /after \d+ events/.test(e.message),
    );
    assert.ok(got.length > 0 && got.length < 10_000, `${got.length} events before the break`);
    assert.equal(retries, 0);
  });

  it('a body that breaks off before the first event is retried like udmSearch', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', bodyResetAfterBytes: 5 }] });
    let retries = 0;
    const retrying = new SecOpsClient({
      baseUrl: sb.http,
      tokens: sandboxTokenSource(),
      retry: { maxRetries: 2, initialBackoffMs: 1, maxBackoffMs: 5, multiplier: 2, retryable: ['UNAVAILABLE'] },
      onRetry: () => retries++,
    });
    const got: UdmSearchEvent[] = [];
    await assert.rejects(
      retrying.udmSearchStreaming({ query, ...window }, (b) => got.push(...b)),
      (e: unknown) => e instanceof GoogleApiError && e.status === 'UNAVAILABLE',
    );
    assert.equal(retries, 2);
    assert.equal(got.length, 0);
  });

  it('stops when cancelled mid-body: CancelledError, and no batch after the cancel', async () => {
    await admin(sb, 'faults', { rules: [{ method: 'secops.udmSearch', bodyChunkDelayMs: 20 }] });
    const ctl = new AbortController();
    let batches = 0;
    let afterCancel = 0;
    await assert.rejects(
      client.udmSearchStreaming(
        { query, ...window },
        () => {
          if (ctl.signal.aborted) afterCancel++;
          if (++batches === 2) ctl.abort();
        },
        ctl.signal,
      ),
      CancelledError,
    );
    assert.equal(batches, 2);
    assert.equal(afterCancel, 0);
  });

  it('validates the request like udmSearch before sending anything', async () => {
    await assert.rejects(
      client.udmSearchStreaming({ query: ' ', ...window }, () => undefined),
      /query/,
    );
  });
});
