// The messages between the extension host and Test Rule's worker are checked on arrival: a message
// of another shape is refused on both sides, and the worker answers a muddled conversation with an
// error instead of a result.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import {
  fromRuleWorker,
  toRuleWorker,
  type FromRuleWorker,
} from '../../../../../src/features/shared/rule-engine/engine-protocol';
import { serveRuleTest } from '../../../../../src/features/shared/rule-engine/engine-worker';

const DETECTION = { match: { host: 'h' }, windowStart: 0, windowEnd: 10, outcomes: {}, events: { e: [{ udm: {} }] } };
const OPTIONS = { referenceLists: { bad_hosts: ['h1'] }, maxDetections: 10, deadline: 1_800_000_000_000 };

/** A port that records what the worker answers. */
function fakePort(): { port: EventEmitter & { postMessage(m: unknown): void }; replies: FromRuleWorker[] } {
  const replies: FromRuleWorker[] = [];
  const port = Object.assign(new EventEmitter(), {
    postMessage: (m: unknown) => {
      const checked = fromRuleWorker(m);
      assert.ok(checked, `the worker's answer has the protocol's shape: ${JSON.stringify(m)}`);
      replies.push(checked);
    },
  });
  return { port, replies };
}

describe('Test Rule worker protocol', () => {
  it('takes the rule, the events and the compute request, and refuses other shapes', () => {
    assert.deepEqual(toRuleWorker({ type: 'compute' }), { type: 'compute' });
    assert.ok(toRuleWorker({ type: 'begin', ruleText: 'rule r {}', options: OPTIONS }));
    assert.ok(toRuleWorker({ type: 'events', variable: 'e', events: [{}] }));
    for (const bad of [
      null,
      'compute',
      42,
      [],
      { type: 'begin', ruleText: 1, options: OPTIONS },
      { type: 'begin', ruleText: 'r', options: { ...OPTIONS, referenceLists: { l: [1] } } },
      { type: 'begin', ruleText: 'r', options: { ...OPTIONS, maxDetections: -1 } },
      { type: 'begin', ruleText: 'r', options: { ...OPTIONS, deadline: 'soon' } },
      { type: 'begin', ruleText: 'r', options: { ...OPTIONS, timeRange: { start: 0 } } },
      { type: 'events', variable: 'e', events: 'all' },
      { type: 'events', events: [] },
      { type: 'run' },
    ])
      assert.equal(toRuleWorker(bad), undefined, JSON.stringify(bad));
  });

  it('takes a result (with a cut saying why) or an error, and refuses other shapes', () => {
    const cut = { reason: 'work-limit', message: 'Stopped after 1,000,000 combinations.' };
    assert.deepEqual(fromRuleWorker({ type: 'result', result: { detections: [DETECTION], notes: ['n'], cut } }), {
      type: 'result',
      result: { detections: [DETECTION], notes: ['n'], cut },
    });
    assert.deepEqual(fromRuleWorker({ type: 'error', message: 'bad rule' }), { type: 'error', message: 'bad rule' });
    for (const bad of [
      undefined,
      { type: 'result' },
      { type: 'result', result: { detections: 'many', notes: [] } },
      { type: 'result', result: { detections: [null], notes: [] } },
      { type: 'result', result: { detections: ['a detection'], notes: [] } },
      { type: 'result', result: { detections: [{ ...DETECTION, windowStart: 'dawn' }], notes: [] } },
      { type: 'result', result: { detections: [{ ...DETECTION, riskScore: 'high' }], notes: [] } },
      { type: 'result', result: { detections: [{ ...DETECTION, events: { e: [42] } }], notes: [] } },
      { type: 'result', result: { detections: [], notes: [7] } },
      { type: 'result', result: { detections: [], notes: [], cut: { reason: 'bored', message: 'x' } } },
      { type: 'result', result: { detections: [], notes: [], cut: { reason: 'time-limit', message: '' } } },
      { type: 'error' },
      { type: 'progress', message: 'x' },
    ])
      assert.equal(fromRuleWorker(bad), undefined, JSON.stringify(bad));
  });

  it('the worker computes the rule over the events it was sent, slice by slice', () => {
    const { port, replies } = fakePort();
    serveRuleTest(port);
    const rule = 'rule r {\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n  condition:\n    $e\n}\n';
    const event = (i: number): unknown => ({
      udm: { metadata: { eventType: 'USER_LOGIN', eventTimestamp: new Date(1.7e12 + i * 1000).toISOString() } },
    });
    port.emit('message', { type: 'begin', ruleText: rule, options: { referenceLists: {}, maxDetections: 10 } });
    port.emit('message', { type: 'events', variable: 'e', events: [event(0)] });
    port.emit('message', { type: 'events', variable: 'e', events: [event(1), event(2)] });
    port.emit('message', { type: 'compute' });
    assert.equal(replies.length, 1);
    assert.equal(replies[0].type, 'result');
    if (replies[0].type === 'result') assert.equal(replies[0].result.detections.length, 3);
  });

  for (const [what, messages, reason] of [
    [
      'a message of another shape',
      [{ type: 'begin', ruleText: 'r', options: OPTIONS }, { type: 'hack' }],
      /does not understand/,
    ],
    ['events before the rule', [{ type: 'events', variable: 'e', events: [] }], /events before the rule/],
    [
      'a second rule',
      [
        { type: 'begin', ruleText: 'r', options: OPTIONS },
        { type: 'begin', ruleText: 'r', options: OPTIONS },
      ],
      /second rule/,
    ],
    ['compute before the rule', [], /before the rule/],
  ] as const)
    it(`the worker answers ${what} with an error, not a result`, () => {
      const { port, replies } = fakePort();
      serveRuleTest(port);
      for (const m of messages) port.emit('message', m);
      port.emit('message', { type: 'compute' });
      assert.equal(replies.length, 1);
      assert.equal(replies[0].type, 'error');
      if (replies[0].type === 'error') assert.match(replies[0].message, reason);
    });
});
