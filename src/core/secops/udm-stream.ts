// Incremental reading of a udmSearch answer: each element of the top-level "events" array is parsed
// as soon as its last byte arrives, so rows can be shown while tens of MB are still on the wire.
//
// The scanner walks the bytes as they come (JSON's marks are ASCII, and no byte of a multi-byte
// UTF-8 character is ASCII, so nothing needs decoding to find them) and only finds element bounds,
// strings and escapes respected. The elements a piece of the body completes are decoded and handed
// to one JSON.parse together, which measured several times faster than a character-level streaming
// parser and about twice as fast as scanning decoded text (bench/stream-parse.ts). Everything outside
// the array is kept and parsed at the end, so the other top-level fields come out whatever their order.

import * as pick from './udm-pick';
import { EventPicker, NEED_MORE, pathTree, type PathNode } from './udm-pick';

// Read once into this module's own constants: the scanning loops look at them for every byte, and
// an imported binding can cost a property read each time (CommonJS output keeps bindings live).
const { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, isSpace } = pick;

/** The events a piece of the body completed, and the JSON text of each. */
export interface ScannedEvents {
  events: unknown[];
  texts: string[];
}

/** The answer was not the JSON object the service sends. */
export class UdmStreamSyntaxError extends Error {
  override readonly name = 'UdmStreamSyntaxError';
}

const EVENTS_KEY = new TextEncoder().encode('"events"');

export class UdmEventsScanner {
  private readonly encoder = new TextEncoder();
  /** Decodes the text of the elements completed, across the pieces an element came in. */
  private readonly elementDecoder = new TextDecoder('utf-8');
  private depth = 0;
  private inString = false;
  /** A backslash was the last byte of the previous piece: the first byte of this one is escaped. */
  private escapePending = false;
  private inEvents = false;
  /** Inside the array: an element has begun and is not complete yet. */
  private elementOpen = false;
  /** The bytes of the open element that came in earlier pieces (copies). */
  private carried: Uint8Array[] = [];
  /** The root text outside the array (the other top-level fields are small), with the array's "[". */
  private root = new Uint8Array(256);
  private rootLength = 0;
  /** Bounds in `root` of the last string closed at depth 1: the key of a "[" that follows. */
  private keyStart = -1;
  private keyEnd = -1;
  private ended = false;
  /** Events parsed so far. */
  count = 0;
  /** With paths to pick: the events are skeletons of those paths (see udm-pick.ts). */
  private readonly tree: PathNode | undefined;
  private readonly picker: EventPicker | undefined;
  /** Picking: the bytes of the element that began in an earlier piece, from its first byte. */
  private pickCarried: Uint8Array | undefined;
  /** Picking: an element was read and the next mark is "," or "]". */
  private afterElement = false;
  /** Picking: no element was read yet (a "]" now is an empty array). */
  private noElementYet = true;

  /**
   * `pick`: build only these paths of each event (dotted, as the table reads them); each event's
   * text still holds all of it, and every byte is still checked as JSON.parse checks it.
   */
  constructor(options: { pick?: readonly string[] } = {}) {
    this.tree = options.pick ? pathTree(options.pick) : undefined;
    this.picker = options.pick ? new EventPicker() : undefined;
  }

  /** Feeds the next piece of the body; returns the events completed by it, in order. */
  push(chunk: Uint8Array | string): unknown[] {
    return this.read(chunk).events;
  }

  /** As push, with each event's JSON text as it came (for a holder that parses it again later). */
  read(chunk: Uint8Array | string): ScannedEvents {
    if (this.ended) throw new Error('push after end');
    const bytes = typeof chunk === 'string' ? this.encoder.encode(chunk) : chunk;
    const out: ScannedEvents = { events: [], texts: [] };
    let i = 0;
    while (i < bytes.length)
      i = !this.inEvents
        ? this.scanRoot(bytes, i)
        : this.tree && this.picker
          ? this.pickEvents(bytes, i, this.tree, this.picker, out)
          : this.scanEvents(bytes, i, out);
    return out;
  }

