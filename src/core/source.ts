/** A point in a source text: line and column 1-based, offset 0-based in UTF-16 code units. */
export interface Position {
  line: number;
  column: number;
  offset: number;
}

/** A half-open range [start, end) of a source text. */
export interface Span {
  start: Position;
  end: Position;
}

/** Lines between two checkpoints of a LineIndex: a position costs at most this many line skips. */
const EVERY = 64;

/**
 * Converts offsets to line/column. Built once per text, on first use, so unprinted diagnostics cost nothing.
 * It keeps the start of every 64th line: a text of 60 million empty lines needs 4 MB, where a start per
 * line took 1.7 GB to build (the full list is still built for a reader that asks for it: lineStarts).
 */
export class LineIndex {
  readonly #text: string;
  readonly #cr: boolean;
  #marks: Uint32Array | undefined;
  #count = 0;
  #starts: Uint32Array | undefined;

  constructor(text: string) {
    this.#text = text;
    this.#cr = text.includes("\r");
  }

  /** Offset just past the line break at or after `from`, or -1 (a line ends at \n, \r\n or a lone \r). */
  #next(from: number): number {
    const t = this.#text;
    if (!this.#cr) {
      const i = t.indexOf("\n", from);
      return i < 0 ? -1 : i + 1;
    }
    for (let i = from; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 10) return i + 1;
      if (c === 13) return t.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
    }
    return -1;
  }

  /** The starts of lines 0, 64, 128… (0-based), and the number of lines. */
  #build(): Uint32Array {
    if (this.#marks === undefined) {
      const marks = [0];
      let count = 1;
      for (let i = this.#next(0); i >= 0; i = this.#next(i)) {
        if (count % EVERY === 0) marks.push(i);
        count++;
      }
      this.#count = count;
      this.#marks = Uint32Array.from(marks);
    }
    return this.#marks;
  }

  /** Offset at which a 0-based line begins; undefined past the last line. */
  #lineStart(line: number): number | undefined {
    if (this.#starts !== undefined) return this.#starts[line];
    const marks = this.#build();
    if (line < 0 || line >= this.#count) return undefined;
    let s = marks[Math.floor(line / EVERY)]!;
    for (let k = line % EVERY; k > 0; k--) s = this.#next(s);
    return s;
  }

  /** Offset at which a 1-based line begins; undefined past the last line. */
  lineStart(line: number): number | undefined {
    return this.#lineStart(line - 1);
  }

  /** Offsets at which each line begins: one per line, for readers that walk every line. */
  get lineStarts(): ArrayLike<number> {
    if (this.#starts === undefined) {
      this.#build();
      const starts = new Uint32Array(this.#count);
      let n = 1;
      for (let i = this.#next(0); i >= 0; i = this.#next(i)) starts[n++] = i;
      this.#starts = starts;
    }
    return this.#starts;
  }

  /** The position of an offset (clamped to the text). */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.#text.length));
    // A reader that walks every line has the full list: search it instead of scanning from a checkpoint.
    const marks = this.#starts ?? this.#build();
    const every = this.#starts !== undefined ? 1 : EVERY;
    let lo = 0;
    let hi = marks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (marks[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    let line = lo * every;
    let start = marks[lo]!;
    if (every > 1) {
      for (let next = this.#next(start); next >= 0 && next <= o; next = this.#next(start)) {
        line++;
        start = next;
      }
    }
    return { line: line + 1, column: o - start + 1, offset: o };
  }

  /** The span of [start, end). */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** The text of a 1-based line, without its line ending. */
  lineText(line: number): string {
    const s = this.#lineStart(line - 1);
    if (s === undefined) return "";
    const next = this.#starts !== undefined ? (this.#starts[line] ?? -1) : this.#next(s);
    let e = next < 0 ? this.#text.length : next;
    while (e > s && (this.#text.charCodeAt(e - 1) === 10 || this.#text.charCodeAt(e - 1) === 13)) e--;
    return this.#text.slice(s, e);
  }

  get lineCount(): number {
    this.#build();
    return this.#count;
  }
}
