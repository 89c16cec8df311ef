// Reads a UDM event out of the bytes of an answer without building all of it: the event is checked
// as JSON.parse would check it (every byte, the same grammar), but only the values at the paths asked
// for are built; the rest is walked over. A 10,000-event answer of production-shaped events is tens
// of MB, and the table that shows it needs a handful of fields of each: building every object of
// every event only to read those costs the extension host more than the rest of reading the answer.
//
// The value made is a skeleton of the event: the objects and arrays on the way to each path, holding
// only the keys on the way (arrays keep their objects in place, other items become null), and the
// whole value at the end of each path. Read along those paths (valuesAt, the table's cell readers),
// it gives exactly what the whole event gives.

/** The paths asked for, as a tree of keys. */
export interface PathNode {
  /** A path ends here: the whole value is built. */
  whole: boolean;
  children: Array<{ key: Uint8Array; name: string; node: PathNode }>;
}

const encoder = new TextEncoder();

export function pathTree(paths: readonly string[]): PathNode {
  const root: PathNode = { whole: false, children: [] };
  for (const path of paths) {
    let node = root;
    for (const name of path === '' ? [] : path.split('.')) {
      let child = node.children.find((c) => c.name === name)?.node;
      if (!child) {
        child = { whole: false, children: [] };
        node.children.push({ key: encoder.encode(JSON.stringify(name).slice(1, -1)), name, node: child });
      }
      node = child;
    }
    node.whole = true;
  }
  return root;
}

/** The bytes end before the value does. */
export const NEED_MORE = -1;

/** Not JSON at `at` (a byte offset), as `reason` says. */
export class PickSyntaxError extends Error {
  override readonly name = 'PickSyntaxError';
  constructor(
    readonly at: number,
    reason: string,
  ) {
    super(`${reason} at byte ${at}`);
  }
}

// The bytes of JSON's marks (ASCII: no byte of a multi-byte UTF-8 character is one of them).
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const COMMA = 0x2c;
export const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Thrown inside when the bytes run out; `pick` answers NEED_MORE for it. */
const OUT_OF_BYTES = new Error('out of bytes');

// What skipContainer expects next, and the kinds of container it is in.
const VALUE = 0;
const KEY_OR_END = 1;
const KEY = 2;
const COLON = 3;
const VALUE_OR_END = 4;
const AFTER_VALUE = 5;
const OBJECT = 1;
const ARRAY = 2;

export class EventPicker {
  /** The kinds of the containers skipContainer is in (JSON.parse refuses far less deep nesting). */
  private readonly stack = new Uint8Array(100_000);
  private b: Uint8Array = new Uint8Array(0);
  private n = 0;
  private readonly decoder = new TextDecoder('utf-8');

  /**
   * The skeleton of the JSON value at `b[from]` for the paths of `tree` and where it ends, or
   * NEED_MORE when `b` ends before it does. Throws PickSyntaxError where JSON.parse would refuse it.
   */
  pick(b: Uint8Array, from: number, tree: PathNode): { value: unknown; end: number } | typeof NEED_MORE {
    this.b = b;
    this.n = b.length;
    try {
      const out: { value: unknown } = { value: undefined };
      const end = this.value(from, tree, out);
      return { value: out.value, end };
    } catch (err) {
      if (err === OUT_OF_BYTES) return NEED_MORE;
      throw err;
    } finally {
      this.b = new Uint8Array(0);
    }
  }

  private byte(i: number): number {
    if (i >= this.n) throw OUT_OF_BYTES;
    return this.b[i];
  }

  private space(i: number): number {
    while (isSpace(this.byte(i))) i++;
    return i;
  }

  /** The value at i (no space before it); `out.value` gets its skeleton when `node` is given. */
  private value(i: number, node: PathNode | undefined, out: { value: unknown }): number {
    const c = this.byte(i);
    if (node?.whole) {
      const end = this.skip(i, c);
      out.value = JSON.parse(this.decoder.decode(this.b.subarray(i, end)));
      return end;
    }
    if (c === OPEN_BRACE) return this.object(i, node, out);
    if (c === OPEN_BRACKET) return this.array(i, node, out);
    const end = this.skip(i, c);
    // A number, string or literal on the way to a path: nothing below it, but it is there.
    if (node) out.value = JSON.parse(this.decoder.decode(this.b.subarray(i, end)));
    return end;
  }

