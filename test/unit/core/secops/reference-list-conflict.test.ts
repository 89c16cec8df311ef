// What a reference-list save would undo of someone else's change, and what it sends.
import assert from 'node:assert/strict';
import {
  changeUndoneBy,
  describeLines,
  isEmptyChange,
  linesToSend,
  serverChange,
  serverTextLike,
} from '../../../../src/core/secops/reference-list-conflict';

describe('reference list conflict: what a save would undo', () => {
  const opened = ['// threat ranges', '198.51.100.0/24', '203.0.113.0/24'];

  it('a line the server gained and the edit lacks would be undone', () => {
    const server = [...opened, '10.99.0.0/16'];
    assert.deepEqual(serverChange(opened, server), { added: ['10.99.0.0/16'], removed: [] });
    const undone = changeUndoneBy(opened, server, [...opened, '10.31.0.0/16']);
    assert.deepEqual(undone, { added: ['10.99.0.0/16'], removed: [] });
    assert.equal(isEmptyChange(undone), false);
  });

  it('an edit that took the server line in (merged) undoes nothing, wherever it put it', () => {
    const server = [...opened, '10.99.0.0/16'];
    assert.ok(isEmptyChange(changeUndoneBy(opened, server, ['10.99.0.0/16', ...opened, '10.31.0.0/16'])));
  });

  it('a line the server removed that the edit still holds would be put back: undone', () => {
    const server = opened.slice(0, 2);
    assert.deepEqual(changeUndoneBy(opened, server, [...opened, '10.31.0.0/16']), {
      added: [],
      removed: ['203.0.113.0/24'],
    });
    assert.ok(isEmptyChange(changeUndoneBy(opened, server, [...server, '10.31.0.0/16'])));
  });

  it('counts repeated lines: a second copy added on the server needs a second copy in the edit', () => {
    assert.deepEqual(serverChange(['a'], ['a', 'a']).added, ['a']);
    assert.deepEqual(changeUndoneBy(['a'], ['a', 'a'], ['a']).added, ['a']);
    assert.ok(isEmptyChange(changeUndoneBy(['a'], ['a', 'a'], ['a', 'a', 'b'])));
  });

  it('blank lines are not part of a change and are never sent', () => {
    assert.ok(isEmptyChange(serverChange(['a', '', 'b'], ['a', 'b', '  '])));
    assert.ok(isEmptyChange(changeUndoneBy(['a', '', 'b'], ['a', 'b', '  '], ['a', 'b'])));
    assert.deepEqual(linesToSend(['a', '', '  ', '\t', '// c', ' d ']), ['a', '// c', ' d ']);
  });

  it('the server copy ends with a newline exactly when the edit does', () => {
    assert.equal(serverTextLike(['a', 'b'], 'a\nc'), 'a\nb');
    assert.equal(serverTextLike(['a', 'b'], 'a\nc\n'), 'a\nb\n');
    assert.equal(serverTextLike(['a', 'b'], 'a\r\nc\r\n'), 'a\nb\n');
    assert.equal(serverTextLike([], 'a\n'), '');
  });

  it('names at most three lines of a change', () => {
    assert.equal(describeLines([]), 'none');
    assert.equal(describeLines(['a', 'b']), 'a, b');
    assert.equal(describeLines(['a', 'b', 'c', 'd', 'e']), 'a, b, c and 2 more');
  });
});
