// Durations (`by 1h`, `by 5m`, `over every 1h`): one lexer token, so a query with a match: window
// formats like any other; and when the formatter cannot run it says why.
import * as assert from 'node:assert/strict';
import { analyze } from '../../../src/udm/index';
import { lex } from '../../../src/udm/lexer';
import { format, formatRefusal, formatText } from '../../../src/udm/service';

const OPTIONS = { tabSize: 2, insertSpaces: true };

describe('UDM durations', () => {
  it('the lexer reads a number glued to a time unit as one duration token without an error', () => {
    for (const d of ['1h', '5m', '30d', '2w', '1mo', '10min', '3hours', '1H'])
      assert.deepEqual(
        lex(`by ${d}`)
          .tokens.slice(1, 2)
          .map((t) => [t.kind, t.value, t.error]),
        [['duration', d, undefined]],
        d,
      );
    // glued to letters that name no unit, it stays an invalid number
    const bad = lex('x = 10abc').tokens[2];
    assert.equal(bad.kind, 'invalid');
    assert.match(bad.error ?? '', /Invalid number '10abc'/);
  });

  for (const [typed, formatted] of [
    [
      'principal.hostname != ""\nmatch:\nprincipal.hostname   by 1h',
      'principal.hostname != ""\nmatch:\n  principal.hostname by 1h',
    ],
    ['$h=principal.hostname\nmatch:\n  $h by 5m', '$h = principal.hostname\nmatch:\n  $h by 5m'],
    ['$u=principal.user.userid\nmatch: $u over every 1h', '$u = principal.user.userid\nmatch:\n  $u over every 1h'],
  ] as const) {
    it(`Format Document on ${JSON.stringify(typed)}`, () => {
      const a = analyze(typed);
      assert.deepEqual(a.diagnostics, []);
      assert.equal(formatRefusal(a), undefined);
      const edits = format(a, OPTIONS);
      assert.equal(edits.length, 1);
      assert.equal(edits[0].newText, formatted);
      assert.equal(formatText(analyze(formatted)), formatted, 'idempotent');
    });
  }

  it('a duration outside match: is an error that says where durations go', () => {
    const d = analyze('target.port = 1h').diagnostics;
    assert.deepEqual(
      d.map((x) => [x.code, x.message]),
      [['misplaced-duration', "'1h' is a duration: it sets the time window of match: (by 1h), it is not a value"]],
    );
  });

  it('a named argument keeps its duration glued (period:1d)', () => {
    assert.equal(
      formatText(analyze('metrics.auth_attempts_fail(period:1d,window:30d)')),
      'metrics.auth_attempts_fail(period:1d, window:30d)',
    );
  });

  it('when the formatter leaves a document alone it says why, naming the line', () => {
    const a = analyze('principal.hostname = "x"\ntarget.hostname = "y');
    assert.deepEqual(format(a, OPTIONS), []);
    assert.equal(
      formatRefusal(a),
      'Not formatted: line 2 has "\\"y" (Unterminated string: add the closing quote); fix it and format again',
    );
  });
});
