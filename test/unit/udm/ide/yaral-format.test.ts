// One layout: the editor's Format Document (the language server's formatter, with the options the
// extension's configurationDefaults give it) and `cloudbench format` give the same text; formatting
// twice changes nothing; a formatted rule checks the same as before. Google's public rules are the
// style reference: after `) or` the next `(` stands at the statement's depth, its contents one
// deeper, `)` back; continuation lines aligned by hand under `max(if(…) +` keep their alignment.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { udm as udmLanguage, yaral as yaralLanguage } from '../../../../src/cli/languages';
import { analyze } from '../../../../src/udm/index';
import { format } from '../../../../src/udm/ide/formatting';
import { formatRule, formatRuleText } from '../../../../src/udm/ide/yaral-format';
import { RuleAnalysis } from '../../../../src/udm/rule/analyze';
import { CORPUS_DIR, DEMO_RULES_DIR, INVALID_DIR, yaralFiles } from '../../../support/yaral-corpus';
import { readdirSync } from 'node:fs';

const ROOT = join(__dirname, '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { configurationDefaults: Record<string, Record<string, unknown>> };
};
const QUERIES_DIR = join(ROOT, 'test', 'e2e', 'fixtures', 'workspace', 'queries');

/** The options VS Code sends with Format Document for a language, from the extension's defaults. */
function editorOptions(language: string): { tabSize: number; insertSpaces: boolean } {
  const d = manifest.contributes.configurationDefaults[`[${language}]`];
  // Without detectIndentation off, the editor guesses the indentation from each file instead.
  assert.equal(d?.['editor.detectIndentation'], false, `[${language}] editor.detectIndentation`);
  assert.equal(typeof d['editor.tabSize'], 'number');
  assert.equal(typeof d['editor.insertSpaces'], 'boolean');
  return { tabSize: d['editor.tabSize'] as number, insertSpaces: d['editor.insertSpaces'] as boolean };
}

const editorFormat = (edits: ReadonlyArray<{ newText: string }>, text: string): string =>
  edits.length ? edits[0].newText : text;

const problems = (text: string): string[] =>
  yaralLanguage
    .check(text, { lists: undefined })
    .map((p) => `${p.severity} ${p.code ?? ''} ${p.message}`)
    .sort();

const rules = [...yaralFiles(CORPUS_DIR), ...yaralFiles(INVALID_DIR), ...yaralFiles(DEMO_RULES_DIR)];

describe('rule formatting: one layout in the editor and the CLI', () => {
  const options = editorOptions('yaral');
  for (const f of rules)
    it(`${basename(f)}: Format Document = cloudbench format, twice changes nothing, checks the same`, () => {
      const text = readFileSync(f, 'utf8');
      const cli = yaralLanguage.format(text);
      if ('refusal' in cli) {
        // A file the formatter refuses (a lexical error) is left alone by both.
        assert.deepEqual(formatRule(new RuleAnalysis(text), options), []);
        return;
      }
      assert.equal(editorFormat(formatRule(new RuleAnalysis(text), options), text), cli.text);
      const again = yaralLanguage.format(cli.text);
      assert.ok('text' in again && again.text === cli.text, 'a second format changes the text');
      assert.deepEqual(problems(cli.text), problems(text));
    });

  it('lays `) or (` groups out as Google does: `(` at the statement depth, contents one deeper', () => {
    const messy = [
      'rule r {',
      '  meta:',
      '    author = "a"',
      '  events:',
      '    (',
      '    $e.metadata.event_type = "USER_LOGIN" and',
      '          $e.principal.hostname = "a"',
      '            ) or',
      '        (',
      '  $e.metadata.event_type = "USER_LOGOUT" and',
      '  (',
      '  $e.principal.hostname = "b" or',
      '  $e.principal.hostname = "c"',
      '  ) or',
      '  (',
      '  $e.principal.hostname = "d"',
      '  )',
      '  )',
      '    $e.target.user.userid = "x" or',
      '        $e.target.user.userid = "y"',
      '  condition:',
      '    $e',
      '}',
    ].join('\n');
    const want = [
      'rule r {',
      '  meta:',
      '    author = "a"',
      '  events:',
      '    (',
      '        $e.metadata.event_type = "USER_LOGIN" and',
      '        $e.principal.hostname = "a"',
      '    ) or',
      '    (',
      '        $e.metadata.event_type = "USER_LOGOUT" and',
      '        (',
      '            $e.principal.hostname = "b" or',
      '            $e.principal.hostname = "c"',
      '        ) or',
      '        (',
      '            $e.principal.hostname = "d"',
      '        )',
      '    )',
      '    $e.target.user.userid = "x" or',
      '    $e.target.user.userid = "y"',
      '  condition:',
      '    $e',
      '}',
      '',
    ].join('\n');
    assert.equal(formatRuleText(new RuleAnalysis(messy)), want);
    assert.equal(formatRuleText(new RuleAnalysis(want)), want);
  });

  it('keeps the alignment of continuation lines under `max(if(…) +`, moved with their statement', () => {
    const line = (indent: number, s: string): string => ' '.repeat(indent) + s;
    const rule = (shift: number): string =>
      [
        'rule r {',
        '  meta:',
        '    author = "a"',
        '  events:',
        '    $e.metadata.event_type = "USER_LOGIN"',
        '    $e.principal.hostname = $host',
        '  match:',
        '    $host over 1h',
        '  outcome:',
        line(4 + shift, '$risk_score = max(if($e.principal.hostname = "a", 10, 0) +'),
        line(24 + shift, 'if($e.principal.hostname = "b", 20, 0) +'),
        line(24 + shift, 'if($e.principal.hostname = "c", 30, 0))'),
        line(4 + shift, '$names = array_distinct($e.principal.hostname)'),
        '  condition:',
        '    $e',
        '}',
        '',
      ].join('\n');
    assert.equal(formatRuleText(new RuleAnalysis(rule(0))), rule(0));
    // The statement moves to four spaces; its continuation lines move with it, still aligned.
    assert.equal(formatRuleText(new RuleAnalysis(rule(3))), rule(0));
  });
});

describe('search formatting: one layout in the editor and the CLI', () => {
  const options = editorOptions('udm');
  for (const name of readdirSync(QUERIES_DIR).filter((f) => f.endsWith('.udm')))
    it(`${name}: Format Document = cloudbench format, twice changes nothing`, () => {
      const text = readFileSync(join(QUERIES_DIR, name), 'utf8');
      const cli = udmLanguage.format(text);
      assert.ok('text' in cli);
      assert.equal(editorFormat(format(analyze(text), options), text), cli.text);
      assert.deepEqual(format(analyze(cli.text), options), []);
    });

  it('would differ with the editor guessing 4-space indents, which detectIndentation off prevents', () => {
    const text = 'events:\n    metadata.event_type = "USER_LOGIN"\n';
    const cli = udmLanguage.format(text);
    assert.ok('text' in cli);
    assert.notEqual(editorFormat(format(analyze(text), { tabSize: 4, insertSpaces: true }), text), cli.text);
    assert.equal(editorFormat(format(analyze(text), editorOptions('udm')), text), cli.text);
  });
});
