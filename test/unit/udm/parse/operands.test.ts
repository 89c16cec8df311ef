// reference/yaral-rules.md: "In events:, a statement ends at the end of its line when it is
// complete: a comparison that ends one line followed by a line starting with `(` is two
// statements, not a call." Search reads its filter with the same grammar.
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../../src/udm/index';

const errors = (q: string): string[] =>
  analyze(q)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code ?? ''}: ${d.message}`);

describe('a statement ends at the end of its line', () => {
  it('a comparison ending its line, then a ( group, is two statements ANDed', () => {
    const q =
      '$e.metadata.event_timestamp.seconds < $e.metadata.collected_timestamp.seconds\n(\n  $e.metadata.event_type = "USER_LOGIN" or\n  $e.metadata.event_type = "USER_LOGOUT"\n)';
    assert.deepEqual(errors(q), []);
    const tree = analyze(q).parse.query.filter!;
    assert.equal(tree.type, 'and');
    assert.deepEqual(tree.type === 'and' ? tree.items.map((i) => i.type) : [], ['compare', 'or']);
    const c = compileQuery(q);
    const ev = (type: string, t: string, collected: string): unknown => ({
      metadata: { eventType: type, eventTimestamp: t, collectedTimestamp: collected },
    });
    assert.equal(c.matches(ev('USER_LOGOUT', '2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z')), true);
    assert.equal(c.matches(ev('USER_LOGOUT', '2024-01-01T00:02:00Z', '2024-01-01T00:01:00Z')), false);
    assert.equal(c.matches(ev('PROCESS_LAUNCH', '2024-01-01T00:00:00Z', '2024-01-01T00:01:00Z')), false);
  });

  it('a call whose arguments run over several lines still parses, its ( on its name line', () => {
    for (const q of [
      're.replace(\n  target.user.userid,\n  `@.*$`,\n  ""\n) = "ann"',
      'strings.contains(\n  principal.hostname, "web"\n)',
    ])
      assert.deepEqual(errors(q), [], q);
    assert.equal(
      compileQuery('re.replace(\n  target.user.userid,\n  `@.*$`,\n  ""\n) = "ann"').matches({
        target: { user: { userid: 'ann@x.org' } },
      }),
      true,
    );
  });

  it("a function's ( on the next line is an error that says where the ( goes", () => {
    const e = errors('principal.hostname = strings.to_lower\n(target.hostname)');
    assert.equal(e.length, 1, e.join('\n'));
    assert.match(e[0], /^call-newline: strings\.to_lower is a function, and its '\(' is on the next line/);
  });
});
