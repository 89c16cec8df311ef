import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver-types';
import { analyze } from '../../../src/udm/index';
import { foldingRanges } from '../../../src/udm/service';
import { FULL_STATISTICS_QUERY, VALID_QUERIES } from './corpus';

const folds = (text: string): FoldingRange[] => foldingRanges(analyze(text));
const byStart = (ranges: FoldingRange[]): FoldingRange[] =>
  [...ranges].sort((x, y) => x.startLine - y.startLine || x.endLine - y.endLine);

describe('UDM folding', () => {
  it('folds the events: header and every statistical section with its body', () => {
    // events: 0-2, match: 3-4, outcome: 5-8, condition: 9-10, dedup: 11-12, order: 13-14, limit: 15-16
    assert.deepEqual(byStart(folds(FULL_STATISTICS_QUERY)), [
      { startLine: 0, endLine: 2 },
      { startLine: 3, endLine: 4 },
      { startLine: 5, endLine: 8 },
      { startLine: 9, endLine: 10 },
      { startLine: 11, endLine: 12 },
      { startLine: 13, endLine: 14 },
      { startLine: 15, endLine: 16 },
    ]);
  });

  it('does not fold a section or an events: header written on one line', () => {
    assert.deepEqual(folds('events: principal.hostname = "a"\n$h = principal.hostname\nmatch: $h\nlimit: 10'), [
      { startLine: 0, endLine: 1 },
    ]);
    assert.deepEqual(folds('events:'), []);
    assert.deepEqual(folds('$h = principal.hostname\nmatch: $h\noutcome: $c = count(metadata.id)\nlimit: 10'), []);
  });

  it('folds multi-line parentheses and brackets, keeping the closing line visible', () => {
    const text = [
      'metadata.event_type = "USER_LOGIN" AND (', // 0
      '  principal.hostname = "a"', // 1
      '  OR principal.hostname = "b"', // 2
      ')', // 3
      'arrays.concat([', // 4
      '  "x"', // 5
      '], ["y"]) = ["x", "y"]', // 6
      '(target.port = 22', // 7
      ')', // 8
    ].join('\n');
    assert.deepEqual(byStart(folds(text)), [
      { startLine: 0, endLine: 2 },
      { startLine: 4, endLine: 5 },
      { startLine: 7, endLine: 8 },
    ]);
  });

  it('folds a multi-line call inside an outcome: section, nested in the section', () => {
    const text = [
      '$h = principal.hostname', // 0
      'match:', // 1
      '  $h', // 2
      'outcome:', // 3
      '  $bytes = math.round(', // 4
      '    sum(network.sent_bytes) / 1024,', // 5
      '    1', // 6
      '  )', // 7
    ].join('\n');
    assert.deepEqual(byStart(folds(text)), [
      { startLine: 1, endLine: 2 },
      { startLine: 3, endLine: 7 },
      { startLine: 4, endLine: 6 },
    ]);
  });

  it('folds block comments and runs of whole-line comments, not comments after code', () => {
    const text = [
      '// Failed logins on servers', // 0
      '// by host, last 24 hours', // 1
      '//   (tune the threshold below)', // 2
      'metadata.event_type = "USER_LOGIN" // login events', // 3
      'security_result.action = "BLOCK" // blocked', // 4
      '/* servers only:', // 5
      '   the naming rule */', // 6
      'principal.hostname = /^srv-/', // 7
      '// a single comment line', // 8
      'target.port = 22', // 9
      '// one', // 10
      '/* two */', // 11
      '// three', // 12
    ].join('\n');
    const comments = folds(text).filter((f) => f.kind === FoldingRangeKind.Comment);
    assert.deepEqual(byStart(comments), [
      { startLine: 0, endLine: 2, kind: FoldingRangeKind.Comment },
      { startLine: 5, endLine: 6, kind: FoldingRangeKind.Comment },
    ]);
  });

  it('gives ranges inside the document, each over two lines or more, for any text', () => {
    const pieces = [
      ...VALID_QUERIES,
      FULL_STATISTICS_QUERY,
      '(',
      ')',
      '[',
      ']',
      '\n',
      '// c\n',
      '/* c\n*/',
      'events:\n',
      'match:\n',
      'outcome:\n',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (parts) => {
        const text = parts.join('\n');
        const lastLine = text.split('\n').length - 1;
        for (const f of folds(text)) {
          assert.ok(f.startLine < f.endLine, JSON.stringify({ text, f }));
          assert.ok(f.endLine <= lastLine, JSON.stringify({ text, f }));
        }
      }),
    );
  });
});
