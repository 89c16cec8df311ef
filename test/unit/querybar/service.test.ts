// The extension's answers to the query bar come from the same UDM language service functions the
// language server calls: the same items and diagnostics as the server returns for an editor document.
import assert from 'node:assert/strict';
import { parseToWebview } from '../../../src/core/secops/messages';
import { answerQueryBar, isQueryBarRequest } from '../../../src/core/secops/querybar-service';
import { analyze } from '../../../src/udm';
import { complete, toLspDiagnostics } from '../../../src/udm/service';

const messageText = (m: string | { value: string }): string => (typeof m === 'string' ? m : m.value);

describe('query bar: extension-side answers', () => {
  it('completes the fields of metadata after "metadata." exactly as the language server does', () => {
    const text = 'principal.hostname = "h"\nmetadata.';
    const position = { line: 1, character: 9 };
    const answer = answerQueryBar({ type: 'querybar.complete', id: 7, text, position });
    assert.equal(answer.type, 'querybar.completions');
    assert.equal(answer.id, 7);
    if (answer.type !== 'querybar.completions') return;
    assert.deepEqual(answer.items, complete(analyze(text), position, []));
    const labels = answer.items.map((i) => i.label);
    assert.ok(labels.includes('event_type'), labels.join(', '));
    assert.ok(!labels.includes('hostname'), 'principal fields are not offered under metadata');
    // What the extension sends passes the page's own check unchanged.
    assert.deepEqual(parseToWebview(JSON.parse(JSON.stringify(answer))), JSON.parse(JSON.stringify(answer)));
  });

  it('reports a misspelt field with the same diagnostic as the editor, and nothing for a valid query', () => {
    const text = 'metadata.event_typo = "NETWORK_DNS"';
    const answer = answerQueryBar({ type: 'querybar.validate', id: 8, text });
    assert.equal(answer.type, 'querybar.diagnostics');
    if (answer.type !== 'querybar.diagnostics') return;
    assert.deepEqual(answer.diagnostics, toLspDiagnostics(analyze(text)));
    assert.equal(answer.diagnostics.length, 1);
    assert.equal(answer.diagnostics[0].severity, 1);
    assert.match(messageText(answer.diagnostics[0].message), /event_typo/);
    assert.deepEqual(answer.diagnostics[0].range, {
      start: { line: 0, character: 9 },
      end: { line: 0, character: 19 },
    });
    const ok = answerQueryBar({ type: 'querybar.validate', id: 9, text: 'metadata.event_type = "NETWORK_DNS"' });
    assert.deepEqual(ok.type === 'querybar.diagnostics' && ok.diagnostics, []);
  });

  it('uses the reference lists the language server has: known lists complete, unknown ones are reported', () => {
    const lists = { bad_hosts: ['a'], vip_users: ['b'] };
    const text = 'principal.hostname in %';
    const answer = answerQueryBar(
      { type: 'querybar.complete', id: 1, text, position: { line: 0, character: text.length } },
      lists,
    );
    const labels = answer.type === 'querybar.completions' ? answer.items.map((i) => i.label) : [];
    assert.ok(
      labels.some((l) => l.includes('bad_hosts')),
      labels.join(', '),
    );
    const unknown = answerQueryBar({ type: 'querybar.validate', id: 2, text: 'principal.hostname in %nope' }, lists);
    assert.ok(
      unknown.type === 'querybar.diagnostics' && unknown.diagnostics.some((d) => /nope/.test(messageText(d.message))),
    );
    const withoutLists = answerQueryBar({ type: 'querybar.validate', id: 3, text: 'principal.hostname in %nope' });
    assert.ok(
      withoutLists.type === 'querybar.diagnostics' &&
        !withoutLists.diagnostics.some((d) => /nope/.test(messageText(d.message))),
    );
  });

  it('takes the lists the Reference Lists view knows, as the language server does: details in completion, unknown names flagged', () => {
    const known = [
      { name: 'vip_cidrs', contentType: 'CIDR' as const, size: 2, preview: ['10.0.0.0/8', '192.168.0.0/16'] },
      { name: 'bad_hosts', contentType: 'CONTENT_TYPE_DEFAULT_STRING' as const, size: 1, preview: ['evil-01'] },
    ];
    const text = 'principal.ip in cidr %';
    const position = { line: 0, character: text.length };
    // Known lists win over bare entries, as in src/server/main.ts.
    const answer = answerQueryBar({ type: 'querybar.complete', id: 4, text, position }, { other: ['x'] }, known);
    assert.equal(answer.type, 'querybar.completions');
    if (answer.type !== 'querybar.completions') return;
    const cidr = answer.items.find((i) => i.label === '%vip_cidrs');
    assert.ok(cidr, answer.items.map((i) => i.label).join(', '));
    assert.match(cidr.detail ?? '', /2 entries/);
    assert.ok(!answer.items.some((i) => i.label === '%other'), 'bare entries are not offered when lists are known');
    const unknown = answerQueryBar(
      { type: 'querybar.validate', id: 5, text: 'principal.hostname in %bad_host' },
      undefined,
      known,
    );
    assert.equal(unknown.type, 'querybar.diagnostics');
    if (unknown.type !== 'querybar.diagnostics') return;
    assert.equal(unknown.diagnostics.length, 1);
    assert.equal(unknown.diagnostics[0].severity, 1, 'an error: the server listed its lists and has no such one');
    assert.match(messageText(unknown.diagnostics[0].message), /Did you mean %bad_hosts/);
    // when the lists could not be loaded, the names known before are checked as warnings
    const stale = answerQueryBar(
      { type: 'querybar.validate', id: 7, text: 'principal.hostname in %bad_host' },
      undefined,
      known,
      'UNAVAILABLE: connect ECONNREFUSED',
    );
    assert.equal(stale.type === 'querybar.diagnostics' && stale.diagnostics[0].severity, 2);
    const fine = answerQueryBar(
      { type: 'querybar.validate', id: 6, text: 'principal.hostname in %bad_hosts' },
      undefined,
      known,
    );
    assert.deepEqual(fine.type === 'querybar.diagnostics' && fine.diagnostics, []);
  });

  it("tells query bar requests from the panel's other messages", () => {
    assert.equal(isQueryBarRequest({ type: 'querybar.validate', id: 1, text: '' }), true);
    assert.equal(
      isQueryBarRequest({ type: 'querybar.complete', id: 1, text: '', position: { line: 0, character: 0 } }),
      true,
    );
    assert.equal(isQueryBarRequest({ type: 'runQuery', query: 'x' }), false);
    assert.equal(isQueryBarRequest({ type: 'ready' }), false);
  });
  it('a flood of problems reaches the page as 1,000 diagnostics and the "…and N more" summary', () => {
    const answer = answerQueryBar({ type: 'querybar.validate', id: 9, text: '"'.repeat(20_000) });
    assert.equal(answer.type, 'querybar.diagnostics');
    if (answer.type !== 'querybar.diagnostics') return;
    assert.equal(answer.diagnostics.length, 1001);
    const last = answer.diagnostics[1000];
    assert.equal(last.code, 'too-many-problems');
    assert.match(messageText(last.message), /^…and 9,000 more problems/);
    // the page's own check takes all of them (it keeps the fields a marker shows)
    const arrived = parseToWebview(JSON.parse(JSON.stringify(answer)));
    assert.equal(arrived.type === 'querybar.diagnostics' && arrived.diagnostics.length, 1001);
  });
});
