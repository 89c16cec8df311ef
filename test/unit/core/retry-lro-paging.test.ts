import { strict as assert } from 'node:assert';
import {
  CancelledError,
  GoogleApiError,
  describeError,
  isCancellation,
  statusFromHttp,
} from '../../../src/core/google/errors';
import { backoffDelay, DEFAULT_RETRY, sleep, withRetry } from '../../../src/core/google/retry';
import { OperationFailedError, pollOperation, type OperationLike } from '../../../src/core/lro';
import { PagedList, paginate } from '../../../src/core/paging';
import { ModelOperation } from '../../../src/core/models/operation';

const fast = { ...DEFAULT_RETRY, initialBackoffMs: 1, maxBackoffMs: 2 };

describe('errors', () => {
  it('decodes Google REST error bodies and tolerates foreign ones', () => {
    const e = GoogleApiError.fromRest(409, { error: { code: 409, message: 'etag mismatch', status: 'ABORTED' } });
    assert.equal(e.status, 'ABORTED');
    assert.equal(e.code, 10);
    assert.equal(e.message, 'etag mismatch');
    const foreign = GoogleApiError.fromRest(503, '<html>bad gateway</html>');
    assert.equal(foreign.status, 'UNAVAILABLE');
    assert.equal(foreign.message, 'HTTP 503');
    assert.equal(statusFromHttp(418), 'UNKNOWN');
  });

  it('maps gRPC errors by code and adds a hint for people', () => {
    const e = GoogleApiError.fromGrpc({ code: 16, details: 'no token' });
    assert.equal(e.status, 'UNAUTHENTICATED');
    assert.match(describeError(e), /application-default login/);
  });

  it('recognises cancellations of every kind', () => {
    assert.ok(isCancellation(new CancelledError()));
    assert.ok(isCancellation(Object.assign(new Error('x'), { name: 'AbortError' })));
    assert.ok(!isCancellation(new Error('x')));
  });
});

describe('retry', () => {
  it('keeps backoff within the jittered exponential ceiling', () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const ceiling = Math.min(DEFAULT_RETRY.maxBackoffMs, DEFAULT_RETRY.initialBackoffMs * 2 ** attempt);
      assert.equal(
        backoffDelay(DEFAULT_RETRY, attempt, () => 0.999999),
        Math.round(ceiling * 0.9999995),
      );
      assert.equal(
        backoffDelay(DEFAULT_RETRY, attempt, () => 0),
        Math.round(ceiling / 2),
      );
    }
  });

  it('retries retryable statuses until success', async () => {
    let calls = 0;
    const result = await withRetry(async () => {
      calls++;
      if (calls < 3) throw new GoogleApiError('UNAVAILABLE', 'down');
      return 'ok';
    }, fast);
    assert.equal(result, 'ok');
    assert.equal(calls, 3);
  });

  it('does not retry a non-retryable status and stops after maxRetries', async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(async () => {
        calls++;
        throw new GoogleApiError('NOT_FOUND', 'gone');
      }, fast),
      /gone/,
    );
    assert.equal(calls, 1);
    calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw new GoogleApiError('UNAVAILABLE', 'down');
        },
        { ...fast, maxRetries: 2 },
      ),
      /down/,
    );
    assert.equal(calls, 3);
  });

  it('stops sleeping as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await assert.rejects(pending, CancelledError);
  });
});

describe('pollOperation', () => {
  it('polls until done and reports each state', async () => {
    const states: OperationLike[] = [
      { name: 'op', done: false, metadata: 1 },
      { name: 'op', done: true, response: 'r' },
    ];
    const seen: unknown[] = [];
    const done = await pollOperation(
      { name: 'op', done: false, metadata: 0 },
      {
        get: async () => states.shift()!,
        initialDelayMs: 1,
        onUpdate: (op) => seen.push(op.metadata ?? op.response),
      },
    );
    assert.equal(done.response, 'r');
    assert.deepEqual(seen, [0, 1, 'r']);
  });

  it('turns an operation error into OperationFailedError with its status', async () => {
    await assert.rejects(
      pollOperation(
        { name: 'op', done: true, error: { code: 9, message: 'model is deployed' } },
        { get: async () => assert.fail('no poll') },
      ),
      (err: unknown) =>
        err instanceof OperationFailedError && err.status === 'FAILED_PRECONDITION' && /deployed/.test(err.message),
    );
  });

  it('explains a failed operation by the method that started it (permission and role, or preconditions)', async () => {
    const failed = (code: number, message: string, method?: string) =>
      pollOperation(
        { name: 'projects/p/locations/l/operations/7', done: true, error: { code, message } },
        { get: async () => assert.fail('no poll'), ...(method ? { method } : {}) },
      ).then(
        () => assert.fail('expected a failure'),
        (err: unknown) => describeError(err),
      );
    const denied = await failed(7, 'Permission denied on resource.', 'DeleteModel');
    assert.match(denied, /aiplatform\.models\.delete/);
    assert.match(denied, /roles\/aiplatform\.user/);
    const bare = await failed(9, '', 'DeleteModelVersion');
    assert.match(bare, /^Operation projects\/p\/locations\/l\/operations\/7 failed \(FAILED_PRECONDITION\)/);
    assert.match(bare, /not the only version of the model/);
    const keys = await failed(7, 'denied', 'apikeys.keys.patch');
    assert.match(keys, /roles\/serviceusage\.apiKeysAdmin/);
    // Without the method nothing can be named: the general hint stays.
    assert.match(await failed(7, 'denied'), /Ask a project owner/);
  });

  it('a Model Registry operation names the RPC that started it in its failure', async () => {
    const api = {
      getOperation: () => assert.fail('no poll'),
      cancelOperation: () => assert.fail('no cancel'),
      deleteOperation: () => assert.fail('no delete'),
    };
    const op = new ModelOperation(api, 'deleteVersion', { name: 'op', done: true, error: { code: 7, message: 'no' } });
    await assert.rejects(op.wait(), (err: unknown) => {
      assert.ok(err instanceof OperationFailedError);
      assert.equal(err.options.method, 'DeleteModelVersion');
      return true;
    });
  });

  it('stops waiting when aborted, without another poll', async () => {
    const controller = new AbortController();
    let polls = 0;
    const pending = pollOperation(
      { name: 'op', done: false },
      {
        get: async () => {
          polls++;
          return { name: 'op', done: false };
        },
        signal: controller.signal,
        initialDelayMs: 50_000,
      },
    );
    controller.abort();
    await assert.rejects(pending, CancelledError);
    assert.equal(polls, 0);
  });
});

