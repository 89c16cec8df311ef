import * as assert from 'node:assert/strict';
import { analyzeRuleFile } from '../../../src/udm/rule/analyze';

/** A rule with the given sections; `events` lines are indented for the reader only. */
function rule(sections: {
  events: string;
  match?: string;
  outcome?: string;
  condition: string;
  options?: string;
}): string {
  return [
    'rule r {',
    '  meta:',
    '    author = "a"',
    '  events:',
    sections.events,
    ...(sections.match ? ['  match:', sections.match] : []),
    ...(sections.outcome ? ['  outcome:', sections.outcome] : []),
    '  condition:',
    sections.condition,
    ...(sections.options ? ['  options:', sections.options] : []),
    '}',
  ].join('\n');
}

function problems(text: string): Array<[string | undefined, string, string]> {
  const a = analyzeRuleFile(text);
  return a.diagnostics.map((d) => [d.code, d.severity, d.message]);
}

function codes(text: string): string[] {
  return problems(text).map(([c, s]) => `${s} ${c}`);
}

const LOGIN = '    $e.metadata.event_type = "USER_LOGIN"\n    $e.target.user.userid = $user';

describe('YARA-L rule checks', () => {
  it('accepts a placeholder bound either way round and a 48h window', () => {
    const text = rule({
      events:
        '    $a.metadata.event_type = "USER_LOGIN"\n    $user = $a.target.user.userid\n    $b.metadata.event_type = "USER_LOGOUT"\n    $b.target.user.userid = $user',
      match: '    $user over 48h',
      condition: '    $a and $b',
    });
    assert.deepEqual(codes(text), []);
  });

  it('reports a window longer than 48h and a search window in a rule', () => {
    assert.deepEqual(codes(rule({ events: LOGIN, match: '    $user over 72h', condition: '    $e' })), [
      'error rule-window',
    ]);
    // A tumbling window (`by`) is a rule's too; `over every` is a search's only.
    assert.deepEqual(codes(rule({ events: LOGIN, match: '    $user by 1h', condition: '    $e' })), []);
    const by = problems(rule({ events: LOGIN, match: '    $user over every hour', condition: '    $e' }));
    assert.deepEqual(
      by.map(([c]) => c),
      ['rule-window'],
    );
    assert.match(by[0][2], /'over every' is a search form/);
  });

  it('takes window_start and window_end in outcome: and condition:, not in events: or without a window', () => {
    const ok = rule({
      events: LOGIN,
      match: '    $user by 30m',
      outcome: '    $first = window_start',
      condition: '    #e > 0 and window_start > "2026-01-01 00:00:00Z"',
    });
    assert.deepEqual(codes(ok), []);
    const inEvents = problems(
      rule({ events: `${LOGIN}\n    window_end > 5`, match: '    $user over 1h', condition: '    $e' }),
    );
    assert.deepEqual(
      inEvents.map(([c]) => c),
      ['window-keyword'],
    );
    assert.match(inEvents[0][2], /not in events:/);
    const noWindow = problems(rule({ events: LOGIN, condition: '    $e and window_end > "2026-01-01 00:00:00Z"' }));
    assert.ok(
      noWindow.some(([c, , m]) => c === 'window-keyword' && /needs a match: window/.test(m)),
      JSON.stringify(noWindow),
    );
  });

  it('reports match keys that are not placeholders', () => {
    const p = problems(rule({ events: LOGIN, match: '    $e.principal.hostname over 1h', condition: '    $e' }));
    assert.ok(
      p.some(([c, s, m]) => c === 'match-key' && s === 'error' && /bind the field in events:/.test(m)),
      JSON.stringify(p),
    );
  });

  it('checks options: names, values, and the suppression window against the match window', () => {
    const base = { events: LOGIN, match: '    $user over 1h', condition: '    $e' };
    assert.deepEqual(
      codes(rule({ ...base, options: '    allow_zero_values = true\n    suppression_window = 2h' })),
      [],
    );
    assert.deepEqual(codes(rule({ ...base, options: '    allow_zero_value = true' })), ['error unknown-option']);
    assert.match(
      problems(rule({ ...base, options: '    allow_zero_value = true' }))[0][2],
      /Did you mean 'allow_zero_values'/,
    );
    assert.deepEqual(codes(rule({ ...base, options: '    allow_zero_values = "yes"' })), ['error option-value']);
    const short = problems(rule({ ...base, options: '    suppression_window = 30m' }));
    assert.deepEqual(
      short.map(([c]) => c),
      ['option-value'],
    );
    assert.match(short[0][2], /longer than the match: window/);
  });

  it('reports or in condition: with several event variables, not with one', () => {
    const two = rule({
      events: `${LOGIN}\n    $f.metadata.event_type = "USER_LOGOUT"\n    $f.target.user.userid = $user`,
      match: '    $user over 1h',
      condition: '    $e or $f',
    });
    assert.deepEqual(codes(two), ['error condition-or']);
    // Between outcome comparisons `or` is fine.
    const outcomes = two
      .replace('    $e or $f', '    $e and $f and ($n > 1 or $n < 0)')
      .replace('  condition:', '  outcome:\n    $n = count($e.metadata.id)\n  condition:');
    assert.deepEqual(codes(outcomes), []);
    assert.deepEqual(codes(rule({ events: LOGIN, match: '    $user over 1h', condition: '    #e > 2 or $e' })), []);
  });

  it('reports missing required sections and a rule without a name as an identifier', () => {
    const noCondition = 'rule r {\n  meta:\n    author = "a"\n  events:\n    $e.metadata.event_type = "USER_LOGIN"\n}';
    const p = problems(noCondition);
    assert.ok(
      p.some(([c, , m]) => c === 'missing-section' && /no condition: section/.test(m)),
      JSON.stringify(p),
    );
  });

  it('resolves entity graph fields against the entity schema', () => {
    const graph = rule({
      events: `${LOGIN}\n    $g.graph.metadata.entity_type = "USER"\n    $g.graph.entity.user.userid = $user`,
      match: '    $user over 1h',
      condition: '    $e and $g',
    });
    assert.deepEqual(codes(graph), []);
    const bad = problems(graph.replace('entity.user.userid', 'entity.usr.userid'));
    assert.deepEqual(
      bad.map(([c]) => c),
      ['unknown-field'],
    );
    assert.match(bad[0][2], /Did you mean 'user'/);
  });

  it('warns of two values for one field of one variable, not across variables', () => {
    const across = rule({
      events:
        '    $a.metadata.event_type = "USER_LOGIN"\n    $a.target.user.userid = $u\n    $b.metadata.event_type = "USER_LOGOUT"\n    $b.target.user.userid = $u',
      match: '    $u over 1h',
      condition: '    $a and $b',
    });
    assert.deepEqual(codes(across), []);
    const same = rule({
      events: `${LOGIN}\n    $e.metadata.event_type = "USER_LOGOUT"`,
      match: '    $user over 1h',
      condition: '    $e',
    });
    assert.deepEqual(codes(same), ['warning never-matches']);
  });

  it('accepts if(condition, value) in outcome:, #e and !$e in condition: with a window', () => {
    const text = rule({
      events: `${LOGIN}\n    $f.metadata.event_type = "USER_LOGOUT"\n    $f.target.user.userid = $user`,
      match: '    $user over 1h',
      outcome: '    $risk_score = max(if($e.principal.hostname = "x", 10))',
      condition: '    #e > 3 and !$f',
    });
    assert.deepEqual(codes(text), []);
  });

  it('reports an unknown outcome variable in condition:', () => {
    const p = problems(
      rule({
        events: LOGIN,
        match: '    $user over 1h',
        outcome: '    $logins = count($e.metadata.id)',
        condition: '    $e and $login > 2',
      }),
    );
    assert.deepEqual(
      p.map(([c]) => c),
      ['unknown-variable'],
    );
    assert.match(p[0][2], /did you mean \$logins\?/);
  });
});
