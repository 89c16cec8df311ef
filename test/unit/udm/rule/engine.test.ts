// The run's one work bound: a rule whose placeholders multiply (seven bound to a field with 16
// values: 16^7 combinations per event) ends with a cut that says where it stopped, and a deadline
// stops a run with what it found. Timing belongs in bench/ (bench/udm.ts); the bound here is only
// a sanity check that the run ended.
import * as assert from 'node:assert/strict';
import { runRuleTest } from '../../../../src/udm/rule/engine';

const T0 = Date.UTC(2026, 3, 1, 8, 0);

/** Events with 16 principal IPs each, a minute apart. */
function manyIps(n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => ({
    udm: {
      metadata: {
        id: `e${i}`,
        eventType: 'NETWORK_CONNECTION',
        eventTimestamp: new Date(T0 + i * 60_000).toISOString(),
      },
      principal: { hostname: 'h1', ip: Array.from({ length: 16 }, (_, k) => `10.0.${i}.${k}`) },
    },
  }));
}

/** `$p1`…`$pN = $e.principal.ip`, each placeholder equal to the next: almost no combination holds. */
function placeholderBomb(n: number): string {
  const ps = Array.from({ length: n }, (_, k) => `$p${k + 1}`);
  return `rule placeholder_bomb {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
${ps.map((p) => `    ${p} = $e.principal.ip\n`).join('')}${ps
    .slice(1)
    .map((p, k) => `    ${ps[k]} = ${p}\n`)
    .join('')}    $e.principal.hostname = $host
  match:
    $host over 1h
  condition:
    #e > 100
}`;
}

describe('Test Rule engine: one work bound', function () {
  this.timeout(60_000);

  it('a rule binding seven placeholders to 16 values each ends with a work-limit cut that says where', () => {
    const started = Date.now();
    const r = runRuleTest(placeholderBomb(7), new Map([['e', manyIps(3)]]));
    assert.ok(Date.now() - started < 30_000, 'the run ended');
    assert.equal(r.cut?.reason, 'work-limit');
    assert.match(
      r.cut.message,
      /^The join stopped after [\d,]+ combinations of \$e's placeholder values \(work limit\): no detection was found before it; narrow the time range or the rule's statements\.$/,
    );
    assert.deepEqual(r.detections, []);
    assert.equal(r.notes.filter((n) => n === r.cut!.message).length, 1);
  });

  it('a lower work limit stops sooner, and what was found before it is shown', () => {
    const small = runRuleTest(placeholderBomb(2), new Map([['e', manyIps(3)]]), { limits: { maxWork: 500 } });
    assert.equal(small.cut?.reason, 'work-limit');
    const whole = runRuleTest(placeholderBomb(2), new Map([['e', manyIps(3)]]));
    assert.equal(whole.cut, undefined);
    assert.equal(whole.notes.length, 1, whole.notes.join('\n'));
  });

  it('a deadline already passed stops the run with a time-limit cut', () => {
    const rule = placeholderBomb(1).replace('#e > 100', '$e');
    const r = runRuleTest(rule, new Map([['e', manyIps(3)]]), { deadline: Date.now() - 1 });
    assert.equal(r.cut?.reason, 'time-limit');
    assert.match(r.cut.message, /\(time limit\): no detection was found before it/);
    const free = runRuleTest(rule, new Map([['e', manyIps(3)]]), { deadline: Date.now() + 600_000 });
    assert.equal(free.cut, undefined);
    assert.ok(free.detections.length > 0);
  });
});
