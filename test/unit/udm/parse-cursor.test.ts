import * as assert from 'node:assert/strict';
import type { Section } from '../../../src/udm/ast';
import { lex } from '../../../src/udm/lexer';
import { parseFilter } from '../../../src/udm/parse/conditions';
import { ParseCursor, SEARCH_SECTION_NAMES } from '../../../src/udm/parse/cursor';
import { atSectionEnd, parseSection, SEARCH_SECTION_PARSERS, type SectionHead } from '../../../src/udm/parse/sections';
import { parse } from '../../../src/udm/parser';

/** The grammar functions run over part of a document, as a larger language's parser runs them. */
describe('UDM grammar over a range of tokens', () => {
  const text = 'wrapper { principal.hostname = "a" or target.port = 80\nmatch: principal.hostname } trailing';
  const { tokens, comments } = lex(text);
  const open = tokens.findIndex((t) => t.kind === 'ident' && t.value === 'wrapper') + 2;
  const close = tokens.findIndex((t) => t.value === '}');

  it('reads the filter and sections between two tokens and stops at the end of the range', () => {
    const s = new ParseCursor(text, tokens, comments, { from: open, to: close });
    const filter = parseFilter(s);
    assert.equal(filter?.type, 'or');
    assert.ok(s.atSectionStart());
    const section = parseSection(s);
    assert.equal(section.kind, 'match');
    assert.equal(section.kind === 'match' && section.keys.length, 1);
    assert.equal(s.peek().kind, 'eof');
    assert.equal(s.peek().start, tokens[close].start);
    assert.equal(s.next().kind, 'eof');
    assert.equal(s.p, close, 'the cursor never reads past the range');
    assert.deepEqual(s.diagnostics, []);
  });

  it('reports a missing value at the end of the range, not after it', () => {
    const part = 'x { principal.hostname = } y';
    const lexed = lex(part);
    const s = new ParseCursor(part, lexed.tokens, lexed.comments, { from: 2, to: lexed.tokens.length - 3 });
    parseFilter(s);
    assert.deepEqual(
      s.diagnostics.map((d) => [d.message, d.start]),
      [["Expected a value after '='", part.indexOf('=') + 1]],
    );
  });

  it('takes more section names and body readers without changing the search grammar', () => {
    const rule = 'principal.hostname = "a"\nnotes: one two\ncondition: $n > 1';
    const lexed = lex(rule);
    const names = new Set([...SEARCH_SECTION_NAMES, 'notes']);
    const s = new ParseCursor(rule, lexed.tokens, lexed.comments, { sectionNames: names });
    const filter = parseFilter(s);
    assert.equal(filter?.end, rule.indexOf('\n'), 'the filter stops at the added section name');
    const read: string[] = [];
    const parsers = {
      ...SEARCH_SECTION_PARSERS,
      notes: (c: ParseCursor, head: SectionHead): Section => {
        while (!atSectionEnd(c)) read.push(c.next().value);
        return { kind: 'dedup', keyword: head.keyword, keys: [], start: head.start, end: head.end };
      },
    };
    parseSection(s, parsers);
    assert.deepEqual(read, ['one', 'two']);
    assert.equal(parseSection(s, parsers).kind, 'condition');
    // The search parser itself does not know the added name.
    assert.ok(parse(rule).diagnostics.length > 0);
  });
});
