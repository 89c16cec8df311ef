// The query bar's language service in the page is the UDM language service the language server
// calls, with the server's options for the same lists: the same items and diagnostics as the server
// returns for an editor document (test/integration/querybar/language-service.test.ts asks the real
// server). Here: what those answers are, and that they follow the lists the extension sends.
import assert from 'node:assert/strict';
import { QueryBarService, queryBarOptions, type QueryBarLists } from '../../../src/core/secops/querybar-service';
import { analyze } from '../../../src/udm';
import { knownListMap, type KnownReferenceList } from '../../../src/udm/reference-lists';
import { complete, toLspDiagnostics } from '../../../src/udm/service';
import { DOCUMENTED_SYNTAX_EXAMPLES } from '../../../src/udm/documented-examples';

const messageText = (m: string | { value: string }): string => (typeof m === 'string' ? m : m.value);
const end = (text: string): { line: number; character: number } => {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
};

const KNOWN: KnownReferenceList[] = [
  { name: 'vip_cidrs', contentType: 'CIDR', size: 2, preview: ['10.0.0.0/8', '192.168.0.0/16'] },
  { name: 'bad_hosts', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['evil-01'] },
];

describe('query bar: the language service in the page', () => {
  it('completes the fields of metadata after "metadata." exactly as the language service does', () => {
    const service = new QueryBarService();
    const text = 'principal.hostname = "h"\nmetadata.';
    const items = service.completions(text, end(text));
    assert.deepEqual(items, complete(analyze(text), end(text), []));
    const labels = items.map((i) => i.label);
    assert.ok(labels.includes('event_type'), labels.join(', '));
    assert.ok(!labels.includes('hostname'), 'principal fields are not offered under metadata');
  });

  it('completes functions of a namespace, and the namespaces where a condition starts', () => {
    const service = new QueryBarService();
    const text = 'net.';
    const items = service.completions(text, end(text));
    assert.deepEqual(items, complete(analyze(text), end(text), []));
    assert.ok(
      items.some((i) => i.label === 'ip_in_range_cidr'),
      items.map((i) => i.label).join(', '),
    );
    const start = service.completions('', { line: 0, character: 0 });
    assert.deepEqual(start, complete(analyze(''), { line: 0, character: 0 }, []));
    assert.ok(start.some((i) => i.label === 'net'));
  });

  it('reports a misspelt field with the same diagnostic as the editor, and nothing for a valid query', () => {
    const service = new QueryBarService();
    const text = 'metadata.event_typo = "NETWORK_DNS"';
    const diagnostics = service.diagnostics(text);
    assert.deepEqual(diagnostics, toLspDiagnostics(analyze(text)));
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].severity, 1);
    assert.match(messageText(diagnostics[0].message), /event_typo/);
    assert.deepEqual(diagnostics[0].range, { start: { line: 0, character: 9 }, end: { line: 0, character: 19 } });
    assert.deepEqual(service.diagnostics('metadata.event_type = "NETWORK_DNS"'), []);
  });

  it('takes the options the language server builds: known lists win over bare entries', () => {
    assert.deepEqual(queryBarOptions({}), {});
    assert.deepEqual(queryBarOptions({ referenceLists: { a: ['x'] } }), { referenceLists: { a: ['x'] } });
    assert.deepEqual(queryBarOptions({ referenceLists: { a: ['x'] }, knownLists: KNOWN }), {
      knownLists: knownListMap(KNOWN),
    });
    assert.deepEqual(queryBarOptions({ knownLists: KNOWN, listsUnavailable: 'UNAVAILABLE' }), {
      knownLists: knownListMap(KNOWN),
      listsUnavailable: 'UNAVAILABLE',
    });
  });

  it('completes %lists from the lists it was sent, with their details, and follows each update', () => {
    const service = new QueryBarService();
    const text = 'principal.ip in cidr %';
    assert.deepEqual(
      service.completions(text, end(text)).filter((i) => i.label.startsWith('%')),
      [],
      'no lists known yet',
    );
    service.setLists({ knownLists: KNOWN, referenceLists: { other: ['x'] } });
    const items = service.completions(text, end(text));
    assert.deepEqual(items, complete(analyze(text, queryBarOptions({ knownLists: KNOWN })), end(text), KNOWN));
    const cidr = items.find((i) => i.label === '%vip_cidrs');
    assert.ok(cidr, items.map((i) => i.label).join(', '));
    assert.match(cidr.detail ?? '', /2 entries/);
    assert.ok(!items.some((i) => i.label === '%other'), 'bare entries are not offered when lists are known');
    // Bare lists alone complete by name.
    service.setLists({ referenceLists: { bad_hosts: ['a'], vip_users: ['b'] } });
    const bare = service.completions('principal.hostname in %', end('principal.hostname in %'));
    assert.ok(
      bare.some((i) => i.label.includes('vip_users')),
      bare.map((i) => i.label).join(', '),
    );
  });

  it('flags an unknown %list as an error, as a warning when the lists could not be loaded, and not when names are unknown', () => {
    const service = new QueryBarService();
    const text = 'principal.hostname in %bad_host';
    assert.deepEqual(service.diagnostics(text), [], 'names not known yet: nothing is flagged');
    const lists: QueryBarLists = { knownLists: KNOWN };
    service.setLists(lists);
    const unknown = service.diagnostics(text);
    assert.deepEqual(unknown, toLspDiagnostics(analyze(text, queryBarOptions(lists))));
    assert.equal(unknown.length, 1);
    assert.equal(unknown[0].severity, 1, 'an error: the server listed its lists and has no such one');
    assert.match(messageText(unknown[0].message), /Did you mean %bad_hosts/);
    service.setLists({ knownLists: KNOWN, listsUnavailable: 'UNAVAILABLE: connect ECONNREFUSED' });
    const stale = service.diagnostics(text);
    assert.equal(stale.length, 1);
    assert.equal(stale[0].severity, 2, 'a warning: the lists could not be loaded');
    assert.match(messageText(stale[0].message), /could not be loaded: UNAVAILABLE/);
    assert.deepEqual(service.diagnostics('principal.hostname in %bad_hosts'), []);
    // Bare lists: an unknown name is an error, entries are checked by mode.
    service.setLists({ referenceLists: { bad_hosts: ['a'] } });
    assert.match(messageText(service.diagnostics('principal.hostname in %nope')[0]?.message ?? ''), /nope/);
  });

  it('new lists apply to the text already analysed, and a new text is analysed afresh', () => {
    const service = new QueryBarService();
    const text = 'principal.hostname in %bad_host';
    assert.deepEqual(service.diagnostics(text), []);
    service.completions(text, end(text));
    assert.deepEqual(service.diagnostics(text), []);
    service.setLists({ knownLists: [] });
    assert.equal(service.diagnostics(text).length, 1, 'the new lists are checked against the same text');
    assert.equal(service.diagnostics('principal.hostname = "x"').length, 0);
  });

  it('a flood of problems is 1,000 diagnostics and the "…and N more" summary, as in the editor', () => {
    const diagnostics = new QueryBarService().diagnostics('"'.repeat(20_000));
    assert.equal(diagnostics.length, 1001);
    const last = diagnostics[1000];
    assert.equal(last.code, 'too-many-problems');
    assert.match(messageText(last.message), /^…and 9,000 more problems/);
  });

  it("runs without Node's Buffer, as in the page: completion and checks never reach the library's evaluation", () => {
    const texts = [
      ...DOCUMENTED_SYNTAX_EXAMPLES.map(([, query]) => query),
      'strings.base64_decode("aGVsbG8=") = "hello" and bytes.to_base64(b\'00ff\') = "AP8=" and strings.from_hex("1234") != ""',
    ];
    const g = globalThis as { Buffer?: unknown };
    const saved = g.Buffer;
    const service = new QueryBarService({ knownLists: KNOWN });
    let answered = 0;
    delete g.Buffer;
    try {
      for (const text of texts)
        for (let cut = 0; cut <= text.length; cut += Math.max(1, Math.floor(text.length / 6))) {
          const part = text.slice(0, cut);
          service.completions(part, end(part));
          service.diagnostics(part);
          answered++;
        }
    } finally {
      g.Buffer = saved;
    }
    assert.ok(answered > texts.length * 5, `${answered} answers`);
  });
});
