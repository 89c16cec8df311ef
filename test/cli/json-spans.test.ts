// Where values sit in JSON text (src/cli/json-spans.ts), which the command line uses to point at a
// notebook cell's characters and an events file's lines: checked against JSON.parse on generated
// documents, escapes of every kind included.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { elementSpans, locate, memberSpans, rootSpan, stringOffsets } from '../../src/cli/json-spans';

const anyText = fc.string({
  unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '\t', '\u0001', 'é', '😀', '/', '[', '}'),
});

describe('json-spans', () => {
  it('finds every element of a nested array, whatever the layout', () => {
    fc.assert(
      fc.property(fc.array(anyText, { maxLength: 6 }), fc.constantFrom(0, 2, '\t'), (lines, indent) => {
        const doc = {
          format: 'x',
          cells: [
            { kind: 'markdown', source: ['[{'] },
            { kind: 'udm', source: lines },
          ],
        };
        const text = JSON.stringify(doc, null, indent);
        const span = locate(text, ['cells', 1, 'source']);
        assert.ok(span);
        assert.deepEqual(JSON.parse(text.slice(span.start, span.end)), lines);
        const elements = elementSpans(text, span);
        assert.deepEqual(
          elements.map((e) => JSON.parse(text.slice(e.start, e.end)) as string),
          lines,
        );
      }),
    );
  });

  it('maps each decoded character of a string to where it is written', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const text = `{"source": ${JSON.stringify(value)}}`;
        const span = memberSpans(text, rootSpan(text)).get('source');
        assert.ok(span);
        const offsets = stringOffsets(text, span);
        assert.equal(offsets.length, value.length + 1);
        assert.equal(offsets[value.length], span.end - 1);
        for (let k = 0; k < value.length; k++) {
          const written = text.slice(offsets[k], offsets[k + 1]);
          assert.equal(JSON.parse(`"${written}"`), value[k], `character ${k}`);
        }
      }),
    );
  });

  it('reads \\u escapes as one character each', () => {
    const text = '["a\\u00e9\\ud83d\\ude00b"]';
    const [span] = elementSpans(text, rootSpan(text));
    const offsets = stringOffsets(text, span);
    assert.equal(offsets.length, 'aé😀b'.length + 1);
    assert.equal(text[offsets[4]], 'b');
  });
});
