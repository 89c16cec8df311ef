import * as assert from 'node:assert/strict';
import { sectionsByKind, type CompareExpr, type Expr, type FieldNode, type InListExpr } from '../../../src/udm/ast';
import { analyze, parse } from '../../../src/udm/index';
import { FULL_STATISTICS_QUERY } from './corpus';

function only(text: string): Expr {
  const { query, diagnostics } = parse(text);
  assert.deepEqual(diagnostics, [], text);
  assert.ok(query.filter, text);
  return query.filter;
}

function codes(text: string): string[] {
  return analyze(text).diagnostics.map((d) => `${d.severity}:${d.code ?? ''}`);
}

describe('UDM syntax as Google documents it', () => {
  it('reads the optional event variable prefix, $e.udm. included', () => {
    const e = only('$e.principal.hostname = "web-01"') as CompareExpr;
    const f = e.left as FieldNode;
    assert.equal(f.eventVar?.name, 'e');
    assert.deepEqual(
      f.segments.map((s) => s.name),
      ['principal', 'hostname'],
    );
    assert.equal(f.start, 0);
    const g = (only('$e.udm.additional.fields["k"] = "v"') as CompareExpr).left as FieldNode;
    assert.equal(g.key?.value, 'k');
    assert.deepEqual(codes('$e.principal.hostname = "web-01"'), []);
    assert.deepEqual(codes('$e.udm.additional.fields["k"] = "v"'), []);
  });

  it('reads [n] indexes on repeated fields and ["key"] map access', () => {
    const ip = (only('principal.ip[0] = "10.0.0.1"') as CompareExpr).left as FieldNode;
    assert.equal(ip.segments[1].index?.value, 0);
    const about = (only('about[1].hostname = "x"') as CompareExpr).left as FieldNode;
    assert.equal(about.segments[0].index?.value, 1);
    assert.equal(about.segments[1].name, 'hostname');
    const labels = (only('metadata.ingestion_labels["key"] = "v"') as CompareExpr).left as FieldNode;
    assert.equal(labels.key?.value, 'key');
    for (const q of ['principal.ip[0] = "10.0.0.1"', 'about[1].hostname = "x"', 'security_result[0].description = "x"'])
      assert.deepEqual(codes(q), [], q);
  });

  it('reads nocase after comparisons, regex functions and reference lists', () => {
    const call = only('re.regex(target.hostname, "x") nocase');
    assert.equal(call.type, 'callExpr');
    assert.ok(call.type === 'callExpr' && call.nocase);
    const list = only('principal.hostname not in regex %hosts nocase') as InListExpr;
    assert.equal(list.type, 'in');
    assert.equal(list.mode, 'regex');
    assert.equal(list.negated, true);
    assert.ok(list.nocase);
    const notBefore = only('not principal.hostname in regex %hosts nocase');
    assert.ok(notBefore.type === 'not' && notBefore.expr.type === 'in' && notBefore.expr.nocase);
    assert.equal((only('principal.ip in cidr %nets') as InListExpr).mode, 'cidr');
    const fnList = only('strings.coalesce(principal.ip, "x") in %ip_watchlist') as InListExpr;
    assert.equal(fnList.left.type, 'call');
    assert.deepEqual(codes('principal.ip in cidr %nets nocase'), ['error:bad-nocase']);
  });

  it('reads any/all before fields, also inside function arguments, and refuses them before a call', () => {
    const any = only('any principal.ip = "192.0.2.1"') as CompareExpr;
    assert.equal(any.quantifier?.kind, 'any');
    const notAll = only('not all principal.ip = "192.0.2.1"');
    assert.equal(notAll.type, 'not');
    const inArg = only('net.ip_in_range_cidr(all principal.ip, "192.0.2.0/8")');
    assert.ok(inArg.type === 'callExpr');
    assert.equal((inArg.call.args[0] as FieldNode).quantifier?.kind, 'all');
    const { diagnostics } = parse('any strings.to_lower(principal.hostname) = "x"');
    assert.equal(diagnostics[0]?.code, 'bad-quantifier');
    assert.equal(parse('any principal.ip in %list').diagnostics[0]?.code, 'bad-quantifier');
  });

  it('reads arithmetic with the usual precedence, literals on the left', () => {
    const e = only('300 < math.abs(metadata.event_timestamp.seconds - 1643687343)') as CompareExpr;
    assert.equal(e.left.type, 'number');
    assert.ok(e.right?.type === 'call');
    const arg = e.right.args[0];
    assert.equal(arg.type, 'arith');
    const p = only('network.sent_bytes + network.received_bytes * 2 > 100') as CompareExpr;
    assert.ok(p.left.type === 'arith' && p.left.op === '+');
    assert.ok(p.left.right?.type === 'arith' && p.left.right.op === '*');
    const d = only('network.sent_bytes / 1024 > 10') as CompareExpr;
    assert.ok(d.left.type === 'arith' && d.left.op === '/');
    assert.deepEqual(codes('300 < math.abs(metadata.event_timestamp.seconds - 1643687343)'), []);
  });

  it('reads array and bytes literals as function arguments', () => {
    const e = only('arrays.concat(["test1", "test2"], ["test3"]) = ["test1", "test2", "test3"]') as CompareExpr;
    assert.ok(e.left.type === 'call');
    assert.equal(e.left.args[0].type, 'array');
    assert.ok(e.right?.type === 'array' && e.right.items.length === 3);
    const b = only('bytes.to_base64(b\'000000006f8ec558\') = "AAAAAG+OxVg="') as CompareExpr;
    assert.ok(b.left.type === 'call' && b.left.args[0].type === 'bytes');
    assert.equal(b.left.args[0].type === 'bytes' && b.left.args[0].value, '000000006f8ec558');
  });

  it('ANDs lines after an explicit OR between lines joined its neighbours', () => {
    const e = only('principal.hostname = "a"\nor principal.hostname = "b"\ntarget.hostname = "c"');
    assert.ok(e.type === 'and');
    assert.equal(e.items[0].type, 'or');
    assert.equal(e.items[1].type, 'compare');
    const p = only('(principal.hostname = "a"\ntarget.hostname = "b" or target.hostname = "c")');
    assert.ok(p.type === 'and' && p.items[1].type === 'or');
  });
});

