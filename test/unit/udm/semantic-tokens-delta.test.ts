import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../../src/udm/index';
import {
  RuleAnalysis,
  SEMANTIC_TOKEN_TYPES,
  classify,
  ruleSemanticTokens,
  semanticTokens,
  type ClassifiedToken,
} from '../../../src/udm/service';
import { encodeTokens } from '../../../src/udm/ide/semantic-tokens';
import { classifyRule } from '../../../src/udm/ide/yaral-tokens';
import type { LineIndex } from '../../../src/udm/text';
import { SemanticTokensResults, applyTokenEdits, tokenEdits } from '../../../src/udm/ide/semantic-tokens-delta';

const SEARCH = [
  '// a hunt',
  '(principal.hostname = "host-1" and metadata.event_type = "USER_LOGIN") or',
  'net.ip_in_range_cidr(principal.ip, "10.0.0.0/8") and $host = principal.hostname',
  '/* a block',
  '   comment */ re.regex(target.url, `\\.exe$`) nocase',
  'match:',
  '  $host over 1h',
  'outcome:',
  '  $n = count(metadata.id)',
  'condition:',
  '  $n > 5',
].join('\n');

const RULE = [
  'rule r {',
  '  meta:',
  '    author = "a"',
  '  events:',
  '    $e.metadata.event_type = "USER_LOGIN"',
  '    $e.principal.hostname = $host',
  '    #comment? no: // a comment',
  '  match:',
  '    $host over 10m',
  '  outcome:',
  '    $risk_score = max(10)',
  '  condition:',
  '    #e > 2 and !$f',
  '}',
].join('\n');

const FRAGMENTS = [
  '\n',
  ' ',
  'a',
  '"',
  '/*',
  '*/',
  '//',
  '(',
  ')',
  'and ',
  'principal.',
  '$e.',
  '#e',
  '`',
  'rule x {',
  '}',
  ':',
];

/** An edit as the editor sends it: replace [at, at + remove) with `insert`, offsets cut to the text. */
const edit = fc.record({
  at: fc.nat(),
  remove: fc.nat({ max: 12 }),
  insert: fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 4 }).map((p) => p.join('')),
});

function applyEdit(text: string, e: { at: number; remove: number; insert: string }): string {
  const at = e.at % (text.length + 1);
  return text.slice(0, at) + e.insert + text.slice(Math.min(text.length, at + e.remove));
}

