// Completion as keys are typed in the editor: what accepting an item after `=`, a space, gives;
// which values come first; each function offered once.
import * as assert from 'node:assert/strict';
import type { CompletionItem } from 'vscode-languageserver-types';
import { DOCUMENTED_SYNTAX_EXAMPLES } from '../../../src/udm/documented-examples';
import { rankedEnumValues } from '../../../src/udm/ide/common-values';
import { analyze } from '../../../src/udm/index';
import { complete } from '../../../src/udm/service';

/** Items asked for at the end of `typed` (the editor asks when `=` is typed: a trigger character). */
function itemsAt(typed: string): CompletionItem[] {
  const a = analyze(typed);
  return complete(a, a.lines.position(typed.length));
}

/**
 * What the editor does when `extra` is typed while the list stays open, then the first item left
 * is accepted: the text from the item's range start to the cursor is filtered against filterText
 * (VS Code keeps an item whose filter text starts with what was typed) and then replaced by its
 * newText.
 */
function typeThenAccept(typed: string, extra: string): string {
  const items = itemsAt(typed)
    .slice()
    .sort((x, y) => (x.sortText ?? x.label).localeCompare(y.sortText ?? y.label));
  const a = analyze(typed);
  const kept = items.filter((i) => {
    const edit = i.textEdit as { range: { start: { line: number; character: number } }; newText: string };
    const from = a.lines.offset(edit.range.start);
    const word = typed.slice(from) + extra;
    return (i.filterText ?? i.label).startsWith(word);
  });
  assert.ok(kept.length > 0, `an item survives typing ${JSON.stringify(extra)}`);
  const edit = kept[0].textEdit as { range: { start: { line: number; character: number } }; newText: string };
  const from = a.lines.offset(edit.range.start);
  return typed.slice(0, from) + edit.newText;
}

describe('UDM completion as typed', () => {
  it('`metadata.event_type =`, space, Enter: the space is kept and the most documented value comes', () => {
    assert.equal(typeThenAccept('metadata.event_type =', ' '), 'metadata.event_type = "USER_LOGIN"');
    // accepted at once, the value still comes with its space
    assert.equal(typeThenAccept('metadata.event_type =', ''), 'metadata.event_type = "USER_LOGIN"');
    // after `= ` the value is inserted as is
    assert.equal(typeThenAccept('metadata.event_type = ', ''), 'metadata.event_type = "USER_LOGIN"');
  });

  it('`security_result.action =`, space, Enter gives ALLOW, not FAIL', () => {
    assert.equal(typeThenAccept('security_result.action =', ' '), 'security_result.action = "ALLOW"');
    const labels = itemsAt('security_result.action = ').map((i) => i.label);
    assert.deepEqual(labels.slice(0, 2), ['"ALLOW"', '"BLOCK"']);
    assert.equal(labels[labels.length - 1], '"UNKNOWN_ACTION"', 'the zero value (not set) last');
  });

  it('`principal.i` preselects the field `ip`, not the message `investigation` (fields that hold a value first)', () => {
    assert.equal(typeThenAccept('principal.i', ''), 'principal.ip');
    assert.equal(typeThenAccept('target.u', ''), 'target.url');
    const ranked = itemsAt('principal.')
      .slice()
      .sort((x, y) => (x.sortText ?? x.label).localeCompare(y.sortText ?? y.label))
      .map((i) => i.label);
    assert.ok(ranked.indexOf('ip') < ranked.indexOf('investigation'), ranked.join(' '));
    assert.ok(ranked.indexOf('hostname') < ranked.indexOf('asset'), ranked.join(' '));
  });

  it('string and bool fields keep the typed space too', () => {
    assert.equal(typeThenAccept('principal.hostname =', ' '), 'principal.hostname = "$1"');
    assert.match(typeThenAccept('network.dns.response =', ' '), /^network\.dns\.response = (true|false)$/);
  });

  it('values are ranked by how often the documented examples use them (computed, not listed)', () => {
    const counted = new Map<string, number>();
    for (const [, q] of DOCUMENTED_SYNTAX_EXAMPLES)
      for (const m of q.matchAll(/metadata\.event_type\s*[<>=!]+\s*"([A-Z_]+)"/g))
        counted.set(m[1], (counted.get(m[1]) ?? 0) + 1);
    const ranked = rankedEnumValues('Metadata.EventType').map(([n]) => n);
    assert.equal(ranked[0], 'USER_LOGIN');
    assert.ok(counted.get('USER_LOGIN')! >= 2);
    // every documented value comes before every undocumented one
    const lastDocumented = Math.max(...[...counted.keys(), 'NETWORK_CONNECTION'].map((n) => ranked.indexOf(n)));
    assert.ok(lastDocumented < ranked.indexOf('PROCESS_LAUNCH'));
    assert.equal(ranked[ranked.length - 1], 'EVENTTYPE_UNSPECIFIED');
  });

  it('offers no item twice', () => {
    for (const typed of ['math.', 'timestamp.', 'strings.', '', 'i'])
      for (const items of [itemsAt(typed)]) {
        const labels = items.map((i) => i.label);
        assert.equal(new Set(labels).size, labels.length, `${typed}: ${labels.join(', ')}`);
      }
  });
});
