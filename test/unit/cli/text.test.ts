// What the command line prints of a repository's text: escaped, bounded, never a workflow command.
import assert from 'node:assert/strict';
import { cliText, defuseWorkflowCommands, jsonText, sourceExcerpt, SOURCE_WINDOW } from '../../../src/cli/text';

describe('cli text', () => {
  it('cliText shows line breaks, escapes, bidi and invisible characters as escapes', () => {
    assert.equal(cliText('a\nb\rc\td'), 'a\\nb\\rc\\td');
    assert.equal(cliText('\u001b[31mred'), '\\u001B[31mred');
    assert.equal(cliText('x\u2028y\u2029z'), 'x\\u2028y\\u2029z');
    assert.equal(cliText('png\u202Eexe'), 'png\\u202Eexe');
    assert.equal(cliText('a\u200Bb\u2066c\u0085'), 'a\\u200Bb\\u2066c\\u0085');
    assert.equal(cliText('café ✓'), 'café ✓');
  });

  it('defuseWorkflowCommands: no line, trimmed, starts with ::, and no ##[ is left; JSON reads the same value', () => {
    const text = '::error file=a::x\n  ::warning::y\nok ::notice:: z\nsee ##[error]w';
    const out = defuseWorkflowCommands(text);
    for (const line of out.split('\n')) {
      assert.ok(!line.trim().startsWith('::'), line);
      assert.ok(!line.includes('##['), line);
    }
    assert.ok(out.includes('ok ::notice:: z'), 'a :: inside a line is left alone');
    // Inside a JSON string the escapes decode to the original text.
    const json = defuseWorkflowCommands(JSON.stringify({ v: '##[error]x' }));
    assert.equal(JSON.parse(json).v, '##[error]x');
  });

  it('jsonText escapes what JSON.stringify leaves and keeps the value', () => {
    const value = { name: 'a\u2028b\u202Ec\u0085' };
    const text = jsonText(value);
    assert.ok(!/[\u2028\u202E\u0085]/.test(text), text);
    assert.deepEqual(JSON.parse(text), value);
  });

  it('sourceExcerpt: a short line whole with the caret under the problem', () => {
    const e = sourceExcerpt('principal.hostnme = "a"', 10, 17);
    assert.equal(e.text, 'principal.hostnme = "a"');
    assert.equal(e.text.slice(e.caretStart, e.caretEnd), 'hostnme');
  });

  it('sourceExcerpt: a long line is cut to the window around the problem, … on the cut sides', () => {
    const line = `${'a = "x" and '.repeat(2000)}principal.hostnme = "b"${' and c = "y"'.repeat(2000)}`;
    const start = line.indexOf('hostnme');
    const e = sourceExcerpt(line, start, start + 7);
    assert.ok(e.text.length <= SOURCE_WINDOW, String(e.text.length));
    assert.ok(e.text.startsWith('…') && e.text.endsWith('…'), e.text);
    assert.equal(e.text.slice(e.caretStart, e.caretEnd), 'hostnme');
    const atStart = sourceExcerpt(line, 0, 1);
    assert.ok(!atStart.text.startsWith('…') && atStart.text.endsWith('…'));
    assert.equal(atStart.caretStart, 0);
  });

  it('sourceExcerpt: escapes keep the caret under its character, and a leading :: is defused there', () => {
    const line = '\u001b[2J x = "\u202E" and bad';
    const e = sourceExcerpt(line, line.indexOf('bad'), line.indexOf('bad') + 3);
    assert.equal(e.text.slice(e.caretStart, e.caretEnd), 'bad');
    const c = sourceExcerpt('::error file=a::x', 2, 7);
    assert.ok(!c.text.startsWith('::'), c.text);
    assert.equal(defuseWorkflowCommands(c.text), c.text);
    assert.equal(c.text.slice(c.caretStart, c.caretEnd), 'error');
  });
});
