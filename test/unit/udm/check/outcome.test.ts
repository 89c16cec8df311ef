// reference/yaral-rules.md ("Facts taken from Google's current public rules"): an outcome variable
// can be used in a later outcome assignment (`$permission_delta = math.abs($current_count -
// $previous_count)`, `$tmp1 + $tmp2`). Search shares the outcome: grammar, so it holds there too.
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../../src/udm/index';

const errors = (q: string): string[] =>
  analyze(q)
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code}: ${d.message}`);

const grouped = (outcome: string): string =>
  `metadata.event_type = "USER_LOGIN"\n$user = target.user.userid\nmatch:\n  $user\noutcome:\n${outcome}`;

describe('outcome: values that read other outcome variables', () => {
  it('reads outcome variables assigned above, in arithmetic, calls and if conditions', () => {
    for (const outcome of [
      '  $current_count = count(metadata.id)\n  $previous_count = count_distinct(principal.ip)\n  $permission_delta = math.abs($current_count - $previous_count)',
      '  $tmp1 = max(if(security_result.action = "ALLOW", 2, 0))\n  $tmp2 = max(if(security_result.action = "BLOCK", 1, 0))\n  $result = $tmp1 + $tmp2',
      '  $n = count(metadata.id)\n  $divisor = if($n = 0, 1, $n)\n  $share = 100 / $divisor',
    ])
      assert.deepEqual(errors(grouped(outcome)), [], outcome);
  });

  it('computes them in order in a statistical search', () => {
    const q = compileQuery(grouped('  $a = count(metadata.id)\n  $b = $a + 1'));
    const login = (id: string): unknown => ({
      metadata: { id, eventType: 'USER_LOGIN' },
      target: { user: { userid: 'ann' } },
    });
    assert.deepEqual(q.aggregate!([login('AQ=='), login('Ag==')]), [{ user: 'ann', a: 2, b: 3 }]);
  });

  it('an outcome variable assigned below, or the item itself, is an error that says so', () => {
    const below = errors(grouped('  $b = $a + 1\n  $a = count(metadata.id)'));
    assert.equal(below.length, 1, below.join('\n'));
    assert.match(below[0], /^outcome-order: \$a is assigned further down in outcome:/);
    const self = errors(grouped('  $a = count(metadata.id) + $a'));
    assert.match(self.join('\n'), /outcome-order: \$a cannot use its own value/);
  });

  it('a name assigned nowhere stays undefined, and an aggregate does not take an outcome variable', () => {
    assert.match(
      errors(grouped('  $a = $missing + 1')).join('\n'),
      /undefined-placeholder: Placeholder \$missing is not defined/,
    );
    assert.match(
      errors(grouped('  $a = count(metadata.id)\n  $b = max($a)')).join('\n'),
      /outcome-in-aggregate: \$a is an outcome variable/,
    );
  });
});
