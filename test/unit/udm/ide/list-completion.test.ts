// `%` completes the reference lists a query or a rule may name there. Google's syntax (reference
// udm-syntax.md, "Reference lists"): `field in %list` reads a string list, `field in regex %list` a
// list of regular expressions, `field in cidr %list` a list of CIDR ranges; `not` goes before `in`.
// So after `in cidr` only CIDR lists fit, after `in regex` only regex lists, after `in` string lists.
import * as assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import type { KnownReferenceList } from '../../../../src/udm/reference-lists';
import { UdmDocument, complete, completeRule, type RuleAnalysis } from '../../../../src/udm/service';

const LISTS: KnownReferenceList[] = [
  { name: 'corp_ranges', contentType: 'CIDR', size: 2, description: 'Corporate ranges', preview: ['10.0.0.0/8'] },
  { name: 'bad_agents', contentType: 'REGEX', size: 1, description: 'Scanner user agents', preview: ['^curl/'] },
  {
    name: 'suspicious_domains',
    contentType: 'CONTENT_TYPE_DEFAULT_STRING',
    size: 3,
    description: 'Known bad domains',
    preview: ['evil.example'],
  },
  { name: 'admins', contentType: 'CONTENT_TYPE_DEFAULT_STRING', size: 1, preview: ['root'] },
];

/** What each content type is called where Google's syntax names it (`in`, `in regex`, `in cidr`). */
const BY_WORDS: Array<[string, KnownReferenceList['contentType']]> = [
  ['in', 'CONTENT_TYPE_DEFAULT_STRING'],
  ['not in', 'CONTENT_TYPE_DEFAULT_STRING'],
  ['in regex', 'REGEX'],
  ['IN REGEX', 'REGEX'],
  ['in cidr', 'CIDR'],
  ['not in cidr', 'CIDR'],
];

const namesOf = (type: KnownReferenceList['contentType']): string[] =>
  LISTS.filter((l) => l.contentType === type)
    .map((l) => `%${l.name}`)
    .sort();

const labels = (items: CompletionItem[]): string[] =>
  items
    .filter((i) => i.label.startsWith('%'))
    .map((i) => i.label)
    .sort();

/** Completion in a `.udm` search whose text ends at the cursor. */
function inSearch(typed: string, lists: readonly (string | KnownReferenceList)[] = LISTS): CompletionItem[] {
  const d = new UdmDocument(typed, 1, {}, 'udm');
  return complete(d.analysis, d.analysis.lines.position(typed.length), lists);
}

/** Completion in a `.yaral` rule, at the end of `typed` in its events: section. */
function inRule(typed: string, lists: readonly (string | KnownReferenceList)[] = LISTS): CompletionItem[] {
  const before = `rule lists {\n  meta:\n    author = "x"\n  events:\n    ${typed}`;
  const text = `${before}\n  condition:\n    $e\n}\n`;
  const d = new UdmDocument(text, 1, {}, 'yaral');
  const a = d.analysis as RuleAnalysis;
  return completeRule(a, a.lines.position(before.length), lists);
}

describe('completion of %list by the list’s content type', () => {
  for (const [where, complete_] of [
    ['a search', inSearch],
    ['a rule', inRule],
  ] as const) {
    const field = where === 'a rule' ? '$e.principal.ip' : 'principal.ip';
    for (const [words, type] of BY_WORDS) {
      it(`${where}: \`${words} %\` offers only the ${type} lists`, () => {
        assert.deepEqual(labels(complete_(`${field} ${words} %`)), namesOf(type));
      });
      it(`${where}: \`${words} \` (before %) offers only the ${type} lists`, () => {
        assert.deepEqual(labels(complete_(`${field} ${words} `)), namesOf(type));
      });
    }
    it(`${where}: a name being typed keeps the filter (\`in cidr %co\`)`, () => {
      const items = complete_(`${field} in cidr %co`);
      assert.deepEqual(labels(items), ['%corp_ranges']);
    });
    it(`${where}: lists known only by name are offered after every form`, () => {
      for (const [words] of BY_WORDS)
        assert.deepEqual(labels(complete_(`${field} ${words} %`, ['a', 'b'])), ['%a', '%b'], words);
    });
  }

  it('each item shows the list’s content type and description on its row, and its size', () => {
    const items = inRule('$e.principal.ip in cidr %');
    assert.equal(items.length, 1);
    assert.equal(items[0].labelDetails?.description, 'CIDR list: Corporate ranges');
    assert.equal(items[0].detail, 'CIDR list, 2 entries');
    const strings = inSearch('principal.hostname in %');
    const admins = strings.find((i) => i.label === '%admins');
    assert.equal(admins?.labelDetails?.description, 'string list', 'no description: the type alone');
    assert.equal(
      strings.find((i) => i.label === '%suspicious_domains')?.labelDetails?.description,
      'string list: Known bad domains',
    );
    const doc = items[0].documentation as { value: string };
    assert.match(doc.value, /Corporate ranges/);
  });

  it('the accepted item replaces what was typed after %', () => {
    const typed = '$e.principal.ip in regex %ba';
    const [item] = inRule(typed);
    const edit = item.textEdit as { newText: string; range: { start: { character: number } } };
    assert.equal(edit.newText, '%bad_agents');
    assert.equal(edit.range.start.character, 4 + typed.indexOf('%'));
  });
});
