import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RuleAnalysis } from '../../../src/udm/rule/analyze';
import {
  completeRule,
  definitionRule,
  hoverRule,
  referencesRule,
  ruleFoldingRanges,
  ruleSymbols,
} from '../../../src/udm/ide/yaral';
import { codeActions } from '../../../src/udm/ide/code-actions';
import { formatRule, formatRuleText } from '../../../src/udm/ide/yaral-format';
import { classifyRule } from '../../../src/udm/ide/yaral-tokens';
import { CORPUS_DIR, DEMO_RULES_DIR, INVALID_DIR, yaralFiles } from '../../support/yaral-corpus';

const read = (f: string): string => readFileSync(f, 'utf8');
const JOIN = read(join(CORPUS_DIR, 'multi_event_join_placeholders.yaral'));

/** The analysis of `text` with `insert` typed after `after`, and the cursor at its end. */
function typed(
  text: string,
  after: string,
  insert: string,
): { a: RuleAnalysis; pos: { line: number; character: number } } {
  const i = text.indexOf(after) + after.length;
  const a = new RuleAnalysis(text.slice(0, i) + insert + text.slice(i));
  return { a, pos: a.lines.position(i + insert.length) };
}

function labels(text: string, after: string, insert: string): string[] {
  const { a, pos } = typed(text, after, insert);
  return completeRule(a, pos).map((c) => c.label);
}

