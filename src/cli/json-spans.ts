// Where values sit in a JSON text that JSON.parse already accepted: reports point at the line of an
// event in an events file and at the exact character of a query inside a `.udmnb` cell's source
// string, and formatting replaces one cell's source without touching the rest of the file.

export interface Span {
  /** Offset of the value's first character. */
  readonly start: number;
  /** Offset just past the value. */
  readonly end: number;
}

export type JsonPath = readonly (string | number)[];

/** A cursor over valid JSON; it trusts the text to be valid, so it only skips. */
class Cursor {
  pos = 0;
  constructor(private readonly text: string) {}

  ws(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 32 || c === 10 || c === 13 || c === 9) p++;
      else break;
    }
    this.pos = p;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  /** Skips one string starting at the opening quote; returns its decoded text. */
  string(): string {
    const end = stringEnd(this.text, this.pos);
    const raw = this.text.slice(this.pos, end);
    this.pos = end;
    return JSON.parse(raw) as string;
  }

  /** Skips one value of any kind. */
  value(): Span {
    this.ws();
    const start = this.pos;
    const c = this.peek();
    if (c === '"') {
      this.pos = stringEnd(this.text, this.pos);
    } else if (c === '{' || c === '[') {
      // Brackets inside strings are skipped with the strings, so a depth count is enough.
      let depth = 0;
      const t = this.text;
      let p = this.pos;
      while (p < t.length) {
        const ch = t[p];
        if (ch === '"') {
          p = stringEnd(t, p);
          continue;
        }
        if (ch === '{' || ch === '[') depth++;
        else if (ch === '}' || ch === ']') {
          depth--;
          if (depth === 0) {
            p++;
            break;
          }
        }
        p++;
      }
      this.pos = p;
    } else {
      const m = /^[^\s,\]}]+/.exec(this.text.slice(this.pos, this.pos + 64));
      this.pos += m ? m[0].length : 1;
    }
    return { start, end: this.pos };
  }
}

/** Offset just past the string that opens at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let p = start + 1;
  while (p < text.length) {
    const c = text.charCodeAt(p);
    if (c === 92) p += 2;
    else if (c === 34) return p + 1;
    else p++;
  }
  return text.length;
}

/** Spans of the elements of the array at `span`. */
export function elementSpans(text: string, span: Span): Span[] {
  if (text[span.start] !== '[') return [];
  const cur = new Cursor(text);
  cur.pos = span.start + 1;
  const out: Span[] = [];
  cur.ws();
  if (cur.peek() === ']') return out;
  while (cur.pos < span.end) {
    out.push(cur.value());
    cur.ws();
    if (cur.peek() !== ',') break;
    cur.pos++;
  }
  return out;
}

/** Spans of the members of the object at `span`, by key (the last one wins, as in JSON.parse). */
export function memberSpans(text: string, span: Span): Map<string, Span> {
  const out = new Map<string, Span>();
  if (text[span.start] !== '{') return out;
  const cur = new Cursor(text);
  cur.pos = span.start + 1;
  cur.ws();
  if (cur.peek() === '}') return out;
  while (cur.pos < span.end) {
    cur.ws();
    const key = cur.string();
    cur.ws();
    cur.pos++; // the colon
    out.set(key, cur.value());
    cur.ws();
    if (cur.peek() !== ',') break;
    cur.pos++;
  }
  return out;
}

/** The span of the whole document's value. */
export function rootSpan(text: string): Span {
  return new Cursor(text).value();
}

/** The span of the value at `path` (object keys and array indices), or undefined when there is none. */
export function locate(text: string, path: JsonPath, from: Span = rootSpan(text)): Span | undefined {
  let span: Span | undefined = from;
  for (const step of path) {
    if (!span) return undefined;
    span = typeof step === 'number' ? elementSpans(text, span)[step] : memberSpans(text, span).get(step);
  }
  return span;
}

/**
 * For the string at `span`, the text offset of each decoded character (UTF-16 unit), plus one past
 * the last, so a range inside the decoded string maps back to the file even across escapes.
 */
export function stringOffsets(text: string, span: Span): number[] {
  const out: number[] = [];
  let p = span.start + 1;
  const end = span.end - 1;
  while (p < end) {
    if (text.charCodeAt(p) !== 92) {
      out.push(p);
      p++;
      continue;
    }
    // One escape decodes to one UTF-16 unit: \uXXXX is six characters, the others two.
    out.push(p);
    p += text[p + 1] === 'u' ? 6 : 2;
  }
  out.push(end);
  return out;
}