  /**
   * Call when the body is complete: the top-level fields other than "events" (parsed as one JSON
   * document with the array left empty). Throws when the body was cut short or is not JSON.
   */
  end(): Record<string, unknown> {
    this.ended = true;
    if (this.inEvents || this.depth !== 0 || this.inString || this.escapePending || this.pickCarried)
      throw new UdmStreamSyntaxError(
        `the answer ends in the middle of its JSON (after ${this.count.toLocaleString('en-US')} events)`,
      );
    let root: unknown;
    try {
      root = JSON.parse(new TextDecoder('utf-8').decode(this.root.subarray(0, this.rootLength)));
    } catch (err) {
      throw new UdmStreamSyntaxError(`the answer is not JSON: ${(err as Error).message}`);
    }
    if (typeof root !== 'object' || root === null || Array.isArray(root))
      throw new UdmStreamSyntaxError('the answer is not a JSON object');
    const fields = root as Record<string, unknown>;
    delete fields.events;
    return fields;
  }

  /** Outside the array: keeps the bytes, and enters the array at its "[". Returns where it stopped. */
  private scanRoot(b: Uint8Array, from: number): number {
    let depth = this.depth;
    let inString = this.inString;
    const n = b.length;
    let i = this.skipEscaped(from);
    for (; i < n; i++) {
      const c = b[i];
      if (inString) {
        if (c === BACKSLASH) {
          if (i + 1 >= n) this.escapePending = true;
          i++;
        } else if (c === QUOTE) {
          inString = false;
          if (depth === 1) this.keyEnd = this.rootLength + (i + 1 - from);
        }
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        if (depth === 1) this.keyStart = this.rootLength + (i - from);
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (c === OPEN_BRACKET && depth === 2) {
          this.keepRoot(b, from, i + 1);
          if (this.isEventsKey()) {
            this.depth = depth;
            this.inString = false;
            this.inEvents = true;
            this.elementOpen = false;
            this.afterElement = false;
            this.noElementYet = true;
            return i + 1;
          }
          from = i + 1;
        }
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth < 0) throw new UdmStreamSyntaxError('unbalanced brackets in the answer');
      }
    }
    this.keepRoot(b, from, Math.min(i, n));
    this.depth = depth;
    this.inString = inString;
    return n;
  }

  /** The first byte of a piece after a backslash that ended the previous one is not looked at. */
  private skipEscaped(from: number): number {
    if (!this.escapePending) return from;
    this.escapePending = false;
    return from + 1;
  }

  private keepRoot(b: Uint8Array, from: number, to: number): void {
    const len = to - from;
    if (len <= 0) return;
    if (this.rootLength + len > this.root.length) {
      const grown = new Uint8Array(Math.max(this.root.length * 2, this.rootLength + len));
      grown.set(this.root.subarray(0, this.rootLength));
      this.root = grown;
    }
    this.root.set(b.subarray(from, to), this.rootLength);
    this.rootLength += len;
  }

  /** In an object at depth 1, the last string closed before a "[" is that array's key. */
  private isEventsKey(): boolean {
    const { keyStart, keyEnd } = this;
    if (keyStart === -1 || keyEnd <= keyStart) return false;
    const raw = this.root.subarray(keyStart, keyEnd);
    if (raw.length === EVENTS_KEY.length && raw.every((c, k) => c === EVENTS_KEY[k])) return true;
    try {
      return JSON.parse(new TextDecoder('utf-8').decode(raw)) === 'events';
    } catch {
      return false;
    }
  }

  /**
   * Inside the array, picking: reads each element whole with the picker (which checks it and finds
   * its end), keeping the bytes of one that goes on past this piece. Returns where it stopped: the
   * end of the piece, or the "]" that closes the array (left to scanRoot).
   */
  private pickEvents(b: Uint8Array, from: number, tree: PathNode, picker: EventPicker, out: ScannedEvents): number {
    let buf = b;
    // Where b's bytes are in buf, and where to read from (the start of an element carried over).
    let base = 0;
    let i = from;
    if (this.pickCarried) {
      const rest = b.subarray(from);
      buf = new Uint8Array(this.pickCarried.length + rest.length);
      buf.set(this.pickCarried);
      buf.set(rest, this.pickCarried.length);
      base = this.pickCarried.length - from;
      i = 0;
      this.pickCarried = undefined;
    }
    for (;;) {
      while (i < buf.length && isSpace(buf[i])) i++;
      if (i >= buf.length) return b.length;
      const c = buf[i];
      if (this.afterElement || (c === CLOSE_BRACKET && this.noElementYet)) {
        if (c === CLOSE_BRACKET) {
          // Back to the root text: it continues with this "]" (scanRoot counts it back to depth 1).
          this.inEvents = false;
          this.depth = 2;
          this.keyStart = this.keyEnd = -1;
          return i - base;
        }
        if (c !== COMMA)
          throw new UdmStreamSyntaxError(`the answer is not JSON after event ${this.count}: expected ',' or ']'`);
        this.afterElement = false;
        i++;
        continue;
      }
      let picked: ReturnType<EventPicker['pick']>;
      try {
        picked = picker.pick(buf, i, tree);
      } catch (err) {
        throw new UdmStreamSyntaxError(
          `event ${(this.count + 1).toLocaleString('en-US')} of the answer is not JSON: ${(err as Error).message}`,
        );
      }
      if (picked === NEED_MORE) {
        this.pickCarried = buf.slice(i);
        return b.length;
      }
      out.events.push(picked.value);
      out.texts.push(this.elementDecoder.decode(buf.subarray(i, picked.end)));
      this.count++;
      this.afterElement = true;
      this.noElementYet = false;
      i = picked.end;
    }
  }

  /**
   * Inside the array: finds where its elements end, and parses those this piece completes. Returns
   * where it stopped: the end of the piece, or the "]" that closes the array (left to scanRoot).
   */
  private scanEvents(b: Uint8Array, from: number, out: ScannedEvents): number {
    const n = b.length;
    let depth = this.depth;
    let inString = this.inString;
    let open = this.elementOpen;
    /** Where the elements parsed at the end of this piece start (0 when the first came in earlier pieces). */
    let batchStart = open ? 0 : -1;
    /** Where the last element completed in this piece ends. */
    let batchEnd = -1;
    /** Bounds of each completed element, to name the one that is not JSON. */
    const bounds: number[] = [];
    let elementStart = open ? 0 : -1;
    let i = this.skipEscaped(from);
    let leaving = false;
    scan: while (i < n) {
      if (inString) {
        // Most of an event's bytes are inside strings: this loop looks for nothing but their end.
        let c = b[i];
        while (c !== QUOTE && c !== BACKSLASH) {
          if (++i === n) break scan;
          c = b[i];
        }
        if (c === BACKSLASH) {
          i += 2;
          if (i > n) {
            // The escaped byte is the first of the next piece.
            this.escapePending = true;
            break;
          }
          continue;
        }
        i++;
        inString = false;
        if (depth === 2) {
          // A string element ends here.
          bounds.push(elementStart, i);
          batchEnd = i;
          open = false;
        }
        continue;
      }
      const c = b[i];
      if (depth === 2 && !open) {
        if (isSpace(c) || c === COMMA) {
          i++;
          continue;
        }
        if (c === CLOSE_BRACKET) {
          depth = 1;
          leaving = true;
          break;
        }
        open = true;
        elementStart = i;
        if (batchStart === -1) batchStart = i;
      }
      if (c === QUOTE) {
        inString = true;
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 2) {
          // A number or literal element ends at the array's end.
          bounds.push(elementStart, i);
          batchEnd = i;
          open = false;
          depth = 1;
          leaving = true;
          break;
        }
        depth--;
        if (depth === 2) {
          bounds.push(elementStart, i + 1);
          batchEnd = i + 1;
          open = false;
        }
      } else if (depth === 2 && (c === COMMA || isSpace(c))) {
        // A number or literal element ends here.
        bounds.push(elementStart, i);
        batchEnd = i;
        open = false;
      }
      i++;
    }
    if (batchEnd !== -1) {
      this.parseBatch(b, batchStart, batchEnd, bounds, out);
      this.carried = [];
    }
    // The open element's bytes so far wait for the piece that completes it (an element open since
    // an earlier piece has elementStart 0: all of this piece is its).
    if (open) this.carried.push(b.slice(elementStart, n));
    this.elementOpen = open;
    this.inString = inString;
    if (leaving) {
      // Back to the root text: it continues with this "]" (scanRoot counts it back to depth 1).
      this.inEvents = false;
      this.depth = 2;
      this.keyStart = this.keyEnd = -1;
      return i;
    }
    this.depth = depth;
    return n;
  }

  /**
   * Parses the elements in `carried` + `b[start, end)` (with one JSON.parse when they are all JSON)
   * and adds them, with their text, to `out`.
   */
  private parseBatch(b: Uint8Array, start: number, end: number, bounds: number[], out: ScannedEvents): void {
    let text = '';
    for (const piece of this.carried) text += this.elementDecoder.decode(piece, { stream: true });
    text += this.elementDecoder.decode(b.subarray(start, end));
    let parsed: unknown;
    try {
      parsed = JSON.parse(`[${text}]`);
    } catch {
      parsed = undefined;
    }
    const expected = bounds.length / 2;
    const carriedLength = this.carried.reduce((sum, p) => sum + p.length, 0);
    // Where element k starts and ends in the bytes carried + b[start, end).
    const shift = carriedLength - start;
    const from = (k: number): number => (k === 0 && carriedLength > 0 ? 0 : bounds[2 * k] + shift);
    const to = (k: number): number => bounds[2 * k + 1] + shift;
    if (Array.isArray(parsed) && parsed.length === expected) {
      this.count += expected;
      for (const e of parsed) out.events.push(e);
      if (text.length === carriedLength + (end - start)) {
        // Every byte was a character (ASCII): the texts are slices of the text decoded.
        for (let k = 0; k < expected; k++) out.texts.push(text.slice(from(k), to(k)));
      } else {
        const whole = this.joined(b, start, end, carriedLength);
        const decoder = new TextDecoder('utf-8');
        for (let k = 0; k < expected; k++) out.texts.push(decoder.decode(whole.subarray(from(k), to(k))));
      }
      return;
    }
    // Name the element that is not JSON (or the place where a separator is missing).
    const whole = this.joined(b, start, end, carriedLength);
    const decoder = new TextDecoder('utf-8');
    for (let k = 0; k < expected; k++) {
      const number = this.count + k + 1;
      try {
        JSON.parse(decoder.decode(whole.subarray(from(k), to(k))));
      } catch (err) {
        throw new UdmStreamSyntaxError(`event ${number} of the answer is not JSON: ${(err as Error).message}`);
      }
      if (k > 0 && whole.subarray(to(k - 1), from(k)).filter((c) => c === COMMA).length !== 1)
        throw new UdmStreamSyntaxError(
          `events ${number - 1} and ${number} of the answer are not separated by one comma`,
        );
    }
    throw new UdmStreamSyntaxError(
      `the events after event ${this.count.toLocaleString('en-US')} of the answer are not a JSON array`,
    );
  }

  /** The bytes carried + b[start, end) in one array. */
  private joined(b: Uint8Array, start: number, end: number, carriedLength: number): Uint8Array {
    const whole = new Uint8Array(carriedLength + (end - start));
    let at = 0;
    for (const piece of this.carried) {
      whole.set(piece, at);
      at += piece.length;
    }
    whole.set(b.subarray(start, end), at);
    return whole;
  }
}