describe('UDM statistical sections', () => {
  const FULL = FULL_STATISTICS_QUERY;

  it('parses every section in the documented order into typed nodes', () => {
    const { query, diagnostics } = parse(FULL);
    assert.deepEqual(diagnostics, []);
    assert.ok(query.events);
    const s = sectionsByKind(query.sections);
    assert.deepEqual(
      query.sections.map((x) => x.kind),
      ['match', 'outcome', 'condition', 'dedup', 'order', 'limit'],
    );
    assert.equal(s.match!.keys.length, 2);
    assert.deepEqual(
      { kind: s.match!.window!.kind, size: s.match!.window!.size, unit: s.match!.window!.unit },
      { kind: 'by', size: 1, unit: 'hour' },
    );
    assert.deepEqual(
      s.outcome!.outcomes.map((o) => o.variable.name),
      ['event_count', 'bytes', 'first'],
    );
    assert.equal(s.condition!.expr?.type, 'and');
    assert.equal(s.dedup!.keys[0].type, 'field');
    assert.equal(s.order!.order[0].direction?.value, 'desc');
    assert.equal(s.limit!.limit?.value, 20);
  });

  it('reads every documented window form', () => {
    const cases: Array<[string, { kind: string; every: boolean; size: number; unit: string | null }]> = [
      ['by 2h', { kind: 'by', every: false, size: 2, unit: 'hour' }],
      ['by minute', { kind: 'by', every: false, size: 1, unit: 'minute' }],
      ['over every day', { kind: 'over', every: true, size: 1, unit: 'day' }],
      ['by 30m', { kind: 'by', every: false, size: 30, unit: 'minute' }],
      ['by 1mo', { kind: 'by', every: false, size: 1, unit: 'month' }],
      ['over every 1 w', { kind: 'over', every: true, size: 1, unit: 'week' }],
    ];
    for (const [w, expected] of cases) {
      const { query, diagnostics } = parse(`$h = principal.hostname\nmatch:\n  $h ${w}`);
      assert.deepEqual(diagnostics, [], w);
      const win = sectionsByKind(query.sections).match!.window!;
      assert.deepEqual({ kind: win.kind, every: win.every, size: win.size, unit: win.unit }, expected, w);
    }
  });

  it('checks a full statistics query without errors', () => {
    assert.deepEqual(codes(FULL), []);
  });

  it('accepts plain per-event outcome values without match:, and placeholders in outcomes', () => {
    assert.deepEqual(codes('network.sent_bytes > 10485760\noutcome:\n  $bytes = network.sent_bytes + 1'), []);
  });

  it('without match: takes outcome values all per event or all aggregated, and says what to do with a mix', () => {
    // the SPL-to-YARA-L page's per-event outcome, and the array() page's aggregate without match:
    assert.deepEqual(codes('network.sent_bytes > 10485760\noutcome:\n  $bytes = cast.as_int(network.sent_bytes)'), []);
    assert.deepEqual(
      codes('$event_type = metadata.event_type\noutcome:\n  $event_type_array = array($event_type)'),
      [],
    );
    const mixed = analyze(
      'network.sent_bytes > 10485760\noutcome:\n  $bytes = cast.as_int(network.sent_bytes)\n  $n = count(metadata.id)',
    ).diagnostics;
    assert.deepEqual(
      mixed.map((d) => d.code),
      ['mixed-outcome'],
    );
    assert.match(mixed[0].message, /\$bytes is a per-event value and \$n an aggregate/);
    assert.match(mixed[0].message, /Add a match: section to group by, or wrap the value of \$bytes in an aggregate/);
  });

  it('reports a rule window, a wrong order, a missing aggregate and condition on a field', () => {
    assert.deepEqual(codes('$h = principal.hostname\nmatch:\n  $h over 5m'), ['error:rule-window']);
    assert.deepEqual(codes('$h = principal.hostname\nmatch:\n  $h\nlimit:\n  5\norder:\n  $h'), [
      'error:section-order',
    ]);
    assert.deepEqual(codes('$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $b = network.sent_bytes'), [
      'error:missing-aggregate',
    ]);
    assert.deepEqual(
      codes(
        '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\ncondition:\n  principal.port > 5',
      ),
      ['error:condition-field'],
    );
    assert.deepEqual(
      codes('$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $c = count(metadata.id)\ncondition:\n  $d > 5'),
      ['error:condition-unknown'],
    );
    assert.deepEqual(codes('principal.hostname = "a"\ndedup:'), ['error:empty-section']);
  });
});
