// Formatting documented queries: the formatter must keep them valid (they re-parse and check
// without errors) and be idempotent (format(format(x)) == format(x)), statistics sections included.
import * as assert from 'node:assert/strict';
import { analyze } from '../../../src/udm/index';
import { formatText } from '../../../src/udm/service';
import { FULL_STATISTICS_QUERY, VALID_QUERIES } from './corpus';

/** Statistics queries written with the forms ../shared/reference/udm-syntax.md documents. */
const STATISTICS_EXAMPLES: readonly string[] = [
  FULL_STATISTICS_QUERY,
  // compact, as pasted from a dashboard: sections and their bodies on one line, odd case and spacing
  'metadata.event_type="USER_LOGIN" $user=principal.user.userid MATCH: $user over every day OUTCOME: $n=count(metadata.id) Condition: $n>3 ORDER: $n desc LIMIT: 5',
  '$ip = group(principal.ip, about.ip, target.ip)\nmatch:\n  $ip by minute\noutcome:\n  $total = cast.as_int(sum(network.sent_bytes))',
  'network.sent_bytes > 10485760\noutcome:\n  $bytes = cast.as_int(network.sent_bytes)',
  '$e.principal.hostname = "web-01"\n$first = principal.user.first_name\n$last = principal.user.last_name\nmatch:\n  $first, $last by 2h\noutcome:\n  $who = array_distinct(strings.concat($first, " ", $last))',
  'principal.ip[0] = "10.0.0.1"\nre.regex(target.hostname, "x") nocase\nmatch:\n  principal.hostname by 1 week\noutcome:\n  $hosts = count_distinct(target.hostname)',
];

const errorsOf = (text: string): string[] =>
  analyze(text)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code ?? ''}: ${d.message}`);

describe('UDM formatting of documented queries', () => {
  for (const query of [...VALID_QUERIES, ...STATISTICS_EXAMPLES]) {
    it(`keeps it valid and is idempotent: ${JSON.stringify(query.slice(0, 60))}`, () => {
      assert.deepEqual(errorsOf(query), [], 'the example itself is valid');
      const once = formatText(analyze(query));
      assert.deepEqual(errorsOf(once), [], `formatted:\n${once}`);
      assert.equal(formatText(analyze(once)), once);
    });
  }

  it('puts each statistics section keyword on its own line with its body indented', () => {
    const once = formatText(analyze(STATISTICS_EXAMPLES[1]));
    const lines = once.split('\n');
    for (const kw of ['match:', 'outcome:', 'condition:', 'order:', 'limit:']) {
      assert.ok(
        lines.some((l) => l.toLowerCase() === kw),
        `${kw} alone on a line in:\n${once}`,
      );
    }
    assert.ok(
      lines.some((l) => /^\s+\$user over every day$/.test(l)),
      once,
    );
  });
});
