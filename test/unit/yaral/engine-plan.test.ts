import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { generateDemo } from '../../../src/emulator/events-data/demo';
import { compileQuery } from '../../../src/udm';
import { runRuleTest } from '../../../src/udm/rule/engine';
import { planRuleTest } from '../../../src/udm/rule/plan';
import type { RuleTestPlan } from '../../../src/udm/rule/test-types';
import { CORPUS_DIR, DEMO_RULES_DIR, yaralFiles } from '../../support/yaral-corpus';

function plan(text: string): RuleTestPlan {
  const p = planRuleTest(text);
  assert.ok(!('error' in p), JSON.stringify(p));
  return p;
}

const fixture = (name: string): string => readFileSync(join(CORPUS_DIR, `${name}.yaral`), 'utf8');

describe('Test Rule plan: one udmSearch per event variable', () => {
  it('sends each demo rule’s variables their own statements, without $e. and without joins', () => {
    const p = plan(readFileSync(join(DEMO_RULES_DIR, 'ioc_lookup_then_web_request.yaral'), 'utf8'));
    assert.equal(p.ruleName, 'ioc_lookup_then_web_request');
    assert.deepEqual(p.searches, [
      {
        variable: 'dns',
        query:
          'metadata.event_type = "NETWORK_DNS"\nnetwork.dns.answers.data = "198.51.100.23"\nprincipal.hostname != ""',
      },
      {
        variable: 'http',
        query: 'metadata.event_type = "NETWORK_HTTP"\ntarget.ip = "198.51.100.23"\nprincipal.hostname != ""',
      },
    ]);
    assert.deepEqual(p.untestable, []);
  });

  it('gives every rule of the corpus and the demo one compiling search per event variable, or says why not', () => {
    const files = [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR)];
    assert.ok(files.length > 20);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const p = planRuleTest(text);
      assert.ok(!('error' in p), `${basename(file)}: ${JSON.stringify(p)}`);
      const vars = new Set([...text.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)\.(?!graph\.)[a-z_]+/g)].map((m) => m[1]));
      for (const s of p.searches) {
        assert.ok(vars.has(s.variable), `${basename(file)}: ${s.variable}`);
        assert.ok(!/\$[A-Za-z_]\w*\./.test(s.query), `${basename(file)}: a $var. prefix was sent: ${s.query}`);
        const q = compileQuery(s.query);
        assert.equal(
          q.hasErrors,
          false,
          `${basename(file)} $${s.variable}: ${s.query}\n${JSON.stringify(q.diagnostics)}`,
        );
      }
      assert.equal(new Set(p.searches.map((s) => s.variable)).size, p.searches.length, 'one search per variable');
      // A variable without a search is said so.
      for (const v of vars)
        if (!p.searches.some((s) => s.variable === v))
          assert.ok(
            p.untestable.some((u) => u.includes(`$${v}`)),
            `${basename(file)}: $${v} left out silently`,
          );
    }
  });

  it('computes every rule of the corpus over demo events, each detection inside its window', function () {
    this.timeout(120_000);
    const demo = generateDemo(Date.UTC(2026, 10, 1, 9, 0), 5000);
    const lists = Object.fromEntries(demo.lists.map((l) => [l.name, l.lines]));
    let fired = 0;
    for (const file of [...yaralFiles(CORPUS_DIR), ...yaralFiles(DEMO_RULES_DIR)]) {
      const text = readFileSync(file, 'utf8');
      const p = plan(text);
      const events = new Map(p.searches.map((s) => [s.variable, demo.events]));
      const r = runRuleTest(text, events, { referenceLists: lists });
      for (const d of r.detections) {
        assert.ok(d.windowStart <= d.windowEnd, basename(file));
        for (const list of Object.values(d.events))
          for (const e of list) {
            const t = Date.parse((e.udm as { metadata: { eventTimestamp: string } }).metadata.eventTimestamp);
            assert.ok(t >= d.windowStart && t <= d.windowEnd, `${basename(file)}: an event outside its window`);
          }
      }
      if (r.detections.length) fired++;
    }
    assert.ok(fired >= 4, `${fired} rules fired`);
  });

  it('does not send cross-variable comparisons or placeholder bindings', () => {
    const p = plan(fixture('doc_user_creation_then_deletion'));
    assert.deepEqual(
      p.searches.map((s) => s.query),
      [
        'metadata.event_type = "USER_CREATION"\ntarget.user.userid != ""',
        'metadata.event_type = "USER_DELETION"\ntarget.user.userid != ""',
      ],
    );
  });

  it('leaves entity graph variables out, in a plain sentence', () => {
    const p = plan(fixture('entity_graph_user'));
    assert.deepEqual(
      p.searches.map((s) => s.variable),
      ['login'],
    );
    assert.ok(
      p.untestable.some((u) => /\$directory reads entity data/.test(u) && /Search API/.test(u)),
      p.untestable.join('\n'),
    );
    assert.ok(
      p.untestable.some((u) => /compares events with entity data/.test(u)),
      p.untestable.join('\n'),
    );
  });

  it('turns a condition on a placeholder of one variable into a field condition', () => {
    const text = `rule p {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "USER_LOGIN"
    $e.target.user.userid = $user
    $user != ""
    re.regex($user, \`^adm\`)
  match:
    $user over 1h
  condition:
    $e
}`;
    const p = plan(text);
    assert.equal(
      p.searches[0].query,
      'metadata.event_type = "USER_LOGIN"\ntarget.user.userid != ""\nre.regex(target.user.userid, `^adm`)',
    );
    const login = (id: string, userid: string) => ({
      udm: {
        metadata: { id, eventType: 'USER_LOGIN', eventTimestamp: '2026-01-01T00:00:00Z' },
        target: { user: { userid } },
      },
    });
    const r = runRuleTest(text, new Map([['e', [login('a', 'admin'), login('b', 'bob'), login('c', '')]]]));
    assert.deepEqual(
      r.detections.map((d) => d.match.user),
      ['admin'],
    );
  });

  it('sends a placeholder bound to two fields of one variable as a comparison of the fields', () => {
    const text = `rule self {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
    $e.principal.hostname = $name
    $e.target.hostname = $name
  condition:
    $e
}`;
    const p = plan(text);
    assert.equal(
      p.searches[0].query,
      'metadata.event_type = "NETWORK_CONNECTION"\nprincipal.hostname = target.hostname',
    );
    const conn = (id: string, from: string, to: string) => ({
      udm: {
        metadata: { id, eventType: 'NETWORK_CONNECTION', eventTimestamp: '2026-01-01T00:00:00Z' },
        principal: { hostname: from },
        target: { hostname: to },
      },
    });
    const r = runRuleTest(text, new Map([['e', [conn('same', 'a', 'a'), conn('other', 'a', 'b')]]]));
    assert.deepEqual(
      r.detections.map((d) => d.events.e.map((x) => x.id)),
      [['same']],
    );
  });

  it('says when a variable has nothing of its own to search for', () => {
    const p = plan(`rule q {
  meta:
    author = "test"
  events:
    $a.metadata.event_type = "USER_LOGIN"
    $a.target.user.userid = $user
    $a.principal.hostname = $host
    $b.principal.hostname = $host
  match:
    $user over 1h
  condition:
    $a and $b
}`);
    assert.deepEqual(
      p.searches.map((s) => s.variable),
      ['a'],
    );
    assert.ok(
      p.untestable.some((u) => u.startsWith('$b has no statement of its own')),
      p.untestable.join('\n'),
    );
  });

  it('searches only events with a value for a match placeholder, unless allow_zero_values = true', () => {
    const zero = plan(fixture('doc_zero_value_placeholder'));
    assert.deepEqual(zero.searches, [{ variable: 'e', query: 'principal.hostname != ""' }]);
    const allowed = plan(fixture('allow_zero_values'));
    assert.ok(
      allowed.searches.every((s) => !s.query.includes('!= ""')),
      JSON.stringify(allowed.searches),
    );
    const numeric = plan(`rule n {
  meta:
    author = "test"
  events:
    $e.metadata.event_type = "NETWORK_CONNECTION"
    $e.target.port = $port
  match:
    $port over 1h
  condition:
    $e
}`);
    assert.equal(numeric.searches[0].query, 'metadata.event_type = "NETWORK_CONNECTION"\ntarget.port != 0');
  });

  it('reports a file without a rule, or a rule that does not parse, as an error', () => {
    assert.ok('error' in planRuleTest('// nothing here\n'));
    assert.ok(
      'error' in planRuleTest('rule broken {\n  events:\n    $e.metadata.event_type = \n  condition:\n    $e\n}'),
    );
  });
});
