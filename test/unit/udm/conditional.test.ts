// `if(...)`, YARA-L's conditional: the one documented use is math.random's example in
// ../shared/reference/udm-functions.md, `if(math.random() >= 0 and math.random() < 1) = true`.
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../src/udm/index';
import { complete, hover, signatureHelp } from '../../../src/udm/service';

const errorsOf = (q: string): string[] =>
  analyze(q)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code ?? ''}: ${d.message}`);

const EVENTS = [
  { principal: { hostname: 'web-01' }, network: { sentBytes: '2000000' }, metadata: { id: 'a' } },
  { principal: { hostname: 'web-01' }, network: { sentBytes: '10' }, metadata: { id: 'b' } },
  { principal: { hostname: 'db-01' }, network: { sentBytes: '5000000' }, metadata: { id: 'c' } },
];

describe('UDM if(...)', () => {
  it('opens the documented example without a diagnostic and it holds on every event', () => {
    const q = 'if(math.random() >= 0 and math.random() < 1) = true';
    assert.deepEqual(
      analyze(q).diagnostics.map((d) => d.message),
      [],
    );
    const c = compileQuery(q);
    for (const ev of EVENTS) assert.equal(c.matches(ev), true);
  });

  it('is the truth of its condition over the event', () => {
    const holds = (q: string): boolean[] => EVENTS.map((ev) => compileQuery(q).matches(ev));
    assert.deepEqual(holds('if(principal.hostname = "web-01" and network.sent_bytes > 100) = true'), [
      true,
      false,
      false,
    ]);
    assert.deepEqual(holds('if(principal.hostname = "web-01" or network.sent_bytes > 100) = false'), [
      false,
      false,
      false,
    ]);
    assert.deepEqual(holds('IF(not (principal.hostname = /^web/)) = true'), [false, false, true]);
  });

  it('with three arguments takes the value of the branch the condition picks', () => {
    assert.deepEqual(
      EVENTS.map((ev) => compileQuery('if(network.sent_bytes > 1000000, "big", "small") = "big"').matches(ev)),
      [true, false, true],
    );
    const c = compileQuery(
      'metadata.id != ""\n$host = principal.hostname\nmatch:\n  $host\noutcome:\n  $big = sum(if(network.sent_bytes > 1000000, 1, 0))\norder:\n  $host asc',
    );
    assert.deepEqual(c.diagnostics, []);
    assert.deepEqual(
      c.aggregate!(EVENTS).map((r) => [r.host, r.big]),
      [
        ['db-01', 1],
        ['web-01', 1],
      ],
    );
  });

  it('says what is wrong with a malformed if', () => {
    assert.match(errorsOf('if(principal.hostname = "a", 1) = 1')[0], /^arity: if takes a condition.*got 2 arguments/);
    assert.match(errorsOf('if() = true')[0], /^arity: .*got 0 arguments/);
    assert.match(
      errorsOf('if(principal.hostname = "a", 1, "x") = 1')[0],
      /^type-mismatch: The two values of if must have the same type/,
    );
    assert.match(errorsOf('if(principal.hostname = "a") = "yes"')[0], /^type-mismatch: .*returns a bool/);
    assert.match(errorsOf('if(principal.hostnme = "a") = true')[0], /^unknown-field: .*Did you mean 'hostname'/);
    assert.match(errorsOf('if(principal.hostname = "a"')[0], /^unclosed-paren: Missing '\)' to close the call of if/);
  });

  it('has hover, signature help and a completion item', () => {
    const q = 'if(math.random() >= 0, 1, 0) = 1';
    const a = analyze(q);
    const h = hover(a, { line: 0, character: 1 });
    const text = (h?.contents as { value: string }).value;
    assert.match(text, /if\(condition: BOOL, then\?: any, else\?: any\)/);
    assert.match(text, /math\.random\(\) >= 0 and math\.random\(\) < 1/);
    const sig = signatureHelp(analyze('if('), { line: 0, character: 3 });
    assert.equal(sig?.signatures[0].label, 'if(condition: bool, then?: any, else?: any): any');
    const typed = 'if(network.sent_bytes > 1000000 and target.port = 22, ';
    const inThen = signatureHelp(analyze(typed), { line: 0, character: typed.length });
    assert.equal(inThen?.activeParameter, 1, 'the comparison in the condition does not end signature help');
    assert.equal(signatureHelp(analyze('(target.port = 22 and '), { line: 0, character: 22 }), null);
    assert.equal(signatureHelp(analyze('strings.concat(a) = "x" and '), { line: 0, character: 28 }), null);
    const labels = complete(analyze('i'), { line: 0, character: 1 }).map((i) => i.label);
    assert.deepEqual(
      labels.filter((l) => l.startsWith('if')),
      ['if'],
    );
  });
});
