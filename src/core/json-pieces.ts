// JSON written out piece by piece instead of as one string, with parts whose text is already known
// put in as they are: a large answer (10,000 UDM events of several KB each) is not serialized again,
// and the bytes are exactly those JSON.stringify would give for the same object.

// `instanceof` holds across copies of this module (a test that loads the extension's modules afresh
// beside its own): each class is known by a registered symbol on its prototype.
const TEXT = Symbol.for('cloudbench.JsonText');
const STREAMED = Symbol.for('cloudbench.StreamedJson');

function branded(brand: symbol): (value: unknown) => boolean {
  return (value) => typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/**
 * An element whose JSON text is already known: the sandbox keeps the text of each stored event, so a
 * 50 MB answer is not serialized again for every search; the extension keeps the text each event
 * came in, so the copy kept for a reload is not parsed and serialized again.
 */
export class JsonText {
  declare readonly [TEXT]: true;
  static readonly [Symbol.hasInstance] = branded(TEXT);
  constructor(readonly text: string) {}
}
Object.defineProperty(JsonText.prototype, TEXT, { value: true });

/** An object whose array field `arrayKey` is written element by element (JsonText elements as they are). */
export class StreamedJson {
  declare readonly [STREAMED]: true;
  static readonly [Symbol.hasInstance] = branded(STREAMED);
  constructor(
    readonly body: Record<string, unknown>,
    readonly arrayKey: string,
  ) {}
}
Object.defineProperty(StreamedJson.prototype, STREAMED, { value: true });

/**
 * The pieces of the serialized body, in order; joined they equal JSON.stringify(body) (with each
 * JsonText element standing for the value its text is).
 */
export function* jsonPieces(value: StreamedJson): Generator<string> {
  let first = true;
  yield '{';
  for (const [key, v] of Object.entries(value.body)) {
    if (key !== value.arrayKey || !Array.isArray(v)) {
      const text = JSON.stringify(v);
      // JSON.stringify leaves out members whose value it cannot represent (undefined, functions).
      if (text === undefined) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
      first = false;
      continue;
    }
    yield `${first ? '' : ','}${JSON.stringify(key)}:[`;
    first = false;
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      yield (i === 0 ? '' : ',') + (item instanceof JsonText ? item.text : (JSON.stringify(item) ?? 'null'));
    }
    yield ']';
  }
  yield '}';
}
