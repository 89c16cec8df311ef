// reference/yaral-rules.md: "Strings (regular expressions in particular) may be written in
// backquotes, as raw strings, anywhere a string argument is taken, including re.capture and
// re.replace", and Google's current rules pass /…/ patterns to re.capture; strings.starts_with
// "belongs to the rule functions even if search does not list it" (udm-functions.md lists 58
// search functions, strings.ends_with among them and no starts_with).
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../../src/udm/index';

const errors = (q: string): string[] =>
  analyze(q)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code ?? ''}: ${d.message}`);

describe('function arguments: raw strings, patterns, rule functions', () => {
  it('takes backquoted strings wherever a string is taken, and /…/ patterns where a regex is', () => {
    for (const q of [
      're.capture(principal.hostname, `^(\\w+)\\.corp`) = "web"',
      're.capture(principal.process.command_line, /Bearer ([^ ]+)/) = "x"',
      're.replace(target.user.userid, `@.*$`, "") = "ann"',
      're.replace(target.user.userid, /@.*$/, ``) = "ann"',
      're.regex(principal.hostname, `^web\\d+$`)',
      'strings.contains(principal.hostname, `web`)',
      'strings.ends_with(target.hostname, `.com`)',
    ])
      assert.deepEqual(errors(q), [], q);
    const c = compileQuery('re.capture(principal.process.command_line, /Bearer ([^ ]+)/) = "abc"');
    assert.equal(c.matches({ principal: { process: { commandLine: 'curl -H Bearer abc x' } } }), true);
    assert.equal(c.matches({ principal: { process: { commandLine: 'curl -H Bearer abd x' } } }), false);
  });

  it('still errors on a pattern where text is taken, a string where a number is, and a bad pattern', () => {
    assert.match(
      errors('strings.contains(principal.hostname, /web/)').join('\n'),
      /type-mismatch: Argument substr of strings\.contains is a string, not a \/…\/ pattern/,
    );
    assert.match(
      errors('math.abs(`5`) > 1').join('\n'),
      /type-mismatch: Argument numericExpression of math\.abs must be a number/,
    );
    assert.match(
      errors('network.sent_bytes - `5` > 1').join('\n'),
      /type-mismatch: Arithmetic needs numbers, and a quoted or backquoted value is a string/,
    );
    assert.match(
      errors('re.capture(principal.hostname, /(a)(b)/) = "a"').join('\n'),
      /capture-groups: re\.capture returns one capture group, and this pattern has 2/,
    );
    assert.match(errors('re.regex(principal.hostname, `a(?=b)`)').join('\n'), /re2: /);
  });

  it('strings.starts_with is a rule function: in search it says so, with a test of the same meaning', () => {
    const e = errors('strings.starts_with(principal.hostname, "web")');
    assert.equal(e.length, 1, e.join('\n'));
    assert.match(e[0], /^rules-only: strings\.starts_with is a detection rule function/);
    assert.ok(e[0].includes('re.regex(value, `^\\Qprefix\\E`)'), e[0]);
    assert.ok(!e[0].includes('strings.contains'), 'the old advice changed the meaning');
    // The advice holds: \Q…\E quotes the prefix, so re.regex tests exactly "starts with".
    const same = compileQuery('re.regex(principal.hostname, `^\\Qc:\\pro(x)\\E`)');
    assert.equal(same.matches({ principal: { hostname: 'c:\\pro(x)gram' } }), true);
    assert.equal(same.matches({ principal: { hostname: 'c:\\prox' } }), false);
    // Its arguments are checked as a rule's are.
    assert.match(
      errors('strings.starts_with(principal.hostname)').join('\n'),
      /arity: strings\.starts_with takes 2 arguments, got 1/,
    );
  });
});