describe('semantic tokens as edits of the previous answer', () => {
  it('the edits turn any token array into any other, cut at whole tokens', () => {
    // Few distinct tokens, so arrays share long runs and repeat themselves (prefix and suffix overlap).
    const tokens = fc.array(fc.constantFrom([0, 0, 1, 0, 0], [0, 1, 1, 0, 0], [1, 0, 1, 0, 0], [0, 1, 1, 0, 1]), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(tokens, tokens, (a, b) => {
        const prev = a.flat();
        const next = b.flat();
        const edits = tokenEdits(prev, next);
        assert.deepEqual(applyTokenEdits(prev, edits), next);
        for (const e of edits) {
          assert.equal(e.start % 5, 0);
          assert.equal(e.deleteCount % 5, 0);
          assert.equal((e.data ?? []).length % 5, 0);
        }
        if (JSON.stringify(prev) === JSON.stringify(next)) assert.deepEqual(edits, []);
      }),
    );
  });

  it('a token repeated before and after the change is kept once', () => {
    const t = [0, 1, 1, 0, 0];
    for (const [prev, next] of [
      [
        [...t, ...t],
        [...t, ...t, ...t],
      ],
      [[...t, ...t, ...t], [...t]],
      [[], [...t]],
      [[...t], []],
    ]) {
      const edits = tokenEdits(prev, next);
      assert.deepEqual(applyTokenEdits(prev, edits), next);
      assert.ok(edits.every((e) => e.deleteCount >= 0));
    }
  });

  for (const [name, base, tokensOf] of [
    ['a search', SEARCH, (t: string) => semanticTokens(analyze(t))],
    ['a rule file', RULE, (t: string) => ruleSemanticTokens(new RuleAnalysis(t))],
  ] as const) {
    it(`after random edits of ${name}, the deltas applied in turn equal the full tokens`, () => {
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
          const results = new SemanticTokensResults();
          const uri = 'file:///t';
          let text = base;
          const first = results.full(uri, tokensOf(text));
          let shown = first.data;
          let resultId = first.resultId!;
          for (const e of edits) {
            text = applyEdit(text, e);
            const full = tokensOf(text);
            const answer = results.delta(uri, resultId, full);
            assert.ok('edits' in answer, 'a delta request on the last result is answered with edits');
            shown = applyTokenEdits(shown, answer.edits);
            resultId = answer.resultId!;
            assert.deepEqual(shown, full, `after editing to ${JSON.stringify(text)}`);
          }
        }),
      );
    });
  }

  it('answers whole when asked relative to an answer that is not the last one', () => {
    const results = new SemanticTokensResults();
    const first = results.full('file:///a', [0, 0, 1, 0, 0]);
    results.full('file:///a', [0, 0, 2, 0, 0]);
    const answer = results.delta('file:///a', first.resultId!, [0, 0, 3, 0, 0]);
    assert.deepEqual(answer, { resultId: answer.resultId, data: [0, 0, 3, 0, 0] });
    results.forget('file:///a');
    const afterClose = results.delta('file:///a', answer.resultId!, [0, 0, 3, 0, 0]);
    assert.ok('data' in afterClose);
  });

  it('keeps the result id when nothing changed', () => {
    const results = new SemanticTokensResults();
    const first = results.full('file:///a', [0, 0, 1, 0, 0]);
    assert.deepEqual(results.delta('file:///a', first.resultId!, [0, 0, 1, 0, 0]), {
      resultId: first.resultId,
      edits: [],
    });
  });
});

describe('semantic tokens encoding', () => {
  const PIECES = ['\n', '\r\n', ' ', 'a', '"', '/*', '*/', '//', '(', ')', 'and ', 'principal.', '$e.', '#e', '`'];
  const MORE = ['rule x {', '}', 'match:', 'over 1h', ' = ', 'events:', 'condition:', '\u00e9', '\ud83d\ude00', '/x/'];

  /** The encoding with every token's place looked up on its own: what the walk over lines must give. */
  function reference(a: { lines: LineIndex }, tokens: ClassifiedToken[]): number[] {
    const data: number[] = [];
    let lastLine = 0;
    let lastChar = 0;
    const emit = (line: number, char: number, length: number, type: number, mods: number): void => {
      if (length <= 0) return;
      data.push(line - lastLine, line === lastLine ? char - lastChar : char, length, type, mods);
      lastLine = line;
      lastChar = char;
    };
    for (const t of tokens) {
      const type = SEMANTIC_TOKEN_TYPES.indexOf(t.type);
      const s = a.lines.position(t.start);
      const e = a.lines.position(t.end);
      for (let l = s.line; l <= e.line; l++) {
        const from = l === s.line ? s.character : 0;
        const to = l === e.line ? e.character : a.lines.lineEnd(l) - a.lines.lineStart(l);
        emit(l, from, to - from, type, t.modifiers);
      }
    }
    return data;
  }

  it('places every token of a search or a rule on its line and character, across CRLF and block comments', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, ...MORE), { maxLength: 80 }), (parts) => {
        const text = parts.join('');
        const search = analyze(text);
        assert.deepEqual(semanticTokens(search), reference(search, classify(search)));
        const rule = new RuleAnalysis(text);
        assert.deepEqual(ruleSemanticTokens(rule), reference(rule, classifyRule(rule)));
      }),
      { numRuns: 500 },
    );
  });

  it('takes tokens out of order all the same', () => {
    const a = analyze('metadata.id = "a"\nand principal.hostname = "b"');
    const tokens = classify(a);
    const shuffled = [...tokens.slice(3), ...tokens.slice(0, 3)];
    assert.deepEqual(encodeTokens(a, shuffled), reference(a, shuffled));
  });
});