  /** Walks over the value at i, checking it; returns where it ends. */
  private skip(i: number, c: number): number {
    if (c === QUOTE) return this.string(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) return this.skipContainer(i);
    if (c === 0x2d /* - */ || isDigit(c)) return this.number(i);
    if (c === 0x74 /* t */) return this.literal(i, 'true');
    if (c === 0x66 /* f */) return this.literal(i, 'false');
    if (c === 0x6e /* n */) return this.literal(i, 'null');
    throw new PickSyntaxError(i, 'unexpected character');
  }

  private object(i: number, node: PathNode | undefined, out: { value: unknown }): number {
    const made: Record<string, unknown> | undefined = node ? {} : undefined;
    i = this.space(i + 1);
    if (this.byte(i) === CLOSE_BRACE) {
      out.value = made;
      return i + 1;
    }
    for (;;) {
      if (this.byte(i) !== QUOTE) throw new PickSyntaxError(i, 'expected a key');
      const keyEnd = this.string(i);
      const child = node ? this.child(node, i + 1, keyEnd - 1) : undefined;
      i = this.space(keyEnd);
      if (this.byte(i) !== 0x3a /* : */) throw new PickSyntaxError(i, "expected ':'");
      i = this.space(i + 1);
      if (child && made) {
        const got: { value: unknown } = { value: undefined };
        i = this.value(i, child.node, got);
        // As JSON.parse: an own property whatever the name ("__proto__" included), the last one kept.
        Object.defineProperty(made, child.name, {
          value: got.value,
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else {
        i = this.skip(i, this.byte(i));
      }
      i = this.space(i);
      if (!this.more(i, CLOSE_BRACE, "expected ',' or '}'")) {
        out.value = made;
        return i + 1;
      }
      i = this.space(i + 1);
    }
  }

  /** After a member, at i: true when a comma follows (another member comes), false when `close` ends the container. */
  private more(i: number, close: number, expected: string): boolean {
    const c = this.byte(i);
    if (c === close) return false;
    if (c !== COMMA) throw new PickSyntaxError(i, expected);
    return true;
  }

  private array(i: number, node: PathNode | undefined, out: { value: unknown }): number {
    const made: unknown[] | undefined = node ? [] : undefined;
    i = this.space(i + 1);
    if (this.byte(i) === CLOSE_BRACKET) {
      out.value = made;
      return i + 1;
    }
    for (;;) {
      const c = this.byte(i);
      if (made && c === OPEN_BRACE) {
        // Paths step into the objects of an array with the same key.
        const got: { value: unknown } = { value: undefined };
        i = this.object(i, node, got);
        made.push(got.value);
      } else {
        i = this.skip(i, c);
        made?.push(null);
      }
      i = this.space(i);
      if (!this.more(i, CLOSE_BRACKET, "expected ',' or ']'")) {
        out.value = made;
        return i + 1;
      }
      i = this.space(i + 1);
    }
  }

  /**
   * Walks over the object or array at i, checking it as JSON.parse would, in one loop (most of an
   * event's bytes are in parts no path goes through). Returns where it ends.
   */
  private skipContainer(i: number): number {
    const b = this.b;
    const n = this.n;
    const stack = this.stack;
    let depth = 0;
    let state = 0;
    for (;;) {
      if (i >= n) throw OUT_OF_BYTES;
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      switch (state) {
        case AFTER_VALUE:
          if (c === COMMA) {
            state = stack[depth - 1] === OBJECT ? KEY : VALUE;
            i++;
            continue;
          }
          if (c === (stack[depth - 1] === OBJECT ? CLOSE_BRACE : CLOSE_BRACKET)) {
            i++;
            if (--depth === 0) return i;
            continue;
          }
          throw new PickSyntaxError(i, "expected ',' or the end of the object or array");
        case COLON:
          if (c !== 0x3a) throw new PickSyntaxError(i, "expected ':'");
          state = VALUE;
          i++;
          continue;
        case KEY_OR_END:
        case VALUE_OR_END:
          if (c === (state === KEY_OR_END ? CLOSE_BRACE : CLOSE_BRACKET)) {
            i++;
            state = AFTER_VALUE;
            if (--depth === 0) return i;
          } else {
            // Not empty: what it holds is read as after a comma.
            state = state === KEY_OR_END ? KEY : VALUE;
          }
          continue;
        case KEY:
          if (c !== QUOTE) throw new PickSyntaxError(i, 'expected a key');
          i = this.string(i);
          state = COLON;
          continue;
        default:
          i = this.valueIn(i, c, stack, depth);
          if (i < 0) {
            depth++;
            i = -i;
            state = stack[depth - 1] === OBJECT ? KEY_OR_END : VALUE_OR_END;
          } else {
            state = AFTER_VALUE;
          }
      }
    }
  }

  /**
   * A value inside skipContainer: a string, number or literal walked over (where it ends), or a
   * container opened on the stack at `depth` (minus where its content starts).
   */
  private valueIn(i: number, c: number, stack: Uint8Array, depth: number): number {
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (depth === stack.length) throw new PickSyntaxError(i, 'nested too deeply');
      stack[depth] = c === OPEN_BRACE ? OBJECT : ARRAY;
      return -(i + 1);
    }
    return c === QUOTE ? this.string(i) : this.skip(i, c);
  }

  /** The child of `node` whose key is the string content b[from, to), if any. */
  private child(node: PathNode, from: number, to: number): PathNode['children'][number] | undefined {
    const b = this.b;
    const len = to - from;
    let escaped = false;
    for (const c of node.children) {
      if (c.key.length !== len) continue;
      let k = 0;
      while (k < len && b[from + k] === c.key[k]) k++;
      if (k === len) return c;
    }
    for (let k = from; k < to; k++) if (b[k] === BACKSLASH) escaped = true;
    if (!escaped) return undefined;
    // A key written with escapes: compared by what it means.
    const name = JSON.parse(this.decoder.decode(this.b.subarray(from - 1, to + 1))) as string;
    return node.children.find((c) => c.name === name);
  }

  /** The string starting at the quote at i; returns where it ends (after its closing quote). */
  private string(i: number): number {
    const b = this.b;
    const n = this.n;
    i++;
    for (;;) {
      // Most bytes of an event are inside strings: this loop looks for nothing but their end.
      let c = 0;
      while (i < n) {
        c = b[i];
        if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        i++;
      }
      if (i >= n) throw OUT_OF_BYTES;
      if (c === QUOTE) return i + 1;
      if (c < 0x20) throw new PickSyntaxError(i, 'control character in a string');
      const e = this.byte(i + 1);
      if (e === 0x75 /* u */) {
        for (let k = 2; k < 6; k++) if (!isHex(this.byte(i + k))) throw new PickSyntaxError(i + k, 'bad \\u escape');
        i += 6;
      } else if (
        e === QUOTE ||
        e === BACKSLASH ||
        e === 0x2f /* / */ ||
        e === 0x62 /* b */ ||
        e === 0x66 /* f */ ||
        e === 0x6e /* n */ ||
        e === 0x72 /* r */ ||
        e === 0x74 /* t */
      ) {
        i += 2;
      } else {
        throw new PickSyntaxError(i + 1, 'bad escape');
      }
    }
  }

  private number(i: number): number {
    if (this.byte(i) === 0x2d) i++;
    let c = this.byte(i);
    if (c === 0x30) {
      i++;
    } else if (isDigit(c)) {
      while (isDigit(this.byte(i))) i++;
    } else {
      throw new PickSyntaxError(i, 'bad number');
    }
    // A number's end is known only from the byte after it.
    c = this.byte(i);
    if (c === 0x2e /* . */) {
      i++;
      if (!isDigit(this.byte(i))) throw new PickSyntaxError(i, 'bad number');
      while (isDigit(this.byte(i))) i++;
      c = this.byte(i);
    }
    if (c === 0x65 || c === 0x45 /* e E */) {
      i++;
      c = this.byte(i);
      if (c === 0x2b || c === 0x2d) i++;
      if (!isDigit(this.byte(i))) throw new PickSyntaxError(i, 'bad number');
      while (isDigit(this.byte(i))) i++;
    }
    return i;
  }

  private literal(i: number, word: 'true' | 'false' | 'null'): number {
    for (let k = 0; k < word.length; k++)
      if (this.byte(i + k) !== word.charCodeAt(k)) throw new PickSyntaxError(i + k, `bad literal`);
    return i + word.length;
  }
}
