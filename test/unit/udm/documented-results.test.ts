// The results Google's function pages give (DOCUMENTED_RESULTS in corpus.ts), evaluated by the
// same compiled query the sandbox's udmSearch runs: each condition holds, its negation does not.
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../src/udm/index';
import { DOCUMENTED_RESULTS } from './corpus';

const EVENT = { metadata: { id: 'AAAA', eventTimestamp: '2024-02-22T15:43:00Z' }, principal: { hostname: 'web-01' } };

describe('UDM functions give the results Google documents', () => {
  for (const [page, query] of DOCUMENTED_RESULTS) {
    it(`${page}: ${query}`, () => {
      assert.deepEqual(
        analyze(query).diagnostics.map((d) => `${d.code ?? ''}: ${d.message}`),
        [],
      );
      assert.equal(compileQuery(query).matches(EVENT), true, 'the documented result');
      assert.equal(compileQuery(`not (${query})`).matches(EVENT), false, 'and no other');
    });
  }

  it('arithmetic over a field the event does not set counts it as 0', () => {
    const event = { network: { sentBytes: '600' } };
    for (const q of [
      'network.received_bytes + network.sent_bytes = 600',
      'network.sent_bytes - network.received_bytes = 600',
      'network.received_bytes * 2 = 0',
      '300 < math.abs(network.received_bytes - 1000)',
    ])
      assert.equal(compileQuery(q).matches(event), true, q);
  });

  it('raw (back-quoted) strings are patterns of every re.* function, read without escapes', () => {
    const event = { network: { email: { from: 'alice@google.com' } }, target: { url: 'https://a.example/x.exe' } };
    for (const q of [
      '"google.com" = re.capture(network.email.from, `@(.*)`)',
      're.regex(target.url, `\\.exe$`)',
      're.capture_all(target.url, `([a-z]+)\\.`) = ["a", "x"]',
      '"https://a.example/x.com" = re.replace(target.url, `\\.exe$`, ".com")',
      '$d = re.capture(target.url, `^https?://([^/]+)`)\n$d = "a.example"',
    ]) {
      assert.deepEqual(
        analyze(q).diagnostics.map((d) => d.message),
        [],
        q,
      );
      assert.equal(compileQuery(q).matches(event), true, q);
    }
    assert.ok(
      analyze('re.capture(target.url, `(a)(b)`) = "x"').diagnostics.some((d) => d.code === 'capture-groups'),
      'the capture group count is checked in a raw pattern too',
    );
  });
});
