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
 * Characters between two of the checkpoints a LineIndex keeps for positions: a checkpoint is also kept
 * inside a long line and after a long run of short lines, so a position reads at most this many characters
 * (a position on a line of a MiB took a scan of the line, and a MiB of JSON on one line with a diagnostic per
 * member took seconds).
 */
const CHUNK = 4096;

/**
 * Converts offsets to line/column. Built once per text, on first use, so unprinted diagnostics cost nothing.
 * It keeps the start of every 64th line: a text of 60 million empty lines needs 4 MB, where a start per
 * line took 1.7 GB to build (the full list is still built for a reader that asks for it: lineStarts).
 * Long lines get checkpoints of their own, one per 4096 characters.
 */
export class LineIndex {
  readonly #text: string;
  readonly #cr: boolean;
  #marks: Uint32Array | undefined;
  #count = 0;
  #starts: Uint32Array | undefined;
  /** Checkpoints for positions between the line checkpoints: offset, its 0-based line, that line's start. */
  #far: Uint32Array | undefined;
  readonly #chunk: number;

  /** `chunk`: characters between checkpoints for positions (tests lower it). */
  constructor(text: string, chunk = CHUNK) {
    this.#text = text;
    this.#cr = text.includes("\r");
    this.#chunk = chunk;
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

  /** The starts of lines 0, 64, 128… (0-based), and the number of lines; also the checkpoints for positions. */
  #build(): Uint32Array {
    if (this.#marks === undefined) {
      const t = this.#text;
      const chunk = this.#chunk;
      const marks = [0];
      const far: number[] = [];
      let count = 1;
      let lineStart = 0;
      // Offset of the last checkpoint of either kind.
      let last = 0;
      const inside = (lineEnd: number) => {
        for (let x = last + chunk; x < lineEnd; x += chunk) {
          far.push(x, count - 1, lineStart);
          last = x;
        }
      };
      for (let i = this.#next(0); i >= 0; i = this.#next(i)) {
        inside(t.charCodeAt(i - 1) === 10 && t.charCodeAt(i - 2) === 13 ? i - 2 : i - 1);
        if (count % EVERY === 0) {
          marks.push(i);
          last = i;
        } else if (i - last >= chunk) {
          far.push(i, count, i);
          last = i;
        }
        lineStart = i;
        count++;
      }
      inside(t.length);
      this.#count = count;
      this.#marks = Uint32Array.from(marks);
      this.#far = Uint32Array.from(far);
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
      // Counted first (no checkpoints: a reader with the full list never uses them), then filled.
      let count = this.#marks !== undefined ? this.#count : 1;
      if (this.#marks === undefined) for (let i = this.#next(0); i >= 0; i = this.#next(i)) count++;
      const starts = new Uint32Array(count);
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
    if (this.#starts !== undefined) {
      const starts = this.#starts;
      const lo = lastAtOrBefore(starts, 1, o);
      return { line: lo + 1, column: o - starts[lo]! + 1, offset: o };
    }
    const marks = this.#build();
    const far = this.#far!;
    const m = lastAtOrBefore(marks, 1, o);
    let line = m * EVERY;
    let start = marks[m]!;
    let from = start;
    if (far.length > 0) {
      const f = lastAtOrBefore(far, 3, o);
      if (far[f * 3]! <= o && far[f * 3]! > from) {
        from = far[f * 3]!;
        line = far[f * 3 + 1]!;
        start = far[f * 3 + 2]!;
      }
    }
    // At most one chunk or 64 lines to the offset: count the line breaks that end before it.
    const t = this.#text;
    for (let i = from; i < o; i++) {
      const c = t.charCodeAt(i);
      if (c === 10 || (c === 13 && this.#cr)) {
        const after = c === 13 && t.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
        if (after > o) break;
        line++;
        start = after;
        i = after - 1;
      }
    }
    return { line: line + 1, column: o - start + 1, offset: o };
  }

  /** The span of [start, end). */
  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /**
   * The text of a 1-based line, without its line ending. The last two lines asked for are remembered: each
   * diagnostic's excerpt asks for its line and the one before, and finding the end of a long line (minified
   * JSON) is a scan of it, once per diagnostic before (10,000 diagnostics on one line of 4 MiB took seconds).
   */
  lineText(line: number): string {
    const hit = this.#recent.find((r) => r.line === line);
    if (hit !== undefined) return hit.text;
    const text = this.#lineText(line);
    this.#recent = [{ line, text }, this.#recent[0]!];
    return text;
  }

  #recent: { line: number; text: string }[] = [{ line: 0, text: "" }, { line: 0, text: "" }];

  #lineText(line: number): string {
    const s = this.#lineStart(line - 1);
    if (s === undefined) return "";
    const next = this.#starts !== undefined ? (this.#starts[line] ?? -1) : this.#next(s);
    let e = next < 0 ? this.#text.length : next;
    while (e > s && (this.#text.charCodeAt(e - 1) === 10 || this.#text.charCodeAt(e - 1) === 13)) e--;
    return this.#text.slice(s, e);
  }

  get lineCount(): number {
    if (this.#starts !== undefined) return this.#starts.length;
    this.#build();
    return this.#count;
  }
}

/** Index of the last of the entries (every `stride`-th number, from 0) at or before `o`; 0 when none is. */
function lastAtOrBefore(a: Uint32Array, stride: number, o: number): number {
  let lo = 0;
  let hi = a.length / stride - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (a[mid * stride]! <= o) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