describe('YARA-L editor features', () => {
  describe('formatting', () => {
    for (const f of [...yaralFiles(CORPUS_DIR), ...yaralFiles(INVALID_DIR), ...yaralFiles(DEMO_RULES_DIR)])
      it(`${basename(f)}: formatting twice gives the same text and keeps every comment`, () => {
        const text = read(f);
        const once = formatRuleText(new RuleAnalysis(text));
        assert.equal(formatRuleText(new RuleAnalysis(once)), once);
        const comments = (t: string): string[] =>
          new RuleAnalysis(t).parse.comments.map((c) => c.value.replace(/\s+/g, ' '));
        assert.deepEqual(comments(once), comments(text));
        // Only layout changes: the text without whitespace is the same.
        assert.equal(once.replace(/\s+/g, ''), text.replace(/\s+/g, ''));
      });

    it('lays a rule out with two-space sections, four-space statements, deeper continuations', () => {
      const messy = [
        '// header',
        'rule   r {',
        'meta:',
        '        author = "a"',
        '',
        '',
        ' events:',
        '$e.metadata.event_type = "USER_LOGIN"   ',
        '      // the user',
        '$e.target.user.userid = $user',
        'outcome:',
        '$risk_score = max(',
        'if($e.principal.hostname = "x", 10) +',
        'if($e.principal.hostname = "y", 20)',
        ')',
        '$n =',
        'count($e.metadata.id)',
        '   condition:',
        '$e',
        '   }',
      ].join('\n');
      const want = [
        '// header',
        'rule   r {',
        '  meta:',
        '    author = "a"',
        '',
        '  events:',
        '    $e.metadata.event_type = "USER_LOGIN"',
        '    // the user',
        '    $e.target.user.userid = $user',
        '  outcome:',
        '    $risk_score = max(',
        '        if($e.principal.hostname = "x", 10) +',
        '        if($e.principal.hostname = "y", 20)',
        '    )',
        '    $n =',
        '        count($e.metadata.id)',
        '  condition:',
        '    $e',
        '}',
        '',
      ].join('\n');
      assert.equal(formatRuleText(new RuleAnalysis(messy)), want);
      const edits = formatRule(new RuleAnalysis(messy), { tabSize: 2, insertSpaces: true });
      assert.equal(edits.length, 1);
      assert.deepEqual(formatRule(new RuleAnalysis(want), { tabSize: 2, insertSpaces: true }), []);
    });

    it('does not format a file with an unterminated string', () => {
      const broken = 'rule r {\n  meta:\n    author = "a\n}';
      assert.deepEqual(formatRule(new RuleAnalysis(broken), { tabSize: 2, insertSpaces: true }), []);
    });
  });

  describe('completion', () => {
    it('offers the rule’s variables at $ and #, without outcomes in events:', () => {
      assert.deepEqual(
        labels(JOIN, '  condition:\n    $scan and $conn', ' and $').sort(),
        ['$connections', '$conn', '$host', '$hosts', '$ip', '$scan'].sort(),
      );
      assert.deepEqual(labels(JOIN, '  condition:\n    $scan and $conn', ' and #').sort(), [
        '#conn',
        '#host',
        '#ip',
        '#scan',
      ]);
      const inEvents = labels(JOIN, '    $conn.principal.hostname = $host\n', '    $');
      assert.ok(inEvents.includes('$conn') && inEvents.includes('$ip'));
      assert.ok(!inEvents.includes('$hosts'), inEvents.join(' '));
    });

    it('offers fields after $e. and section names at the start of a line', () => {
      const fields = labels(JOIN, '    $conn.principal.hostname = $host\n', '    $conn.target.');
      assert.ok(fields.includes('hostname') && fields.includes('ip'), fields.join(' '));
      const atStart = labels(JOIN, '    $connections = count($conn.metadata.id)\n', '  ');
      for (const s of ['condition:', 'options:', 'match:']) assert.ok(atStart.includes(s), atStart.join(' '));
      assert.ok(!atStart.includes('limit:') && !atStart.includes('dedup:'));
    });

    it('offers window_start and window_end in condition: when the rule has a window', () => {
      const words = labels(JOIN, '  condition:\n    $scan and $conn', ' and window_');
      assert.ok(words.includes('window_start') && words.includes('window_end'), words.join(' '));
      const noWindow = JOIN.replace('  match:\n    $ip over 10m\n', '');
      assert.ok(!labels(noWindow, '  condition:\n    $scan and $conn', ' and window_').includes('window_start'));
    });

    it('offers options and their values in options:', () => {
      const base = JOIN.replace(/\n}\s*$/, '\n\n  options:\n');
      assert.ok(labels(base, '  options:\n', '    allow').includes('allow_zero_values'));
      assert.deepEqual(labels(base, '  options:\n', '    allow_zero_values = '), ['true', 'false']);
    });
  });

  describe('navigation', () => {
    const a = new RuleAnalysis(JOIN);
    const pos = (needle: string, from = 'rule '): { line: number; character: number } =>
      a.lines.position(JOIN.indexOf(needle, JOIN.indexOf(from)) + 1);

    it('goes from a use to the declaration and lists every use', () => {
      const defs = definitionRule(a, 'u', pos('$ip over'));
      assert.equal(defs.length, 1);
      assert.equal(JOIN.slice(a.lines.offset(defs[0].range.start), a.lines.offset(defs[0].range.end)), '$ip');
      assert.deepEqual(defs[0].range.start, a.lines.position(JOIN.indexOf('$ip', JOIN.indexOf('$scan.principal.ip'))));
      assert.equal(referencesRule(a, 'u', pos('$ip over')).length, 3);
      assert.equal(referencesRule(a, 'u', pos('$ip over'), false).length, 2);
      assert.deepEqual(definitionRule(a, 'u', pos('array_distinct')), []);
    });

    it('hovers variables, sections and fields', () => {
      const h = hoverRule(a, pos('$scan and'));
      assert.match(JSON.stringify(h), /event variable/);
      assert.match(JSON.stringify(hoverRule(a, pos('match:'))), /time window/);
      assert.match(JSON.stringify(hoverRule(a, pos('hostname = $host'))), /principal\.hostname/);
    });

    it('outlines rule → sections → variables and folds each section', () => {
      const [r] = ruleSymbols(a);
      assert.equal(r.name, 'same_address_source_then_target');
      const names = r.children?.map((c) => c.name);
      assert.deepEqual(names, ['meta', 'events', 'match', 'outcome', 'condition']);
      assert.deepEqual(
        r.children?.[1].children?.map((c) => c.name),
        ['$scan', '$ip', '$conn', '$host'],
      );
      assert.deepEqual(
        r.children?.[3].children?.map((c) => c.name),
        ['$hosts', '$connections'],
      );
      const folds = ruleFoldingRanges(a);
      const line = (s: string): number => a.lines.position(JOIN.indexOf(s)).line;
      assert.ok(
        folds.some((f) => f.startLine === 0 && f.kind === 'comment'),
        'licence block',
      );
      for (const s of ['rule ', 'meta:', 'events:', 'outcome:'])
        assert.ok(
          folds.some((f) => f.startLine === line(s)),
          s,
        );
    });

    it('offers quick fixes from the rule diagnostics', () => {
      const text = JOIN.replace('severity = "Medium"', 'severity = Medium').replace(
        '$scan and $conn',
        '$scan and $con',
      );
      const b = new RuleAnalysis(text);
      const all = codeActions(b, 'u', b.lines.range(0, text.length));
      const titles = all.map((c) => c.title);
      assert.ok(titles.includes('Change to "Medium"'), titles.join(' | '));
      assert.ok(titles.includes('Change to $conn'), titles.join(' | '));
    });

    it('colours the rule’s own words', () => {
      const tokens = classifyRule(a);
      const typeAt = (s: string): string | undefined =>
        tokens.find((t) => t.start === JOIN.indexOf(s, JOIN.indexOf('rule ')))?.type;
      assert.equal(typeAt('rule '), 'keyword');
      assert.equal(typeAt('meta'), 'keyword');
      assert.equal(typeAt('author'), 'property');
      assert.equal(typeAt('$scan.'), 'variable');
    });
  });
});
