import { strict as assert } from 'node:assert';
import { wrapText } from '../../../src/platform/wrap';

describe('wrapText (explanations shown as tree rows)', () => {
  it('keeps every word, in order, on lines no longer than the width', () => {
    const text =
      'Permission aiplatform.models.list denied on resource projects/p/locations/us-central1 (PERMISSION_DENIED). Grant roles/aiplatform.viewer or roles/aiplatform.user.';
    const lines = wrapText(text, 40);
    assert.ok(lines.length > 2);
    assert.equal(lines.join(' '), text);
    for (const line of lines) assert.ok(line.length <= 40 || !line.includes(' '), line);
  });

  it('gives a word longer than the width a line of its own and keeps paragraphs apart', () => {
    const long = 'x'.repeat(50);
    assert.deepEqual(wrapText(`a ${long} b`, 20), ['a', long, 'b']);
    assert.deepEqual(wrapText('one\ntwo', 60), ['one', 'two']);
  });
});