describe('paging', () => {
  const pages: Record<string, { items: number[]; nextPageToken?: string }> = {
    '': { items: [1, 2], nextPageToken: 'b' },
    b: { items: [3], nextPageToken: 'c' },
    c: { items: [4] },
  };

  it('has the next page on the wire while the consumer reads the current one', async () => {
    const fetched: string[] = [];
    const it = paginate(async (token) => {
      fetched.push(token ?? '');
      return pages[token ?? ''];
    });
    const first = await it.next();
    assert.equal(first.value, 1);
    // The second page was asked for before the first page's items were handed over, and no further.
    assert.deepEqual(fetched, ['', 'b']);
    const rest: number[] = [];
    for await (const v of it) rest.push(v);
    assert.deepEqual(rest, [2, 3, 4]);
    assert.deepEqual(fetched, ['', 'b', 'c']);
  });

  it('aborts the page read ahead when the consumer stops, without an unhandled rejection', async () => {
    const signals: AbortSignal[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const it = paginate(
        (token, signal) =>
          new Promise<{ items: number[]; nextPageToken?: string }>((resolve, reject) => {
            signals.push(signal!);
            if (token === undefined) resolve(pages['']);
            else signal!.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          }),
      );
      for await (const v of it) {
        assert.equal(v, 1);
        break;
      }
      assert.equal(signals.length, 2);
      assert.equal(signals[0].aborted, true, 'the signal of the page already read is done with too');
      assert.equal(signals[1].aborted, true, 'the page read ahead was aborted');
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("stops on the caller's cancel and aborts the page read ahead", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const it = paginate<number>((token, signal) => {
      signals.push(signal!);
      return token === undefined
        ? Promise.resolve(pages[''])
        : new Promise<never>((_, reject) =>
            signal!.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
          );
    }, controller.signal);
    assert.equal((await it.next()).value, 1);
    controller.abort();
    await assert.rejects(async () => {
      for await (const _ of it) {
        /* drain */
      }
    });
    assert.equal(signals[1].aborted, true);
  });

  it('hands items over one at a time when a page makes them as they are reached', async () => {
    const made: number[] = [];
    const oneByOne = (values: number[], nextPageToken?: string) => ({
      get items(): number[] {
        throw new Error('the whole page was decoded');
      },
      ...(nextPageToken ? { nextPageToken } : {}),
      *itemsOneByOne() {
        for (const v of values) {
          made.push(v);
          yield v;
        }
      },
    });
    const it = paginate(async (token) => (token ? oneByOne([3]) : oneByOne([1, 2], 'b')));
    const seen: Array<[number, number[]]> = [];
    for await (const v of it) seen.push([v, [...made]]);
    // Each item is made only when the consumer reaches it.
    assert.deepEqual(seen, [
      [1, [1]],
      [2, [1, 2]],
      [3, [1, 2, 3]],
    ]);
  });

  it('refuses a server that repeats a page token', async () => {
    const it = paginate(async () => ({ items: [1], nextPageToken: 'same' }));
    await assert.rejects(async () => {
      for await (const _ of it) {
        /* drain */
      }
    }, /repeated page token/);
  });

  it('loads a tree list page by page', async () => {
    const list = new PagedList(async (token) => pages[token ?? '']);
    assert.ok(list.hasMore);
    await list.loadMore();
    assert.deepEqual(list.items, [1, 2]);
    await list.loadMore();
    await list.loadMore();
    assert.deepEqual(list.items, [1, 2, 3, 4]);
    assert.ok(!list.hasMore);
  });
});
