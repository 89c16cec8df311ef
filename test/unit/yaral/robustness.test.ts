import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { RuleAnalysis } from '../../../src/udm/rule/analyze';
import {
  completeRule,
  definitionRule,
  hoverRule,
  referencesRule,
  ruleFoldingRanges,
  ruleSymbols,
} from '../../../src/udm/ide/yaral';
import { formatRuleText, ruleFormatRefusal } from '../../../src/udm/ide/yaral-format';
import { ruleSemanticTokens } from '../../../src/udm/ide/yaral-tokens';
import { CORPUS_DIR, yaralFiles } from '../../support/yaral-corpus';

/** Every feature at `offset` of `text`; throws what any of them throws. */
function serveAll(text: string, offset: number): void {
  const a = new RuleAnalysis(text);
  const pos = a.lines.position(offset);
  void a.diagnostics;
  completeRule(a, pos);
  hoverRule(a, pos);
  definitionRule(a, 'u', pos);
  referencesRule(a, 'u', pos);
  ruleSymbols(a);
  ruleFoldingRanges(a);
  ruleSemanticTokens(a);
  if (!ruleFormatRefusal(a)) {
    const once = formatRuleText(a);
    assert.equal(formatRuleText(new RuleAnalysis(once)), once, 'formatting a half-typed rule twice changes it');
  }
}

describe('YARA-L rule files half typed', () => {
  // A rule being typed is mostly invalid: every prefix of every corpus rule, with the cursor at
  // its end, is analysed and served by every feature without an exception.
  for (const f of yaralFiles(CORPUS_DIR))
    it(`${basename(f)}: every prefix is served`, () => {
      const text = readFileSync(f, 'utf8');
      const step = Math.max(1, Math.floor(text.length / 60));
      for (let end = 0; end <= text.length; end += step) {
        const prefix = text.slice(0, end);
        try {
          serveAll(prefix, prefix.length);
        } catch (err) {
          assert.fail(`prefix of ${end} characters: ${(err as Error).stack ?? String(err)}`);
        }
      }
    });

  it('serves a file of nothing but a rule keyword, braces or garbage', () => {
    for (const text of [
      '',
      'rule',
      'rule {',
      '}',
      'rule r {}',
      'rule r { meta: }',
      '$e.',
      '#',
      'rule r {\n  events:\n    $',
      'rule 9 { condition: !$ }',
    ])
      for (let i = 0; i <= text.length; i++) serveAll(text, i);
  });
});
