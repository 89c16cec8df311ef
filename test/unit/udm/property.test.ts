import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze, compileQuery, lex } from '../../../src/udm/index';
import {
  classify,
  complete,
  foldingRanges,
  formatText,
  hover,
  semanticTokens,
  signatureHelp,
} from '../../../src/udm/service';

/** Fragments that make random input look like queries, so the parser's deeper paths are exercised. */
const FRAGMENTS = [
  'metadata',
  'principal',
  'target',
  '.',
  'hostname',
  'ip',
  'event_type',
  'event_timestamp',
  'seconds',
  'security_result',
  'action',
  ' = ',
  ' != ',
  ' > ',
  ' <= ',
  '=',
  ' AND ',
  ' or ',
  ' NOT ',
  ' not ',
  ' in ',
  ' regex ',
  ' cidr ',
  ' nocase',
  '(',
  ')',
  '[',
  ']',
  ',',
  '"USER_LOGIN"',
  '"x',
  '"a\\"b"',
  '`raw`',
  '/re.*/',
  '/unterminated',
  '443',
  '-1',
  '1.5',
  '$h',
  '$',
  '%list',
  '%',
  '\n',
  '\n',
  ' ',
  'match:',
  'outcome:',
  'order:',
  'limit:',
  'count(',
  'metadata.id',
  'desc',
  'net.ip_in_range_cidr(',
  're.regex(',
  'strings.to_lower(',
  '// c\n',
  '/* b\n */',
  '/*',
  'udm.',
  'true',
  'any ',
  "'s'",
  '!',
  '==',
  '\u00e9',
  '\ud83d\ude00',
  '\r\n',
  '\t',
  '@#',
];

const queryLike = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), queryLike);

const RANDOM_EVENTS: unknown[] = [
  {},
  {
    metadata: { eventType: 'USER_LOGIN', eventTimestamp: '2024-01-01T00:00:00Z', id: 'x' },
    principal: { hostname: 'h', ip: ['10.0.0.1'] },
  },
  { principal: { ip: [null, 5, {}] }, securityResult: 'oops' },
];

function checkRanges(text: string): void {
  const a = analyze(text);
  const lineCount = text.split('\n').length;
  for (const d of a.diagnostics) {
    assert.ok(
      d.offset >= 0 && d.length >= 0 && d.offset + d.length <= text.length,
      `diagnostic outside the document: ${JSON.stringify(d)}`,
    );
    for (const p of [d.range.start, d.range.end]) {
      assert.ok(p.line >= 0 && p.line < lineCount, `line out of range: ${JSON.stringify(d)}`);
      const lineText = text.split('\n')[p.line];
      assert.ok(p.character >= 0 && p.character <= lineText.length, `character out of range: ${JSON.stringify(d)}`);
    }
    assert.ok(
      d.range.start.line < d.range.end.line ||
        (d.range.start.line === d.range.end.line && d.range.start.character <= d.range.end.character),
    );
  }
}

describe('UDM properties (fast-check)', function () {
  this.timeout(120000);

  it('never throws and every diagnostic range lies inside the document', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const started = performance.now();
        const c = compileQuery(text);
        for (const ev of RANDOM_EVENTS) assert.equal(typeof c.matches(ev), 'boolean');
        if (c.aggregate) assert.ok(Array.isArray(c.aggregate(RANDOM_EVENTS)));
        checkRanges(text);
        // "never hangs": a short input must be handled in far less than this
        assert.ok(performance.now() - started < 2000);
      }),
      { numRuns: 1500 },
    );
  });

  it('editor features never throw at any position', () => {
    fc.assert(
      fc.property(anyText, fc.nat(), (text, at) => {
        const a = analyze(text);
        const offset = text.length ? at % (text.length + 1) : 0;
        const pos = a.lines.position(offset);
        complete(a, pos, ['list']);
        hover(a, pos, { list: ['a'] });
        signatureHelp(a, pos);
        foldingRanges(a);
        const data = semanticTokens(a);
        assert.equal(data.length % 5, 0);
        for (let i = 2; i < data.length; i += 5) assert.ok(data[i] > 0);
        formatText(a);
      }),
      { numRuns: 1000 },
    );
  });

  it('formatting is idempotent and keeps the token sequence', () => {
    fc.assert(
      fc.property(queryLike, (text) => {
        const a = analyze(text);
        if (a.parse.tokens.some((t) => t.error) || a.parse.comments.some((c) => c.error)) return;
        const once = formatText(a);
        const twice = formatText(analyze(once));
        assert.equal(twice, once);
        const sig = (s: string): string[] =>
          lex(s).tokens.map((t) => `${t.kind}:${t.kind === 'ident' ? t.value.toLowerCase() : t.value}`);
        assert.deepEqual(sig(once), sig(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('semantic token classification covers every significant token exactly once', () => {
    fc.assert(
      fc.property(queryLike, (text) => {
        const a = analyze(text);
        const classified = classify(a);
        for (let i = 1; i < classified.length; i++) assert.ok(classified[i].start >= classified[i - 1].end);
      }),
      { numRuns: 500 },
    );
  });
});
