// Every documented search example of ../shared/reference/udm-syntax.md and udm-functions.md opens
// without an error, and every documented invalid form gets one. The function examples are read
// from the catalog, which holds them verbatim; the syntax examples are listed here with the line
// of the reference they come from.
import * as assert from 'node:assert/strict';
import { analyze } from '../../../src/udm/index';
import { FUNCTIONS } from '../../../src/udm/functions';
import { DOCUMENTED_SYNTAX_EXAMPLES, documentedFunctionQuery } from './corpus';

const errorsOf = (q: string): string[] =>
  analyze(q)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code ?? ''}: ${d.message}`);

/** Invalid forms the two references document, each with the error code it gets. */
const INVALID_FORMS: ReadonlyArray<readonly [string, string]> = [
  ['"a" = "a"', 'literal-compare'],
  ['target.port = "80"', 'type-mismatch'],
  ['metadata.event_type = "USER_LOGN"', 'unknown-enum-value'],
  ['network.ip_protocol = /TC.*/', 'regex-on-enum'],
  ['network.ip_protocol = "TCP" nocase', 'bad-nocase'],
  ["principal.hostname = 'x'", 'lex'],
  ['$h = strings.concat("a", "b")', 'placeholder-constant'],
  ['$outcome = principal.hostname', 'keyword-variable'],
  ['any strings.to_lower(principal.hostname) = "x"', 'bad-quantifier'],
  ['any principal.hostname = "x"', 'quantifier'],
  ['any principal.ip in %hosts', 'bad-quantifier'],
  ['principal.ip[-1] = "x"', 'bad-index'],
  ['$u = principal.user.userid\nmatch:\n  $u over 5m', 'rule-window'],
  ['$u = principal.user.userid\noutcome:\n  $n = count(metadata.id)\nmatch:\n  $u', 'section-order'],
  ['network.sent_bytes > 1\noutcome:\n  $bytes = network.sent_bytes\n  $n = count(metadata.id)', 'mixed-outcome'],
  ['principal.hostname = "x"\noutcome:\n  $g = group(principal.ip)', 'group-placement'],
  ['re.capture(principal.hostname, "(a)(b)") = "a"', 'capture-groups'],
  ['hash.sha256(principal.hostname) = "x"', 'rules-only'],
  ['strings.lower(principal.hostname) = "x"', 'unknown-function'],
];

describe('UDM documented examples', () => {
  for (const f of FUNCTIONS.filter((x) => x.search && x.example)) {
    const { query, why } = documentedFunctionQuery(f.name, f.example);
    it(`${f.name}: ${why ? `(${why}) ` : ''}${query}`, () => {
      assert.deepEqual(errorsOf(query), []);
    });
  }

  for (const [what, query] of DOCUMENTED_SYNTAX_EXAMPLES) {
    it(`udm-syntax.md, ${what}: ${JSON.stringify(query).slice(0, 70)}`, () => {
      assert.deepEqual(errorsOf(query), []);
    });
  }

  for (const [query, code] of INVALID_FORMS) {
    it(`invalid: ${JSON.stringify(query).slice(0, 60)} → ${code}`, () => {
      const errors = errorsOf(query);
      assert.ok(
        errors.some((e) => e.startsWith(`${code}: `)),
        `expected ${code}, got ${JSON.stringify(errors)}`,
      );
    });
  }
});
