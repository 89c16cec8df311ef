export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Offset <-> line/character conversion (UTF-16 characters, as LSP uses by default). */
export class LineIndex {
  private readonly starts: number[];

  constructor(private readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i >= 0) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  lineEnd(line: number): number {
    const next = line + 1 < this.starts.length ? this.starts[line + 1] - 1 : this.text.length;
    return next > 0 && this.text.charCodeAt(next - 1) === 13 && next - 1 >= this.lineStart(line) ? next - 1 : next;
  }

  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offset(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.starts.length) return this.text.length;
    const start = this.starts[pos.line];
    const end = pos.line + 1 < this.starts.length ? this.starts[pos.line + 1] - 1 : this.text.length;
    return Math.min(start + Math.max(0, pos.character), end);
  }

  range(start: number, end: number): Range {
    return { start: this.position(start), end: this.position(end) };
  }
}
