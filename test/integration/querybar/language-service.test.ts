// The query bar completes and checks in the page with QueryBarService; the editor with the UDM
// language server. Given the same reference lists (the server at start-up, the page by the
// querybar.lists message), both must answer every query alike: the real server (a child process,
// over LSP) is asked, and its answers are compared with the page's service, item for item.
import assert from 'node:assert/strict';
import { parseToWebview } from '../../../src/core/secops/messages';
import { QueryBarService, type QueryBarLists } from '../../../src/core/secops/querybar-service';
import type { KnownReferenceList } from '../../../src/udm/reference-lists';
import { LspClient } from '../server/lsp-client';

const KNOWN: KnownReferenceList[] = [
  { name: 'vip_cidrs', contentType: 'CIDR', size: 2, preview: ['10.0.0.0/8', '192.168.0.0/16'], description: 'VIPs' },
  { name: 'bad_hosts', contentType: 'REGEX', size: 2, preview: ['^evil-', 'bad\\.example$'] },
];
const ENTRIES = { bad_hosts: ['^evil-', '[unclosed'], vip_users: ['root'] };

/** The lists each way the extension can know them; the server is told at start-up, the page by message. */
const SETUPS: Array<{ name: string; lists: QueryBarLists }> = [
  { name: 'no lists known', lists: {} },
  { name: 'lists with their entries', lists: { referenceLists: ENTRIES } },
  { name: 'lists the Reference Lists view knows', lists: { knownLists: KNOWN, referenceLists: ENTRIES } },
  {
    name: 'lists that could not be loaded',
    lists: { knownLists: KNOWN, listsUnavailable: 'UNAVAILABLE: connect ECONNREFUSED' },
  },
];

/** Texts with the cursor at `|`: fields after ".", functions, enum values, %lists, outcome aggregates, errors. */
const QUERIES = [
  'principal.hostname = "h"\nmetadata.|',
  'net.|',
  'metadata.event_type = |',
  'principal.ip in cidr %|',
  'principal.hostname in %|',
  'principal.hostname in %bad_host|',
  'principal.hostname in regex %bad_hosts|',
  'principal.user.userid in %vip_users and metadata.event_typo = "X"|',
  'principal.hostname = /[a-/|',
  '$h = principal.hostname\nmatch:\n  $h\noutcome:\n  $n = count(|',
  'strings.|',
];

function cursor(query: string): { text: string; position: { line: number; character: number } } {
  const at = query.indexOf('|');
  const before = query.slice(0, at).split('\n');
  return {
    text: query.replace('|', ''),
    position: { line: before.length - 1, character: before[before.length - 1].length },
  };
}

describe('query bar: the language service in the page answers as the UDM language server does', function () {
  this.timeout(120_000);

  for (const setup of SETUPS) {
    it(`completions and diagnostics are the server's, with ${setup.name}`, async () => {
      const { client } = await LspClient.start(
        { textDocument: { diagnostic: {} } },
        {
          ...(setup.lists.referenceLists ? { referenceLists: setup.lists.referenceLists } : {}),
          ...(setup.lists.knownLists ? { knownReferenceLists: setup.lists.knownLists } : {}),
          ...(setup.lists.listsUnavailable ? { knownReferenceListsError: setup.lists.listsUnavailable } : {}),
        },
      );
      try {
        // The lists reach the page as the extension sends them, through the page's own check.
        const arrived = parseToWebview(JSON.parse(JSON.stringify({ type: 'querybar.lists', ...setup.lists })));
        assert.equal(arrived.type, 'querybar.lists');
        const service = new QueryBarService(arrived.type === 'querybar.lists' ? arrived : {});
        let flagged = 0;
        let listItems = 0;
        for (const [i, query] of QUERIES.entries()) {
          const { text, position } = cursor(query);
          const uri = `file:///work/querybar-${i}.udm`;
          await client.open(uri, text);
          const items = await client.request<unknown[]>('textDocument/completion', { textDocument: { uri }, position });
          const report = await client.request<{ items: unknown[] }>('textDocument/diagnostic', {
            textDocument: { uri },
          });
          const page = JSON.parse(JSON.stringify(service.completions(text, position))) as Array<{ label: string }>;
          assert.deepEqual(page, items, `completions of ${JSON.stringify(query)}`);
          assert.deepEqual(
            JSON.parse(JSON.stringify(service.diagnostics(text))),
            report.items,
            `diagnostics of ${JSON.stringify(query)}`,
          );
          flagged += report.items.length;
          listItems += page.filter((c) => c.label.startsWith('%')).length;
          if (query.startsWith('principal.hostname = "h"\nmetadata.'))
            assert.ok(page.some((c) => c.label === 'event_type'));
        }
        // The comparison covers answers with content, not only empty ones.
        assert.ok(flagged >= 2, `only ${flagged} diagnostics over all queries`);
        if (setup.lists.knownLists || setup.lists.referenceLists) assert.ok(listItems >= 2, 'lists were completed');
      } finally {
        await client.stop();
      }
    });
  }

  it('an unknown %list is an error once the lists are known, a warning when they could not be loaded', () => {
    const text = 'principal.hostname in %bad_host';
    const severity = (lists: QueryBarLists): number | undefined =>
      new QueryBarService(lists).diagnostics(text).find((d) => d.code === 'unknown-list')?.severity;
    assert.equal(severity({}), undefined);
    assert.equal(severity({ knownLists: KNOWN }), 1);
    assert.equal(severity({ knownLists: KNOWN, listsUnavailable: 'UNAVAILABLE' }), 2);
  });
});
