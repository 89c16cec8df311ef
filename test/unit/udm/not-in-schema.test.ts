// A field path that Google's pages write but the UDM schema reference does not have: the
// documented timestamp.current_seconds example reads network.tls.certificate.not_after, where the
// schema has network.tls.server.certificate and network.tls.client.certificate.
import * as assert from 'node:assert/strict';
import { analyze, compileQuery } from '../../../src/udm/index';
import { codeActions } from '../../../src/udm/service';

const DOCUMENTED = '86400 < timestamp.current_seconds() - $e.network.tls.certificate.not_after';
const EVENT = { network: { tls: { server: { certificate: { notAfter: '2020-01-01T00:00:00Z' } } } } };

describe('UDM field paths missing from the schema reference', () => {
  it('the documented example opens with a warning naming the known paths, not an error', () => {
    const d = analyze(DOCUMENTED).diagnostics;
    assert.equal(d.length, 1);
    assert.equal(d[0].severity, 'warning');
    assert.equal(d[0].code, 'not-in-schema');
    assert.match(d[0].message, /network\.tls\.certificate\.not_after is not in the UDM schema reference/);
    assert.match(d[0].message, /network\.tls\.server\.certificate\.not_after\.seconds/);
    assert.match(d[0].message, /network\.tls\.client\.certificate\.not_after\.seconds/);
    const c = compileQuery(DOCUMENTED);
    assert.equal(c.hasErrors, false);
    assert.equal(c.matches(EVENT), false, 'a path the schema lacks reads no value');
  });

  it('offers each known path as a quick fix that leaves the query without a diagnostic', () => {
    const a = analyze(DOCUMENTED);
    const actions = codeActions(a, 'file:///q.udm', a.diagnostics[0].range);
    assert.equal(actions.length, 2);
    for (const action of actions) {
      const [edit] = action.edit!.changes!['file:///q.udm'];
      const start = a.lines.offset(edit.range.start);
      const end = a.lines.offset(edit.range.end);
      const fixed = DOCUMENTED.slice(0, start) + edit.newText + DOCUMENTED.slice(end);
      assert.match(fixed, /^86400 < timestamp\.current_seconds\(\) - \$e\.network\.tls\.(client|server)\.certificate/);
      assert.deepEqual(
        analyze(fixed).diagnostics.map((x) => x.message),
        [],
        fixed,
      );
    }
    const server = actions.find((x) => x.title.includes('server'))!;
    const [edit] = server.edit!.changes!['file:///q.udm'];
    const fixed =
      DOCUMENTED.slice(0, a.lines.offset(edit.range.start)) +
      edit.newText +
      DOCUMENTED.slice(a.lines.offset(edit.range.end));
    assert.equal(compileQuery(fixed).matches(EVENT), true, 'the certificate expired long ago');
  });

  it('keeps misspelt and unknown fields errors', () => {
    for (const [q, at] of [
      ['network.tls.certificat.not_after.seconds > 1', 'certificat'],
      ['principal.hostnme = "x"', 'hostnme'],
      ['foo.bar = 1', 'foo'],
      ['hostname = "x"', 'hostname'],
      ['network.tls.server.certificate.not_afterr.seconds > 1', 'not_afterr'],
    ] as const) {
      const d = analyze(q).diagnostics;
      assert.equal(d[0]?.severity, 'error', q);
      assert.equal(d[0]?.code, 'unknown-field', q);
      assert.equal(d[0].offset, q.indexOf(at), q);
    }
  });
});
