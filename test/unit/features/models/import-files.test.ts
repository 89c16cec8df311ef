// Where an import file stops being JSON, by line and column as an editor counts them (from 1).
import { strict as assert } from 'node:assert';
import { parseJsonText } from '../../../../src/features/models/import-files';

describe('import file JSON syntax errors', () => {
  it('names the line and column of a missing comma, counted from 1', () => {
    // Line 7 is `    "displayName": "b"`; the missing comma is noticed at its first quote, column 5.
    const text = [
      '[',
      '  {',
      '    "displayName": "a"',
      '  },',
      '  {',
      '    "metrics": {}',
      '    "displayName": "b"',
      '  }',
      ']',
    ].join('\n');
    const parsed = parseJsonText(text);
    assert.ok('problem' in parsed);
    assert.deepEqual({ line: parsed.problem.line, column: parsed.problem.column }, { line: 7, column: 5 });
    assert.match(parsed.problem.reason, /Expected ','/);
    assert.doesNotMatch(parsed.problem.reason, /position/);
  });

  it('puts an unexpected end at the end of the text', () => {
    const parsed = parseJsonText('[\n  {"a": 1},\n');
    assert.ok('problem' in parsed);
    assert.deepEqual({ line: parsed.problem.line, column: parsed.problem.column }, { line: 3, column: 1 });
  });

  it('parses valid JSON', () => {
    assert.deepEqual(parseJsonText('{"a": [1]}'), { json: { a: [1] } });
  });
});
