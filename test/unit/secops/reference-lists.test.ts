// Reference-list lines checked by content type: RE2 syntax (not JavaScript's), IPv4/IPv6 CIDR,
// names, the editor's warnings, the server's verification and the text <-> lines conversion.
import assert from 'node:assert/strict';
import {
  checkReferenceListLine,
  checkReferenceListName,
  isCommentLine,
  joinReferenceListLines,
  lintReferenceList,
  referenceListEntries,
  splitReferenceListText,
  verifyReferenceListLines,
} from '../../../src/core/secops/reference-lists';

describe('reference-list validation', () => {
  describe('names', () => {
    it('takes letters, digits and underscores up to 255 characters', () => {
      assert.equal(checkReferenceListName('blocked_domains_2'), undefined);
      assert.equal(checkReferenceListName('x'.repeat(255)), undefined);
      assert.match(checkReferenceListName('x'.repeat(256)) ?? '', /255/);
      assert.match(checkReferenceListName('bad-name') ?? '', /letters, digits and underscores/);
      assert.match(checkReferenceListName('has space') ?? '', /letters, digits and underscores/);
      assert.match(checkReferenceListName('  ') ?? '', /needs a name/);
      assert.match(checkReferenceListName('%list') ?? '', /%name/);
    });
  });

  describe('regular expressions (RE2)', () => {
    it('accepts RE2 syntax, including what JavaScript lacks', () => {
      for (const ok of ['^a.*$', '(?i)login', '(?P<host>srv-\\d+)', '\\p{Greek}+', '[[:alpha:]]+', '\\Qa.b\\E'])
        assert.equal(checkReferenceListLine('REGEX', ok), undefined, ok);
    });

    it('refuses what RE2 refuses, even where JavaScript would accept it', () => {
      // [pattern, expected message, whether JavaScript's RegExp would have taken it]
      const cases: Array<[string, RegExp, boolean]> = [
        ['(?=look)ahead', /Perl syntax/, true],
        ['(?<!behind)x', /invalid named capture/, true],
        ['(a)\\1', /escape sequence/, true],
        ['a++', /nested repetition/, false],
        ['a(b', /missing closing \)/, false],
        ['[a-', /missing closing \]/, false],
        ['x{2,1}', /repeat count/, false],
      ];
      for (const [pattern, why, javascriptTakesIt] of cases) {
        if (javascriptTakesIt) assert.doesNotThrow(() => new RegExp(pattern), 'the JavaScript engine is not the judge');
        const e = checkReferenceListLine('REGEX', pattern);
        assert.ok(e, `${pattern} should be refused`);
        assert.match(e.message, /Not a valid RE2 regular expression/);
        assert.match(e.message, why, pattern);
        assert.ok(e.start >= 0 && e.end <= pattern.length && e.start < e.end, `${pattern}: ${e.start}-${e.end}`);
      }
    });

    it('points at the offending part of the line', () => {
      const e = checkReferenceListLine('REGEX', 'ok(?=x)');
      assert.deepEqual([e?.start, e?.end], [2, 5]);
    });
  });

  describe('CIDR ranges', () => {
    it('accepts IPv4 and IPv6 ranges', () => {
      for (const ok of ['10.0.0.0/8', '0.0.0.0/0', '192.0.2.1/32', '2001:db8::/32', '::/0', 'fe80::1/128'])
        assert.equal(checkReferenceListLine('CIDR', ok), undefined, ok);
    });

    it('refuses addresses without a prefix, bad addresses and prefixes out of range', () => {
      assert.match(checkReferenceListLine('CIDR', '10.0.0.1')?.message ?? '', /slash and a prefix length/);
      assert.match(checkReferenceListLine('CIDR', '10.0.0/8')?.message ?? '', /not an IPv4 or IPv6 address/);
      assert.match(checkReferenceListLine('CIDR', '300.0.0.0/8')?.message ?? '', /not an IPv4 or IPv6 address/);
      assert.match(checkReferenceListLine('CIDR', 'example.com/8')?.message ?? '', /not an IPv4 or IPv6 address/);
      const v4 = checkReferenceListLine('CIDR', '10.0.0.0/33');
      assert.match(v4?.message ?? '', /0 to 32/);
      assert.deepEqual([v4?.start, v4?.end], [9, 11]);
      assert.match(checkReferenceListLine('CIDR', '2001:db8::/129')?.message ?? '', /0 to 128/);
      assert.match(checkReferenceListLine('CIDR', '10.0.0.0/')?.message ?? '', /prefix length/);
      assert.match(checkReferenceListLine('CIDR', '10.0.0.0/x8')?.message ?? '', /prefix length/);
    });
  });

  it('takes any text in a string list', () => {
    for (const anything of ['a(b', '10.0.0.1', 'ünïcode', '*'])
      assert.equal(checkReferenceListLine('CONTENT_TYPE_DEFAULT_STRING', anything), undefined);
  });

  describe('what the editor shows', () => {
    it('flags errors by line, and duplicates, blank lines and stray spaces as warnings; comments pass', () => {
      const lines = ['// watched ranges', '10.0.0.0/8', '', 'nope', '10.0.0.0/8', ' 10.1.0.0/16', '// 999/1'];
      const problems = lintReferenceList('CIDR', lines);
      const summary = problems.map((p) => `${p.line}:${p.severity}:${p.message.split(/[:.]/)[0]}`);
      assert.deepEqual(summary, [
        '2:warning:Blank line',
        '3:error:"nope" is not a CIDR range',
        '4:warning:Duplicate of line 2',
        '5:error:" 10',
        '5:warning:Leading or trailing spaces are part of the entry and will be matched literally',
      ]);
    });

    it('an empty final line (the document ends in a newline) is not a blank entry', () => {
      assert.deepEqual(lintReferenceList('REGEX', ['a', '']), []);
    });

    it('a list with only comments is an error', () => {
      const problems = lintReferenceList('CONTENT_TYPE_DEFAULT_STRING', ['// nothing yet']);
      assert.equal(problems.length, 1);
      assert.equal(problems[0].severity, 'error');
      assert.match(problems[0].message, /no entries/);
    });
  });

  it('the server verification reports errors with 1-based line numbers, -1 for the whole list', () => {
    assert.deepEqual(verifyReferenceListLines('REGEX', ['ok', '// (comment', '(bad']), [
      { lineNumber: 3, errorMessage: checkReferenceListLine('REGEX', '(bad')!.message },
    ]);
    assert.deepEqual(verifyReferenceListLines('CIDR', ['', '// none']), [
      { lineNumber: -1, errorMessage: 'The list has no entries: add at least one line that is not a comment.' },
    ]);
    assert.deepEqual(verifyReferenceListLines('CIDR', ['10.0.0.0/8', '']), []);
  });

  it('entries leave out comments and blank lines', () => {
    assert.equal(isCommentLine('  // indented comment'), true);
    assert.equal(isCommentLine('a // not a comment'), false);
    assert.deepEqual(referenceListEntries(['// c', 'a', '', '  ', 'b']), ['a', 'b']);
  });

  it('turns document text into lines and back (LF or CRLF, one final newline)', () => {
    assert.deepEqual(splitReferenceListText('a\nb\n'), ['a', 'b']);
    assert.deepEqual(splitReferenceListText('a\r\nb'), ['a', 'b']);
    assert.deepEqual(splitReferenceListText(''), ['']);
    assert.deepEqual(splitReferenceListText('a\n\n'), ['a', '']);
    for (const lines of [['a', 'b'], ['// c', '', 'x'], ['only']])
      assert.deepEqual(splitReferenceListText(joinReferenceListLines(lines)), lines);
    assert.equal(joinReferenceListLines([]), '');
  });
});
