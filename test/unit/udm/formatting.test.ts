// Formatting documented queries: the formatter must keep them valid (they re-parse and check
// without errors) and be idempotent (format(format(x)) == format(x)), statistics sections included.
import * as assert from 'node:assert/strict';
import type { Expr } from '../../../src/udm/ast';
import { FUNCTIONS } from '../../../src/udm/functions';
import { MAX_LINE_WIDTH } from '../../../src/udm/ide/formatting';
import { analyze } from '../../../src/udm/index';
import { formatText } from '../../../src/udm/service';
import { DOCUMENTED_SYNTAX_EXAMPLES, documentedFunctionQuery, FULL_STATISTICS_QUERY, VALID_QUERIES } from './corpus';

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

const DOCUMENTED = [
  ...DOCUMENTED_SYNTAX_EXAMPLES.map(([, q]) => q),
  ...FUNCTIONS.filter((f) => f.search && f.example).map((f) => documentedFunctionQuery(f.name, f.example).query),
];

/** The filter's logic as a string: AND/OR/NOT structure over conditions with their spaces removed. */
function shape(text: string): string {
  const a = analyze(text);
  const walk = (e: Expr | null): string => {
    if (!e) return '';
    switch (e.type) {
      case 'and':
      case 'or':
        return `${e.type}(${e.items.map(walk).join(', ')})`;
      case 'not':
        return `not(${walk(e.expr)})`;
      default:
        return text
          .slice(e.start, e.end)
          .replace(/\s+/g, '')
          .replace(/^\(+|\)+$/g, '');
    }
  };
  return walk(a.parse.query.filter);
}

const CONDITIONS = [
  'metadata.event_type = "USER_LOGIN"',
  'security_result.action = "BLOCK"',
  'principal.hostname = /^web-\\d+$/ nocase',
  'target.port >= 1024',
  'principal.ip in cidr %corp_ranges',
  're.regex(target.url, "\\.exe$") nocase',
  'net.ip_in_range_cidr(principal.ip, "10.0.0.0/8")',
  'strings.to_lower(principal.user.userid) = "alice"',
];

/** A long one-line filter from a seed: conditions joined by AND/OR, some negated, some grouped. */
function longFilter(seed: number): string {
  let x = seed;
  const next = (n: number): number => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const term = (depth: number): string => {
    if (depth < 2 && next(4) === 0) {
      const n = 2 + next(3);
      const inner = Array.from({ length: n }, () => term(depth + 1)).join(next(2) ? ' or ' : ' AND ');
      return `${next(3) === 0 ? 'NOT ' : ''}(${inner})`;
    }
    return `${next(5) === 0 ? 'not ' : ''}${CONDITIONS[next(CONDITIONS.length)]}`;
  };
  const n = 3 + next(5);
  let s = term(0);
  for (let i = 1; i < n; i++) s += `${next(2) ? ' and ' : ' OR '}${term(0)}`;
  return s;
}

describe('UDM formatting of documented queries', () => {
  for (const query of [...VALID_QUERIES, ...STATISTICS_EXAMPLES, ...DOCUMENTED]) {
    it(`keeps it valid and is idempotent: ${JSON.stringify(query.slice(0, 60))}`, () => {
      assert.deepEqual(errorsOf(query), [], 'the example itself is valid');
      const once = formatText(analyze(query));
      assert.deepEqual(errorsOf(once), [], `formatted:\n${once}`);
      assert.equal(formatText(analyze(once)), once);
    });
  }

  it('lays out a long AND/OR chain one condition per line, operator first', () => {
    const query =
      'metadata.event_type = "USER_LOGIN" and security_result.action = "BLOCK" and principal.hostname = /^web-/ nocase or target.port = 22 and not principal.ip in cidr %corp';
    assert.equal(
      formatText(analyze(query)),
      [
        'metadata.event_type = "USER_LOGIN"',
        'AND security_result.action = "BLOCK"',
        'AND principal.hostname = /^web-/ nocase',
        'OR target.port = 22',
        'AND NOT principal.ip in cidr %corp',
      ].join('\n'),
    );
    assert.equal(
      formatText(analyze('principal.hostname = "a" or principal.hostname = "b"')),
      'principal.hostname = "a" OR principal.hostname = "b"',
    );
  });

  it('opens a long parenthesised group on its own line and indents its conditions', () => {
    const query =
      'events:\n  metadata.event_type = "NETWORK_CONNECTION" AND (principal.hostname = "alpha-web-01" OR principal.hostname = "beta-web-02" OR principal.hostname = "gamma-web-03") AND target.port = 443\nmatch:\n  principal.hostname';
    assert.equal(
      formatText(analyze(query)),
      [
        'events:',
        '  metadata.event_type = "NETWORK_CONNECTION"',
        '  AND (',
        '    principal.hostname = "alpha-web-01"',
        '    OR principal.hostname = "beta-web-02"',
        '    OR principal.hostname = "gamma-web-03"',
        '  )',
        '  AND target.port = 443',
        'match:',
        '  principal.hostname',
      ].join('\n'),
    );
  });

  it('never splits inside a call, such as the condition of if(...)', () => {
    const query = `if(${CONDITIONS.slice(0, 4).join(' and ')}) = true`;
    assert.ok(query.length > MAX_LINE_WIDTH);
    assert.equal(formatText(analyze(query)), query.replace(/ and /g, ' AND '));
  });

  it('keeps what long filters mean, fits them in the width where it can, and is idempotent', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const query = longFilter(seed);
      const once = formatText(analyze(query));
      assert.equal(shape(once), shape(query), `${query}\n→\n${once}`);
      assert.deepEqual(errorsOf(once), [], once);
      assert.equal(formatText(analyze(once)), once, once);
      for (const line of once.split('\n'))
        if (line.length > MAX_LINE_WIDTH)
          assert.ok(!/ (AND|OR) /.test(line.trim().replace(/^(AND|OR) /, '')) || /\w\(/.test(line), line);
    }
  });

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
