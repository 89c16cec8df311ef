// The Problems panel shows each diagnostic's source: a rule file's problems are YARA-L's ("yaral"),
// a search's are "udm", quick fixes included, and the CLI names the same language.
import * as assert from 'node:assert/strict';
import { yaral as yaralLanguage } from '../../../../src/cli/languages';
import { analyze } from '../../../../src/udm/index';
import { codeActions } from '../../../../src/udm/ide/code-actions';
import { toLspDiagnostics } from '../../../../src/udm/ide/diagnostics';
import { analyzeRuleFile } from '../../../../src/udm/rule/analyze';

const RULE = [
  'rule misspelt {',
  '  meta:',
  '    author = "a"',
  '  events:',
  '    $e.principal.hostnme = "x"',
  '  condition:',
  '    $e',
  '}',
  '',
].join('\n');

describe('diagnostic sources', () => {
  it('a rule file’s diagnostics and quick fixes carry the source "yaral"', () => {
    const a = analyzeRuleFile(RULE);
    const diags = toLspDiagnostics(a);
    assert.ok(diags.length > 0);
    assert.deepEqual([...new Set(diags.map((d) => d.source))], ['yaral']);
    const fixes = codeActions(a, 'file:///r.yaral', {
      start: { line: 4, character: 0 },
      end: { line: 4, character: 40 },
    });
    assert.ok(fixes.length > 0, 'a misspelt field offers its fix');
    for (const f of fixes)
      assert.deepEqual(
        f.diagnostics?.map((d) => d.source),
        ['yaral'],
      );
    assert.equal(yaralLanguage.id, 'yaral');
  });

  it('a search’s diagnostics keep the source "udm"', () => {
    const diags = toLspDiagnostics(analyze('principal.hostnme = "x"'));
    assert.ok(diags.length > 0);
    assert.deepEqual([...new Set(diags.map((d) => d.source))], ['udm']);
  });
});
